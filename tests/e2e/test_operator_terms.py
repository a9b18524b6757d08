"""An operator who runs a 30-day licence and a free tier of 5,000 users gets a site that says so in a
browser: on the page the server sends, after the script has taken it over, and on the pages the
script draws itself when the visitor follows a link (the FAQ, the terms), in the page's language."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Server, page_in

HOME = {
    "/": [
        "Free for the first 5,000 users",
        "a licence for 30 days",
        "Free for the first 5,000 users: if that ever changes",
    ],
    "/ru": ["Бесплатно для первых 5\u00a0000 пользователей", "лицензию на 30 дней"],
}
# Reached by a link: the script draws these pages from its own texts, with the server's terms.
FOLLOWED = {
    "/": ("/support", "What happens after 30 days?"),
    "/ru": ("/ru/terms", "Лицензия действует 30 дней"),
}


@pytest.fixture(scope="module")
def operator(make_server: Callable[..., Server]) -> Server:
    return make_server(rate_limits="off", demo="true", licence_days="30", free_tier_cap="5000")


@pytest.fixture
def visitor(browser: Any, operator: Server) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=operator.base)
    with page_in(context, settle=False) as page:
        yield page


@pytest.mark.parametrize("home", sorted(HOME))
def test_the_operators_terms_are_said_before_and_after_the_script_and_on_the_pages_it_draws(
    visitor: Any, home: str
) -> None:
    visitor.goto(home, wait_until="networkidle")
    hero = visitor.locator("main")
    for text in HOME[home]:
        expect(hero).to_contain_text(text)
    expect(hero).not_to_contain_text("90 d")
    path, said = FOLLOWED[home]
    visitor.locator(f'a[href="{path}"]').first.click()
    expect(visitor).to_have_url(re.compile(re.escape(path) + "$"))
    expect(visitor.locator("main")).to_contain_text(said)
    expect(visitor.locator("main")).not_to_contain_text("{{")
