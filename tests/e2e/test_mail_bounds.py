"""A mailbox gets one licence e-mail a day whoever signs it up: a second sign-up the same day, under
another spelling of the address, still shows its licence, and says in the page's language that the
day's e-mail already went — with the script and without it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

NOTE = {
    "en": "This address already had a licence e-mail today",
    "ru": "Сегодня на этот адрес уже отправлялось письмо с лицензией",
}


def signed_up(page: Any, email: str, prefix: str) -> Any:
    """The activation screen's note on the licence e-mail, after signing ``email`` up."""
    page.goto(prefix or "/")
    page.fill("#signup-email", email)
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#activation-code .code-group")).to_have_count(5, timeout=15000)
    return page.locator(".mail-note")


@pytest.mark.parametrize("script", [True, False], ids=["script", "no script"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_second_sign_up_of_a_mailbox_in_a_day_says_why_no_e_mail_came(
    browser: Any, server: Any, language: str, script: bool
) -> None:
    context = browser.new_context(java_script_enabled=script, base_url=server.base)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    prefix = "" if language == "en" else f"/{language}"
    local = f"bound{language}{'s' if script else 'n'}"
    try:
        # Mailed: the script draws no note; the server's answer carries it hidden.
        expect(signed_up(page, f"{local}@gmail.com", prefix)).to_be_hidden()
        note = signed_up(page, f"{local[:3]}.{local[3:]}+vpn@googlemail.com", prefix)
        expect(note).to_be_visible()
        expect(note).to_contain_text(NOTE[language])
    finally:
        context.close()
    assert errors == []
