"""The licence e-mail's "Didn't sign up? Erase this address" in a browser, with JavaScript on and
off, in English and Russian: the link opens the confirmation in the e-mail's language and erases
nothing; the button erases the address and the page says what it did; the link then leads nowhere.
On a phone (390 px) the page fits the screen. Screenshots go to VPNSITE_SHOTS when it is set."""

from __future__ import annotations

import email
import os
import re
import sqlite3
import time
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.e2e.conftest import page_in
from tests.e2e.test_accessibility import serious_violations

SHOTS = os.environ.get("VPNSITE_SHOTS")
TEXTS = {
    "en": {
        "accept": "en-GB",
        "prefix": "",
        "confirm": "Erase this address?",
        "button": "Erase this address",
        "done": "Address erased",
        "licences": "Licences erased",
        "gone": "This link has been used or is no longer valid",
    },
    "ru": {
        "accept": "ru-RU",
        "prefix": "/ru",
        "confirm": "Удалить этот адрес?",
        "button": "Удалить этот адрес",
        "done": "Адрес удалён",
        "licences": "Удалено лицензий",
        "gone": "Ссылка уже использована или больше не действует",
    },
}
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture(params=[True, False], ids=["script", "no script"])
def script(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


def visitor(browser: Any, server: Any, javascript: bool, width: int = 1280) -> Any:
    phone = width < 500
    return browser.new_context(
        base_url=server.base,
        java_script_enabled=javascript,
        viewport={"width": width, "height": 844 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
    )


def licence_email_link(server: Any, address: str, language: str) -> str:
    """Sign ``address`` up in ``language`` and read the erasure link from its licence e-mail."""
    headers = {"Accept-Language": TEXTS[language]["accept"]}
    form = requests.post(
        server.base + "/api/submit-email", json={"email": address}, headers=headers, timeout=10
    ).json()["form_data"]
    created = requests.post(
        server.base + "/api/create-user",
        json={"email": form.pop("user_email"), **form},
        headers=headers,
        timeout=10,
    )
    assert created.status_code == 200, created.text
    outbox = server.data_dir / "outbox"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for path in outbox.glob("*.eml"):
            message = email.message_from_bytes(path.read_bytes(), policy=default)
            if message["To"] == address:
                part = message.get_body(("plain",))
                assert part is not None
                where = re.escape(server.base + TEXTS[language]["prefix"])
                found = re.search(rf"{where}/erase/[\w-]+", str(part.get_content()))
                assert found is not None
                return found.group(0)
        time.sleep(0.1)
    raise AssertionError(f"no licence e-mail to {address}")


def still_held(server: Any, address: str) -> bool:
    with sqlite3.connect(server.data_dir / "vpnsite.db") as db:
        found: int = db.execute("SELECT COUNT(*) FROM licence WHERE email = ?", (address,)).fetchone()[0]
    return found > 0


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_link_confirms_and_the_button_erases(
    browser: Any, server: Any, script: bool, language: str
) -> None:
    texts = TEXTS[language]
    address = f"erase-{language}-{'js' if script else 'nojs'}@example.org"
    link = licence_email_link(server, address, language)
    with page_in(visitor(browser, server, script)) as page:
        opened = page.goto(link)
        assert opened.status == 200
        expect(page.get_by_role("heading", level=1)).to_have_text(texts["confirm"])
        expect(page.locator("main dd")).to_have_text(address)
        assert still_held(server, address), "opening the link erases nothing"

        page.get_by_role("button", name=texts["button"]).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(texts["done"])
        row = page.locator("main .details div", has=page.get_by_text(texts["licences"], exact=True))
        expect(row.locator("dd")).to_have_text("1")
        assert not still_held(server, address)

        again = page.goto(link)
        assert again.status == 410
        expect(page.get_by_role("heading", level=1)).to_have_text(texts["gone"])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_each_page_fits_the_screen_and_passes_axe(
    browser: Any, server: Any, language: str
) -> None:
    address = f"phone-{language}@example.org"
    link = licence_email_link(server, address, language)
    with page_in(visitor(browser, server, True, width=390)) as page:
        page.goto(link)
        assert page.evaluate(OVERFLOW) == 0
        assert serious_violations(page) == []
        button = page.get_by_role("button", name=TEXTS[language]["button"])
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / f"erasure-confirm-{language}-390.png"), full_page=True)
        button.click()
        expect(page.get_by_role("heading", level=1)).to_have_text(TEXTS[language]["done"])
        assert page.evaluate(OVERFLOW) == 0
        assert serious_violations(page) == []
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"erasure-done-{language}-390.png"), full_page=True)
        page.goto(link)
        expect(page.get_by_role("heading", level=1)).to_have_text(TEXTS[language]["gone"])
        assert page.evaluate(OVERFLOW) == 0
        assert serious_violations(page) == []
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"erasure-gone-{language}-390.png"), full_page=True)


def test_the_pages_load_nothing_that_could_leak_the_token(browser: Any, server: Any) -> None:
    """No script and no request to another site: the address bar's token goes nowhere."""
    link = licence_email_link(server, "leak-check@example.org", "en")
    requested: list[str] = []
    with page_in(visitor(browser, server, True)) as page:
        page.on("request", lambda request: requested.append(request.url))
        page.goto(link)
        assert page.locator("script").count() == 0
    assert all(url.startswith(server.base) for url in requested), requested
