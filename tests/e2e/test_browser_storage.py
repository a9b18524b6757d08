"""What the site keeps in the browser (issue 28), read from a real browser after a sign-up and after
a licence check: the hz_id cookie; in the tab's sessionStorage, its last activation without the code
and, while a sign-up form is out, that form's signature and when the mark ends; in localStorage,
nothing. The code lives only in the page that showed it: after a reload or another language the
activation screen says it is in the licence e-mail."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import serious_violations
from tests.e2e.test_interaction import open_page, sign_up

SHOTS = Path("/tmp/shots")
WIDTHS = [390, 1280]
FORM_LIFETIME_S = 30 * 60  # REQUEST_TTL; tests/unit/test_ui_signed_form_lifetime.py ties the UI to it
ACTIVATION = "vpnsite:activation"
SENT = "vpnsite:signup-sent"

# Every entry of both storages, as the page's own script could read them.
STORAGE = """() => {
  const entries = (storage) =>
    Object.fromEntries(Object.keys(storage).map((key) => [key, storage.getItem(key)]));
  return { local: entries(localStorage), session: entries(sessionStorage) };
}"""

CODE_IN_EMAIL = {
    "en": "For your security, the site keeps no copy of your activation code in this browser",
    "ru": "Ради вашей безопасности сайт не сохраняет код активации в этом браузере",
}


@pytest.fixture(params=WIDTHS, ids=[f"{width}px" for width in WIDTHS])
def visitor(request: pytest.FixtureRequest, browser: Any, server: Any) -> Iterator[Any]:
    yield from open_page(browser, server, viewport={"width": request.param, "height": 844})


def stored(page: Any) -> dict[str, dict[str, str]]:
    return dict(page.evaluate(STORAGE))


def assert_keeps_no_code(page: Any, code: str) -> dict[str, str]:
    """No storage entry and no cookie holds the code, with or without its spaces; localStorage is
    empty and the only cookies are hz_id and, once a licence was opened, hz_device (which holds no
    address either). Returns the tab's sessionStorage."""
    found = stored(page)
    cookies = page.context.cookies()
    entries = [*found["local"].items(), *found["session"].items()]
    entries += [(cookie["name"], cookie["value"]) for cookie in cookies]
    for key, value in entries:
        assert code not in re.sub(r"\D", "", key + value), (key, value)
    assert found["local"] == {}
    assert {cookie["name"] for cookie in cookies} <= {"hz_id", "hz_device"}
    assert not any("@" in cookie["value"] for cookie in cookies)
    return found["session"]


def assert_keeps_the_activation_without_code(session: dict[str, str], email: str) -> None:
    assert set(session) == {ACTIVATION}
    kept = json.loads(session[ACTIVATION])
    assert set(kept) == {"user_email", "user_days", "user_stop", "emailed"}
    assert kept["user_email"] == email and kept["user_days"] == 90
    assert 89 * 86400 < kept["user_stop"] - time.time() <= 90 * 86400


def switch_language(page: Any, name: str) -> None:
    page.locator("summary.language-button").click()
    page.get_by_role("link", name=name).click()


def test_the_activation_screen_keeps_its_result_but_not_the_code(visitor: Any, server: Any) -> None:
    width = visitor.viewport_size["width"]
    email = f"storage-{width}@example.org"
    code = sign_up(visitor, email)
    count = server.licences()
    assert_keeps_the_activation_without_code(assert_keeps_no_code(visitor, code), email)

    # Another language is another page: the same activation, the code not on it but where it is.
    switch_language(visitor, "Русский")
    visitor.wait_for_url(re.compile(r"/ru/activation(\?kept)?$"))
    expect(visitor.get_by_role("heading", name="VPN активирован")).to_be_visible()
    details = visitor.locator(".details")
    expect(details).to_contain_text(email)
    expect(details).to_contain_text("90 дней")
    expect(details.locator(".notice")).to_contain_text(CODE_IN_EMAIL["ru"])
    expect(visitor.locator("#activation-code")).to_have_count(0)
    expect(visitor.locator(".archive")).to_have_count(0)
    expect(visitor.locator(".notice")).to_be_in_viewport()
    assert serious_violations(visitor) == []
    SHOTS.mkdir(exist_ok=True)
    visitor.screenshot(path=str(SHOTS / f"activation-ru-after-language-switch-{width}.png"))
    assert_keeps_the_activation_without_code(assert_keeps_no_code(visitor, code), email)

    # A reload, the same.
    visitor.reload(wait_until="networkidle")
    switch_language(visitor, "English")
    visitor.wait_for_url(re.compile(r"\d/activation(\?kept)?$"))
    visitor.reload(wait_until="networkidle")
    expect(visitor.get_by_role("heading", name="VPN activated")).to_be_visible()
    expect(visitor.locator(".details .notice")).to_contain_text(CODE_IN_EMAIL["en"])
    expect(visitor.locator(".details")).to_contain_text("90 days")
    expect(visitor.locator("#activation-code")).to_have_count(0)
    assert_keeps_the_activation_without_code(assert_keeps_no_code(visitor, code), email)
    assert server.licences() == count


def test_the_licence_check_fills_the_code_only_from_the_page_that_showed_it(visitor: Any) -> None:
    width = visitor.viewport_size["width"]
    email = f"check-{width}@example.org"
    code = sign_up(visitor, email)

    # Within the page: the licence form takes e-mail and code from the activation it just showed.
    if width < 600:
        visitor.locator("summary.menu-button").click()
        visitor.locator("#mobile-nav").get_by_role("link", name="My licence").click()
    else:
        visitor.get_by_role("link", name="My licence").first.click()
    expect(visitor.locator("#licence-code")).to_have_value(code)
    expect(visitor.locator("#licence-email")).to_have_value(email)
    visitor.locator("form.card button[type=submit]").click()
    expect(visitor.locator(".big-number")).to_have_text("90")
    expect(visitor.locator(".dashboard code")).to_have_text(code)
    assert_keeps_the_activation_without_code(assert_keeps_no_code(visitor, code), email)
    # Back on the activation screen of the same page, the code is still there.
    visitor.go_back()
    expect(visitor.locator("#activation-code")).to_have_text(code)

    # A new page: the e-mail only; the code is typed, and the check keeps nothing of it.
    visitor.goto("/license")
    expect(visitor.locator("#licence-email")).to_have_value(email)
    expect(visitor.locator("#licence-code")).to_have_value("")
    visitor.fill("#licence-code", code)
    visitor.locator("form.card button[type=submit]").click()
    expect(visitor.locator(".big-number")).to_have_text("90")
    assert_keeps_the_activation_without_code(assert_keeps_no_code(visitor, code), email)


def test_the_sent_mark_guards_the_form_ends_with_it_and_names_nobody(page: Any, server: Any) -> None:
    """Set before create-user, kept after a failure so the same form is not sent again, gone
    once a licence comes; its signature says nothing about the visitor."""
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if "/api/create-user" in r.url else None)
    page.route("**/api/create-user", lambda route: route.fulfill(status=503, json={"detail": "Down"}))
    page.goto("/")
    page.fill("#signup-email", "guard@example.org")
    page.click("#signup button[type=submit]")
    expect(page.get_by_role("heading", name="An error occurred while setting up your VPN.")).to_be_visible(
        timeout=15000
    )
    form = sent[0]
    found = stored(page)
    assert found["local"] == {} and set(found["session"]) == {SENT}
    mark = json.loads(found["session"][SENT])
    assert set(mark) == {"sig", "until"} and mark["sig"] == form["sig"]
    assert re.fullmatch(r"[0-9a-f]{64}", mark["sig"])
    assert "guard" not in found["session"][SENT]
    assert FORM_LIFETIME_S - 60 < mark["until"] / 1000 - time.time() <= FORM_LIFETIME_S

    # The same form again in this tab (its page restored with it, at the address that asks the
    # server for the page: bare, it sends home): not sent, the error shown.
    calls = len(sent)
    page.evaluate(
        """(sent) => {
             const formData = { ...sent, user_email: sent.email };
             history.replaceState({ formData, email: sent.email }, "", location.pathname + "?kept");
           }""",
        form,
    )
    page.reload(wait_until="networkidle")
    expect(page.get_by_role("button", name="Try again")).to_be_visible()
    assert len(sent) == calls

    # Tried again with the service back: one licence, and the mark is gone.
    before = server.licences()
    page.unroute("**/api/create-user")
    page.get_by_role("button", name="Try again").click()
    code = page.locator("#activation-code")
    expect(code).to_be_visible(timeout=15000)
    assert server.licences() == before + 1
    session = assert_keeps_no_code(page, code.inner_text())
    assert_keeps_the_activation_without_code(session, "guard@example.org")


def test_what_earlier_versions_left_is_removed(page: Any) -> None:
    page.goto("/about")
    page.evaluate(
        """() => {
             localStorage.setItem("created" + "ab".repeat(32), "1");
             const old = { user_email: "old@example.org", user_code: "12345678901234567895" };
             sessionStorage.setItem("vpnsite:last-activation", JSON.stringify(old));
           }"""
    )
    page.goto("/fr")
    assert stored(page) == {"local": {}, "session": {}}
