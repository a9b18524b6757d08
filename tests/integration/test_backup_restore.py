"""`vpnsite backup` taken while a real `vpnsite serve` signs people up, and `vpnsite restore` into a
new data directory and database: a new server on the restored data checks the old codes and serves
the old archive links with the same VPN keys. On SQLite and on PostgreSQL."""

from __future__ import annotations

import io
import json
import os
import re
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.processes import vpnsite
from tests.support.serve import serve, signed_form, stop
from vpnsite_adapters.protection import erasure_journal


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def databases(request: pytest.FixtureRequest) -> Iterator[tuple[str | None, str | None]]:
    """The database the backup is taken from and the one it is restored into (None: SQLite in
    the data directory)."""
    if request.param == "sqlite":
        yield None, None
        return
    create = request.getfixturevalue("new_postgres_database")
    yield create(), create()


def _environment(data_dir: Path, database_url: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VPNSITE_")}
    env.update({"VPNSITE_DATA_DIR": str(data_dir), "VPNSITE_RATE_LIMITS": "off"})
    if database_url:
        env["VPNSITE_DATABASE_URL"] = database_url
    return env


def _run(*args: str, env: dict[str, str], cwd: Path) -> Any:
    result = vpnsite(*args, env=env, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def _sign_up(base: str, email: str) -> dict[str, str]:
    created = requests.post(base + "/api/create-user", json=signed_form(base, email), timeout=30)
    assert created.status_code == 200, created.text
    return {"email": email, "code": created.json()["user_code"]}


def _check(base: str, user: dict[str, str]) -> requests.Response:
    body = {"email": user["email"], "activation_code": user["code"]}
    return requests.post(base + "/api/check-license", json=body, timeout=30)


def _profiles(base: str, config_url: str) -> dict[str, str]:
    """The .ovpn files of the archive behind a link, fetched from ``base`` (the link's own host is
    the old server's)."""
    path = re.sub(r"^https?://[^/]+", "", config_url)
    response = requests.get(base + path, timeout=30)
    assert response.status_code == 200, response.text
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist() if name.endswith(".ovpn")}


def _block(profile: str, tag: str) -> str:
    found = re.search(f"<{tag}>(.*?)</{tag}>", profile, re.S)
    assert found, tag
    return found[1]


class SignUps(threading.Thread):
    """Sign-ups one after another against a running server until told to stop."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base, self.stopping = base, threading.Event()
        self.done: list[tuple[float, dict[str, str]]] = []
        self.failures: list[str] = []

    def run(self) -> None:
        number = 0
        while not self.stopping.is_set():
            number += 1
            try:
                self.done.append((time.monotonic(), _sign_up(self.base, f"during-{number}@example.org")))
            except (AssertionError, requests.RequestException) as error:
                self.failures.append(str(error))


def test_a_backup_taken_during_sign_ups_restores_codes_links_and_vpn_keys(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source_url, target_url = databases
    old = _environment(tmp_path / "old", source_url)
    _run("vpn", "init", env=old, cwd=tmp_path)
    _run("vpn", "add-server", "nl-ams-1", "--country", "nl", "--city", "Amsterdam",
         "--host", "203.0.113.10", env=old, cwd=tmp_path)  # fmt: skip
    served = serve(old, tmp_path / "old.log")
    try:
        users = [_sign_up(served.base, f"user{n}@example.org") for n in range(3)]
        before: dict[str, dict[str, str]] = {}
        for user in users:
            checked = _check(served.base, user)
            assert checked.status_code == 200, checked.text
            user["link"] = checked.json()["license"]["configUrl"]
            before[user["email"]] = _profiles(served.base, user["link"])
        signing = SignUps(served.base)
        signing.start()
        deadline = time.monotonic() + 30
        while not signing.done and time.monotonic() < deadline:
            time.sleep(0.05)
        assert signing.done, signing.failures
        backup_started = time.monotonic()
        made = _run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
        assert signing.is_alive(), "the sign-ups ran all through the backup"
        signing.stopping.set()
        signing.join(timeout=60)
        assert not signing.failures, signing.failures
    finally:
        stop(served.process)

    assert "WARNING" in made.stderr and "secret" in made.stderr
    assert (tmp_path / "site.backup").stat().st_mode & 0o777 == 0o600

    new = _environment(tmp_path / "new", target_url)
    _run("restore", str(tmp_path / "site.backup"), env=new, cwd=tmp_path)
    restored = serve(new, tmp_path / "new.log")
    try:
        for user in users:
            assert _check(restored.base, user).status_code == 200
            after = _profiles(restored.base, user["link"])
            assert after.keys() == before[user["email"]].keys() and after, "the same servers' profiles"
            for name, profile in after.items():
                old_profile = before[user["email"]][name]
                assert _block(profile, "ca") == _block(old_profile, "ca"), "the same CA"
                assert _block(profile, "tls-crypt-v2") == _block(old_profile, "tls-crypt-v2"), "the same key"
                assert profile == old_profile
        # One moment: every sign-up finished before the backup began is in it; those during it
        # are wholly in or wholly out, and the user count agrees with the licences restored.
        restored_count = len(users)
        for finished, user in signing.done:
            status = _check(restored.base, user).status_code
            if finished < backup_started:
                assert status == 200
            assert status in (200, 404)
            restored_count += status == 200
        deadline = time.monotonic() + 15
        while True:
            count = requests.get(restored.base + "/api/user-count", timeout=10).json()["user_count"]
            if count == restored_count or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert count == restored_count
    finally:
        stop(restored.process)


@pytest.fixture
def backup(tmp_path: Path) -> Path:
    env = _environment(tmp_path / "old", None)
    _run("migrate", env=env, cwd=tmp_path)
    _run("vpn", "init", env=env, cwd=tmp_path)
    _run("backup", "--out", str(tmp_path / "site.backup"), env=env, cwd=tmp_path)
    return tmp_path / "site.backup"


def _refused(result: Any, *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    message = result.stderr.strip()
    assert message.startswith("vpnsite: ") and len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, message


def test_a_backup_never_overwrites_a_file(backup: Path, tmp_path: Path) -> None:
    content = backup.read_bytes()
    env = _environment(tmp_path / "old", None)
    _refused(vpnsite("backup", "--out", str(backup), env=env, cwd=tmp_path), "exists")
    assert backup.read_bytes() == content


def test_restore_refuses_a_data_directory_that_holds_anything(backup: Path, tmp_path: Path) -> None:
    _refused(vpnsite("restore", str(backup), env=_environment(tmp_path / "old", None), cwd=tmp_path),
             "already holds", "empty data directory")  # fmt: skip
    (tmp_path / "other" / "vpn").mkdir(parents=True)
    (tmp_path / "other" / "vpn" / "ca.key").write_text("someone's CA")
    _refused(vpnsite("restore", str(backup), env=_environment(tmp_path / "other", None), cwd=tmp_path),
             "vpn")  # fmt: skip
    assert (tmp_path / "other" / "vpn" / "ca.key").read_text() == "someone's CA"


def test_restore_refuses_links_and_empty_folders_and_writes_through_no_link(
    backup: Path, tmp_path: Path
) -> None:
    """A link in an otherwise empty data directory would take the CA key and the secrets wherever
    it points; an empty folder is something the directory holds too."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "vpn").symlink_to(elsewhere)
    _refused(vpnsite("restore", str(backup), env=_environment(linked, None), cwd=tmp_path), "vpn", "empty")
    hollow = tmp_path / "hollow"
    (hollow / "vpn").mkdir(parents=True)
    _refused(vpnsite("restore", str(backup), env=_environment(hollow, None), cwd=tmp_path), "vpn", "empty")
    assert list(elsewhere.iterdir()) == []


def test_restore_refuses_a_data_directory_that_is_or_sits_under_a_link_and_writes_nothing(
    backup: Path, tmp_path: Path
) -> None:
    """Named as an operator would (`ln -s target data; VPNSITE_DATA_DIR=data vpnsite restore …`):
    the name is checked before the settings create anything through it."""
    target = tmp_path / "target"
    target.mkdir()
    (tmp_path / "data").symlink_to(target)
    (tmp_path / "parent").symlink_to(target)
    for given, words in (("data", ("is a link",)), ("parent/data", ("sits under", "parent"))):
        env = _environment(Path(given), None)
        _refused(vpnsite("restore", str(backup), env=env, cwd=tmp_path), "nothing restored", *words)
        assert list(target.iterdir()) == [], f"nothing written through {given}"
    assert list(target.iterdir()) == []
    # The real folder, named as it is, restores.
    _run("restore", str(backup), env=_environment(target, None), cwd=tmp_path)
    assert (target / "secret.key").is_file()


def test_a_backup_taken_before_an_erasure_comes_back_without_the_erased_data(
    databases: tuple[str | None, str | None], tmp_path: Path
) -> None:
    source_url, target_url = databases
    journal = tmp_path / "erasures.jsonl"
    old = _environment(tmp_path / "old", source_url) | {"VPNSITE_ERASURE_JOURNAL": str(journal)}
    served = serve(old, tmp_path / "old.log")
    try:
        gone, stays = _sign_up(served.base, "gone@example.org"), _sign_up(served.base, "stays@example.org")
        _run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
        _run("privacy", "erase", "Gone@example.org", env=old, cwd=tmp_path)
        assert _check(served.base, gone).status_code == 404
    finally:
        stop(served.process)
    assert len(erasure_journal.read(journal).records) == 1 and "gone" not in journal.read_text()

    # Restored elsewhere, with the journal given by hand: the erasure holds; the other licence is back.
    new = _environment(tmp_path / "new", target_url)
    restoring = _run(
        "restore", str(tmp_path / "site.backup"), "--erasures", str(journal), env=new, cwd=tmp_path
    )
    assert "1 address(es) erased" in restoring.stdout
    exported = json.loads(_run("privacy", "export", "gone@example.org", env=new, cwd=tmp_path).stdout)
    assert not any(exported.values())
    restored = serve(new, tmp_path / "new.log")
    try:
        assert _check(restored.base, gone).status_code == 404
        assert _check(restored.base, stays).status_code == 200
    finally:
        stop(restored.process)
    if target_url is None:  # restored once more without the journal: the restore says what it cannot do
        bare = _run(
            "restore", str(tmp_path / "site.backup"), env=_environment(tmp_path / "bare", None), cwd=tmp_path
        )
        assert "no erasure journal" in bare.stderr


def test_restore_refuses_a_damaged_or_foreign_file_and_leaves_the_directory_empty(
    backup: Path, tmp_path: Path
) -> None:
    damaged = bytearray(backup.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    (tmp_path / "damaged").write_bytes(bytes(damaged))
    (tmp_path / "truncated").write_bytes(backup.read_bytes()[: len(damaged) // 2])
    (tmp_path / "foreign").write_text("hello")
    for name in ("damaged", "truncated", "foreign", "missing"):
        env = _environment(tmp_path / f"restored-{name}", None)
        _refused(vpnsite("restore", str(tmp_path / name), env=env, cwd=tmp_path), name)
        assert list((tmp_path / f"restored-{name}").iterdir()) == [], "nothing written"
    # So a second attempt, with a good file, is not refused.
    _run("restore", str(backup), env=_environment(tmp_path / "restored-damaged", None), cwd=tmp_path)


def test_restore_refuses_a_secret_key_setting_the_codes_would_not_check_with(
    backup: Path, tmp_path: Path
) -> None:
    env = {**_environment(tmp_path / "new", None), "VPNSITE_SECRET_KEY": "another-secret-" + "x" * 40}
    _refused(vpnsite("restore", str(backup), env=env, cwd=tmp_path), "VPNSITE_SECRET_KEY")
    same = (tmp_path / "old" / "secret.key").read_text().strip()
    _run("restore", str(backup), env={**env, "VPNSITE_SECRET_KEY": same}, cwd=tmp_path)


def test_a_secret_key_from_the_environment_is_kept_in_the_backup(tmp_path: Path) -> None:
    secret = "a-secret-from-the-environment-" + "y" * 20
    env = {**_environment(tmp_path / "old", None), "VPNSITE_SECRET_KEY": secret}
    _run("migrate", env=env, cwd=tmp_path)
    assert not (tmp_path / "old" / "secret.key").exists()
    _run("backup", "--out", str(tmp_path / "site.backup"), env=env, cwd=tmp_path)
    _run("restore", str(tmp_path / "site.backup"), env=_environment(tmp_path / "new", None), cwd=tmp_path)
    assert (tmp_path / "new" / "secret.key").read_text() == secret
    assert (tmp_path / "new" / "secret.key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o700


def test_restore_refuses_a_backup_of_a_newer_schema(backup: Path, tmp_path: Path) -> None:
    newer = tmp_path / "newer.backup"
    with tarfile.open(backup, "r:gz") as source, tarfile.open(newer, "w:gz") as target:
        for member in source:
            content = source.extractfile(member).read()  # type: ignore[union-attr]
            if member.name == "manifest.json":
                content = json.dumps({**json.loads(content), "schema_version": 999}).encode()
                member.size = len(content)
            target.addfile(member, io.BytesIO(content))
    env = _environment(tmp_path / "new", None)
    _refused(vpnsite("restore", str(newer), env=env, cwd=tmp_path), "schema version 999", "newer vpnsite")
    assert list((tmp_path / "new").iterdir()) == []


def test_a_backup_after_a_rotation_keeps_the_ring_and_the_codes_of_every_key(tmp_path: Path) -> None:
    old = _environment(tmp_path / "old", None)
    served = serve(old, tmp_path / "old.log")
    try:
        before = _sign_up(served.base, "before@example.org")
        _run("keys", "rotate", env=old, cwd=tmp_path)
        # The running server reads the ring again within seconds: a code issued then is key 2's.
        deadline = time.monotonic() + 15
        while True:
            after = _sign_up(served.base, f"after-{time.monotonic_ns()}@example.org")
            keys = json.loads(_run("keys", "list", "--json", env=old, cwd=tmp_path).stdout)
            if next(key for key in keys if key["id"] == 2)["codes"] or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        _run("backup", "--out", str(tmp_path / "site.backup"), env=old, cwd=tmp_path)
    finally:
        stop(served.process)

    new = _environment(tmp_path / "new", None)
    _run("restore", str(tmp_path / "site.backup"), env=new, cwd=tmp_path)
    assert (tmp_path / "new" / "keyring.json").stat().st_mode & 0o777 == 0o600
    listing = json.loads(_run("keys", "list", "--json", env=new, cwd=tmp_path).stdout)
    restored_keys = {key["id"]: key for key in listing}
    assert restored_keys[2]["state"] == "current"
    assert restored_keys[1]["codes"] >= 1 and restored_keys[2]["codes"] >= 1
    restored = serve(new, tmp_path / "new.log")
    try:
        assert _check(restored.base, before).status_code == 200, "key 1's code"
        assert _check(restored.base, after).status_code == 200, "key 2's code"
    finally:
        stop(restored.process)
