"""The OpenAPI document is generated from the wire contract's classes: every call's body and answer
is a component of it, and what the operator sets (the licence term, the free tier's cap) is what
the API tells the website, so the site never says 90 days to visitors of a 30-day service."""

from __future__ import annotations

import threading
from typing import Any

from werkzeug.serving import make_server

from tests.integration.test_fleet import BEAT, beat, token_for
from tests.support.api import call, sign_up
from vpnsite.fleet import Heartbeat
from vpnsite.vpn_login_limits import PER_SERVER
from vpnsite_adapters.http.api.openapi import openapi_document
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.http.described import DESCRIBED
from vpnsite_node.gatekeeper import told
from vpnsite_node.hub import HubClient, Verdict


def test_every_call_names_its_body_and_answer_classes_in_the_document() -> None:
    document = openapi_document()
    schemas = document["components"]["schemas"]
    for path, declared in DESCRIBED.items():
        operation = document["paths"][path][declared.method]
        for cls in (declared.body, declared.answer):
            if cls is not None:
                assert cls.__name__ in schemas, f"{path}: {cls.__name__} is not in the document"
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert declared.answer is not None
        assert ok == {"$ref": f"#/components/schemas/{declared.answer.__name__}"}, path
        if declared.body is not None:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body == {"$ref": f"#/components/schemas/{declared.body.__name__}"}, path
    references = str(document)
    for name in schemas:
        assert references.count(f"#/components/schemas/{name}'") >= 1, f"{name} is declared but not used"


def test_every_json_route_is_described_beside_its_handler_and_every_description_answers(
    make_hub: Any,
) -> None:
    """The document is read from the handlers' own descriptions: no JSON route goes undescribed,
    and no description outlives its route (the polled calls are answered before Flask)."""
    hub = make_hub()
    app = create_app(hub.services)
    routed = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(("/api/", "/healthz", "/readyz")) and "<" not in rule.rule
    }
    # Not JSON: the document itself, and the deny list (text, one id a line: listed as a file).
    routed -= {"/api/openapi.json", "/api/node/deny-list"}
    polled = {path for path, call in DESCRIBED.items() if call.polled}
    assert routed == set(DESCRIBED) - polled
    client = app.test_client()
    for path in polled:
        assert client.get(path).status_code == 200, path


def test_a_hub_set_to_a_thirty_day_term_and_a_five_thousand_cap_says_so(make_hub: Any) -> None:
    hub = make_hub(licence_days=30, free_tier_cap=5000)
    client = create_app(hub.services).test_client()
    status, count = call(client, "/api/user-count")
    assert (status, count["free_tier_cap"]) == (200, 5000)

    _, activation = call(client, "/api/create-user", sign_up(client))
    assert activation["user_days"] == 30
    body = {"email": "anna@example.org", "activation_code": activation["user_code"]}
    status, checked = call(client, "/api/check-license", body)
    assert (status, checked["license"]["term_days"]) == (200, 30)


def test_the_default_term_and_cap_are_the_products(client: Any) -> None:
    assert call(client, "/api/user-count")[1]["free_tier_cap"] == 1_000_000
    _, activation = call(client, "/api/create-user", sign_up(client))
    body = {"email": "anna@example.org", "activation_code": activation["user_code"]}
    assert call(client, "/api/check-license", body)[1]["license"]["term_days"] == 90


def test_a_heartbeat_whose_list_is_not_a_list_is_told_so(hub: Any) -> None:
    client = create_app(hub.services).test_client()
    answer = beat(client, token_for(hub, "nl-amsterdam"), {**BEAT, "connections": "s1"})
    assert answer.status_code == 422
    assert answer.get_json()["detail"] == [
        {"loc": ["body", "connections"], "msg": "Expected a list.", "type": "value_error.wrong_type"}
    ]


def test_a_heartbeat_refuses_a_connection_whose_session_is_over_its_cap(hub: Any) -> None:
    client = create_app(hub.services).test_client()
    held = {"session": "s" * 65, "licence": "l1", "protocol": "udp"}
    answer = beat(client, token_for(hub, "nl-amsterdam"), {**BEAT, "connections": [held]})
    assert answer.status_code == 422
    (problem,) = answer.get_json()["detail"]
    assert problem["loc"] == ["body", "connections", 0, "session"]
    assert problem["type"] == "value_error.too_long"


def test_the_agent_and_the_hub_speak_the_same_classes(hub: Any) -> None:
    """The VPN server's client against the hub's own app over HTTP: what it sends is structured by
    the hub, what the hub answers is read back, with the classes of vpnsite_contract.node_calls."""
    server = make_server("127.0.0.1", 0, create_app(hub.services), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = HubClient(
            f"http://127.0.0.1:{server.server_port}", token_for(hub, "nl-amsterdam"), ["198.51.100.7"]
        )
        beat = Heartbeat(12.34, 5.678, 1, True)
        assert client.heartbeat(beat, [("no-such-session", "no-such-licence", "udp")]) == ["no-such-session"]
        assert client.heartbeat(beat, None) == []
        assert client.log_in("anna@example.org", "0" * 20, "udp") == Verdict(False, "bad_credentials")
        assert client.wireguard_peers() == {}
        assert HubClient(client.url, "not-a-token").heartbeat(beat, None) is None
    finally:
        server.shutdown()
        server.server_close()


def test_a_login_refused_for_now_reaches_the_app_as_openvpns_temporary_refusal(hub: Any) -> None:
    """Too many wrong codes for an address on a server: the hub says how long until it judges
    one again, and the node tells the app to wait that long and try again by itself."""
    server = make_server("127.0.0.1", 0, create_app(hub.services), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = HubClient(f"http://127.0.0.1:{server.server_port}", token_for(hub, "nl-amsterdam"))
        for n in range(PER_SERVER.limit):
            assert client.log_in("anna@example.org", f"{n:020d}") == Verdict(False, "bad_credentials")
        verdict = client.log_in("anna@example.org", "0" * 20, "udp")
        seconds = int(PER_SERVER.window.total_seconds())
        assert verdict == Verdict(False, "rate_limited", retry_after=seconds), "the hub's clock stands still"
        shown = told(verdict.reason, "https://vpn.example", verdict.retry_after)
        assert shown.startswith(f"TEMP[backoff {seconds}]: "), shown
    finally:
        server.shutdown()
        server.server_close()
