"""Sign-ups under pressure in a real browser: with JavaScript, the site's own script loads its
solver only when the server asks for a challenge, says in the page's language what it is doing,
solves the challenge and reaches the activation screen; without JavaScript, the plain form gets
its share of the hour's allowance, then a "try again in …" in its language."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import Server, page_in
from vpnsite_adapters.http.messages import detail_text

# Every text a [role=status] element of the sign-up form showed, and whether the form's button was
# busy meanwhile: however short the solving, it is seen.
WATCH_STATUS = """
window.__statuses = [];
new MutationObserver(() => {
  for (const status of document.querySelectorAll("#signup [role=status]")) {
    const busy = document.querySelector("#signup button[type=submit]")?.getAttribute("aria-busy");
    const seen = status.textContent + "|busy=" + busy;
    if (!window.__statuses.includes(seen)) window.__statuses.push(seen);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_the_sites_script_solves_the_challenge_and_reaches_the_activation_screen(
    browser: Any, make_server: Callable[..., Server]
) -> None:
    server = make_server(signup_challenge="always", rate_limits="off", demo="true")
    context = browser.new_context(viewport={"width": 412, "height": 900}, base_url=server.base)
    with page_in(context) as page:
        page.add_init_script(WATCH_STATUS)
        scripts: list[str] = []
        page.on(
            "request", lambda request: scripts.append(request.url) if request.url.endswith(".js") else None
        )
        submitted: list[tuple[int, dict[str, Any]]] = []

        def answered(response: Any) -> None:
            if response.url.endswith("/api/submit-email"):
                submitted.append((response.status, json.loads(response.request.post_data or "{}")))

        page.on("response", answered)
        page.goto("/ru")
        loaded = set(scripts)
        page.fill("#signup-email", "solver@example.org")
        page.locator("#signup button[type=submit]").click()
        expect(page.get_by_role("heading", name="VPN активирован")).to_be_visible(timeout=30000)
        expect(page.get_by_text("solver@example.org")).to_be_visible()

        assert [status for status, _ in submitted] == [428, 200], "asked, then solved"
        assert "altcha" not in submitted[0][1] and submitted[1][1]["altcha"], "the solution sent once asked"
        solver = [url for url in scripts if url not in loaded]
        assert solver, "the solver is a chunk of its own, loaded only when a challenge is asked for"
        statuses = page.evaluate("window.__statuses")
        assert any("браузер" in seen and seen.endswith("busy=true") for seen in statuses), statuses
    assert server.licences() == 1


def test_without_javascript_the_form_gets_its_allowance_then_try_again_in_its_language(
    browser: Any, make_server: Callable[..., Server]
) -> None:
    server = make_server(
        signup_challenge="always", signup_challenge_floor="1", rate_limits="off", demo="true"
    )
    context = browser.new_context(java_script_enabled=False, base_url=server.base)
    with page_in(context, settle=False) as page:
        page.goto("/ru")
        page.fill("#signup-email", "plain-one@example.org")
        page.locator("#signup button[type=submit]").click()
        expect(page.get_by_role("heading", name="VPN активирован")).to_be_visible()

        page.goto("/ru")
        page.fill("#signup-email", "plain-two@example.org")
        with page.expect_response(re.compile(r"/ru/activation$")) as refused:
            page.locator("#signup button[type=submit]").click()
        assert refused.value.status == 429
        wait = int(refused.value.headers["retry-after"])
        expect(page.locator("#signup .alert")).to_have_text(detail_text("signups_busy", "ru", seconds=wait))
        expect(page.locator("#signup-email")).to_have_value("plain-two@example.org")
    assert server.licences() == 1
