"""The operator's commands against a database filled through the API, on both databases."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.integration.processes import vpnsite
from tests.support.api import sign_up
from vpnsite.retention import plan_retention
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.sql.store import SqlStore


@pytest.fixture
def filled(make_hub: Any, clock: Any, tmp_path: Path, database_url: str) -> dict[str, Any]:
    clock.moment = datetime.now(UTC)  # the commands run on the real clock
    hub = make_hub()
    services = hub.services
    client = create_app(services).test_client()
    activation = client.post("/api/create-user", json=sign_up(client, "Kim@Example.org")).get_json()
    ticket = client.post(
        "/api/support",
        json={
            "email": "kim@example.org",
            "activation_code": activation["user_code"],
            "message": "Slow in Riga.",
        },
    ).get_json()["ticket"]
    env = {
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "PATH": "/usr/bin",
    }
    return {
        "services": services,
        "hub": hub,
        "client": client,
        "activation": activation,
        "ticket": ticket,
        "env": env,
    }


def run(filled: dict[str, Any], *args: str) -> Any:
    result = vpnsite(*args, env=filled["env"])
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_tickets_are_listed_shown_and_closed(filled: dict[str, Any]) -> None:
    number = filled["ticket"]
    listing = run(filled, "tickets", "list").stdout
    assert number in listing and "Slow in Riga." in listing and "open" in listing
    shown = json.loads(run(filled, "tickets", "show", number, "--json").stdout)
    assert shown["email"] == "kim@example.org"
    assert shown["activation_code"].startswith("matches licence")
    assert run(filled, "tickets", "close", number).stdout.strip() == f"closed {number}"
    assert number not in run(filled, "tickets", "list").stdout
    assert number in run(filled, "tickets", "list", "--all").stdout
    assert vpnsite("tickets", "close", number, env=filled["env"]).returncode == 1


def test_closed_tickets_are_erased_thirty_days_later(filled: dict[str, Any]) -> None:
    hub, number = filled["hub"], filled["ticket"]
    now = hub.services.clock.now()
    hub.store.tickets.close_ticket(number, now)
    assert hub.store.retention.apply_retention(plan_retention(now, timedelta(0))).tickets_deleted == 0
    later = now + timedelta(days=31)
    assert hub.store.retention.apply_retention(plan_retention(later, timedelta(0))).tickets_deleted == 1
    assert hub.store.tickets.find_ticket(number) is None


def test_licences_find_and_stats(filled: dict[str, Any]) -> None:
    rows = json.loads(run(filled, "licences", "find", "KIM@example.org", "--json").stdout)
    assert len(rows) == 1
    stats = json.loads(run(filled, "stats", "--json").stdout)
    assert stats["servers"] == {"total": 8, "online": 0}
    assert stats["open_tickets"] == 1
    assert sum(stats["signups_per_day"].values()) == 1
    assert "sign-ups per day" in run(filled, "stats").stdout


def test_privacy_export_then_erase(filled: dict[str, Any]) -> None:
    code = filled["activation"]["user_code"]
    exported = run(filled, "privacy", "export", "kim@example.org")
    held = json.loads(exported.stdout)
    assert [lic["email"] for lic in held["licences"]] == ["Kim@example.org"]
    assert held["tickets"][0]["message"] == "Slow in Riga."
    assert code not in exported.stdout
    assert "kim@example.org" not in exported.stderr.lower()

    erased = run(filled, "privacy", "erase", "kim@example.org")
    counts = json.loads(erased.stdout)
    assert counts["licences_ended"] == 1 and len(counts["tickets"]) == 1
    assert "kim@example.org" not in erased.stderr.lower()

    check = filled["client"].post(
        "/api/check-license", json={"email": "kim@example.org", "activation_code": code}
    )
    assert check.status_code == 404
    after = json.loads(run(filled, "privacy", "export", "kim@example.org").stdout)
    assert held["mail_queue"] and after == dict.fromkeys(held, [])
    filled["services"].snapshot.refresh()
    assert filled["services"].snapshot.users == 0


def test_not_an_address_is_a_clear_error(filled: dict[str, Any]) -> None:
    result = vpnsite("privacy", "erase", "nobody", env=filled["env"])
    assert result.returncode == 2 and result.stderr == "vpnsite: that is not an e-mail address\n"


def test_vpn_list_servers(filled: dict[str, Any]) -> None:
    services = filled["services"]
    token = "riga-token"
    filled["hub"].store.fleet.set_token(
        "lv-riga", services.server_authentication.keys.read().nodes(token).current
    )
    client = filled["client"]
    beat = {"cpu_load": 12.0, "bandwidth_mbps": 3.5, "sessions": 4, "service_up": True}
    assert (
        client.post(
            "/api/node/heartbeat", json=beat, headers={"Authorization": f"Bearer {token}"}
        ).status_code
        == 200
    )
    rows = {row["id"]: row for row in json.loads(run(filled, "vpn", "list-servers", "--json").stdout)}
    assert len(rows) == 8
    assert (rows["lv-riga"]["state"], rows["lv-riga"]["load"], rows["lv-riga"]["sessions"]) == (
        "online",
        "12%",
        4,
    )
    assert rows["nl-amsterdam"]["state"] == "offline"
    assert "lv-riga" in run(filled, "vpn", "list-servers").stdout


@pytest.mark.parametrize(
    "command", [["stats"], ["tickets", "list"], ["mail", "status"], ["vpn", "list-servers"]]
)
def test_a_command_that_only_reads_never_migrates_the_database(
    command: list[str], database_url: str, tmp_path: Path
) -> None:
    env = {
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
        "PATH": "/usr/bin",
    }
    refused = vpnsite(*command, env=env)
    assert (
        refused.returncode == 2 and "no database" in refused.stderr and "`vpnsite migrate`" in refused.stderr
    )
    untouched = SqlStore.open(database_url, run_migrations=False)
    try:
        assert untouched.schema_version() == 0, "a read-only command created tables"
    finally:
        untouched.close()
    assert vpnsite("migrate", env=env).returncode == 0
    assert vpnsite(*command, env=env).returncode == 0


def test_a_vpn_server_never_gets_a_hub_secret(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"VPNSITE_DATA_DIR": str(data), "PATH": "/usr/bin"}
    result = vpnsite("node", "run", "--dir", str(tmp_path / "no-such-directory"), env=env)
    assert result.returncode == 2 and "no-such-directory" in result.stderr
    assert not data.exists(), "the node side created the hub's data directory (and its secret key)"


def test_a_command_run_outside_the_hubs_directory_refuses_and_creates_nothing(
    filled: dict[str, Any], tmp_path: Path
) -> None:
    """Run where the hub's data is not, an erasure would have erased nothing from a new, empty
    database and said so as if it were done."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PATH": "/usr/bin"}
    for command in (("privacy", "erase", "kim@example.org"), ("licences", "find", "kim@example.org")):
        result = vpnsite(*command, env=env, cwd=elsewhere)
        assert result.returncode == 2, result.stdout + result.stderr
        assert str(elsewhere / "vpnsite-data") in result.stderr
        assert str(elsewhere / "vpnsite-data" / "vpnsite.db") in result.stderr
        assert result.stdout == ""
    assert list(elsewhere.iterdir()) == [], "no data directory, no database, no secret key"

    erased = run(filled, "privacy", "erase", "kim@example.org")
    assert json.loads(erased.stdout)["licences_ended"] == 1
    assert "written to the database" in erased.stderr


def test_an_empty_database_server_database_is_not_the_hubs(tmp_path: Path, database_url: str) -> None:
    """A database that exists but holds no hub (a database server's fresh one): refused too."""
    if database_url.startswith("sqlite"):
        (tmp_path / "empty.db").touch()
        database_url = f"sqlite:///{tmp_path / 'empty.db'}"
    result = vpnsite(
        "tickets", "list", env={"PATH": "/usr/bin", "VPNSITE_DATABASE_URL": database_url}, cwd=tmp_path
    )
    assert result.returncode == 2 and "no database" in result.stderr, result.stdout + result.stderr
