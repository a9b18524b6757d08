"""The README of the personal archive, in the five languages."""

README = {
    "en": (
        "Your vpnsite profiles",
        [
            "Install OpenVPN Connect (Windows, macOS, Android, iOS) or another OpenVPN app.",
            "Import one of these profiles: one per server, over UDP (faster) or TCP (gets through strict networks).",
            "Connect: your e-mail is the username, your activation code is the password.",
        ],
    ),
    "ru": (
        "Ваши профили vpnsite",
        [
            "Установите OpenVPN Connect (Windows, macOS, Android, iOS) или другое приложение OpenVPN.",
            "Импортируйте один из профилей: по одному на сервер, UDP (быстрее) или TCP (проходит через строгие сети).",
            "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации.",
        ],
    ),
    "es": (
        "Tus perfiles de vpnsite",
        [
            "Instala OpenVPN Connect (Windows, macOS, Android, iOS) u otra aplicación OpenVPN.",
            "Importa uno de estos perfiles: uno por servidor, por UDP (más rápido) o TCP (pasa por redes estrictas).",
            "Conéctate: tu correo electrónico es el usuario y tu código de activación, la contraseña.",
        ],
    ),
    "fr": (
        "Vos profils vpnsite",
        [
            "Installez OpenVPN Connect (Windows, macOS, Android, iOS) ou une autre application OpenVPN.",
            "Importez l’un de ces profils\u00a0: un par serveur, en UDP (plus rapide) ou en TCP (passe les réseaux stricts).",
            "Connectez-vous\u00a0: votre e-mail est l’identifiant, votre code d’activation le mot de passe.",
        ],
    ),
    "pt": (
        "Seus perfis da vpnsite",
        [
            "Instale o OpenVPN Connect (Windows, macOS, Android, iOS) ou outro aplicativo OpenVPN.",
            "Importe um destes perfis: um por servidor, via UDP (mais rápido) ou TCP (passa por redes restritas).",
            "Conecte-se: seu e-mail é o usuário e seu código de ativação é a senha.",
        ],
    ),
}
