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
        ],
    ),
    "ru": (
        "Ваши профили vpnsite",
        [
            "Установите OpenVPN Connect (Windows, macOS, Android, iOS) или другое приложение OpenVPN.",
            "Импортируйте один из профилей: по одному на сервер, UDP (быстрее) или TCP (проходит через строгие сети).",
            "На телефоне быстрее страница лицензии: профиль каждого сервера открывается в OpenVPN Connect одним касанием, или отсканируйте его QR-код с экрана компьютера. Папка wireguard/ (если есть) — для компьютеров.",
            "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации.",
            "До 10 устройств одновременно, каждое на своём сервере: если подключить второе устройство к тому же серверу, первое отключится.",
        ],
    ),
    "es": (
        "Tus perfiles de vpnsite",
        [
            "Instala OpenVPN Connect (Windows, macOS, Android, iOS) u otra aplicación OpenVPN.",
            "Importa uno de estos perfiles: uno por servidor, por UDP (más rápido) o TCP (pasa por redes estrictas).",
            "En un teléfono es más rápida la página de la licencia: el perfil de cada servidor se abre en OpenVPN Connect con un toque, o escanea su código QR desde la pantalla de un ordenador. La carpeta wireguard/ (si la hay) es para ordenadores.",
            "Conéctate: tu correo electrónico es el usuario y tu código de activación, la contraseña.",
            "Hasta 10 dispositivos a la vez, cada uno en un servidor distinto: si conectas un segundo dispositivo al mismo servidor, el primero se desconecta.",
        ],
    ),
    "fr": (
        "Vos profils vpnsite",
        [
            "Installez OpenVPN Connect (Windows, macOS, Android, iOS) ou une autre application OpenVPN.",
            "Importez l’un de ces profils\u00a0: un par serveur, en UDP (plus rapide) ou en TCP (passe les réseaux stricts).",
            "Sur un téléphone, la page de la licence est plus rapide\u00a0: le profil de chaque serveur s’ouvre dans OpenVPN Connect d’un toucher, ou scannez son code QR sur l’écran d’un ordinateur. Le dossier wireguard/ (s’il existe) est pour les ordinateurs.",
            "Connectez-vous\u00a0: votre e-mail est l’identifiant, votre code d’activation le mot de passe.",
            "Jusqu’à 10\u00a0appareils à la fois, chacun sur un serveur différent\u00a0: connecter un deuxième appareil au même serveur déconnecte le premier.",
        ],
    ),
    "pt": (
        "Seus perfis da vpnsite",
        [
            "Instale o OpenVPN Connect (Windows, macOS, Android, iOS) ou outro aplicativo OpenVPN.",
            "Importe um destes perfis: um por servidor, via UDP (mais rápido) ou TCP (passa por redes restritas).",
            "No celular, a página da licença é mais rápida: o perfil de cada servidor abre no OpenVPN Connect com um toque, ou escaneie o código QR dele na tela de um computador. A pasta wireguard/ (quando houver) é para computadores.",
            "Conecte-se: seu e-mail é o usuário e seu código de ativação é a senha.",
            "Até 10 dispositivos ao mesmo tempo, cada um em um servidor diferente: conectar um segundo dispositivo ao mesmo servidor desconecta o primeiro.",
        ],
    ),
}
