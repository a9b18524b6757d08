"""A domain message as a MIME e-mail."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from vpnsite.mail import Message


def to_email(message: Message, sender: str) -> EmailMessage:
    email = EmailMessage()
    email["From"] = sender
    email["To"] = message.to
    email["Subject"] = message.subject
    email["Date"] = formatdate(localtime=False)
    email["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip(">") or None)
    if message.reply_to:
        email["Reply-To"] = message.reply_to
    email.set_content(message.text)
    if message.html:
        email.add_alternative(message.html, subtype="html")
    return email
