"""The server's texts in French (catalogue.py)."""

from vpnsite_adapters.catalogue import Catalogue

CATALOGUE = Catalogue(
    archive_title="Vos profils vpnsite",
    archive_steps=(
        "Installez OpenVPN Connect (Windows, macOS, Android, iOS) ou une autre application OpenVPN.",
        "Importez l’un de ces profils\xa0: un par serveur, en UDP (plus rapide) ou en TCP (fonctionne même sur les réseaux restrictifs).",
        "Sur un téléphone, le plus rapide est la page de la licence\xa0: touchez «\xa0Ouvrir dans OpenVPN Connect\xa0» à côté d’un serveur et l’application importe son profil en un seul geste. Si la page est ouverte sur un ordinateur, scannez plutôt le QR code du serveur avec votre téléphone. Le dossier wireguard/ (s’il existe) est destiné aux ordinateurs.",
        "Connectez-vous\xa0: votre e-mail est l’identifiant, votre code d’activation le mot de passe.",
        "Jusqu’à 10\xa0appareils à la fois, chacun sur un serveur différent\xa0: connecter un deuxième appareil au même serveur déconnecte le premier.",
        "Sous Linux, la commande openvpn n’utilise pas les serveurs DNS envoyés par le serveur VPN\xa0: vos requêtes DNS passeraient hors du tunnel. Le module OpenVPN de NetworkManager les applique\xa0; dans un terminal, installez openvpn-systemd-resolved et connectez-vous avec\xa0: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
        "Le dossier wireguard/ (s’il existe\xa0; pour les ordinateurs, expérimental) contient des profils WireGuard\xa0: ils font passer l’IPv4 et l’IPv6 dans le tunnel, et le serveur bloque l’IPv6.",
    ),
)
