"""The texts of the e-mails, in the five languages, as plain text and simple HTML. The licence
e-mail shows the code in groups of four as the site does, says how to set up a phone from the
licence page (one tap, or its QR code), and ends with the operator's identity, as the site's
footer gives it."""

from __future__ import annotations

from datetime import date
from html import escape

from attrs import frozen

from vpnsite.codes import code_groups
from vpnsite.mail import Message
from vpnsite_adapters.formatting import format_date, plural
from vpnsite_adapters.languages import HTML_LANG
from vpnsite_adapters.operator_identity import DEMO_OPERATOR, Operator


@frozen
class LicenceTexts:
    subject: str
    intro: str
    code: str
    until: str
    archive: str
    steps_title: str
    steps: tuple[str, str, str]
    # Setting up a phone from the licence page: its one-tap links, or a server's QR code.
    phone_title: str
    phone_open: str
    phone_tap: str
    phone_qr: str
    check: str
    # Who runs the service, as the site's footer says it (ui/src/i18n/*.ts: footer.company).
    operator: str


@frozen
class TicketTexts:
    subject: str
    body: str
    add: str
    again: str
    not_you: str


LICENCE: dict[str, LicenceTexts] = {
    "en": LicenceTexts(
        subject="Your free VPN licence and activation code",
        intro="Your free VPN licence is ready.",
        code="Activation code",
        until="Valid until {date}",
        archive="Your personal configuration archive (the link works for 7 days; keep it to yourself)",
        steps_title="Connect in three steps",
        steps=(
            "Install an OpenVPN app: OpenVPN Connect for Windows, macOS, Android or iOS.",
            "Import a profile from your archive: one file per server, UDP or TCP.",
            "Connect: your e-mail is the username, the activation code is the password.",
        ),
        phone_title="On a phone, in one tap",
        phone_open="Install OpenVPN Connect, then open your licence page on the phone "
        "and enter your e-mail and activation code",
        phone_tap="Tap “Open in OpenVPN Connect” beside a server: the app imports its profile.",
        phone_qr="Is the page open on a computer? Scan a server’s QR code with your phone’s camera instead.",
        check="Check your licence at any time, and get a fresh archive link",
        operator="vpnsite is run by {name}, a company registered in the United Kingdom, "
        "company number {number}. Registered office: {address}.",
    ),
    "ru": LicenceTexts(
        subject="Ваша бесплатная VPN-лицензия и код активации",
        intro="Ваша бесплатная VPN-лицензия готова.",
        code="Код активации",
        until="Действует до {date}",
        archive="Ваш личный архив настроек (ссылка действует 7 дней; не передавайте её другим)",
        steps_title="Подключение в три шага",
        steps=(
            "Установите приложение OpenVPN: OpenVPN Connect для Windows, macOS, Android или iOS.",
            "Импортируйте профиль из архива: по файлу на каждый сервер, UDP или TCP.",
            "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации.",
        ),
        phone_title="Телефон — одним нажатием",
        phone_open="Установите OpenVPN Connect, откройте на телефоне страницу лицензии "
        "и введите e-mail и код активации",
        phone_tap="Нажмите «Открыть в OpenVPN Connect» рядом с сервером — приложение импортирует профиль.",
        phone_qr="Если страница открыта на компьютере, отсканируйте QR-код сервера камерой телефона.",
        check="Проверить лицензию и получить новую ссылку на архив можно в любое время",
        operator="Оператор сервиса vpnsite — компания {name}, зарегистрированная в Великобритании "
        "под номером {number}. Юридический адрес: {address}.",
    ),
    "es": LicenceTexts(
        subject="Tu licencia VPN gratuita y tu código de activación",
        intro="Tu licencia VPN gratuita está lista.",
        code="Código de activación",
        until="Válida hasta el {date}",
        archive="Tu archivo de configuración personal (el enlace funciona durante 7 días; no lo compartas)",
        steps_title="Conéctate en tres pasos",
        steps=(
            "Instala una aplicación OpenVPN: OpenVPN Connect para Windows, macOS, Android o iOS.",
            "Importa un perfil de tu archivo: un fichero por servidor, UDP o TCP.",
            "Conéctate: tu correo es el usuario y tu código de activación, la contraseña.",
        ),
        phone_title="En el móvil, con un toque",
        phone_open="Instala OpenVPN Connect, abre en el móvil la página de tu licencia "
        "e introduce tu correo y tu código de activación",
        phone_tap="Toca «Abrir en OpenVPN Connect» junto a un servidor y la aplicación importará su perfil.",
        phone_qr="Si ves la página en el ordenador, escanea el código QR del servidor con el móvil.",
        check="Comprueba tu licencia cuando quieras y obtén un nuevo enlace al archivo",
        operator="vpnsite lo gestiona {name}, empresa registrada en el Reino Unido "
        "con el número {number}. Domicilio social: {address}.",
    ),
    "fr": LicenceTexts(
        subject="Votre licence VPN gratuite et votre code d’activation",
        intro="Votre licence VPN gratuite est prête.",
        code="Code d’activation",
        until="Valable jusqu’au {date}",
        archive="Votre archive de configuration personnelle (le lien est valable 7 jours ; gardez-le pour vous)",
        steps_title="Connexion en trois étapes",
        steps=(
            "Installez une application OpenVPN : OpenVPN Connect pour Windows, macOS, Android ou iOS.",
            "Importez un profil de votre archive : un fichier par serveur, en UDP ou en TCP.",
            "Connectez-vous : votre e-mail est l’identifiant, le code d’activation est le mot de passe.",
        ),
        phone_title="Sur un téléphone, en un geste",
        phone_open="Installez OpenVPN Connect, ouvrez la page de votre licence sur le téléphone "
        "et saisissez votre e-mail et votre code d’activation",
        phone_tap="Touchez «\u00a0Ouvrir dans OpenVPN Connect\u00a0» à côté d’un serveur\u00a0: "
        "l’application importe son profil.",
        phone_qr="Si la page est ouverte sur un ordinateur, scannez le QR code du serveur avec votre téléphone.",
        check="Vérifiez votre licence à tout moment et obtenez un nouveau lien vers l’archive",
        operator="vpnsite est exploité par {name}, société immatriculée au Royaume-Uni "
        "sous le numéro {number}. Siège\u00a0: {address}.",
    ),
    "pt": LicenceTexts(
        subject="Sua licença VPN gratuita e seu código de ativação",
        intro="Sua licença VPN gratuita está pronta.",
        code="Código de ativação",
        until="Válida até {date}",
        archive="Seu pacote de configuração pessoal, em ZIP (o link vale por 7 dias; não o compartilhe)",
        steps_title="Conecte-se em três passos",
        steps=(
            "Instale um aplicativo OpenVPN: OpenVPN Connect para Windows, macOS, Android ou iOS.",
            "Importe um perfil do seu pacote: um arquivo por servidor, UDP ou TCP.",
            "Conecte-se: seu e-mail é o usuário e o código de ativação é a senha.",
        ),
        phone_title="No celular, com um toque",
        phone_open="Instale o OpenVPN Connect, abra no celular a página da sua licença "
        "e digite seu e-mail e seu código de ativação",
        phone_tap="Toque em “Abrir no OpenVPN Connect” ao lado de um servidor e o aplicativo importa o perfil.",
        phone_qr="Se estiver no computador, escaneie o QR code do servidor com o celular.",
        check="Verifique sua licença quando quiser e receba um novo link para o pacote",
        operator="O vpnsite é operado por {name}, empresa registrada no Reino Unido "
        "sob o número {number}. Sede: {address}.",
    ),
}

TICKET: dict[str, TicketTexts] = {
    "en": TicketTexts(
        subject="We have your message — ticket {number}",
        body="Thank you for writing to us. Your ticket number is {number}; "
        "we will answer you at this address.",
        add="To add something, reply to this e-mail or write to us again and mention the number {number}.",
        again="If you write to us again within the hour, your message still reaches us, "
        "but we do not send another confirmation like this one.",
        not_you="If you did not write to us, someone else typed your address: you can ignore this e-mail.",
    ),
    "ru": TicketTexts(
        subject="Мы получили ваше сообщение — обращение {number}",
        body="Спасибо, что написали нам. Номер вашего обращения — {number}; ответ придёт на этот адрес.",
        add="Чтобы что-то добавить, ответьте на это письмо или напишите нам снова, указав номер {number}.",
        again="Если в течение часа вы напишете нам ещё раз, мы получим и это сообщение, "
        "но повторного подтверждения не пришлём.",
        not_you="Если вы нам не писали, ваш адрес указал кто-то другой — это письмо можно просто проигнорировать.",
    ),
    "es": TicketTexts(
        subject="Hemos recibido tu mensaje: ticket {number}",
        body="Gracias por escribirnos. El número de tu ticket es {number}; "
        "te responderemos a esta dirección.",
        add="Para añadir algo, responde a este correo o vuelve a escribirnos indicando el número {number}.",
        again="Si vuelves a escribirnos en la próxima hora, también recibiremos tu mensaje, "
        "pero no te enviaremos otra confirmación como esta.",
        not_you="Si no nos has escrito, otra persona ha introducido tu dirección: puedes ignorar este correo.",
    ),
    "fr": TicketTexts(
        subject="Nous avons bien reçu votre message — ticket {number}",
        body="Merci de nous avoir écrit. Votre numéro de ticket est le {number} ; "
        "nous vous répondrons à cette adresse.",
        add="Pour ajouter quelque chose, répondez à cet e-mail ou écrivez-nous à nouveau en indiquant le numéro {number}.",
        again="Si vous nous écrivez de nouveau dans l’heure, votre message nous parviendra quand même, "
        "mais vous ne recevrez pas d’autre confirmation comme celle-ci.",
        not_you="Si vous ne nous avez pas écrit, quelqu’un d’autre a saisi votre adresse : vous pouvez ignorer cet e-mail.",
    ),
    "pt": TicketTexts(
        subject="Recebemos sua mensagem — chamado {number}",
        body="Obrigado por nos escrever. O número do seu chamado é {number}; responderemos neste endereço.",
        add="Para acrescentar algo, responda a este e-mail ou escreva de novo informando o número {number}.",
        again="Se você nos escrever de novo dentro de uma hora, sua mensagem chegará normalmente, "
        "mas não enviaremos outra confirmação como esta.",
        not_you="Se não foi você quem nos escreveu, outra pessoa digitou o seu endereço: pode ignorar este e-mail.",
    ),
}


@frozen
class ReminderTexts:
    subject: str
    body: str
    button: str
    same: str


REMINDER: dict[str, ReminderTexts] = {
    "en": ReminderTexts(
        subject="Your free VPN licence ends on {date}",
        body="Your free VPN licence ends on {date}. Renew it for another {days} with one click:",
        button="Renew for {days}",
        same="Your activation code and your configuration files stay the same: nothing to set up again.",
    ),
    "ru": ReminderTexts(
        subject="Ваша бесплатная VPN-лицензия заканчивается {date}",
        body="Ваша бесплатная VPN-лицензия заканчивается {date}. Продлите её ещё на {days} одним нажатием:",
        button="Продлить на {days}",
        same="Код активации и файлы настроек останутся прежними: ничего перенастраивать не нужно.",
    ),
    "es": ReminderTexts(
        subject="Tu licencia VPN gratuita termina el {date}",
        body="Tu licencia VPN gratuita termina el {date}. Renuévala otros {days} con un solo clic:",
        button="Renovar por {days}",
        same="Tu código de activación y tus archivos de configuración no cambian: no hay que configurar nada de nuevo.",
    ),
    "fr": ReminderTexts(
        subject="Votre licence VPN gratuite prend fin le {date}",
        body="Votre licence VPN gratuite prend fin le {date}. Renouvelez-la pour {days} de plus en un clic :",
        button="Renouveler pour {days}",
        same="Votre code d’activation et vos fichiers de configuration restent les mêmes : rien à reconfigurer.",
    ),
    "pt": ReminderTexts(
        subject="Sua licença VPN gratuita termina em {date}",
        body="Sua licença VPN gratuita termina em {date}. Renove por mais {days} com um clique:",
        button="Renovar por {days}",
        same="Seu código de ativação e seus arquivos de configuração continuam os mesmos: não é preciso configurar nada de novo.",
    ),
}


# How many days, as the website's `activation.days` says it (tests/unit/test_locale_formatting.py).
DAYS: dict[str, dict[str, str]] = {
    "en": {"one": "{n} day", "other": "{n} days"},
    "ru": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"},
    "es": {"one": "{n} día", "other": "{n} días"},
    "fr": {"one": "{n} jour", "other": "{n} jours"},
    "pt": {"one": "{n} dia", "other": "{n} dias"},
}


def _label(text: str, language: str) -> str:
    """``text`` followed by a colon, with the no-break space French puts before it."""
    return f"{text}\u00a0:" if language == "fr" else f"{text}:"


def _page(language: str, body: str) -> str:
    return (
        f'<!doctype html><html lang="{escape(HTML_LANG.get(language, language))}">'
        f'<body style="font-family:sans-serif;line-height:1.5">{body}</body></html>'
    )


def licence_email(
    to: str,
    code: str,
    ends: date,
    archive_url: str,
    licence_url: str,
    language: str,
    operator: Operator | None = None,
) -> Message:
    """The licence and its code; without an operator (the demo, tests) the fictitious demo one is
    named, as on the site."""
    t = LICENCE.get(language, LICENCE["en"])
    steps = t.steps
    until = t.until.format(date=format_date(ends, language))
    grouped = " ".join(code_groups(code))
    who = operator or DEMO_OPERATOR
    identity = t.operator.format(name=who.name, number=who.number, address=who.address)
    text = "\n".join(
        [
            f"{t.intro}",
            "",
            f"{_label(t.code, language)} {grouped}",
            until,
            "",
            _label(t.archive, language),
            archive_url,
            "",
            _label(t.steps_title, language),
            *(f"{number}. {step}" for number, step in enumerate(steps, 1)),
            "",
            _label(t.phone_title, language),
            _label(t.phone_open, language),
            licence_url,
            t.phone_tap,
            t.phone_qr,
            "",
            f"{_label(t.check, language)} {licence_url}",
            "",
            identity,
        ]
    )
    items = "".join(f"<li>{escape(step)}</li>" for step in steps)
    html = _page(
        language,
        f"<p>{escape(t.intro)}</p>"
        f'<p>{escape(_label(t.code, language))}<br><strong style="font-size:1.3em;letter-spacing:.05em">'
        f"{escape(grouped)}</strong></p>"
        f"<p>{escape(until)}</p>"
        f'<p><a href="{escape(archive_url)}">{escape(t.archive)}</a></p>'
        f"<h3>{escape(t.steps_title)}</h3><ol>{items}</ol>"
        f"<h3>{escape(t.phone_title)}</h3>"
        f'<p><a href="{escape(licence_url)}">{escape(t.phone_open)}</a>.</p>'
        f"<p>{escape(t.phone_tap)} {escape(t.phone_qr)}</p>"
        f'<p><a href="{escape(licence_url)}">{escape(t.check)}</a></p>'
        f'<hr><p style="font-size:.85em;color:#555">{escape(identity)}</p>',
    )
    return Message(to=to, subject=t.subject, text=text, html=html)


def renewal_reminder(to: str, ends: date, days: int, renew_url: str, language: str) -> Message:
    t = REMINDER.get(language, REMINDER["en"])
    when = format_date(ends, language)
    term = plural(days, DAYS.get(language, DAYS["en"]), language)
    body = t.body.format(date=when, days=term)
    text = f"{body}\n\n{renew_url}\n\n{t.same}\n"
    html = _page(
        language,
        f"<p>{escape(body)}</p>"
        f'<p><a href="{escape(renew_url)}" style="font-weight:bold">{escape(t.button.format(days=term))}</a></p>'
        f"<p>{escape(t.same)}</p>",
    )
    return Message(to=to, subject=t.subject.format(date=when), text=text, html=html)


def ticket_acknowledgement(to: str, number: str, language: str, support_address: str) -> Message:
    """That a ticket was opened, its number and how to add to it; nothing the sender wrote, since
    anyone may have typed this address. Replies go to the support team."""
    t = TICKET.get(language, TICKET["en"])
    paragraphs = [
        t.body.format(number=number),
        t.add.format(number=number),
        t.again,
        t.not_you,
    ]
    text = "\n\n".join(paragraphs) + "\n"
    html = _page(language, "".join(f"<p>{escape(paragraph)}</p>" for paragraph in paragraphs))
    return Message(
        to=to, subject=t.subject.format(number=number), text=text, html=html, reply_to=support_address
    )


def ticket_for_support(
    support_address: str, number: str, sender: str, message: str, language: str, code_given: bool
) -> Message:
    """The ticket as the support team gets it: answering it replies to the visitor."""
    text = (
        f"Ticket {number}\nFrom: {sender}\nLanguage: {language}\n"
        f"Activation code given: {'yes' if code_given else 'no'}\n\n"
        f"{message}\n"
    )
    return Message(to=support_address, subject=f"[{number}] Support request", text=text, reply_to=sender)
