"""The server's texts in Spanish (catalogue.py)."""

from vpnsite_adapters.catalogue import Catalogue

CATALOGUE = Catalogue(
    archive_title="Tus perfiles de vpnsite",
    archive_steps=(
        "Instala OpenVPN Connect (Windows, macOS, Android, iOS) u otra aplicación OpenVPN.",
        "Importa uno de estos perfiles: uno por servidor, por UDP (más rápido) o TCP (funciona incluso en redes restrictivas).",
        "En el móvil, lo más rápido es la página de la licencia: toca «Abrir en OpenVPN Connect» junto a un servidor y la aplicación importará su perfil. Si ves la página en el ordenador, escanea el código QR del servidor con el móvil. La carpeta wireguard/ (si la hay) es para ordenadores.",
        "Conéctate: tu correo es el usuario y tu código de activación, la contraseña.",
        "Hasta 10 dispositivos a la vez, cada uno en un servidor distinto: si conectas un segundo dispositivo al mismo servidor, el primero se desconecta.",
        "En Linux, el comando openvpn no usa los servidores DNS que envía el servidor VPN, así que tus consultas DNS saldrían fuera del túnel. El complemento de OpenVPN para NetworkManager sí los aplica; en una terminal, instala openvpn-systemd-resolved y conéctate con: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
        "La carpeta wireguard/ (si la hay; para ordenadores, experimental) contiene perfiles de WireGuard: envían IPv4 e IPv6 por el túnel, y el servidor bloquea el IPv6.",
    ),
)
