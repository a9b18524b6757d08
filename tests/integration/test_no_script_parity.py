"""Without JavaScript as with it (issue 39, points 5-7): the sign-up answers with Post/Redirect/Get,
so a reload shows the same licence and makes no other; the dashboard and the reminder's link renew
with the script's rules and messages; the activation page without the sign-up's answer goes home."""

from __future__ import annotations

import email
import re
from email.policy import default
from typing import Any

from tests.integration.test_site_forms import CODE, ORIGIN, SAME_SITE, html, make_site
from tests.site_map import LANGUAGES, localised
from vpnsite_adapters.http.app import create_app


def test_the_sign_up_redirects_to_its_answer_and_a_reload_shows_the_same_licence(make_hub: Any) -> None:
    client, services = make_site(make_hub)
    posted = client.post("/fr/activation", data={"email": "prg@example.org"}, headers=SAME_SITE)
    assert posted.status_code == 303
    assert posted.headers["Location"] == "/fr/activation"
    cookie = posted.headers["Set-Cookie"]
    assert cookie.startswith("hz_signup=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "Max-Age=1800" in cookie and "Path=/" in cookie
    assert "prg@example.org" not in cookie and "prg" not in posted.headers["Location"]

    shown = [client.get("/fr/activation") for _ in range(3)]
    codes = {CODE.search(html(page)).group(1) for page in shown}  # type: ignore[union-attr]
    assert len(codes) == 1, "every reload shows the one licence"
    code = re.sub(r"\D", "", codes.pop())
    assert all(page.status_code == 200 and page.headers["Cache-Control"] == "no-store" for page in shown)
    assert "VPN activé" in html(shown[0]) and "prg@example.org" in html(shown[0])
    assert code not in cookie
    # The same licence in another language, as the language menu asks for it.
    russian = client.get("/ru/activation?kept")
    assert "VPN активирован" in html(russian) and code in re.sub(r"<[^>]+>", "", html(russian))
    # One licence: the address has exactly one, found by its code.
    checked = client.post("/api/check-license", json={"email": "prg@example.org", "activation_code": code})
    assert checked.status_code == 200


def test_the_activation_page_without_the_sign_ups_answer_goes_home(make_hub: Any) -> None:
    client, _ = make_site(make_hub)
    for language in LANGUAGES:
        answer = client.get(localised("/activation", language))
        assert answer.status_code == 303, language
        assert answer.headers["Location"] == localised("/", language)
        # A tab the script showed an activation in gets the page, for the script to show it.
        assert client.get(localised("/activation", language) + "?kept").status_code == 200
    # A cookie this server did not seal is no answer.
    client.set_cookie("hz_signup", "A" * 80)
    assert client.get("/activation").status_code == 303


def test_the_dashboard_renews_without_the_script_inside_the_window(make_hub: Any, clock: Any) -> None:
    client, _ = make_site(make_hub)
    posted = client.post(
        "/activation", data={"email": "renew@example.org"}, headers=SAME_SITE, follow_redirects=True
    )
    page = html(posted)
    code = re.sub(r"\D", "", CODE.search(page).group(1))  # type: ignore[union-attr]
    licence = {"email": "renew@example.org", "activation_code": code}

    early = html(client.post("/license", data=licence, headers=SAME_SITE))
    assert 'data-renewal="waiting"' in early and "You can renew from 8 April 2026." in early
    refused = client.post("/license", data={**licence, "renew": "yes"}, headers=SAME_SITE)
    assert refused.status_code == 409
    assert "8 April 2026" in html(refused)

    clock.advance(days=84)
    inside = html(client.post("/es/license", data=licence, headers=SAME_SITE))
    assert 'data-renewal="renewable"' in inside
    assert '<input type="hidden" name="renew" value="yes"/>' in inside and "Renovar" in inside
    renewed = client.post("/es/license", data={**licence, "renew": "yes"}, headers=SAME_SITE)
    page = html(renewed)
    assert renewed.status_code == 200 and 'data-renewal="renewed"' in page
    assert "14 de julio de 2026" in page, "the end moved by a whole term"
    again = client.post("/es/license", data={**licence, "renew": "yes"}, headers=SAME_SITE)
    assert again.status_code == 409, "once per window, as the script's call"


def test_the_reminders_link_renews_without_the_script(make_hub: Any, clock: Any, tmp_path: Any) -> None:
    hub = make_hub(public_url=ORIGIN)
    client = create_app(hub.services).test_client()
    client.post("/activation", data={"email": "link@example.org"}, headers=SAME_SITE)
    clock.advance(days=84)
    assert hub.jobs.send_renewal_reminders() == 1
    hub.mail.deliver_due()
    reminder = sorted((tmp_path / "data" / "outbox").glob("*.eml"))[-1]
    message = email.message_from_bytes(reminder.read_bytes(), policy=default)
    text = str(message.get_body(preferencelist=("plain",)).get_content())  # type: ignore[union-attr]
    link = next(word for word in text.split() if word.startswith(f"{ORIGIN}/license?renew="))
    path = link.removeprefix(ORIGIN)

    opened = html(client.get(path))
    assert '<form method="post"><button type="submit" class="button button-large">' in opened
    assert "Renew for 90 days" in opened
    done = client.post(path, headers=SAME_SITE)
    assert done.status_code == 200
    assert "Renewed: your licence now runs until 14 July 2026." in html(done)
    used = client.post(path, headers=SAME_SITE)
    assert used.status_code == 400 and "already been used" in html(used)
    assert client.post(path, headers={"Origin": "https://evil.example"}).status_code == 403
