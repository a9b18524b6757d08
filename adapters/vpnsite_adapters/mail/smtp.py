"""Sending through an SMTP server named by a URL:

- ``smtp://user:password@host:587`` — plain connection upgraded with STARTTLS when the server
  offers it (``?starttls=required`` refuses to send without it, ``?starttls=off`` never tries);
- ``smtps://user:password@host:465`` — TLS from the first byte.
"""

from __future__ import annotations

import smtplib
import ssl
from urllib.parse import parse_qs, unquote, urlsplit

from vpnsite.mail import MailFailed, Message
from vpnsite_adapters.mail.compose import addr_spec, envelope_sender, to_mime

TIMEOUT_SECONDS = 10.0


class SmtpMailer:
    def __init__(self, url: str, sender: str, timeout: float = TIMEOUT_SECONDS) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("the mail URL must look like smtp://host:587 or smtps://host:465")
        self.implicit_tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.implicit_tls else 587)
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.starttls = parse_qs(parts.query).get("starttls", ["auto"])[0]
        if self.starttls not in ("auto", "required", "off"):
            raise ValueError("starttls must be auto, required or off")
        self.sender = sender
        self.timeout = timeout

    def send(self, message: Message) -> None:
        data = to_mime(message, self.sender)
        # The sender's address and the one recipient of the To header (never the Reply-To).
        envelope = envelope_sender(self.sender), [addr_spec(message.to)]
        context = ssl.create_default_context()
        try:
            if self.implicit_tls:
                client: smtplib.SMTP = smtplib.SMTP_SSL(
                    self.host, self.port, timeout=self.timeout, context=context
                )
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            with client:
                client.ehlo()
                if not self.implicit_tls and self.starttls != "off":
                    if client.has_extn("starttls"):
                        client.starttls(context=context)
                        client.ehlo()
                    elif self.starttls == "required":
                        raise MailFailed("the SMTP server does not offer STARTTLS")
                if self.username:
                    client.login(self.username, self.password or "")
                client.sendmail(*envelope, data)
        except MailFailed:
            raise
        except smtplib.SMTPResponseException as error:
            raise MailFailed(f"SMTP server answered {error.smtp_code}") from None
        except smtplib.SMTPRecipientsRefused:
            raise MailFailed("SMTP server refused the recipient") from None
        except (TimeoutError, smtplib.SMTPException, OSError) as error:
            raise MailFailed(f"SMTP failed: {type(error).__name__}") from None
