"""Without JavaScript as with it (issue 39, points 5, 6 and 8), in a real browser against a real
`vpnsite serve` that mails through a real SMTP server: a sign-up reloaded is one licence and one
e-mail; the dashboard renews inside the window (a five-day term puts a new licence in it); the
licence e-mail's links open the licence with its servers on a phone, and the support page."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect

from tests.e2e.conftest import Server
from tests.integration.processes import free_port, vpnsite
from tests.integration.test_mail import Inbox, body_of
from tests.support.serve import serve, stop

IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"


class Mailed(Server):
    inbox: Inbox


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mailed]:
    tmp = tmp_path_factory.mktemp("no-script")
    inbox, smtp_port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    data_dir = tmp / "data"
    env = {
        **os.environ,
        "VPNSITE_DATA_DIR": str(data_dir),
        "VPNSITE_RATE_LIMITS": "off",
        "VPNSITE_LICENCE_DAYS": "5",
        "VPNSITE_MAIL_URL": f"smtp://127.0.0.1:{smtp_port}?starttls=off",
    }
    env.pop("VPNSITE_DATABASE_URL", None)
    assert vpnsite("vpn", "init", env=env).returncode == 0
    added = vpnsite(
        "vpn", "add-server", "nl-ams-1", "--country", "nl", "--city", "Amsterdam", "--host", "nl.example.com",
        "--udp-port", "1194", "--tcp-port", "443", "--display-name", "Netherlands", env=env,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    served = serve(env, tmp / "serve.log", port=free_port())
    server = Mailed(served.base, data_dir, served.process)
    server.inbox = inbox
    yield server
    stop(served.process)
    controller.stop()
    shutil.rmtree(tmp, ignore_errors=True)


def no_script(browser: Any, server: Server, width: int = 1280) -> Any:
    context = browser.new_context(
        java_script_enabled=False, base_url=server.base, viewport={"width": width, "height": 900}
    )
    return context.new_page()


def mails_to(inbox: Inbox, address: str) -> list[Any]:
    return [message for message in inbox.messages if message["To"] == address]


def wait_for_mail(inbox: Inbox, address: str) -> Any:
    deadline = time.monotonic() + 20
    while not mails_to(inbox, address):
        assert time.monotonic() < deadline, "the licence e-mail did not come"
        time.sleep(0.1)
    return mails_to(inbox, address)[0]


def sign_up(page: Any, email: str, prefix: str = "") -> str:
    page.goto(prefix or "/")
    page.fill("#signup-email", email)
    page.locator("#signup button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(prefix) + r"/activation$"))
    return str(page.locator("#activation-code").inner_text())


def test_a_sign_up_reloaded_is_one_licence_and_one_email(browser: Any, mailed: Mailed) -> None:
    page = no_script(browser, mailed)
    before = mailed.licences()
    code = sign_up(page, "reload@example.org", "/ru")
    assert re.fullmatch(r"\d{20}", code) and code not in page.url
    for _ in range(2):
        page.reload()
        expect(page.get_by_role("heading", name="VPN активирован")).to_be_visible()
        expect(page.locator("#activation-code")).to_have_text(code)
    # Another language from the menu: the same licence.
    page.locator("summary.language-button").click()
    page.get_by_role("link", name="Español").click()
    page.wait_for_url(re.compile(r"/es/activation\?kept$"))
    expect(page.get_by_role("heading", name="VPN activada")).to_be_visible()
    expect(page.locator("#activation-code")).to_have_text(code)
    assert mailed.licences() == before + 1
    message = wait_for_mail(mailed.inbox, "reload@example.org")
    assert code in re.sub(r"\D", "", body_of(message))
    # A second e-mail would have gone while the first was being sent: the queue sends at once.
    page.reload()
    assert len(mails_to(mailed.inbox, "reload@example.org")) == 1
    assert mailed.licences() == before + 1
    cookie = next(c for c in page.context.cookies() if c["name"] == "hz_signup")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and code not in cookie["value"]
    page.context.close()

    # Another browser has no sign-up to show: home.
    stranger = no_script(browser, mailed)
    stranger.goto("/ru/activation")
    stranger.wait_for_url(re.compile(r"/ru$"))
    stranger.context.close()


def test_the_dashboard_renews_inside_the_window(browser: Any, mailed: Mailed) -> None:
    page = no_script(browser, mailed)
    code = sign_up(page, "renew@example.org")
    page.locator(".header-actions .login").click()
    page.fill("#licence-email", "renew@example.org")
    page.fill("#licence-code", code)
    page.locator("form.form button[type=submit]").click()
    ends = page.locator(".details dd").nth(3)
    before = ends.inner_text()
    expect(page.locator(".big-number")).to_have_text("5")
    button = page.get_by_role("button", name="Renew for 5 days")
    expect(button).to_be_visible()
    expect(page.get_by_text("You can renew from")).to_be_hidden()
    button.click()
    expect(page.locator(".renew-done")).to_contain_text("Renewed: your licence now runs until")
    expect(page.locator(".big-number")).to_have_text("10")
    assert ends.inner_text() != before
    expect(page.locator(".renew-done")).to_contain_text(ends.inner_text())
    expect(page.get_by_role("button", name="Renew for 5 days")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize("javascript", [False, True])
def test_the_licence_emails_links_open_the_licence_with_its_servers_and_support(
    browser: Any, mailed: Mailed, javascript: bool
) -> None:
    address = f"phone-{javascript}@example.org".lower()
    page = no_script(browser, mailed)
    sign_up(page, address, "/fr")
    page.context.close()
    text = body_of(wait_for_mail(mailed.inbox, address))
    assert "Sur un téléphone, en quelques gestes" in text
    setup = next(word for word in text.split() if "/fr/license/setup/" in word)
    support = next(word for word in text.split() if word.endswith("/fr/support"))

    phone = browser.new_context(
        java_script_enabled=javascript,
        viewport={"width": 390, "height": 844},
        user_agent=IPHONE,
    ).new_page()
    phone.goto(setup)
    expect(phone.get_by_role("heading", name="Votre licence")).to_be_visible()
    expect(phone.locator(".details")).to_contain_text(address)
    row = phone.locator('.profile-row[data-server="nl-ams-1"]')
    expect(row.get_by_role("link", name="Ouvrir dans OpenVPN Connect")).to_be_visible()
    phone.goto(support)
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    assert phone.url.endswith("/fr/support")
    # A link not signed by this server opens nothing.
    answer = phone.goto(setup[:-4] + "AAAA")
    assert answer is not None and answer.status == 404
    phone.context.close()
