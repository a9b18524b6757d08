"""One settings object, read once from ``VPNSITE_*`` variables and a ``.env`` file."""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Generic, TypeVar

from attrs import evolve, field, fields, fields_dict, frozen
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


T = TypeVar("T")
D = TypeVar("D")
GROUPS = ("hub", "sign-ups and licences", "mail", "logs and metrics", "backups and privacy", "site content")


@frozen
class Reader(Generic[T]):
    """How a setting's text becomes its value: ``read(text, variable)`` raises SettingsError
    naming the variable; ``accepts`` says what it takes, for the README's table."""

    read: Callable[[str, str], T]
    accepts: str


@frozen
class Declared:
    """A setting as the operator meets it: its variable, what it takes, its default as the
    README shows it, what it means, and its group."""

    variable: str
    reader: Reader[Any] | None
    meaning: str
    group: str
    shown_default: str | None = None
    accepts: str | None = None

    def row(self, default: object) -> str:
        """The setting's line in the README's table; ``default`` as the field holds it."""
        first, *more = self.variable.split(", ")
        names = ", ".join([f"`VPNSITE_{first}`", *(f"`{name}`" for name in more)])
        accepts = self.accepts or (self.reader.accepts if self.reader else "")
        return f"| {names} | {accepts} | {self.shown_default or _shown(default)} | {self.meaning} |"


DECLARED = "vpnsite.setting"


def setting(
    variable: str,
    default: D,
    reader: Reader[Any] | None,
    group: str,
    meaning: str,
    shown_default: str | None = None,
    accepts: str | None = None,
) -> D:
    """A field of Settings read from ``VPNSITE_<variable>`` by ``reader``; blank or unset, it
    keeps ``default``. A field with no reader is read by :func:`load_settings` itself (the
    data directory, the database, the secret key and the operator depend on one another or
    on several variables)."""
    assert group in GROUPS, group
    declared = Declared(variable, reader, meaning, group, shown_default, accepts)
    return field(default=default, metadata={DECLARED: declared})


def _whole_number(low: int, high: int) -> Reader[int]:
    def read(text: str, name: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise SettingsError(f"VPNSITE_{name} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise SettingsError(f"VPNSITE_{name} must be between {low} and {high}")
        return value

    return Reader(read, f"{low:,}–{high:,}".replace(",", " "))


def _read_boolean(text: str, name: str) -> bool:
    value = text.lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"VPNSITE_{name} must be true or false, not {text!r}")


def _read_address(text: str, name: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise SettingsError(f"VPNSITE_{name} must be host:port (e.g. 127.0.0.1:9108), not {text!r}")
    return host, int(port)


def _read_secret(text: str, name: str) -> str:
    if text.lower() in _PLACEHOLDER_SECRETS or len(text) < MIN_SECRET_LENGTH:
        raise SettingsError(
            f"VPNSITE_{name} must be a real secret of at least {MIN_SECRET_LENGTH} characters"
        )
    return text


def _read_text(text: str, name: str) -> str:
    return text


def _read_words(text: str, name: str) -> tuple[str, ...]:
    return tuple(_words(text))


def _read_networks(text: str, name: str) -> tuple[Network, ...]:
    try:
        return tuple(ipaddress.ip_network(word, strict=False) for word in _words(text))
    except ValueError as error:
        raise SettingsError(f"VPNSITE_{name}: {error}") from None


def _read_log_format(text: str, name: str) -> str:
    value = text.lower()
    if value not in LOG_FORMATS:
        raise SettingsError(f"VPNSITE_{name} must be one of {', '.join(LOG_FORMATS)}, not {text!r}")
    return value


def _read_challenge_mode(text: str, name: str) -> ChallengeMode:
    value = text.lower()
    for mode in CHALLENGE_MODES:
        if value == mode:
            return mode
    raise SettingsError(f"VPNSITE_{name} must be one of {', '.join(CHALLENGE_MODES)}, not {text!r}")


def _read_factor(text: str, name: str) -> float:
    """How many times the usual pace counts as pressure: a number from 1 to 1000 (``2.5``)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 1 <= value <= 1000:
        raise SettingsError(f"VPNSITE_{name} must be a number from 1 to 1000, not {text!r}")
    return value


def _read_rate_limits(text: str, name: str) -> tuple[RateLimit, ...]:
    """``off`` disables every limit; otherwise the rules given replace the defaults of the same
    action, subject and kind (all calls or failures only), and the other defaults stay."""
    if text.lower() == "off":
        return ()
    try:
        given = parse_rules(text)
    except ValueError as error:
        raise SettingsError(f"VPNSITE_{name}: {error}") from None
    replaced = {(rule.action, rule.subject, rule.failures_only) for rule in given}
    kept = [rule for rule in DEFAULT_RULES if (rule.action, rule.subject, rule.failures_only) not in replaced]
    return (*kept, *given)


def _read_public_url(text: str, name: str) -> str:
    try:
        return public_origin(text)
    except PublicUrlError as error:
        raise SettingsError(str(error)) from None


def _read_social_links(text: str, name: str) -> tuple[SocialLink, ...]:
    try:
        return read_social_links(text)
    except SocialLinksError as error:
        raise SettingsError(str(error)) from None


def _read_testimonials(text: str, name: str) -> TestimonialSet:
    try:
        return read_testimonials(Path(text))
    except TestimonialsError as error:
        raise SettingsError(str(error)) from None


def _read_operator_facts(text: str, name: str) -> OperatorFacts:
    try:
        return read_operator_facts(Path(text))
    except OperatorFactsError as error:
        raise SettingsError(str(error)) from None


BOOLEAN = Reader(_read_boolean, "`true` or `false`")
ADDRESS = Reader(_read_address, "`host:port` (`[::1]:9108` for IPv6)")
SECRET = Reader(_read_secret, "≥ 32 characters, no placeholder")
TEXT = Reader(_read_text, "text")
WORDS = Reader(_read_words, "words, by commas or spaces")
URL = Reader(_read_text, "a URL")
FILE = Reader(lambda text, name: Path(text), "a file's path")


@frozen
class Settings:
    """Every setting is declared here once, with its variable, default, values and meaning: the
    loader reads them all alike and the README's table is written from them."""

    data_dir: Path = setting(
        "DATA_DIR",
        Path("vpnsite-data"),
        None,
        "hub",
        "SQLite database and the generated secret key (mode 0600)",
        accepts="a directory's path",
    )
    database_url: str = setting(
        "DATABASE_URL",
        "",
        None,
        "hub",
        "`sqlite:///path.db` or `postgresql://user:pass@host:5432/db`",
        "SQLite in the data dir",
        accepts="a database URL",
    )
    secret_key: bytes = setting(
        "SECRET_KEY",
        b"",
        None,
        "hub",
        "master secret for signatures and keyed hashes (≥ 32 characters; placeholders refused)",
        "generated on first start",
        accepts=SECRET.accepts,
    )
    host: str = setting("HOST", "127.0.0.1", TEXT, "hub", "the address to serve on")
    port: int = setting("PORT", 8000, _whole_number(1, 65535), "hub", "the port to serve on")
    threads: int = setting("THREADS", 8, _whole_number(1, 256), "hub", "requests served at once, per process")
    public_url: str | None = setting(
        "PUBLIC_URL",
        None,
        Reader(_read_public_url, "`http://` or `https://` and a host"),
        "hub",
        "the address visitors use: every link in e-mails, answers, canonical and Open Graph tags is"
        " built from it, never from a request's `Host` header. `http://` or `https://` and a host"
        " name (IDNA in its `xn--` form) or IP address, with a port if any, nothing else: no path,"
        " query, user name, quotes, spaces or markup (anything else stops `serve`, exit 2, with the"
        " reason)",
        "required by `serve` (the demo uses its own address)",
    )
    trusted_proxies: tuple[Network, ...] = setting(
        "TRUSTED_PROXIES",
        (),
        Reader(_read_networks, "IPs or CIDRs"),
        "hub",
        "proxies whose `X-Forwarded-For` (the right-most hop they do not vouch for) and"
        " `X-Forwarded-Proto` are believed; from anyone else both are dropped",
    )
    connection_limit: int = setting(
        "CONNECTION_LIMIT",
        800,
        _whole_number(10, 100_000),
        "hub",
        "open connections per process (above 800 waitress watches them with `poll()`, whose loop"
        " now and then stalls for seconds: run more processes instead)",
    )
    channel_timeout: int = setting(
        "CHANNEL_TIMEOUT",
        30,
        _whole_number(1, 3600),
        "hub",
        "seconds before a connection that sends nothing is closed",
    )
    cors_origins: tuple[str, ...] = setting(
        "CORS_ORIGINS", (), WORDS, "hub", "origins allowed to call the API from a browser"
    )
    db_pool_size: int = setting(
        "DB_POOL_SIZE", 16, _whole_number(1, 1000), "hub", "PostgreSQL connections per process"
    )
    shutdown_timeout: int = setting(
        "SHUTDOWN_TIMEOUT",
        SHUTDOWN_SECONDS,
        _whole_number(1, 600),
        "hub",
        "seconds `serve` gives requests in flight after SIGTERM (see Operating, Graceful shutdown)",
    )
    # Where VPN servers call the hub, apart from visitors; None: on the public listener.
    node_address: tuple[str, int] | None = setting(
        "NODE_ADDRESS",
        None,
        ADDRESS,
        "hub",
        "where VPN servers call the hub, with threads of its own (see VPN servers, The hub's node"
        " listener); unset, the node API is on the public listener",
    )
    node_threads: int = setting(
        "NODE_THREADS", 4, _whole_number(1, 256), "hub", "threads of the node listener"
    )
    seed_default_fleet: bool = setting(
        "SEED_DEFAULT_FLEET",
        True,
        BOOLEAN,
        "hub",
        "an empty fleet starts with the specification's locations, listed offline until a server"
        " is added at each and reports",
    )
    demo: bool = setting("DEMO", False, BOOLEAN, "hub", "the same as `serve --demo`")
    licence_days: int = setting(
        "LICENCE_DAYS", DEFAULT_TERM_DAYS, _whole_number(1, 3650), "sign-ups and licences", "licence term"
    )
    free_tier_cap: int = setting(
        "FREE_TIER_CAP",
        DEFAULT_FREE_TIER_CAP,
        _whole_number(0, 10**12),
        "sign-ups and licences",
        "users (distinct e-mails with a live licence) before sign-up closes",
    )
    rate_limits: tuple[RateLimit, ...] = setting(
        "RATE_LIMITS",
        DEFAULT_RULES,
        Reader(
            _read_rate_limits, "rules `action:subject=limit/window` (`!` = count failures only), or `off`"
        ),
        "sign-ups and licences",
        "the rules given replace the defaults of the same action, subject and kind; the others stay"
        " (see Rate limits)",
        "the defaults below",
    )
    # When sign-ups must solve a proof-of-work challenge: "auto" when they come faster than
    # `signup_challenge_factor` times the usual pace of the hour and faster than
    # `signup_challenge_floor` an hour; "always"; or "off".
    signup_challenge: ChallengeMode = setting(
        "SIGNUP_CHALLENGE",
        "auto",
        Reader(_read_challenge_mode, "`auto`, `always` or `off`"),
        "sign-ups and licences",
        "when a sign-up first solves a proof-of-work challenge: `auto` when sign-ups come faster"
        " than people do, `always`, or `off` (see Proof of work on sign-ups)",
    )
    signup_challenge_factor: float = setting(
        "SIGNUP_CHALLENGE_FACTOR",
        DEFAULT_FACTOR,
        Reader(_read_factor, "a number from 1 to 1000"),
        "sign-ups and licences",
        "under `auto`, a sign-up is challenged when it would make the last hour hold more than this"
        " many times the usual pace of that hour (its mean over the seven days before; `2.5` say)",
    )
    signup_challenge_floor: int = setting(
        "SIGNUP_CHALLENGE_FLOOR",
        DEFAULT_FLOOR,
        _whole_number(0, 10**9),
        "sign-ups and licences",
        "under `auto`, a sign-up is challenged only when the last hour would also hold more than"
        " this many sign-ups",
    )
    mail_url: str = setting(
        "MAIL_URL",
        "outbox",
        URL,
        "mail",
        "`outbox` (`.eml` files in the data dir), `smtp://user:pass@host:587` (STARTTLS when"
        " offered; `?starttls=required` or `off`) or `smtps://user:pass@host:465`",
    )
    mail_from: str = setting(
        "MAIL_FROM", "vpnsite <no-reply@localhost>", TEXT, "mail", "sender of every e-mail"
    )
    support_email: str = setting(
        "SUPPORT_EMAIL",
        "support@localhost",
        TEXT,
        "mail",
        "where tickets are forwarded (with `Reply-To` the visitor) and where replies to a ticket's"
        " acknowledgement go",
    )
    mail_timeout: float = setting(
        "MAIL_TIMEOUT",
        10.0,
        Reader(lambda text, name: float(_whole_number(1, 300).read(text, name)), "1–300"),
        "mail",
        "seconds before an SMTP server that does not answer counts as failed",
    )
    access_log: bool = setting(
        "ACCESS_LOG",
        True,
        BOOLEAN,
        "logs and metrics",
        "one line per request: method, path (personal links redacted, however the path is spelt:"
        " doubled slashes, dot segments, capitals), status, time — never an address or a code",
    )
    log_format: str = setting(
        "LOG_FORMAT",
        "text",
        Reader(_read_log_format, "`text` or `json`"),
        "logs and metrics",
        "`json`: one JSON object a line (see Operating, Logs)",
    )
    metrics_address: tuple[str, int] | None = setting(
        "METRICS_ADDRESS",
        None,
        ADDRESS,
        "logs and metrics",
        "a private listener answering Prometheus's `GET /metrics` (see Operating, Metrics)",
    )
    metrics_token: str | None = setting(
        "METRICS_TOKEN",
        None,
        SECRET,
        "logs and metrics",
        "the public site answers `GET /metrics` to `Authorization: Bearer` this token",
    )
    billing_health_url: str | None = setting(
        "BILLING_HEALTH_URL",
        None,
        URL,
        "logs and metrics",
        "health URL of the billing service, shown on the status page; without it the page does"
        " not list billing",
    )
    # A file beside the backups where each erasure is also written, for `restore` to re-apply.
    erasure_journal: Path | None = setting(
        "ERASURE_JOURNAL",
        None,
        FILE,
        "backups and privacy",
        "a file beside the backups where each erasure is also appended, with the journal key it is"
        " under, for `restore` to apply again; entries go 30 days after their erasure (see Privacy)",
    )
    operator: Operator | None = setting(
        "OPERATOR_NAME, _NUMBER, _ADDRESS, _EMAIL, _FOUNDER",
        None,
        None,
        "site content",
        "the company that runs the service: legal name, UK company number (8 digits, or 2 letters"
        " and 6 digits), registered address, contact e-mail, founder's name; shown in the footer,"
        " About, terms and privacy policy of every language (written into the served pages,"
        " escaped)",
        "required by `serve` (the demo names a fictitious operator)",
        accepts="text each",
    )
    # The footer's links to the operator's accounts; none by default.
    social_links: tuple[SocialLink, ...] = setting(
        "SOCIAL_LINKS",
        (),
        Reader(_read_social_links, "comma-separated `name=https://…`"),
        "site content",
        "the operator's accounts in the footer of every page, beside its e-mail"
        " (`VPNSITE_OPERATOR_EMAIL`): `x` and `telegram` show their icon and must point to"
        " `x.com`/`twitter.com` and `t.me`/`telegram.me`, and any other name (letters, digits,"
        " spaces, at most 24 characters) is a link shown by that label, e.g."
        " `x=https://x.com/examplevpn, telegram=https://t.me/examplevpn,"
        " Mastodon=https://mastodon.social/@examplevpn`; at most 6, https only (anything else stops"
        " `serve` with a settings error); none set, none shown",
    )
    # The home page's testimonials; None: not set (none are shown, but for the demo's examples).
    testimonials: TestimonialSet | None = setting(
        "TESTIMONIALS",
        None,
        Reader(_read_testimonials, "a JSON file's path"),
        "site content",
        "what the operator's customers said, shown three at a time (picked per page) on the home"
        ' page: for each language that has any, a list of `{"name": …, "role": …, "place": …,'
        ' "text": …, "stars": 1–5}` (`role`, `place` optional; name, role, place ≤ 60 characters,'
        ' text ≤ 600, at most 50 per language), e.g. `{"en": [{"name": "Ada L.", "place":'
        ' "London", "text": "Set up in a minute.", "stars": 5}], "ru": […]}`; written into the'
        " page as text, escaped. A file that cannot be read or is wrong stops `serve` (exit 2) with"
        " a message naming the entry. None set: no testimonials and no heading; the demo shows the"
        " specification's eight in five languages, labelled as examples"
        " (`adapters/vpnsite_adapters/operator_files/example_testimonials.json`, the same format)."
        " Only publish real reviews of real customers: invented ones are unlawful in the UK (DMCC"
        " Act 2024)",
    )
    # What the operator says of itself on About and in the terms; None only where Settings is
    # built by hand (load_settings reads the shipped operator_facts.json when it is not set).
    operator_facts: OperatorFacts | None = setting(
        "OPERATOR_FACTS",
        None,
        Reader(_read_operator_facts, "a JSON file's path"),
        "site content",
        "what the operator says of itself and has to stand behind: where the source code is that"
        " the About page and every footer link to (`source_code`: an `https://` address, or a path"
        " on this site), the founder's years of experience and year as a director (`founder`),"
        ' named amounts each in its own currency (`amounts`: `{"amount": 10000, "currency":'
        ' "USD"}`, USD, EUR or GBP; or `{"sum": ["a", "b"]}`, which adds only amounts of one'
        " currency: a sum of two currencies is written as each currency's total, in the language's"
        " `mixed` words, never converted), the platform cost table (`platform_costs`), and for"
        " every language of the site: the founder's sentence (`{founder}`, `{years}`, `{since}`),"
        " who has access to the servers (the terms' section 7), what is ready, the investment"
        " section (`notice`: the financial promotion notice, shown first; `paragraphs` with"
        " `{amount}` names; `mixed`) and the roadmap (`title`, `items`, optional `cost`,"
        " `duration`). Copy the shipped file, change it, and point this setting at the copy; every"
        " text is shown escaped. A file that cannot be read or is wrong (an unknown field, a"
        " language missing, an amount of an unknown currency, `{name}` naming nothing…) stops"
        " `serve` (exit 2) with a message naming the entry. The shipped `source_code` is"
        " `/source/vpnsite-source.tar.gz`: the site serves its own source, packed by `build_ui.py`"
        " at install (`pyproject.toml`, `setup.py`, `build_ui.py`, `add_language.py`, `README.md`,"
        " `LICENSE`, `MANIFEST.in`, `src/`, `adapters/` without the built site, `ui/` without `node_modules`"
        " and build output, `tests/`, `bench/`, `docs/`; no caches, no data, no keys; about 0.9 MB)"
        " and served as a download (`application/gzip`); point it at your public repository if you"
        " have one",
        "the shipped `adapters/vpnsite_adapters/operator_files/operator_facts.json`",
    )
    # Where the master secret came from: "environment" (VPNSITE_SECRET_KEY), "file" (the data
    # directory's secret.key) or "generated" (that file, created by this very call).
    secret_key_source: str = "file"

    @property
    def origin(self) -> str:
        """Where the site's links point: the configured public URL (`serve` requires one outside
        the demo), never the Host header a request came with."""
        return self.public_url or "http://localhost"


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env"), **overrides: object
) -> Settings:
    """Settings from the environment, then ``.env`` (the environment wins), then ``overrides``
    (command-line options). Creates the data directory and, on first start, the secret key.
    A variable set blank keeps its default."""
    values = _values(environ, env_file)

    def get(name: str) -> str | None:
        return (values.get(f"VPNSITE_{name}") or "").strip() or None

    read: dict[str, Any] = {}
    for name, attribute in fields_dict(Settings).items():
        declared: Declared | None = attribute.metadata.get(DECLARED)
        if declared is not None and declared.reader is not None and (text := get(declared.variable)):
            read[name] = declared.reader.read(text, declared.variable)
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
        operator=_operator(get),
        **({"operator_facts": _default_operator_facts()} | read),
    )
    unknown = set(overrides) - set(fields_dict(Settings))
    if unknown:
        raise SettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
    given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    return evolve(settings, **given)


def settings_table() -> str:
    """The README's tables of settings, a group each, as the declarations say."""
    lines: list[str] = []
    for group in GROUPS:
        lines += ["", f"**{group[0].upper()}{group[1:]}**", "", "| variable | values | default | meaning |"]
        lines.append("|---|---|---|---|")
        for attribute in fields(Settings):
            declared: Declared | None = attribute.metadata.get(DECLARED)
            if declared is None or declared.group != group:
                continue
            lines.append(declared.row(attribute.default))
    return "\n".join(lines[1:]) + "\n"


def _shown(default: object) -> str:
    if default in (None, (), ""):
        return "none"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    if isinstance(default, float) and default.is_integer():
        return f"`{int(default)}`"
    return f"`{default}`"


def _values(environ: Mapping[str, str] | None, env_file: Path | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


def _data_dir(values: Mapping[str, str], given: object) -> Path:
    return Path(str(given or (values.get("VPNSITE_DATA_DIR") or "").strip() or "vpnsite-data"))


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


def _operator(get: Callable[[str], str | None]) -> Operator | None:
    try:
        return read_operator(get)
    except OperatorError as error:
        raise SettingsError(str(error)) from None


def _default_operator_facts() -> OperatorFacts:
    try:
        return default_operator_facts()
    except OperatorFactsError as error:
        raise SettingsError(str(error)) from None


def _secret_key(given: str | None, data_dir: Path) -> tuple[bytes, str]:
    """The master secret and where it came from."""
    if given is not None:
        return _read_secret(given, "SECRET_KEY").encode(), "environment"
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
