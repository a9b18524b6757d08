"""Where the server's answers to the forms leave a visitor without JavaScript (issue 30): the
result's heading has the focus (autofocus); a dashboard's language menu posts its licence to each
language's licence page, never in an address, and that page answers with the dashboard in the
language; a refusal says how long to wait in words; the FAQ's search box is hidden from a browser
that runs no script."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.integration.test_site_forms import SAME_SITE, html, make_site, sign_up
from vpnsite_adapters.texts.languages import PREFIXED

LANGUAGE_BUTTON = re.compile(r'<button form="shown-licence" formaction="([^"]*)" lang="[^"]+"[^>]*>')
LICENCE_FORM = re.compile(r'<form id="shown-licence" method="post" action="([^"]*)" hidden>(.*?)</form>')


@pytest.fixture
def site(make_hub: Any) -> tuple[Any, Any]:
    return make_site(make_hub)


def licence_form(page: str) -> tuple[str, dict[str, str]]:
    """The dashboard's licence form: where it posts, and its hidden fields."""
    found = LICENCE_FORM.search(page)
    assert found is not None, "the dashboard has its licence form"
    return found.group(1), dict(
        re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"/>', found.group(2))
    )


def test_the_dashboards_language_menu_posts_its_licence_to_each_language(site: tuple[Any, Any]) -> None:
    client, _ = site
    _, code = sign_up(client, "carry@example.org")
    answer = client.post(
        "/license", data={"email": "carry@example.org", "activation_code": code}, headers=SAME_SITE
    )
    page = html(answer)
    assert '<h1 id="dashboard-title" tabindex="-1" autofocus>Your licence</h1>' in page
    assert LANGUAGE_BUTTON.findall(page) == [
        "/license",
        *(f"/{prefix}/license" for prefix in PREFIXED),
    ]
    action, fields = licence_form(page)
    assert action == "/license" and fields == {"email": "carry@example.org", "activation_code": code}
    # The code goes in the post's body alone: no address on the page holds it.
    assert not [url for url in re.findall(r'(?:href|action|formaction)="([^"]*)"', page) if code in url]

    for prefix in PREFIXED:
        moved = client.post(f"/{prefix}/license", data=fields, headers=SAME_SITE)
        there = html(moved)
        assert moved.status_code == 200 and moved.headers["Cache-Control"] == "no-store"
        assert f'<html lang="{"pt-BR" if prefix == "pt" else prefix}">' in there
        assert 'id="dashboard-title" tabindex="-1" autofocus' in there
        shown = "".join(f'<span class="code-group">{code[i : i + 4]}</span>' for i in range(0, 20, 4))
        assert shown in there and licence_form(there) == (f"/{prefix}/license", fields)


def test_a_page_without_a_dashboard_links_to_the_languages(site: tuple[Any, Any]) -> None:
    client, _ = site
    for path in ("/license", "/fr/support"):
        page = html(client.get(path))
        assert not LANGUAGE_BUTTON.search(page) and 'id="shown-licence"' not in page
        assert '<a lang="ru" hreflang="ru" href="/ru' in page
    refused = html(
        client.post(
            "/license", data={"email": "x@example.org", "activation_code": "1" * 20}, headers=SAME_SITE
        )
    )
    assert not LANGUAGE_BUTTON.search(refused), "a refused check carries nothing to another language"


def test_the_results_heading_opens_with_the_focus(site: tuple[Any, Any]) -> None:
    client, _ = site
    activated, _code = sign_up(client, "landing@example.org", "/fr")
    assert '<h1 tabindex="-1" autofocus>VPN activé</h1>' in html(activated)
    sent = client.post(
        "/ru/support",
        data={"email": "landing@example.org", "activation_code": "", "message": "Не подключается."},
        headers=SAME_SITE,
    )
    assert '<h2 tabindex="-1" autofocus>Обращение отправлено</h2>' in html(sent)
    # The pages the script takes over move the focus themselves (the activation page as a tab
    # the script showed an activation in asks for it: without the sign-up's answer).
    client.delete_cookie("hz_signup")
    for path in ("/support", "/activation?kept", "/license"):
        body = html(client.get(path)).split("<body>", 1)[1]
        assert not re.search(r"<[^>]* autofocus[ >]", body), path


def test_the_faq_search_is_hidden_without_a_script(site: tuple[Any, Any]) -> None:
    client, _ = site
    for path in ("/support", "/es/support"):
        page = html(client.get(path))
        assert '<div class="search needs-script">' in page
        head = page.split("</head>", 1)[0]
        assert "<noscript><style>.needs-script{display:none}</style></noscript>" in head


def test_a_refused_ticket_says_how_long_to_wait_in_words(make_hub: Any, clock: Any) -> None:
    client, _ = make_site(make_hub, rate_limits="support:ip=1/1h")
    ticket = {"email": "wait@example.org", "activation_code": "", "message": "Hello."}
    assert client.post("/support", data=ticket, headers=SAME_SITE).status_code == 200
    refused = client.post("/support", data=ticket, headers=SAME_SITE)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "3600"
    assert '<p role="alert" class="alert">Too many requests. Please try again in 1\u00a0hour.</p>' in html(
        refused
    )
    clock.advance(seconds=2411)
    later = client.post("/ru/support", data=ticket, headers=SAME_SITE)
    assert later.headers["Retry-After"] == "1189"
    assert "Слишком много запросов. Повторите попытку через 20\u00a0минут." in html(later)
    api = client.post("/api/support", json=ticket, headers={"Accept-Language": "pt-BR"})
    assert api.get_json()["detail"] == "Muitas solicitações. Tente novamente em 20\u00a0minutos."
