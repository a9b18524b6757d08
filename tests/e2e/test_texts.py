"""The operator's identity survives hydration: the server writes it into the page, and the script
renders the same values, also on pages it renders itself after a client-side navigation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import page_in
from vpnsite.personal_data import INVENTORY

NAME = "Smith & <Sons> Ltd"


@pytest.fixture(scope="module")
def operator_server(make_server: Any) -> Any:
    return make_server(rate_limits="off", operator_name=NAME, operator_number="SC123456")


@pytest.fixture
def operator_page(browser: Any, operator_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=operator_server.base)
    with page_in(context, settle=False) as opened:
        yield opened


def test_the_operator_stays_after_hydration_and_on_client_rendered_pages(operator_page: Any) -> None:
    page = operator_page
    page.goto("/fr/about", wait_until="networkidle")
    footer = page.locator(".site-footer .operator")
    assert NAME in footer.inner_text() and "SC123456" in footer.inner_text()
    assert NAME in page.locator("#company").inner_text()
    page.locator(".site-footer").get_by_role("link", name="Politique de confidentialité").click()
    page.wait_for_url(re.compile(r"/fr/privacy$"))
    controller = page.locator("#controller")
    controller.wait_for()
    assert NAME in controller.inner_text() and "SC123456" in controller.inner_text()
    assert "__OPERATOR_" not in page.locator("body").inner_text()
    assert page.locator("[data-kind]").count() == len(INVENTORY)
