"""Settings: read once, fail fast on nonsense, secrets generated safely."""

from __future__ import annotations

import stat
from datetime import timedelta
from pathlib import Path

import attrs
import pytest

from tests.integration.processes import free_port
from vpnsite.rate_limits import DEFAULT_RULES, RateLimit
from vpnsite_adapters.http.waitress_server import create_server
from vpnsite_adapters.settings import SettingsError, load_settings


def test_a_secret_key_is_generated_once_with_mode_0600(tmp_path: Path) -> None:
    first = load_settings({}, env_file=None, data_dir=tmp_path)
    key_file = tmp_path / "secret.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.secret_key) >= 32
    assert load_settings({}, env_file=None, data_dir=tmp_path).secret_key == first.secret_key


@pytest.mark.parametrize("secret", ["changeme", "short", "secret"])
def test_a_placeholder_secret_is_refused(tmp_path: Path, secret: str) -> None:
    with pytest.raises(SettingsError, match="SECRET_KEY"):
        load_settings({"VPNSITE_SECRET_KEY": secret}, env_file=None, data_dir=tmp_path)


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("VPNSITE_PORT=9000\nVPNSITE_THREADS=3\n")
    settings = load_settings({"VPNSITE_PORT": "9100"}, env_file=env_file, data_dir=tmp_path)
    assert (settings.port, settings.threads) == (9100, 3)


@pytest.mark.parametrize(
    "name, value",
    [
        ("PORT", "eighty"),
        ("PORT", "70000"),
        ("ACCESS_LOG", "maybe"),
        ("TRUSTED_PROXIES", "10.0.0.0/33"),
        ("SIGNUP_CHALLENGE", "sometimes"),
        ("SIGNUP_CHALLENGE_FACTOR", "0.5"),
        ("SIGNUP_CHALLENGE_FACTOR", "nan"),
        ("SIGNUP_CHALLENGE_FACTOR", "three"),
        ("SIGNUP_CHALLENGE_FLOOR", "-1"),
    ],
)
def test_nonsense_settings_fail_fast_with_their_name(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        load_settings({f"VPNSITE_{name}": value}, env_file=None, data_dir=tmp_path)


def test_rate_limit_rules_replace_only_their_own_defaults(tmp_path: Path) -> None:
    settings = load_settings(
        {"VPNSITE_RATE_LIMITS": "check-license:ip=3/1m, check-license:email=5/1h!"},
        env_file=None,
        data_dir=tmp_path,
    )
    check_rules = [rule for rule in settings.rate_limits if rule.action == "check-license"]
    assert sorted(check_rules, key=lambda r: r.subject) == [
        RateLimit("check-license", "email", 5, timedelta(hours=1), failures_only=True),
        RateLimit("check-license", "email_ip", 20, timedelta(hours=1), failures_only=True),
        RateLimit("check-license", "ip", 3, timedelta(minutes=1)),
    ]
    others = [rule for rule in settings.rate_limits if rule.action != "check-license"]
    assert others == [rule for rule in DEFAULT_RULES if rule.action != "check-license"]


def test_rate_limits_can_be_switched_off(tmp_path: Path) -> None:
    assert load_settings({"VPNSITE_RATE_LIMITS": "off"}, env_file=None, data_dir=tmp_path).rate_limits == ()


@pytest.mark.parametrize("limit, uses_poll", [("800", False), ("801", True), ("5000", True)])
def test_select_watches_the_connections_while_their_descriptors_fit_in_it(
    tmp_path: Path, limit: str, uses_poll: bool
) -> None:
    """select() cannot watch descriptors numbered 1,024 and above; below that it is the steadier."""
    settings = attrs.evolve(load_settings({}, env_file=None, data_dir=tmp_path), port=free_port())
    settings = attrs.evolve(settings, connection_limit=int(limit))
    server = create_server(lambda environ, start_response: [], settings)
    try:
        assert server.adj.connection_limit == int(limit)
        assert server.adj.asyncore_use_poll is uses_poll
    finally:
        server.close()


def test_the_sign_up_challenge_is_on_when_sign_ups_outrun_the_pace_unless_the_operator_says(
    tmp_path: Path,
) -> None:
    default = load_settings({}, env_file=None, data_dir=tmp_path)
    assert (default.signup_challenge, default.signup_challenge_factor, default.signup_challenge_floor) == (
        "auto",
        3.0,
        60,
    )
    given = {
        "VPNSITE_SIGNUP_CHALLENGE": " Always ",
        "VPNSITE_SIGNUP_CHALLENGE_FACTOR": "2.5",
        "VPNSITE_SIGNUP_CHALLENGE_FLOOR": "0",
    }
    settings = load_settings(given, env_file=None, data_dir=tmp_path)
    assert (settings.signup_challenge, settings.signup_challenge_factor, settings.signup_challenge_floor) == (
        "always",
        2.5,
        0,
    )
