"""The composed bytes through a real SMTP server on loopback (aiosmtpd): the envelope names the
sender's address and the one recipient, plain 7-bit SMTP suffices, and what arrives is what was
written."""

from __future__ import annotations

import email
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.integration.processes import free_port
from vpnsite.mail import Message
from vpnsite_adapters.mail.outbox import OutboxMailer
from vpnsite_adapters.mail.smtp import SmtpMailer


class Recorder:
    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.envelopes.append(envelope)
        return "250 OK"


@pytest.fixture
def server() -> Iterator[tuple[Recorder, int]]:
    recorder = Recorder()
    port = free_port()
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    yield recorder, port
    controller.stop()


MESSAGE = Message(
    to="anna@bücher.de",
    subject="Ваша лицензия\r\nBcc: someone@example.org",
    text=".\nFrom the start\n..\nКод: ABCD-EFGH\n",
    html="<p>.</p>\n.\n",
    reply_to="jean@example.org",
)


def read(content: bytes) -> EmailMessage:
    message = email.message_from_bytes(content, policy=default)
    assert isinstance(message, EmailMessage)
    assert all(part.defects == [] for part in message.walk())
    return message


def test_the_envelope_is_the_senders_address_and_the_one_recipient(server: tuple[Recorder, int]) -> None:
    recorder, port = server
    SmtpMailer(f"smtp://127.0.0.1:{port}?starttls=off", "Служба VPN <hello@vpn.test>").send(MESSAGE)

    [envelope] = recorder.envelopes
    assert envelope.mail_from == "hello@vpn.test"
    assert envelope.rcpt_tos == ["anna@xn--bcher-kva.de"], "never the Reply-To, nor a header's Bcc"
    options = envelope.mail_options
    # Plain 7-bit SMTP: no SMTPUTF8 or 8BITMIME asked for, so any server takes it.
    assert not envelope.smtp_utf8 and not any(o.startswith(("SMTPUTF8", "BODY")) for o in options)
    assert envelope.original_content.isascii()
    message = read(envelope.original_content)
    assert message["To"] == "anna@xn--bcher-kva.de" and message["Reply-To"] == "jean@example.org"
    assert message["From"] == "Служба VPN <hello@vpn.test>"
    assert message["Subject"] == "Ваша лицензия Bcc: someone@example.org" and "Bcc" not in message
    plain, html = (message.get_body(preferencelist=(kind,)) for kind in ("plain", "html"))
    assert plain is not None and html is not None
    assert plain.get_content() == ".\r\nFrom the start\r\n..\r\nКод: ABCD-EFGH\r\n", "dot-stuffing undone"
    assert html.get_content() == "<p>.</p>\r\n.\r\n"


def test_a_refused_address_never_reaches_the_server(server: tuple[Recorder, int]) -> None:
    recorder, port = server
    mailer = SmtpMailer(f"smtp://127.0.0.1:{port}?starttls=off", "VPN <hello@vpn.test>")
    for to in ("a@example.org, b@example.org", "a@example.org\r\nRCPT TO:<b@x.org>", "jörg@example.org"):
        with pytest.raises(ValueError):
            mailer.send(Message(to=to, subject="s", text="t"))
    assert recorder.envelopes == []


def test_the_outbox_file_holds_the_same_crlf_message(tmp_path: Path) -> None:
    OutboxMailer(tmp_path, "VPN <hello@vpn.test>").send(MESSAGE)
    [eml] = tmp_path.glob("*.eml")
    data = eml.read_bytes()
    assert data.isascii() and b"\n" not in data.replace(b"\r\n", b"")
    message = read(data)
    assert message["To"] == "anna@xn--bcher-kva.de" and message["From"] == "VPN <hello@vpn.test>"
