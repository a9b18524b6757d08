"""The README of the personal archive, in the five languages."""

README = {
    "en": (
        "Your vpnsite profiles",
        [
            "Install OpenVPN Connect (Windows, macOS, Android, iOS) or another OpenVPN app.",
            "Import one of these profiles: one per server, over UDP (faster) or TCP (gets through strict networks).",
            "On a phone, the licence page is quicker: each server's profile opens OpenVPN Connect with one tap, or scan its QR code from a computer's screen. The wireguard/ folder (where present) is for computers.",
            "Connect: your e-mail is the username, your activation code is the password.",
            "Up to 10 devices at once, each on a different server: connecting a second device to the same server disconnects the first.",
            "On Linux, the openvpn command does not use the DNS servers the VPN server sends, so your look-ups would leave outside the tunnel. NetworkManager's OpenVPN plugin applies them; in a terminal, install openvpn-systemd-resolved and connect with: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
            "The wireguard/ folder (where present; computers, experimental) holds WireGuard profiles: they send IPv4 and IPv6 into the tunnel, and the server blocks the IPv6.",
        ],
    ),
    "ru": (
        "Ваши профили vpnsite",
        [
            "Установите OpenVPN Connect (Windows, macOS, Android, iOS) или другое приложение OpenVPN.",
            "Импортируйте один из профилей: по одному на сервер, UDP (быстрее) или TCP (работает и в сетях с ограничениями).",
            "На телефоне быстрее через страницу лицензии: нажмите «Открыть в OpenVPN Connect» рядом с сервером — приложение импортирует профиль. Если страница открыта на компьютере, отсканируйте QR-код сервера камерой телефона. Папка wireguard/ (если есть) — для компьютеров.",
            "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации.",
            "До 10 устройств одновременно, каждое на своём сервере: если подключить второе устройство к тому же серверу, первое отключится.",
            "В Linux команда openvpn не применяет DNS-серверы, которые присылает VPN-сервер, и DNS-запросы уходят мимо туннеля. Плагин OpenVPN для NetworkManager их применяет; в терминале установите пакет openvpn-systemd-resolved и подключайтесь так: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
            "В папке wireguard/ (если есть; для компьютеров, в экспериментальном режиме) лежат профили WireGuard: они направляют в туннель и IPv4, и IPv6, а сервер блокирует IPv6.",
        ],
    ),
    "es": (
        "Tus perfiles de vpnsite",
        [
            "Instala OpenVPN Connect (Windows, macOS, Android, iOS) u otra aplicación OpenVPN.",
            "Importa uno de estos perfiles: uno por servidor, por UDP (más rápido) o TCP (funciona incluso en redes restrictivas).",
            "En el móvil, lo más rápido es la página de la licencia: toca «Abrir en OpenVPN Connect» junto a un servidor y la aplicación importará su perfil. Si ves la página en el ordenador, escanea el código QR del servidor con el móvil. La carpeta wireguard/ (si la hay) es para ordenadores.",
            "Conéctate: tu correo es el usuario y tu código de activación, la contraseña.",
            "Hasta 10 dispositivos a la vez, cada uno en un servidor distinto: si conectas un segundo dispositivo al mismo servidor, el primero se desconecta.",
            "En Linux, el comando openvpn no usa los servidores DNS que envía el servidor VPN, así que tus consultas DNS saldrían fuera del túnel. El complemento de OpenVPN para NetworkManager sí los aplica; en una terminal, instala openvpn-systemd-resolved y conéctate con: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
            "La carpeta wireguard/ (si la hay; para ordenadores, experimental) contiene perfiles de WireGuard: envían IPv4 e IPv6 por el túnel, y el servidor bloquea el IPv6.",
        ],
    ),
    "fr": (
        "Vos profils vpnsite",
        [
            "Installez OpenVPN Connect (Windows, macOS, Android, iOS) ou une autre application OpenVPN.",
            "Importez l’un de ces profils\u00a0: un par serveur, en UDP (plus rapide) ou en TCP (fonctionne même sur les réseaux restrictifs).",
            "Sur un téléphone, le plus rapide est la page de la licence\u00a0: touchez «\u00a0Ouvrir dans OpenVPN Connect\u00a0» à côté d’un serveur et l’application importe son profil en un seul geste. Si la page est ouverte sur un ordinateur, scannez plutôt le QR code du serveur avec votre téléphone. Le dossier wireguard/ (s’il existe) est destiné aux ordinateurs.",
            "Connectez-vous\u00a0: votre e-mail est l’identifiant, votre code d’activation le mot de passe.",
            "Jusqu’à 10\u00a0appareils à la fois, chacun sur un serveur différent\u00a0: connecter un deuxième appareil au même serveur déconnecte le premier.",
            "Sous Linux, la commande openvpn n’utilise pas les serveurs DNS envoyés par le serveur VPN\xa0: vos requêtes DNS passeraient hors du tunnel. Le module OpenVPN de NetworkManager les applique\xa0; dans un terminal, installez openvpn-systemd-resolved et connectez-vous avec\xa0: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
            "Le dossier wireguard/ (s’il existe\xa0; pour les ordinateurs, expérimental) contient des profils WireGuard\xa0: ils font passer l’IPv4 et l’IPv6 dans le tunnel, et le serveur bloque l’IPv6.",
        ],
    ),
    "pt": (
        "Seus perfis do vpnsite",
        [
            "Instale o OpenVPN Connect (Windows, macOS, Android, iOS) ou outro aplicativo OpenVPN.",
            "Importe um destes perfis: um por servidor, via UDP (mais rápido) ou TCP (passa por redes restritivas).",
            "No celular, é mais rápido pela página da licença: toque em “Abrir no OpenVPN Connect” ao lado de um servidor e o aplicativo importa o perfil. Se estiver no computador, escaneie o QR code do servidor com o celular. A pasta wireguard/ (quando houver) é para computadores.",
            "Conecte-se: seu e-mail é o usuário e seu código de ativação é a senha.",
            "Até 10 dispositivos ao mesmo tempo, cada um em um servidor diferente: conectar um segundo dispositivo ao mesmo servidor desconecta o primeiro.",
            "No Linux, o comando openvpn não usa os servidores DNS enviados pelo servidor VPN, e suas consultas DNS sairiam por fora do túnel. O plugin do OpenVPN para o NetworkManager os aplica; no terminal, instale o openvpn-systemd-resolved e conecte-se com: sudo openvpn --config PROFILE.ovpn --script-security 2 --up /etc/openvpn/update-systemd-resolved --down /etc/openvpn/update-systemd-resolved --down-pre --dhcp-option DOMAIN-ROUTE .",
            "A pasta wireguard/ (quando houver; para computadores, experimental) traz perfis do WireGuard: eles mandam IPv4 e IPv6 pelo túnel, e o servidor bloqueia o IPv6.",
        ],
    ),
}
