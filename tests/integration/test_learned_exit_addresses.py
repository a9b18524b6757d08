"""The hub learns each VPN server's exit address from where its heartbeats come from (through
trusted proxies only), unless its operator or the server itself says otherwise — through the
real app and the real `vpnsite` commands, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import logging
import os
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.contract import assert_matches_contract
from tests.integration.processes import vpnsite
from tests.integration.sql import execute_sql
from tests.support.serve import serve, stop
from vpnsite.fleet import Heartbeat, Location, exit_addresses
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.sql.migrations import migrate
from vpnsite_adapters.sql.store import SqlStore
from vpnsite_adapters.texts.languages import LANGUAGES
from vpnsite_node.config import NodeConfig
from vpnsite_node.hub import HubClient

BEAT = {"cpu_load": 5, "bandwidth_mbps": 1, "sessions": 0, "service_up": True}
PROXY = "192.0.2.10"
AMSTERDAM = {"id": "nl-ams-1", "name": "Netherlands", "flag": "nl", "location": "Amsterdam"}
NOT_PROTECTED = {"protected": False, "server": None}


class Fleet:
    """A hub with one VPN server registered without exit addresses, and its client."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.client = create_app(hub.services).test_client()
        hub.store.fleet.add_server(
            Location("nl-ams-1", "Netherlands", "nl", "Amsterdam"), "vpn.example", 1194, 443
        )
        hub.store.fleet.set_token(
            "nl-ams-1", hub.services.server_authentication.keys.read().nodes("token-nl").current
        )

    def beat(self, peer: str, forwarded: str | None = None, **body: Any) -> None:
        headers = {"Authorization": "Bearer token-nl"}
        if forwarded is not None:
            headers["X-Forwarded-For"] = forwarded
        response = self.client.post(
            "/api/node/heartbeat", json={**BEAT, **body}, headers=headers, environ_base={"REMOTE_ADDR": peer}
        )
        assert response.status_code == 200, response.get_data(as_text=True)
        assert peer not in response.get_data(as_text=True), "the hub does not echo where a server is"
        self.hub.services.snapshot.refresh()

    def check(self, peer: str, forwarded: str | None = None) -> Any:
        headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
        response = self.client.get(
            "/api/connection-check", headers=headers, environ_base={"REMOTE_ADDR": peer}
        )
        return assert_matches_contract("/api/connection-check", "GET", response)


@pytest.fixture
def fleet(make_hub: Any) -> Fleet:
    return Fleet(make_hub())


@pytest.fixture
def proxied_fleet(make_hub: Any) -> Fleet:
    """The hub behind a proxy at ``PROXY``, trusted (VPNSITE_TRUSTED_PROXIES)."""
    return Fleet(make_hub(trusted_proxies=PROXY))


def test_a_server_added_without_exit_addresses_protects_visitors_from_where_its_heartbeats_come_from(
    fleet: Fleet, clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert fleet.check("203.0.113.5") == NOT_PROTECTED, "never heard from"
    fleet.beat("203.0.113.5")
    assert fleet.check("203.0.113.5") == {"protected": True, "server": AMSTERDAM}
    assert fleet.check("::ffff:203.0.113.5")["protected"] is True
    assert fleet.check("203.0.113.6") == NOT_PROTECTED
    fleet.beat("203.0.113.9")
    assert fleet.check("203.0.113.9")["protected"] is True, "a server whose address changes is followed"
    assert fleet.check("203.0.113.5") == NOT_PROTECTED
    clock.advance(seconds=31)
    fleet.hub.services.snapshot.refresh()
    assert fleet.check("203.0.113.9") == NOT_PROTECTED, "a server offline protects nobody"
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "POST /api/node/heartbeat 200" in logged and "203.0.113" not in logged, "no address is logged"


@pytest.mark.parametrize(
    ("source", "visitor"),
    [
        ("2001:db8:5::5", "2001:db8:5::5"),
        ("2001:DB8:5:0::5", "2001:db8:5::5"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
    ],
)
def test_an_ipv6_source_is_learnt_and_an_ipv4_one_seen_through_ipv6_as_ipv4(
    fleet: Fleet, source: str, visitor: str
) -> None:
    fleet.beat(source)
    assert fleet.check(visitor) == {"protected": True, "server": AMSTERDAM}
    assert fleet.check("2001:db8:5::6") == NOT_PROTECTED, "the address alone, not its network"
    assert fleet.hub.store.fleet.find_server("nl-ams-1").exit_addresses == (visitor,)


def test_behind_a_trusted_proxy_the_forwarded_address_is_learnt(proxied_fleet: Fleet) -> None:
    proxied_fleet.beat(PROXY, forwarded="198.51.100.99, 203.0.113.5")
    assert proxied_fleet.check(PROXY, forwarded="203.0.113.5") == {"protected": True, "server": AMSTERDAM}
    assert proxied_fleet.check("203.0.113.5")["protected"] is True
    assert proxied_fleet.check(PROXY, forwarded="198.51.100.99") == NOT_PROTECTED, "the hop the proxy saw"
    assert proxied_fleet.check(PROXY, forwarded="203.0.113.6") == NOT_PROTECTED
    assert proxied_fleet.check(PROXY) == NOT_PROTECTED, "the proxy itself is nobody's exit"


@pytest.mark.parametrize("trusted", ["", PROXY], ids=["no-proxy-trusted", "another-proxy-trusted"])
def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(make_hub: Any, trusted: str) -> None:
    fleet = Fleet(make_hub(trusted_proxies=trusted))
    fleet.beat("198.51.100.20", forwarded="203.0.113.5")
    assert fleet.check("203.0.113.5") == NOT_PROTECTED, "a server cannot claim another's address"
    assert fleet.check("198.51.100.20") == {"protected": True, "server": AMSTERDAM}


def test_a_heartbeat_through_an_untrusted_local_proxy_teaches_the_hub_nothing(fleet: Fleet) -> None:
    """Behind a proxy the hub was not told about, every visitor comes from the proxy's address
    too: learnt, it would tell them all they are protected."""
    for proxy in ("127.0.0.1", "::1", "172.17.0.1", "10.0.0.2"):
        fleet.beat(proxy, forwarded="203.0.113.5")
        assert fleet.check(proxy, forwarded="203.0.113.5") == NOT_PROTECTED
        assert fleet.hub.store.fleet.find_server("nl-ams-1").exit_addresses == ()


def test_exit_addresses_the_server_reports_override_the_learnt_one(fleet: Fleet) -> None:
    fleet.beat("203.0.113.5", exit_addresses=["198.51.100.7", "2001:db8:7::/64"])
    assert fleet.check("198.51.100.7")["protected"] is True
    assert fleet.check("2001:db8:7::99")["protected"] is True
    assert fleet.check("203.0.113.5") == NOT_PROTECTED
    fleet.beat("203.0.113.5", exit_addresses=[])
    assert fleet.check("203.0.113.5")["protected"] is True, "reporting none leaves it to the hub"


@pytest.fixture
def operator_env(tmp_path: Path, database_url: str) -> dict[str, str]:
    """The environment of the operator's commands, sharing the hub's data directory and database."""
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data"), "VPNSITE_DATABASE_URL": database_url}
    assert vpnsite("vpn", "init", env=env).returncode == 0
    return env


def add_server(env: dict[str, str], *options: str) -> str:
    """`vpnsite vpn add-server nl-ams-1 …` as the README shows it; the server's token."""
    where = ("--country", "nl", "--city", "Amsterdam", "--display-name", "Netherlands")
    added = vpnsite("vpn", "add-server", "nl-ams-1", *where, "--host", "vpn.example", *options, env=env)
    assert added.returncode == 0, added.stderr
    return added.stdout.strip().splitlines()[-1]


def test_a_configured_exit_address_overrides_the_learnt_one(
    operator_env: dict[str, str], make_hub: Any
) -> None:
    token = add_server(operator_env, "--exit-address", "198.51.100.7")
    hub = make_hub()
    client = create_app(hub.services).test_client()
    auth = {"Authorization": f"Bearer {token}"}
    for reported in (None, ["192.0.2.44"]):
        body = BEAT if reported is None else {**BEAT, "exit_addresses": reported}
        beat = client.post(
            "/api/node/heartbeat", json=body, headers=auth, environ_base={"REMOTE_ADDR": "203.0.113.5"}
        )
        assert beat.status_code == 200
        hub.services.snapshot.refresh()
        for visitor, protected in (("198.51.100.7", True), ("203.0.113.5", False), ("192.0.2.44", False)):
            answer = client.get("/api/connection-check", environ_base={"REMOTE_ADDR": visitor}).get_json()
            assert answer["protected"] is protected, (reported, visitor)


def test_a_learnt_address_stays_out_of_the_servers_directory(
    operator_env: dict[str, str], make_hub: Any, tmp_path: Path
) -> None:
    """node.json carries the operator's exit addresses only: a learnt one written there would be
    reported forever, however the server's address changes."""
    token = add_server(operator_env)
    hub = make_hub()
    client = create_app(hub.services).test_client()
    auth = {"Authorization": f"Bearer {token}"}
    beat = client.post(
        "/api/node/heartbeat", json=BEAT, headers=auth, environ_base={"REMOTE_ADDR": "203.0.113.5"}
    )
    assert beat.status_code == 200
    assert hub.store.fleet.find_server("nl-ams-1").exit_addresses == ("203.0.113.5",)
    out = tmp_path / "nl-ams-1"
    config = ("vpn", "server-config", "nl-ams-1", "--out", str(out), "--hub", "https://hub.example")
    written = vpnsite(*config, "--token", token, env=operator_env)
    assert written.returncode == 0, written.stderr
    assert json.loads((out / "node.json").read_text())["exit_addresses"] == []


def test_an_upgraded_hub_keeps_the_exit_addresses_its_operator_gave(database_url: str) -> None:
    """Before the hub learnt them, exit addresses came from `add-server --exit-address` (and the
    nodes reported the same): an upgrade keeps them as the operator's."""
    store = SqlStore.open(database_url, run_migrations=False)
    try:
        with store.unit_of_work.scope():
            migrate(store.db, up_to=8)
            execute_sql(
                store.db,
                "INSERT INTO vpn_server (id, name, country, city, exit_addresses) "
                "VALUES ('nl-1', 'Netherlands', 'nl', 'Amsterdam', '198.51.100.7 2001:db8:7::/64')",
            )
            assert migrate(store.db, up_to=9) == [9]
            migrate(store.db)  # and the later ones, which the model read below expects
            server = store.fleet.find_server("nl-1")
    finally:
        store.close()
    assert server is not None
    assert server.configured_exit_addresses == server.exit_addresses == ("198.51.100.7", "2001:db8:7::/64")


def wait_for_check(base: str, forwarded: str, protected: bool) -> None:
    """The running hub refreshes its view of the fleet every second or so."""
    deadline = time.monotonic() + 10
    while True:
        answer = requests.get(
            base + "/api/connection-check", headers={"X-Forwarded-For": forwarded}, timeout=5
        )
        if answer.json()["protected"] is protected:
            return
        assert time.monotonic() < deadline, f"{forwarded}: still {answer.json()}"
        time.sleep(0.2)


@pytest.mark.parametrize("trusted", [True, False], ids=["proxy-trusted", "proxy-not-trusted"])
def test_a_running_hub_learns_the_address_a_trusted_proxy_forwards(
    operator_env: dict[str, str], database_url: str, tmp_path: Path, trusted: bool
) -> None:
    """`vpnsite serve` behind a proxy on this host (127.0.0.1): with VPNSITE_TRUSTED_PROXIES the
    forwarded address is the server's exit; without, the forwarded address is no one's and the
    proxy's own (loopback) is learnt by no one."""
    token = add_server(operator_env)
    env = {**operator_env, "VPNSITE_TRUSTED_PROXIES": "127.0.0.1" if trusted else ""}
    served = serve(env, tmp_path / "serve.log")
    try:
        beat = requests.post(
            served.base + "/api/node/heartbeat",
            json=BEAT,
            headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": "203.0.113.5"},
            timeout=10,
        )
        assert beat.status_code == 200, beat.text
        with closing(SqlStore.open(database_url)) as store:
            server = store.fleet.find_server("nl-ams-1")
        assert server is not None and server.exit_addresses == (("203.0.113.5",) if trusted else ())
        if trusted:
            wait_for_check(served.base, "203.0.113.5", protected=True)
            wait_for_check(served.base, "203.0.113.6", protected=False)
        else:
            assert requests.get(served.base + "/api/connection-check", timeout=5).json() == NOT_PROTECTED
    finally:
        stop(served.process)
    assert "203.0.113" not in served.log.read_text(), "no address is logged"


@pytest.mark.parametrize("network", ["0.0.0.0/0", "198.51.0.0/16", "2001:db8::/32"])
def test_the_operator_cannot_configure_an_exit_network_wider_than_an_exit(
    operator_env: dict[str, str], network: str
) -> None:
    where = ("--country", "nl", "--city", "Amsterdam", "--host", "vpn.example")
    added = vpnsite("vpn", "add-server", "nl-ams-1", *where, "--exit-address", network, env=operator_env)
    assert added.returncode == 2
    assert "no network wider than a /24 (IPv4) or a /48 (IPv6)" in added.stderr
    narrow = vpnsite(
        "vpn", "add-server", "nl-ams-1", *where, "--exit-address", "198.51.100.0/24", env=operator_env
    )
    assert narrow.returncode == 0, narrow.stderr


# A network of each kind no visitor comes from over the internet, as a server might claim it.
RESERVED_CLAIMS = (
    "127.0.0.0/24",
    "10.0.0.0/24",
    "172.16.0.1",
    "192.168.1.0/24",
    "100.64.0.0/24",
    "169.254.0.0/24",
    "198.18.0.0/24",
    "224.0.0.1",
    "240.0.0.0/24",
    "0.0.0.0",
    "::1",
    "fd00::/64",
    "fe80::/64",
    "ff02::1",
)


def test_a_running_hub_refuses_a_reserved_exit_a_server_reports_unless_its_operator_gave_it(
    operator_env: dict[str, str], database_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Reported, a loopback or private exit would tell everyone there that they are protected:
    refused (422, naming the network, in the caller's language), nothing recorded. The operator
    may set one, and the node that reports its operator's own (node.json) keeps beating."""
    stranger = add_server(operator_env)
    where = ("--country", "nl", "--city", "Amsterdam", "--host", "vpn2.example")
    given = vpnsite(
        "vpn", "add-server", "nl-ams-2", *where, "--exit-address", "10.1.2.0/24", env=operator_env
    )
    assert given.returncode == 0, given.stderr
    operators = given.stdout.strip().splitlines()[-1]
    served = serve(operator_env, tmp_path / "serve.log")
    try:

        def beat(token: str, exits: list[str], language: str = "en") -> requests.Response:
            return requests.post(
                served.base + "/api/node/heartbeat",
                json={**BEAT, "exit_addresses": exits},
                headers={"Authorization": f"Bearer {token}", "Accept-Language": language},
                timeout=10,
            )

        for claim in RESERVED_CLAIMS:
            network = exit_addresses([claim])[0]
            messages = set()
            for language in LANGUAGES:
                refused = beat(stranger, ["198.51.100.7", claim], language)
                assert refused.status_code == 422, (claim, refused.text)
                [problem] = refused.json()["detail"]
                assert problem["loc"] == ["body", "exit_addresses"]
                assert problem["type"] == "value_error.exit_not_public"
                assert network in problem["msg"], (language, problem["msg"])
                messages.add(problem["msg"])
            assert len(messages) == len(LANGUAGES), "one text per language"
        with closing(SqlStore.open(database_url)) as store:
            server = store.fleet.find_server("nl-ams-1")
        assert server is not None and server.last_seen is None and server.exit_addresses == (), (
            "nothing recorded"
        )
        assert beat(stranger, ["198.51.100.7", "2001:db8:7::/64"]).status_code == 200, "public ones as before"

        out = tmp_path / "nl-ams-2"
        config = (
            "vpn",
            "server-config",
            "nl-ams-2",
            "--out",
            str(out),
            "--hub",
            served.base,
            "--insecure",
            "--token",
            operators,
        )
        written = vpnsite(*config, env=operator_env)
        assert written.returncode == 0, written.stderr
        node = NodeConfig.load(out)
        assert node.exit_addresses == ("10.1.2.0/24",), "the operator's exit, in the node's own file"
        hub = HubClient(node.hub, node.token, node.exit_addresses)
        assert hub.heartbeat(Heartbeat(5.0, 1.0, 0, True), None) == [], "the node keeps beating"
        with closing(SqlStore.open(database_url)) as store:
            server = store.fleet.find_server("nl-ams-2")
        assert server is not None and server.last_seen is not None
        assert server.exit_addresses == ("10.1.2.0/24",)

        edited = HubClient(node.hub, node.token, ["10.9.9.0/24"])
        with caplog.at_level(logging.WARNING, logger="vpnsite.node"):
            assert edited.heartbeat(Heartbeat(5.0, 1.0, 0, True), None) is None
        assert "only the operator can set it as an exit" in caplog.text, "the node's log says why"
    finally:
        stop(served.process)
