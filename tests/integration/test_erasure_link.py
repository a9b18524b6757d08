"""The licence e-mail's "Didn't sign up? Erase this address", against a real `vpnsite serve` on both
databases: the e-mail carries the link in its language; opening it (as a mail scanner would) erases
nothing; a post from another site is refused; the page's button erases the address as `vpnsite
privacy erase` does (the export is empty, the outbox's copies are gone, the erasure is journalled);
the link then leads nowhere; and the token never reaches the access log."""

from __future__ import annotations

import email
import html
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.conftest import admin
from tests.integration.processes import vpnsite
from tests.support.serve import Served, serving, signed_form
from vpnsite.erasures import Erasures
from vpnsite_adapters.bootstrap import open_console
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.mail.outbox import OutboxFolder
from vpnsite_adapters.protection import erasure_journal
from vpnsite_adapters.protection.erasure_journal import JournalFile

Serve = Callable[..., Served]
ADDRESS = "Olga.Erase@example.org"


@pytest.fixture
def serve(tmp_path: Path, database_url: str) -> Iterator[Serve]:
    with serving(
        tmp_path, database_url=database_url, erasure_journal=str(tmp_path / "erasures.jsonl")
    ) as start:
        yield start


def data_dir(served: Served, tmp_path: Path) -> Path:
    return tmp_path / f"data-{served.base.rsplit(':', 1)[1]}"


def outbox_mail(folder: Path, count: int) -> list[EmailMessage]:
    """The outbox's messages once it holds ``count`` of them (the sender runs in the background)."""
    deadline = time.monotonic() + 15
    while len(list(folder.glob("*.eml"))) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return [
        email.message_from_bytes(path.read_bytes(), policy=default) for path in sorted(folder.glob("*.eml"))
    ]


def body(message: EmailMessage, subtype: str) -> str:
    part = message.get_body((subtype,))
    assert part is not None
    return str(part.get_content())


def export(env: dict[str, str]) -> dict[str, Any]:
    result = vpnsite("privacy", "export", ADDRESS, env=env)
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def sign_up_in_russian(base: str) -> str:
    """A licence for ADDRESS in Russian and a ticket from it; the licence's code."""
    russian = {"Accept-Language": "ru-RU"}
    created = requests.post(
        base + "/api/create-user", json=signed_form(base, ADDRESS, **russian), headers=russian, timeout=10
    )
    assert created.status_code == 200, created.text
    code: str = created.json()["user_code"]
    ticket = requests.post(
        base + "/api/support",
        json={"email": ADDRESS, "activation_code": code, "message": "Кто-то указал мой адрес."},
        headers=russian,
        timeout=10,
    )
    assert ticket.status_code == 200, ticket.text
    return code


def test_the_erasure_link_confirms_on_get_and_erases_on_the_sites_post_only(
    serve: Serve, tmp_path: Path, database_url: str
) -> None:
    served = serve()
    base, folder = served.base, data_dir(served, tmp_path) / "outbox"
    env = {**os.environ, "VPNSITE_DATA_DIR": str(folder.parent), "VPNSITE_DATABASE_URL": database_url}
    journal = tmp_path / "erasures.jsonl"
    code = sign_up_in_russian(base)

    # The licence e-mail, the acknowledgement and the ticket's copy to support.
    mail = outbox_mail(folder, 3)
    [licence] = [message for message in mail if "лицензия" in str(message["Subject"])]
    text, markup = body(licence, "plain").replace("\r\n", "\n"), body(licence, "html")
    lines = text.splitlines()
    at = lines.index("Вы не регистрировались? Удалить этот адрес:")
    found = re.fullmatch(rf"({re.escape(base)}/ru/erase/([A-Za-z0-9_-]+))", lines[at + 1])
    assert found is not None, text
    link, token = found.group(1), found.group(2)
    assert f'Вы не регистрировались? <a href="{link}">Удалить этот адрес</a>' in markup
    assert "пока вы не нажмёте кнопку, ничего не удалится" in text
    held = export(env)
    assert held["licences"] and held["tickets"] and held["mail_queue"]

    # Opened, as a person or a mail scanner would, in its language and in English: nothing changes.
    for _ in range(2):
        page = requests.get(link, timeout=10)
        assert page.status_code == 200
        assert page.headers["Cache-Control"] == "no-store"
        assert page.headers["Referrer-Policy"] == "same-origin"
        assert page.headers["X-Robots-Tag"] == "noindex"
        assert '<meta name="robots" content="noindex">' in page.text
        assert "<script" not in page.text and "__SLOT_" not in page.text
        assert '<html lang="ru">' in page.text and "Удалить этот адрес?" in page.text
        assert f"<dd>{ADDRESS}</dd>" in page.text
        assert '<form method="post"><button type="submit" class="button button-danger">' in page.text
        # The language menu keeps the link, so the page reads the same in another language.
        # (A token's "__" is written "_&#95;", as every value the server fills in: http/pages/slots.py.)
        shown = html.unescape(page.text)
        assert f'href="/erase/{token}"' in shown and f'href="/fr/erase/{token}"' in shown
    english = requests.get(f"{base}/erase/{token}", timeout=10)
    assert english.status_code == 200 and "Erase this address?" in english.text
    assert export(env) == held
    assert len(list(folder.glob("*.eml"))) == 3 and not journal.exists()

    # A post from another site, or one that names no site, erases nothing.
    for headers in ({"Origin": "https://evil.example"}, {"Referer": "https://evil.example/erase"}, {}):
        refused = requests.post(link, headers=headers, timeout=10)
        assert refused.status_code == 403
        assert "Адрес не удалён" in refused.text and "Не удалось разобрать запрос." in refused.text
    assert export(env) == held

    # The button: a plain post from the page itself.
    erased = requests.post(link, headers={"Origin": base}, timeout=10)
    assert erased.status_code == 200, erased.text
    assert erased.headers["Cache-Control"] == "no-store"
    assert erased.headers["Referrer-Policy"] == "no-referrer"
    answer = erased.text
    assert "Адрес удалён" in answer and f"<dd>{ADDRESS}</dd>" in answer
    counts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", answer))
    assert counts["Удалено лицензий"] == "1" and counts["Из них завершено досрочно"] == "1"
    assert counts["Очищено обращений"] == "1" and int(counts["Удалено писем"]) == len(held["mail_queue"])

    # Gone as `vpnsite privacy erase` leaves it: nothing to export, no copy in the outbox, the code
    # no longer opens the licence, and the erasure in the journal beside the backups.
    assert export(env) == dict.fromkeys(held, [])
    assert list(folder.glob("*.eml")) == []
    check = requests.post(
        base + "/api/check-license", json={"email": ADDRESS, "activation_code": code}, timeout=10
    )
    assert check.status_code == 404
    journalled = vpnsite("privacy", "journal", env=env)
    assert journalled.returncode == 0
    assert journal.read_text().splitlines() == journalled.stdout.splitlines()
    assert len(erasure_journal.read(journal).records) == 1

    # Used: the link now leads nowhere, whether opened or posted again; a made-up one neither.
    for method in (requests.get, requests.post):
        again = method(link, headers={"Origin": base}, timeout=10)
        assert again.status_code == 410
        assert "Ссылка уже использована или больше не действует" in again.text
    forged = requests.get(f"{base}/erase/{token[:-2]}{'AA' if token[-2:] != 'AA' else 'BA'}", timeout=10)
    assert forged.status_code == 404 and "This link has been used or is no longer valid" in forged.text
    odd = requests.get(f"{base}/erase/{'x' * 300}", timeout=10)
    assert odd.status_code == 404

    # The access log names the page, never its token.
    logged = served.log.read_text(errors="replace")
    assert "GET /ru/erase/[redacted] 200" in logged and "POST /ru/erase/[redacted] 403" in logged
    assert "POST /ru/erase/[redacted] 200" in logged and "GET /erase/[redacted] 404" in logged
    assert token not in logged and ADDRESS.lower() not in logged.lower()
    assert "privacy erase by the licence e-mail's link: licences_ended 1, licences_erased 1" in logged


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_a_database_out_of_reach_erases_nothing_and_the_button_works_once_it_is_back(
    make_hub: Any, database_url: str
) -> None:
    origin = "https://vpn.example"
    hub = make_hub(public_url=origin)
    client = create_app(hub.services).test_client()
    activation = hub.services.signups.sign_up("kim@example.org", None, None, "fr")
    token = hub.services.erasures.links.mint(activation.licence.id)
    name = database_url.rsplit("/", 1)[1]
    admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        for answer in (
            client.get(f"/fr/erase/{token}"),
            client.post(f"/fr/erase/{token}", headers={"Origin": origin}),
        ):
            assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
            page = answer.get_data(as_text=True)
            assert "L’adresse n’a pas été effacée" in page and "Le service est momentanément" in page
            assert '<form method="post">' in page and "__SLOT_" not in page
    finally:
        admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    erased = client.post(f"/fr/erase/{token}", headers={"Origin": origin})
    assert erased.status_code == 200 and "Adresse effacée" in erased.get_data(as_text=True)


def test_both_doors_run_one_erasure_with_the_same_reach(make_hub: Any, tmp_path: Path) -> None:
    """`vpnsite privacy erase` and the link's button: the same use case, wired the same way."""
    for mail, journal in (("outbox", tmp_path / "erasures.jsonl"), ("smtp://127.0.0.1:2525", None)):
        hub = make_hub(mail_url=mail, **({"erasure_journal": str(journal)} if journal else {}))
        settings = hub.services.settings
        console = open_console(settings, migrate=False)
        try:
            for erasures in (hub.services.erasures, console.erasures):
                assert type(erasures) is Erasures
                if journal is None:
                    assert erasures.outbox is None and erasures.journal is None
                else:
                    assert isinstance(erasures.outbox, OutboxFolder)
                    assert erasures.outbox.folder == settings.data_dir / "outbox"
                    assert isinstance(erasures.journal, JournalFile) and erasures.journal.path == journal
        finally:
            console.close()
