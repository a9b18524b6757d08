"""One settings object, read once from ``VPNSITE_*`` variables and a ``.env`` file."""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, fields_dict, frozen
from dotenv import dotenv_values

from vpnsite.licences import DEFAULT_TERM_DAYS
from vpnsite.plans import DEFAULT_FREE_TIER_CAP
from vpnsite.proof_of_work import CHALLENGE_MODES, ChallengeMode
from vpnsite.rate_limits import DEFAULT_RULES, RateLimit, parse_rules
from vpnsite.signup_pace import DEFAULT_FACTOR, DEFAULT_FLOOR
from vpnsite_adapters.operator_files.facts import (
    OperatorFacts,
    OperatorFactsError,
    default_operator_facts,
    read_operator_facts,
)
from vpnsite_adapters.operator_files.identity import Operator, OperatorError, read_operator
from vpnsite_adapters.operator_files.social_links import SocialLink, SocialLinksError, read_social_links
from vpnsite_adapters.operator_files.testimonials import TestimonialsError, TestimonialSet, read_testimonials
from vpnsite_adapters.runtime.log_lines import LOG_FORMATS
from vpnsite_adapters.texts.links import PublicUrlError, public_origin

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_PLACEHOLDER_SECRETS = {"changeme", "change-me", "secret", "placeholder", "xxx", "your-secret-key"}
MIN_SECRET_LENGTH = 32
# Seconds `serve` gives requests in flight after SIGTERM, and again its background jobs.
SHUTDOWN_SECONDS = 10


def sqlite_url(path: Path) -> str:
    """A SQLite file's database URL, as SQLAlchemy spells it (``sqlite:////absolute/path``)."""
    return f"sqlite:///{path}"


class SettingsError(ValueError):
    pass


@frozen
class Settings:
    data_dir: Path
    database_url: str
    secret_key: bytes
    host: str = "127.0.0.1"
    port: int = 8000
    threads: int = 8
    licence_days: int = DEFAULT_TERM_DAYS
    free_tier_cap: int = DEFAULT_FREE_TIER_CAP
    rate_limits: tuple[RateLimit, ...] = DEFAULT_RULES
    cors_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[Network, ...] = ()
    public_url: str | None = None
    access_log: bool = True
    db_pool_size: int = 16
    seed_default_fleet: bool = True
    mail_url: str = "outbox"
    mail_from: str = "vpnsite <no-reply@localhost>"
    support_email: str = "support@localhost"
    mail_timeout: float = 10.0
    billing_health_url: str | None = None
    demo: bool = False
    connection_limit: int = 800
    channel_timeout: int = 30
    metrics_address: tuple[str, int] | None = None
    # Where VPN servers call the hub, apart from visitors; None: on the public listener.
    node_address: tuple[str, int] | None = None
    node_threads: int = 4
    metrics_token: str | None = None
    # Where the master secret came from: "environment" (VPNSITE_SECRET_KEY), "file" (the data
    # directory's secret.key) or "generated" (that file, created by this very call).
    secret_key_source: str = "file"
    log_format: str = "text"
    shutdown_timeout: int = SHUTDOWN_SECONDS
    # A file beside the backups where each erasure is also written, for `restore` to re-apply.
    erasure_journal: Path | None = None
    operator: Operator | None = None
    # The footer's links to the operator's accounts (VPNSITE_SOCIAL_LINKS); none by default.
    social_links: tuple[SocialLink, ...] = ()
    # The home page's testimonials (VPNSITE_TESTIMONIALS, a file); None: not set (none are shown,
    # but for the demo's examples).
    testimonials: TestimonialSet | None = None
    # What the operator says of itself on About and in the terms (VPNSITE_OPERATOR_FACTS, a file;
    # without it the shipped operator_facts.json).
    operator_facts: OperatorFacts | None = None
    # When sign-ups must solve a proof-of-work challenge (VPNSITE_SIGNUP_CHALLENGE): "auto" when they
    # come faster than `signup_challenge_factor` times the usual pace of the hour and faster than
    # `signup_challenge_floor` an hour; "always"; or "off".
    signup_challenge: ChallengeMode = "auto"
    signup_challenge_factor: float = DEFAULT_FACTOR
    signup_challenge_floor: int = DEFAULT_FLOOR

    @property
    def origin(self) -> str:
        """Where the site's links point: the configured public URL (`serve` requires one outside
        the demo), never the Host header a request came with."""
        return self.public_url or "http://localhost"


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env"), **overrides: object
) -> Settings:
    """Settings from the environment, then ``.env`` (the environment wins), then ``overrides``
    (command-line options). Creates the data directory and, on first start, the secret key."""
    values = _values(environ, env_file)

    def get(name: str, default: str | None = None) -> str | None:
        return values.get(f"VPNSITE_{name}", default)

    data_dir = _data_dir(values, overrides.pop("data_dir", None)).resolve()
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    # It holds the secret key and the database: nobody else's business.
    data_dir.chmod(0o700)
    secret_key, secret_key_source = _secret_key(get("SECRET_KEY"), data_dir)
    settings = Settings(
        data_dir=data_dir,
        database_url=get("DATABASE_URL") or sqlite_url(data_dir / "vpnsite.db"),
        secret_key=secret_key,
        secret_key_source=secret_key_source,
        host=get("HOST", "127.0.0.1") or "127.0.0.1",
        port=_integer(get("PORT", "8000"), "PORT", 1, 65535),
        threads=_integer(get("THREADS", "8"), "THREADS", 1, 256),
        licence_days=_integer(get("LICENCE_DAYS", str(DEFAULT_TERM_DAYS)), "LICENCE_DAYS", 1, 3650),
        free_tier_cap=_integer(get("FREE_TIER_CAP", str(DEFAULT_FREE_TIER_CAP)), "FREE_TIER_CAP", 0, 10**12),
        rate_limits=_rate_limits(get("RATE_LIMITS", "")),
        cors_origins=tuple(_words(get("CORS_ORIGINS", ""))),
        trusted_proxies=_networks(get("TRUSTED_PROXIES", "")),
        public_url=_public_url(get("PUBLIC_URL")),
        access_log=_boolean(get("ACCESS_LOG", "true"), "ACCESS_LOG"),
        db_pool_size=_integer(get("DB_POOL_SIZE", "16"), "DB_POOL_SIZE", 1, 1000),
        seed_default_fleet=_boolean(get("SEED_DEFAULT_FLEET", "true"), "SEED_DEFAULT_FLEET"),
        mail_url=get("MAIL_URL") or "outbox",
        mail_from=get("MAIL_FROM") or "vpnsite <no-reply@localhost>",
        support_email=get("SUPPORT_EMAIL") or "support@localhost",
        mail_timeout=float(_integer(get("MAIL_TIMEOUT", "10"), "MAIL_TIMEOUT", 1, 300)),
        billing_health_url=get("BILLING_HEALTH_URL") or None,
        demo=_boolean(get("DEMO", "false"), "DEMO"),
        connection_limit=_integer(get("CONNECTION_LIMIT", "800"), "CONNECTION_LIMIT", 10, 100_000),
        channel_timeout=_integer(get("CHANNEL_TIMEOUT", "30"), "CHANNEL_TIMEOUT", 1, 3600),
        metrics_address=_address(get("METRICS_ADDRESS"), "METRICS_ADDRESS"),
        node_address=_address(get("NODE_ADDRESS"), "NODE_ADDRESS"),
        node_threads=_integer(get("NODE_THREADS", "4"), "NODE_THREADS", 1, 256),
        metrics_token=_secret(token, "METRICS_TOKEN") if (token := get("METRICS_TOKEN")) else None,
        log_format=_log_format(get("LOG_FORMAT", "text")),
        shutdown_timeout=_integer(get("SHUTDOWN_TIMEOUT", str(SHUTDOWN_SECONDS)), "SHUTDOWN_TIMEOUT", 1, 600),
        erasure_journal=Path(journal) if (journal := get("ERASURE_JOURNAL")) else None,
        operator=_operator(get),
        social_links=_social_links(get("SOCIAL_LINKS")),
        testimonials=_testimonials(get("TESTIMONIALS")),
        operator_facts=_operator_facts(get("OPERATOR_FACTS")),
        signup_challenge=_challenge_mode(get("SIGNUP_CHALLENGE")),
        signup_challenge_factor=_factor(get("SIGNUP_CHALLENGE_FACTOR")),
        signup_challenge_floor=_integer(
            get("SIGNUP_CHALLENGE_FLOOR", str(DEFAULT_FLOOR)), "SIGNUP_CHALLENGE_FLOOR", 0, 10**9
        ),
    )
    unknown = set(overrides) - set(fields_dict(Settings))
    if unknown:
        raise SettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
    given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    return evolve(settings, **given)


def _values(environ: Mapping[str, str] | None, env_file: Path | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


def _data_dir(values: Mapping[str, str], given: object) -> Path:
    return Path(str(given or values.get("VPNSITE_DATA_DIR", "vpnsite-data")))


def database_sought(
    given: str | None = None, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> tuple[Path, str]:
    """The data directory and the database URL :func:`load_settings` would use, found without
    creating anything: what a command that must not make a database checks first."""
    values = _values(environ, env_file)
    data_dir = _data_dir(values, given).resolve()
    return data_dir, values.get("VPNSITE_DATABASE_URL") or sqlite_url(data_dir / "vpnsite.db")


def data_dir_as_given(
    given: str | None = None, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Path:
    """The data directory as the operator named it (``given`` on the command line, else the
    setting), made absolute with nothing resolved (no link followed, no ``..`` taken away): what
    `restore` checks before anything is created or written through it. :func:`load_settings`
    resolves the same name."""
    return Path.cwd() / _data_dir(_values(environ, env_file), given)


def _public_url(text: str | None) -> str | None:
    if not (text or "").strip():
        return None
    try:
        return public_origin(str(text))
    except PublicUrlError as error:
        raise SettingsError(str(error)) from None


def _operator(get: Callable[[str], str | None]) -> Operator | None:
    try:
        return read_operator(get)
    except OperatorError as error:
        raise SettingsError(str(error)) from None


def _social_links(text: str | None) -> tuple[SocialLink, ...]:
    try:
        return read_social_links(text)
    except SocialLinksError as error:
        raise SettingsError(str(error)) from None


def _testimonials(path: str | None) -> TestimonialSet | None:
    if not (path or "").strip():
        return None
    try:
        return read_testimonials(Path(str(path).strip()))
    except TestimonialsError as error:
        raise SettingsError(str(error)) from None


def _operator_facts(path: str | None) -> OperatorFacts:
    try:
        if not (path or "").strip():
            return default_operator_facts()
        return read_operator_facts(Path(str(path).strip()))
    except OperatorFactsError as error:
        raise SettingsError(str(error)) from None


def _secret(given: str, name: str) -> str:
    if given.strip().lower() in _PLACEHOLDER_SECRETS or len(given) < MIN_SECRET_LENGTH:
        raise SettingsError(
            f"VPNSITE_{name} must be a real secret of at least {MIN_SECRET_LENGTH} characters"
        )
    return given


def _secret_key(given: str | None, data_dir: Path) -> tuple[bytes, str]:
    """The master secret and where it came from."""
    if given is not None:
        return _secret(given, "SECRET_KEY").encode(), "environment"
    path = data_dir / "secret.key"
    source = "file"
    if not path.exists():
        # O_EXCL: of two processes starting at once, one writes the key and both read the same.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_hex(32))
            source = "generated"
    key = path.read_text().strip()
    if len(key) < MIN_SECRET_LENGTH:
        raise SettingsError(f"{path} holds no usable secret key")
    return key.encode(), source


def _words(text: str | None) -> list[str]:
    return [word for word in (text or "").replace(",", " ").split() if word]


def _integer(text: str | None, name: str, low: int, high: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        raise SettingsError(f"VPNSITE_{name} must be a whole number, not {text!r}") from None
    if not low <= value <= high:
        raise SettingsError(f"VPNSITE_{name} must be between {low} and {high}")
    return value


def _address(text: str | None, name: str) -> tuple[str, int] | None:
    """``host:port`` (``[::1]:9108`` for IPv6), or None when not set."""
    if not text:
        return None
    host, colon, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise SettingsError(f"VPNSITE_{name} must be host:port (e.g. 127.0.0.1:9108), not {text!r}")
    return host, int(port)


def _boolean(text: str | None, name: str) -> bool:
    value = (text or "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"VPNSITE_{name} must be true or false, not {text!r}")


def _log_format(text: str | None) -> str:
    value = (text or "text").strip().lower()
    if value not in LOG_FORMATS:
        raise SettingsError(f"VPNSITE_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {text!r}")
    return value


def _networks(text: str | None) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(word, strict=False) for word in _words(text))
    except ValueError as error:
        raise SettingsError(f"VPNSITE_TRUSTED_PROXIES: {error}") from None


def _challenge_mode(text: str | None) -> ChallengeMode:
    value = (text or "auto").strip().lower()
    for mode in CHALLENGE_MODES:
        if value == mode:
            return mode
    raise SettingsError(f"VPNSITE_SIGNUP_CHALLENGE must be one of {', '.join(CHALLENGE_MODES)}, not {text!r}")


def _factor(text: str | None) -> float:
    """How many times the usual pace counts as pressure: a number from 1 to 1000 (``2.5``)."""
    if not (text or "").strip():
        return DEFAULT_FACTOR
    try:
        value = float(str(text).strip())
    except ValueError:
        value = float("nan")
    if not 1 <= value <= 1000:
        raise SettingsError(f"VPNSITE_SIGNUP_CHALLENGE_FACTOR must be a number from 1 to 1000, not {text!r}")
    return value


def _rate_limits(text: str | None) -> tuple[RateLimit, ...]:
    """``off`` disables every limit; otherwise the rules given replace the defaults of the same
    action, subject and kind (all calls or failures only), and the other defaults stay."""
    text = (text or "").strip()
    if text.lower() == "off":
        return ()
    try:
        given = parse_rules(text)
    except ValueError as error:
        raise SettingsError(f"VPNSITE_RATE_LIMITS: {error}") from None
    replaced = {(rule.action, rule.subject, rule.failures_only) for rule in given}
    kept = [rule for rule in DEFAULT_RULES if (rule.action, rule.subject, rule.failures_only) not in replaced]
    return (*kept, *given)
