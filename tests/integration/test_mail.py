"""Mail through a real SMTP server on loopback (aiosmtpd): the right e-mails in the visitor's
language, and no licence or ticket lost when the server refuses or hangs."""

from __future__ import annotations

import email
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from cryptography.exceptions import InvalidTag

from tests.integration.processes import free_port
from tests.support.api import sign_up
from vpnsite.codes import code_groups
from vpnsite.keyed_hashes import derive_key
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.mail.queue import LEASE, POLL_SECONDS, Sealer
from vpnsite_adapters.texts.languages import LANGUAGES


class Inbox:
    def __init__(self, refuse: bool = False) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = refuse

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refuse:
            return "550 5.7.1 Relaying denied"
        self.messages.append(email.message_from_bytes(envelope.content, policy=default))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


@pytest.fixture
def silent_server() -> Iterator[int]:
    """Accepts connections and never says a word, like a server stuck under load."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def body_of(message: EmailMessage, subtype: str = "plain") -> str:
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None
    return str(part.get_content())


def grouped(code: str) -> str:
    """The code as the e-mails show it: in groups of four, as the site does."""
    return " ".join(code_groups(code))


def test_a_sign_up_sends_the_licence_email_in_the_visitors_language(make_hub: Any, smtp: Any) -> None:
    inbox, port = smtp
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{port}?starttls=off", mail_from="VPN <hello@vpn.test>")
    services = hub.services
    client = create_app(services).test_client()
    status = client.post(
        "/api/submit-email", json={"email": "olga@example.org"}, headers={"Accept-Language": "ru-RU"}
    )
    form = status.get_json()["form_data"]
    activation = client.post("/api/create-user", json={"email": form.pop("user_email"), **form}).get_json()

    assert hub.mail.deliver_due() == (1, 0)
    [message] = inbox.messages
    assert message["To"] == "olga@example.org"
    assert message["From"] == "VPN <hello@vpn.test>"
    assert message["Subject"] == "Ваша бесплатная VPN-лицензия и код активации"
    text = body_of(message)
    code = activation["user_code"]
    # In groups of four, as the site shows it; pasted with its spaces, it is still the password.
    assert f"Код активации: {grouped(code)}" in text
    assert activation["activation_url"] in text
    assert "http://localhost/ru/license" in text
    assert "Подключитесь: имя пользователя — ваш e-mail, пароль — код активации." in text
    assert activation["activation_url"] in body_of(message, "html")


OPERATOR = {
    "operator_name": "Northwind Privacy Ltd",
    "operator_number": "SC123456",
    "operator_address": "2 Test Lane, Leeds, LS1 1AA, United Kingdom",
    "operator_email": "legal@northwind.example",
    "operator_founder": "Sam Tester",
}
ACCEPT = {"en": "en-GB", "ru": "ru-RU", "es": "es-ES", "fr": "fr-FR", "pt": "pt-BR"}
PHONE_TITLES = {
    "en": "On a phone, in a few taps",
    "ru": "На телефоне — в несколько касаний",
    "es": "En el móvil, en unos pocos toques",
    "fr": "Sur un téléphone, en quelques gestes",
    "pt": "No celular, em poucos toques",
}
QR_WORDS = {"en": "QR code", "ru": "QR-код", "es": "código QR", "fr": "QR code", "pt": "QR code"}


def site_text(path: str, key: str) -> str:
    """A dictionary entry of the website (ui/src/i18n), as the visitor reads it."""
    source = (Path(__file__).parents[2] / "ui/src/i18n" / path).read_text(encoding="utf-8")
    line = next(line for line in source.splitlines() if line.strip().startswith(f"{key}: "))
    return str(json.loads(line.strip().removeprefix(f"{key}: ").rstrip(",")))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_licence_email_groups_the_code_sets_up_a_phone_and_names_the_operator(
    make_hub: Any, smtp: Any, language: str
) -> None:
    inbox, port = smtp
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{port}?starttls=off", **OPERATOR)
    client = create_app(hub.services).test_client()
    status = client.post(
        "/api/submit-email", json={"email": "kim@example.org"}, headers={"Accept-Language": ACCEPT[language]}
    )
    form = status.get_json()["form_data"]
    code = client.post("/api/create-user", json={"email": form.pop("user_email"), **form}).get_json()[
        "user_code"
    ]
    assert hub.mail.deliver_due() == (1, 0)
    [message] = inbox.messages
    text, html = body_of(message), body_of(message, "html")
    lines = text.splitlines()

    # The code in groups of four, as the site shows it, and it still opens the licence as shown.
    assert grouped(code) in text and f">{grouped(code)}</strong>" in html
    assert code not in text and code not in html
    check = client.post(
        "/api/check-license", json={"email": "kim@example.org", "activation_code": grouped(code)}
    )
    assert check.status_code == 200

    # Setting up a phone: a personal link to the licence with its servers (nothing to type), its
    # one-tap button in the site's words, and the QR code for a page open on a computer; the
    # licence page, and the support page for help.
    prefix = f"http://localhost{'' if language == 'en' else '/' + language}"
    licence_page, support_page = f"{prefix}/license", f"{prefix}/support"
    title = lines.index(PHONE_TITLES[language] + ("\u00a0:" if language == "fr" else ":"))
    paragraph = lines[title + 1 : title + 5]
    assert re.fullmatch(re.escape(licence_page) + r"/setup/[A-Za-z0-9_-]+", paragraph[1]), paragraph
    assert any(line.endswith(" " + support_page) for line in lines)
    assert f'<a href="{support_page}">' in html and f'<a href="{paragraph[1]}">' in html
    button = site_text(f"screens/{language}.ts", "import")
    assert button in paragraph[2], (button, paragraph)
    assert QR_WORDS[language] in paragraph[3]
    assert f"<h3>{PHONE_TITLES[language]}</h3>" in html and f'<a href="{licence_page}">' in html
    assert "one tap" not in text.lower()
    assert button in html

    # The operator, as the site's footer names it, after everything else.
    company = site_text(f"{language}.ts", "company")
    expected = company.replace("{{name}}", OPERATOR["operator_name"])
    expected = expected.replace("{{number}}", OPERATOR["operator_number"])
    expected = expected.replace("{{address}}", OPERATOR["operator_address"]).rpartition(". ")[0] + "."
    assert lines[-1] == expected
    assert html.endswith(f'<hr><p style="font-size:.85em;color:#555">{expected}</p></body></html>')
    assert f'<html lang="{"pt-BR" if language == "pt" else language}">' in html


def test_a_ticket_is_forwarded_with_reply_to_and_acknowledged(make_hub: Any, smtp: Any) -> None:
    inbox, port = smtp
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{port}", support_email="help@vpn.test")
    services = hub.services
    client = create_app(services).test_client()
    ticket = client.post(
        "/api/support",
        json={"email": "jean@example.org", "message": "Le VPN ne se connecte pas."},
        headers={"Accept-Language": "fr-FR"},
    ).get_json()["ticket"]

    assert hub.mail.deliver_due() == (2, 0)
    forward = next(m for m in inbox.messages if m["To"] == "help@vpn.test")
    acknowledgement = next(m for m in inbox.messages if m["To"] == "jean@example.org")
    assert forward["Reply-To"] == "jean@example.org"
    assert ticket in forward["Subject"] and "Le VPN ne se connecte pas." in body_of(forward)
    assert acknowledgement["Subject"] == f"Nous avons bien reçu votre message — ticket {ticket}"
    assert acknowledgement["Reply-To"] == "help@vpn.test", "a reply adds to the ticket"
    assert f"en indiquant le numéro {ticket}." in body_of(acknowledgement)
    assert "Le VPN ne se connecte pas." not in body_of(acknowledgement) + body_of(acknowledgement, "html")


def test_a_refusing_server_loses_nothing_and_the_mail_goes_out_later(
    make_hub: Any, smtp: Any, clock: Any
) -> None:
    inbox, port = smtp
    inbox.refuse = True
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{port}")
    services = hub.services
    client = create_app(services).test_client()
    created = client.post("/api/create-user", json=sign_up(client))
    assert created.status_code == 200

    assert hub.mail.deliver_due() == (0, 1)
    status = hub.store.mail_queue.status()
    assert (status.queued, status.sent) == (1, 0)
    assert status.last_errors[0][2] == "SMTP server answered 550"

    inbox.refuse = False
    assert hub.mail.deliver_due() == (0, 0), "not due again before its backoff"
    clock.advance(minutes=1)
    assert hub.mail.deliver_due() == (1, 0)
    assert grouped(created.get_json()["user_code"]) in body_of(inbox.messages[0])
    assert hub.store.mail_queue.status().sent == 1


def test_a_hanging_server_times_out_and_the_sign_up_still_succeeds(make_hub: Any, silent_server: int) -> None:
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{silent_server}", mail_timeout=1)
    services = hub.services
    client = create_app(services).test_client()
    assert client.post("/api/create-user", json=sign_up(client)).status_code == 200
    assert hub.mail.deliver_due() == (0, 1)
    assert hub.store.mail_queue.status().queued == 1


def test_the_queue_keeps_no_readable_code(make_hub: Any) -> None:
    hub = make_hub()
    services = hub.services
    client = create_app(services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    payloads = hub.store.db.execute_sql("SELECT payload FROM mail_queue").fetchall()
    assert payloads and all(code not in payload for (payload,) in payloads)
    [(sealed,)] = payloads
    assert grouped(code) in hub.mail.sealer.open(sealed).text, "the server's own key opens it"
    with pytest.raises(InvalidTag):
        Sealer(derive_key(b"another server's secret, 32 bytes", "mail-queue")).open(sealed)
    tampered = sealed[:-2] + ("00" if sealed[-2:] != "00" else "01")
    with pytest.raises(InvalidTag):
        hub.mail.sealer.open(tampered)


def test_the_default_outbox_gets_an_eml_file(make_hub: Any, tmp_path: Any) -> None:
    hub = make_hub()
    services = hub.services
    client = create_app(services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    assert hub.mail.deliver_due() == (1, 0)
    [eml] = list((tmp_path / "data" / "outbox").glob("*.eml"))
    message = email.message_from_bytes(eml.read_bytes(), policy=default)
    assert message["To"] == "anna@example.org"
    assert code[:4] in body_of(message)
    assert hub.store.db.execute_sql("SELECT payload FROM mail_queue").fetchone()[0] is None


def test_a_sign_ups_email_goes_out_at_once_not_at_the_senders_next_look(make_hub: Any, smtp: Any) -> None:
    inbox, port = smtp
    hub = make_hub(mail_url=f"smtp://127.0.0.1:{port}?starttls=off")
    client = create_app(hub.services).test_client()
    hub.mail.sender.start()  # its first look in the queue is POLL_SECONDS away
    try:
        code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
        deadline = time.monotonic() + POLL_SECONDS / 2
        while not inbox.messages and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        hub.mail.sender.stop()
    [message] = inbox.messages
    assert code[:4] in body_of(message)
    assert hub.store.mail_queue.status().sent == 1


def test_an_email_left_by_a_process_that_died_goes_out_once_its_lease_ends(
    make_hub: Any, clock: Any, tmp_path: Any
) -> None:
    died = make_hub()
    client = create_app(died.services).test_client()
    code = client.post("/api/create-user", json=sign_up(client)).get_json()["user_code"]
    # The first process dies holding the message it was handed; another runs on the same database.
    other = make_hub()
    assert other.mail.deliver_due() == (0, 0), "leased to the process that queued it"
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert other.mail.deliver_due() == (1, 0)
    assert other.mail.deliver_due() == (0, 0), "sent once"
    [eml] = list((tmp_path / "data" / "outbox").glob("*.eml"))
    assert code[:4] in body_of(email.message_from_bytes(eml.read_bytes(), policy=default))


def test_a_handed_email_whose_lease_ran_out_is_sent_once(make_hub: Any, clock: Any, tmp_path: Any) -> None:
    hub = make_hub()
    client = create_app(hub.services).test_client()
    client.post("/api/create-user", json=sign_up(client))
    clock.advance(seconds=LEASE.total_seconds() + 1)  # a sender held up for longer than the lease
    assert hub.mail.deliver_due() == (1, 0), "handed over and claimed again, sent once"
    assert len(list((tmp_path / "data" / "outbox").glob("*.eml"))) == 1


def test_mail_status_from_the_command_line(make_hub: Any, tmp_path: Any, database_url: str) -> None:
    from tests.integration.processes import vpnsite

    hub = make_hub()
    services = hub.services
    client = create_app(services).test_client()
    client.post("/api/create-user", json=sign_up(client))
    env = {
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "PATH": "/usr/bin",
    }
    result = vpnsite("mail", "status", env=env)
    assert result.returncode == 0, result.stderr
    assert "queued       1" in result.stdout
    assert "anna@example.org" not in result.stdout
