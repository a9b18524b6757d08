"""A domain message as a MIME e-mail."""

from __future__ import annotations

from email import policy
from email.headerregistry import Address, HeaderRegistry
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from vpnsite.mail import Message


class _HeaderClasses(HeaderRegistry):
    """The standard registry makes a new class for every header it parses, a quarter of what
    composing a mail costs; every mail has the same few headers."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made


_POLICY = policy.default.clone(header_factory=_HeaderClasses())


def to_email(message: Message, sender: str) -> EmailMessage:
    email = EmailMessage(policy=_POLICY)
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
