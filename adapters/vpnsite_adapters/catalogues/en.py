"""The server's texts in English (catalogue.py)."""

from vpnsite_adapters.catalogue import Catalogue

CATALOGUE = Catalogue(
    archive_title="Your vpnsite profiles",
    archive_steps=(
        "Install OpenVPN Connect (Windows, macOS, Android, iOS) or another OpenVPN app.",
        "Import one of these profiles: one per server, over UDP (faster) or TCP (gets through strict networks).",
        "On a phone, the licence page is quicker: each server's profile opens OpenVPN Connect with one tap, or scan its QR code from a computer's screen. The wireguard/ folder (where present) is for computers.",
        "Connect: your e-mail is the username, your activation code is the password.",
        "Up to 10 devices at once, each on a different server: connecting a second device to the same server disconnects the first.",
        "On Linux, the openvpn command does not use the DNS servers the VPN server sends, so your look-ups would leave outside the tunnel. NetworkManager's OpenVPN plugin applies them; in a terminal, install openvpn-systemd-resolved and connect with: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
        "The wireguard/ folder (where present; computers, experimental) holds WireGuard profiles: they send IPv4 and IPv6 into the tunnel, and the server blocks the IPv6.",
    ),
)
