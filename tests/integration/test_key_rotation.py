"""Rotating the master key on a running `vpnsite serve`, as an operator does with `vpnsite keys`, on
SQLite and PostgreSQL: nothing issued before the rotation stops working, a used code moves to the
new key, retiring the old key ends only what still depended on it, and VPN profiles never change."""

from __future__ import annotations

import io
import json
import os
import stat
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from tests.integration.processes import vpnsite
from tests.support.api import sign_up
from tests.support.serve import serve, signed_form, stop
from vpnsite.codes import code_groups
from vpnsite.keyed_hashes import Keyring
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.mail.outbox import OutboxMailer
from vpnsite_adapters.mail.queue import MailQueue
from vpnsite_adapters.protection.keyring_file import RingFileReader, file_keyring

SECRET = "the original master secret of this test, 40+ characters"
DEADLINE = 20.0


def run(env: dict[str, str], *args: str, code: int = 0) -> Any:
    result = vpnsite(*args, env=env)
    assert result.returncode == code, result.stdout + result.stderr
    return result


def poll(condition: Callable[[], bool], what: str) -> None:
    """Until ``condition`` holds: a running process picks up a changed ring within seconds."""
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def key_counts(env: dict[str, str]) -> dict[int, dict[str, Any]]:
    return {row["id"]: row for row in json.loads(run(env, "keys", "list", "--json").stdout)}


def create(base: str, email: str, form: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = requests.post(base + "/api/create-user", json=form or signed_form(base, email), timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def check(base: str, email: str, code: str) -> requests.Response:
    return requests.post(
        base + "/api/check-license", json={"email": email, "activation_code": code}, timeout=10
    )


def archive(url: str) -> dict[str, bytes]:
    response = requests.get(url, timeout=10)
    assert response.status_code == 200, response.text
    with zipfile.ZipFile(io.BytesIO(response.content)) as zipped:
        return {name: zipped.read(name) for name in zipped.namelist()}


def heartbeat(base: str, token: str) -> int:
    beat = {"cpu_load": 5.0, "bandwidth_mbps": 10.0, "sessions": 0, "service_up": True}
    headers = {"Authorization": f"Bearer {token}"}
    return requests.post(base + "/api/node/heartbeat", json=beat, headers=headers, timeout=10).status_code


def test_rotating_and_retiring_the_master_key_on_a_running_server(
    environment: dict[str, str], tmp_path: Path
) -> None:
    env = {**environment, "VPNSITE_SECRET_KEY": SECRET, "VPNSITE_RATE_LIMITS": "off"}
    run(env, "vpn", "init")
    added = run(
        env, "vpn", "add-server", "nl-1", "--country", "nl", "--city", "Amsterdam", "--host", "203.0.113.9"
    )
    server_token = added.stdout.strip().splitlines()[-1]
    served = serve(env, tmp_path / "serve.log")
    try:
        base = served.base
        anna = create(base, "anna@example.org")
        kim = create(base, "kim@example.org")
        pending = signed_form(base, "lee@example.org")
        late = signed_form(base, "late@example.org")
        profiles = archive(anna["activation_url"])
        assert any(name.endswith(".ovpn") for name in profiles)

        rotated = run(env, "keys", "rotate").stdout
        assert "added key 2; it is current" in rotated
        ring_file = Path(env["VPNSITE_DATA_DIR"]) / "keyring.json"
        assert stat.S_IMODE(ring_file.stat().st_mode) == 0o600
        ring_secret = json.loads(ring_file.read_text())["keys"][0]["secret"]

        signed_up: list[str] = []

        def signs_with_the_new_key() -> bool:
            signed_up.append(create(base, f"probe{len(signed_up)}@example.org")["user_code"])
            return bool(key_counts(env).get(2, {}).get("codes"))

        poll(signs_with_the_new_key, "the running server never started hashing codes under key 2")
        assert create(base, "lee@example.org", pending)["user_email"] == "lee@example.org", (
            "a sign-up form signed before the rotation is redeemed after it"
        )
        assert archive(anna["activation_url"]) == profiles, "a link made before the rotation still opens"
        before_check = key_counts(env)[1]["codes"]
        assert check(base, "anna@example.org", anna["user_code"]).status_code == 200
        assert key_counts(env)[1]["codes"] == before_check - 1, "a code checked is stored under the new key"
        assert key_counts(env)[1]["server_tokens"] == 1, "the server was added before the rotation"
        assert heartbeat(base, server_token) == 200
        assert key_counts(env)[1]["server_tokens"] == 0, "the server's token moved to the new key"
        carol = create(base, "carol@example.org")

        listing = run(env, "keys", "list").stdout
        assert "current" in listing and SECRET not in listing and ring_secret not in listing

        held_by_key_1 = key_counts(env)[1]["codes"]
        assert held_by_key_1 >= 1, "Kim's code, never used since the rotation, is still under key 1"
        refused = run(env, "keys", "retire", "1", code=1)
        assert f"{held_by_key_1} licence(s) would lose their code" in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1 and "--force" in refused.stderr
        assert key_counts(env)[1]["state"] == "verifies", "a refusal changes nothing"
        forced = run(env, "keys", "retire", "1", "--force").stdout
        assert f"retired key 1: {held_by_key_1} licence(s) lost their code" in forced, forced

        # Until the server has read the ring again, Kim could still use her code, which would
        # move it to key 2 — rightly: so wait on something that reading cannot change, the old
        # key's archive link.
        poll(
            lambda: requests.get(anna["activation_url"], timeout=10).status_code == 404,
            "the running server never dropped the retired key",
        )
        assert check(base, "kim@example.org", kim["user_code"]).status_code == 404, (
            "the retired key's unused code kept working"
        )
        for holder, code in (
            ("anna@example.org", anna["user_code"]),
            ("carol@example.org", carol["user_code"]),
            (f"probe{len(signed_up) - 1}@example.org", signed_up[-1]),
        ):
            assert check(base, holder, code).status_code == 200, holder
        assert requests.post(base + "/api/create-user", json=late, timeout=10).status_code == 403, (
            "a form signed by the retired key is refused"
        )
        assert heartbeat(base, server_token) == 200, "the VPN server still reaches the hub"
        fresh = check(base, "anna@example.org", anna["user_code"]).json()["license"]["configUrl"]
        assert archive(fresh) == profiles, "the profiles are the same after retirement"
        states = {key_id: row["state"] for key_id, row in key_counts(env).items()}
        assert states == {1: "retired", 2: "current"}
    finally:
        stop(served.process)


def test_a_message_sealed_before_a_rotation_is_delivered_after_it(make_hub: Any, tmp_path: Path) -> None:
    # The SMTP server refuses, so the licence e-mail waits in the queue, sealed under key 1.
    hub = make_hub(mail_url="smtp://127.0.0.1:9", mail_timeout=1)
    client = create_app(hub.services).test_client()
    code = client.post("/api/create-user", json=sign_up(client, "anna@example.org")).get_json()["user_code"]
    assert hub.store.mail_queue.status().queued == 1
    hub.jobs.stop()  # the process stops, giving back the message its sender was handed
    settings = hub.services.settings
    # The same data directory, so the same generated secret.key: the operator's command.
    run({**os.environ, "VPNSITE_DATA_DIR": str(settings.data_dir)}, "keys", "rotate")
    outbox = tmp_path / "outbox"
    rotated = MailQueue(
        hub.store.mail_queue,
        OutboxMailer(outbox, "no-reply@example.org"),
        file_keyring(settings.data_dir, settings.secret_key),
        hub.services.clock,
        hub.store.unit_of_work,
    )
    assert rotated.deliver_due() == (1, 0)
    [mail] = list(outbox.glob("*.eml"))
    assert " ".join(code_groups(code)) in mail.read_text()


def test_a_staged_key_verifies_before_it_signs_and_bad_requests_get_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "VPNSITE_DATA_DIR": str(tmp_path / "data"), "VPNSITE_SECRET_KEY": SECRET}
    assert "verify-only" in run(env, "keys", "rotate", "--stage").stdout
    seconds = [0.0]
    reader = RingFileReader(tmp_path / "data" / "keyring.json", SECRET.encode(), lambda: seconds[0])
    ring = Keyring(reader)
    assert ring.current.id == 1 and [keys.id for keys in ring.read().sets] == [1, 2]
    run(env, "migrate")
    for args, says in (
        (("keys", "use", "7"), "key 7 is not in the ring"),
        (("keys", "retire", "1"), "key 1 is current: rotate to a new key first"),
        (("keys", "retire", "9"), "key 9 is not in the ring"),
    ):
        assert run(env, *args, code=2).stderr == f"vpnsite: {says}\n"
    assert run(env, "keys", "use", "2").stdout.strip() == "key 2 is current"
    ring_file = tmp_path / "data" / "keyring.json"
    assert ring.current.id == 1, "the reader looks at the file at most every two seconds"
    seconds[0] += 2
    assert ring.current.id == 2
    ring_file.write_text("{ not json")
    seconds[0] += 2
    broken = run(env, "keys", "rotate", code=2)
    assert len(broken.stderr.strip().splitlines()) == 1 and "keyring.json" in broken.stderr
    assert ring.current.id == 2, "a broken ring file leaves a running process on the ring it had"
