"""A domain message as a MIME e-mail."""

from __future__ import annotations

from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from vpnsite.mail import Message


def to_email(message: Message, sender: str) -> EmailMessage:
    email = EmailMessage()
    email["From"] = sender
    # One mailbox per header, parsed as one: an address can never become a list of recipients.
    email["To"] = Address(addr_spec=message.to)
    email["Subject"] = message.subject
    email["Date"] = formatdate(localtime=False)
    email["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip(">") or None)
    if message.reply_to:
        email["Reply-To"] = Address(addr_spec=message.reply_to)
    email.set_content(message.text)
    if message.html:
        email.add_alternative(message.html, subtype="html")
    return email
