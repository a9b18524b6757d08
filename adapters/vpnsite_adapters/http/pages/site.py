"""The website: prerendered pages for every route in every language, hashed assets, sitemap and
robots, served with the right caching, compression and security headers.

Pages carry markers (``__SLOT_NAME__``) where the server writes what it knows when it answers:
the user count of the last status snapshot in every page, the testimonials it picked for the home
page, and a visitor's values in the answers to the forms (``http/pages/forms.py``)."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import re
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import NamedTuple, Protocol

from attrs import frozen
from flask import Blueprint, Flask, Response, abort, request, send_from_directory
from werkzeug.routing import PathConverter

from vpnsite.connection_check import ExitIndex
from vpnsite.fleet import Location
from vpnsite.licences import DEFAULT_TERM_DAYS
from vpnsite.plans import DEFAULT_FREE_TIER_CAP
from vpnsite_adapters.http.context import caller_ip
from vpnsite_adapters.http.pages.about_facts import AboutPieces
from vpnsite_adapters.http.pages.connection_answer import ConnectionAnswers
from vpnsite_adapters.http.pages.device_rows import DeviceRows
from vpnsite_adapters.http.pages.fleet_locations import FleetLocations
from vpnsite_adapters.http.pages.footer_contact import FooterContact
from vpnsite_adapters.http.pages.form_screens import SCREEN_SLOTS
from vpnsite_adapters.http.pages.page_formats import PageFormats
from vpnsite_adapters.http.pages.profile_rows import ProfileRows
from vpnsite_adapters.http.pages.slot_manifest import SlotMismatch, page_problems, piece_problems, read
from vpnsite_adapters.http.pages.slots import escape, fill, fill_raw
from vpnsite_adapters.http.pages.status_page import StatusPage
from vpnsite_adapters.http.pages.testimonials import Testimonials
from vpnsite_adapters.operator_files.facts import OperatorFacts, default_operator_facts
from vpnsite_adapters.operator_files.identity import DEMO_OPERATOR, Operator
from vpnsite_adapters.operator_files.social_links import SocialLink
from vpnsite_adapters.operator_files.testimonials import NONE, TestimonialSet
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LANGUAGES, PREFIXED

log = logging.getLogger("vpnsite.site")

SITE_DIR = Path(__file__).parents[1] / "site"
ORIGIN_PLACEHOLDER = b"https://__ORIGIN__"
FOOTER_CONTACT_MARKER = b"__FOOTER_CONTACT__"
# The blocks a page is filled with because it has their marker (``variant``, ``answer``).
_BLOCKS = (
    "RAW_STATUS",
    "RAW_STATUS_JSON",
    "RAW_CHECK",
    "RAW_CHECK_JSON",
    "RAW_TESTIMONIALS",
    "RAW_LOCATIONS",
    # The operator's facts (http/pages/about_facts.py): who has access to the servers, on every page; the
    # About page's founder, source code link, blocks and their data.
    "SERVER_ACCESS",
    "ABOUT_FOUNDER",
    "SOURCE_CODE",
    "RAW_ABOUT_READY",
    "RAW_ABOUT_INVESTMENT",
    "RAW_ABOUT_ROADMAP",
    "RAW_ABOUT_JSON",
)
HTML_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; "
    "object-src 'none'"
)
_SAFE_PATH = re.compile(r"^[A-Za-z0-9._/-]*$")
_SOURCE_ARCHIVE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.tar\.gz$")
_ORIGIN_BOUND = {".html", ".xml", ".txt"}
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".xml": "application/xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


class Figures(NamedTuple):
    """What a page is filled from, of the snapshot: a page whose figures are unchanged is sent
    again as it was."""

    users: int
    servers_online: int
    uptime_permille: int | None  # in tenths of a per cent; None: not measured yet
    countries: int
    status_etag: str  # on the status page only
    locations: tuple[Location, ...]  # every listed server's, online or not


@frozen
class Variant:
    body: bytes
    gzipped: bytes
    etag: str


def _variant(body: bytes) -> Variant:
    return Variant(
        body, gzip.compress(body, 9), '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    )


class Snapshot(Protocol):
    """What the pages carry of the status snapshot (``jobs/status_snapshot.py``)."""

    @property
    def users(self) -> int: ...

    @property
    def servers_online(self) -> int: ...

    @property
    def uptime_permille(self) -> int | None: ...

    @property
    def countries(self) -> int: ...

    @property
    def server_status(self) -> Encoded: ...

    @property
    def exits(self) -> ExitIndex: ...

    @property
    def locations(self) -> tuple[Location, ...]: ...


class Encoded(Protocol):
    @property
    def body(self) -> bytes: ...

    @property
    def etag(self) -> str: ...


def language_of(path: str) -> str:
    first = path.strip("/").split("/")[0]
    return first if first in PREFIXED else DEFAULT_LANGUAGE


def language_of_file(name: str) -> str:
    """The language of a built page: ``/pages/ru/…`` or ``/forms/ru/…``."""
    if name.startswith("/forms/"):
        return language_of(name.removeprefix("/forms"))
    return language_of(name.removeprefix("/pages"))


class Site:
    """The built site in memory. Pages name their origin (canonical, hreflang, Open Graph) and the
    operator (footer, About, terms, privacy): the public URL, the operator's identity and social
    links, escaped, are written into each page once, when it is first asked for; the user count
    (and on the status page the whole snapshot) each time the snapshot has changed, so between
    changes a page costs a dictionary look-up. Without an operator (only the demo and tests build
    a site without one: `serve` refuses) the fictitious demo one is shown."""

    def __init__(
        self,
        root: Path,
        public_url: str,
        snapshot: Snapshot,
        operator: Operator | None = None,
        social_links: tuple[SocialLink, ...] = (),
        testimonials: TestimonialSet = NONE,
        licence_days: int = DEFAULT_TERM_DAYS,
        free_tier_cap: int = DEFAULT_FREE_TIER_CAP,
        facts: OperatorFacts | None = None,
    ) -> None:
        self.root = root
        self.snapshot = snapshot
        # The operator's settings are text to every page, escaped as a visitor's values are
        # (``slots.escape``), so none of them is read as markup or as a marker of a later filling.
        # The public URL is checked at start (``links.public_origin``): escaped, it reads the same in
        # robots.txt as in the pages and the sitemap.
        self.origin = escape(public_url).encode()
        self.page_values = {
            placeholder: escape(value).encode()
            for placeholder, value in (operator or DEMO_OPERATOR).placeholders().items()
        }
        # The operator's terms (VPNSITE_LICENCE_DAYS, VPNSITE_FREE_TIER_CAP), which every page
        # states in its language (ui/src/lib/served.tsx: terms; ui/src/content/terms.ts: withTerms).
        self.licence_days = licence_days
        self.free_tier_cap = free_tier_cap
        self.social_links = social_links
        self.files = {
            "/" + str(path.relative_to(root)): path.read_bytes()
            for path in root.rglob("*")
            if path.is_file() and path.suffix in _TYPES
        }
        self.formats = PageFormats.load(root / "forms" / "formats.json")
        self.status_page = StatusPage.load(root / "forms" / "status.json")
        self.profile_rows = ProfileRows.load(root / "forms" / "profiles.json")
        self.device_rows = DeviceRows.load(root / "forms" / "devices.json")
        self.connection_answers = ConnectionAnswers.load(root / "forms" / "check.json")
        self.testimonials = Testimonials.read(root / "forms" / "testimonials.json", testimonials)
        self.footer_contact = FooterContact.load(root / "forms" / "footer.json")
        self.fleet_locations = FleetLocations.load(root / "forms" / "locations.json")
        self.about = AboutPieces.load(root / "forms" / "about.json")
        self.facts = facts or default_operator_facts()
        founder = (operator or DEMO_OPERATOR).founder
        self.about_data = {language: self.about.data(self.facts, language, founder) for language in LANGUAGES}
        self._check_slots(root)
        self._with_locations = {
            name for name, body in self.files.items() if b"__SLOT_RAW_LOCATIONS__" in body
        }
        self._with_status = {name for name, body in self.files.items() if b"__SLOT_RAW_STATUS" in body}
        self.with_check = {name for name, body in self.files.items() if b"__SLOT_RAW_CHECK__" in body}
        self._with_testimonials = {
            name for name, body in self.files.items() if b"__SLOT_RAW_TESTIMONIALS__" in body
        }
        self._static: dict[str, Variant] = {}
        self._bound: dict[str, bytes] = {}
        # Each page as last filled, by its name, the connection check's answer (the server a
        # visitor's address is an exit of; on the status page only) and the testimonials picked
        # (on the home page only), with what it was filled from (``figures``).
        self._pages: dict[tuple[str, str, tuple[int, ...]], tuple[Figures, Variant]] = {}
        # The testimonials each of those pages shows, by its ETag: a visitor who holds one keeps it.
        self._picked: dict[str, tuple[int, ...]] = {}

    def _check_slots(self, root: Path) -> None:
        """Stops the start unless the build's manifest names exactly the slots this server fills: a
        page's (what ``counts`` fills, and the blocks a page gets by having their marker), each
        form screen's and each piece's."""
        manifest = read(root)
        numbers, counted = self.counts(DEFAULT_LANGUAGE, self.figures())
        page = frozenset({*numbers, *(f"RAW_{name}" for name in counted), *_BLOCKS})
        problems = list(page_problems(manifest["pages"], page, SCREEN_SLOTS))
        pieces = {
            "formats.json": self.formats.SLOTS,
            "status.json": self.status_page.SLOTS,
            "profiles.json": self.profile_rows.SLOTS,
            "devices.json": self.device_rows.SLOTS,
            "check.json": self.connection_answers.SLOTS,
            "testimonials.json": self.testimonials.SLOTS,
            "footer.json": self.footer_contact.SLOTS,
            "locations.json": self.fleet_locations.SLOTS,
            "about.json": self.about.SLOTS,
        }
        for file, by_language in manifest["pieces"].items():
            problems += piece_problems(file, by_language, pieces.get(file, {}))
        if problems:
            raise SlotMismatch(problems)

    @classmethod
    def load(
        cls,
        public_url: str,
        snapshot: Snapshot,
        operator: Operator | None = None,
        social_links: tuple[SocialLink, ...] = (),
        testimonials: TestimonialSet = NONE,
        licence_days: int = DEFAULT_TERM_DAYS,
        free_tier_cap: int = DEFAULT_FREE_TIER_CAP,
        facts: OperatorFacts | None = None,
    ) -> Site | None:
        if not (SITE_DIR / "pages" / "index.html").is_file():
            log.warning("the website bundle is missing: run `python build_ui.py` (serving the API only)")
            return None
        return cls(
            SITE_DIR,
            public_url,
            snapshot,
            operator,
            social_links,
            testimonials,
            licence_days,
            free_tier_cap,
            facts,
        )

    def counts(self, language: str, key: Figures) -> tuple[dict[str, str], dict[str, bytes]]:
        """What every page says of the snapshot: the numbers for the script (meta tags), the
        servers online, the fleet's uptime and countries (on the home page), and each text that
        counts users as markup (``PageFormats``): a number in the language's plural form, or the
        words for a new service; and the operator's terms in words (the licence's term, how many
        users the free tier takes)."""
        formats = self.formats[language]
        uptime = key.uptime_permille
        numbers = {
            "USER_COUNT": str(key.users),
            "SERVERS_ONLINE": str(key.servers_online),
            "SERVERS": formats.count(key.servers_online),
            "UPTIME_PERMILLE": "" if uptime is None else str(uptime),
            "COUNTRIES_COUNT": str(key.countries),
            "COUNTRIES": formats.count(key.countries),
            # The operator's terms, in words (ui/src/lib/served.tsx: terms).
            "TERM": formats.days_text(self.licence_days),
            "FREE_USERS": formats.users_text(self.free_tier_cap),
            "FREE_COUNT": formats.count(self.free_tier_cap),
        }
        # How many devices a licence connects at once, in words for the fleet (http/pages/device_rows.py):
        # one server a location, so a page is filled again when the fleet changes.
        numbers.update(self.device_rows.limit_texts(language, len(key.locations)))
        return numbers, {**formats.counted(key.users), "UPTIME": formats.uptime(uptime)}

    def figures(self, status_etag: str = "") -> Figures:
        snapshot = self.snapshot
        return Figures(
            snapshot.users,
            snapshot.servers_online,
            snapshot.uptime_permille,
            snapshot.countries,
            status_etag,
            snapshot.locations,
        )

    def _page(self, name: str) -> bytes:
        """A page as the server sends it before the snapshot goes in: its origin and operator (the
        footer's contact column first: it names the operator's e-mail)."""
        found = self._bound.get(name)
        if found is None:
            contact = self.footer_contact.block(
                language_of_file(name), self.social_links, self.facts.source_code
            )
            found = self.files[name].replace(FOOTER_CONTACT_MARKER, contact)
            found = found.replace(ORIGIN_PLACEHOLDER, self.origin)
            for placeholder, value in self.page_values.items():
                found = found.replace(placeholder, value)
            found = self._with_facts(found, language_of_file(name))
            self._bound[name] = found
        return found

    def _with_facts(self, page: bytes, language: str) -> bytes:
        """A page with the operator's facts in its language (they do not change while the server
        runs): who has access to the servers, and on the About page its facts and their data."""
        data = self.about_data.get(language, self.about_data[DEFAULT_LANGUAGE])
        texts, raw = self.about.blocks(data, language)
        texts["SERVER_ACCESS"] = self.facts.of(language).server_access
        for name, text in texts.items():
            page = page.replace(f"__SLOT_{name}__".encode(), escape(text).encode())
        for name, markup in raw.items():
            page = page.replace(f"__SLOT_RAW_{name}__".encode(), markup)
        return page

    def answer(
        self, language: str, screen: str, values: Mapping[str, str], pieces: Mapping[str, bytes] | None = None
    ) -> bytes:
        """The answer to a form post: the screen prerendered for it, with the visitor's values (and
        the markup ``pieces`` put together from the build's, such as the one-tap setup list)."""
        numbers, counted = self.counts(language, self.figures())
        name = f"/forms/{language}/{screen}.html"
        raw = {**counted, **(pieces or {})}
        if name in self._with_testimonials:
            raw["TESTIMONIALS"] = self.testimonials.block(language, self.testimonials.pick(language))
        if name in self._with_locations:
            raw["LOCATIONS"] = self.fleet_locations.block(language, self.snapshot.locations)
        # The markup first: the visitor's values go in last, so nothing in them is read as a marker.
        body = fill_raw(self._page(name), raw)
        return fill(body, {**numbers, **values})

    def variant(
        self, name: str, visitor: str | None = None, held: Collection[str] = (), asked: bool = False
    ) -> Variant:
        """A file as sent. A page is filled with the last snapshot; on the status page with the
        connection check's answer for the ``visitor``'s address (compared in memory, never kept);
        when the visitor ``asked`` for it (the check's button), else with the button alone; on the
        home page with testimonials picked at random, unless the visitor ``held`` (by its
        ETag, unquoted) the page as it still stands: they get that one back, so a 304 keeps it."""
        if not name.endswith(".html"):
            found = self._static.get(name)
            if found is None:
                body = self.files[name]
                if Path(name).suffix in _ORIGIN_BOUND:
                    body = body.replace(ORIGIN_PLACEHOLDER, self.origin)
                found = self._static[name] = _variant(body)
            return found
        status = self.snapshot.server_status
        key = self.figures(status.etag if name in self._with_status else "")
        checking = asked and name in self.with_check
        exit_of = self.snapshot.exits.server_of(visitor) if checking else None
        answer = (exit_of.location.id if exit_of is not None else "") if checking else "?"
        language = language_of_file(name)
        picked: tuple[int, ...] = ()
        if name in self._with_testimonials:
            for tag in held:
                kept = self._picked.get(f'"{tag}"')
                page = self._pages.get((name, answer, kept)) if kept is not None else None
                if page is not None and page[0] == key and page[1].etag == f'"{tag}"':
                    return page[1]
            picked = self.testimonials.pick(language)
        cached = self._pages.get((name, answer, picked))
        if cached is not None and cached[0] == key:
            return cached[1]
        numbers, counted = self.counts(language, key)
        raw = dict(counted)
        if key.status_etag:
            snapshot = json.loads(status.body)
            raw["STATUS"] = self.status_page.block(language, snapshot, self.formats[language])
            # A data block for the script: nothing in it may close the element.
            raw["STATUS_JSON"] = status.body.replace(b"<", b"\\u003c")
        if checking:
            raw["CHECK"] = self.connection_answers.block(language, exit_of)
            raw["CHECK_JSON"] = self.connection_answers.data(exit_of)
        elif name in self.with_check:
            raw["CHECK"] = self.connection_answers.idle(language)
            raw["CHECK_JSON"] = b"null"
        if name in self._with_testimonials:
            raw["TESTIMONIALS"] = self.testimonials.block(language, picked)
        if name in self._with_locations:
            raw["LOCATIONS"] = self.fleet_locations.block(language, key.locations)
        body = fill_raw(fill(self._page(name), numbers), raw)
        found = _variant(body)
        if cached is not None:
            self._picked.pop(cached[1].etag, None)
        self._pages[(name, answer, picked)] = (key, found)
        if picked:
            self._picked[found.etag] = picked
        return found

    def page_for(self, path: str) -> tuple[str, int]:
        """The file that answers a path, and its status: the page, or the language's 404."""
        clean = "/" + path.strip("/")
        candidate = "/pages" + ("" if clean == "/" else clean) + "/index.html"
        if candidate in self.files:
            return candidate, 200
        first = clean.split("/")[1] if clean != "/" else ""
        prefix = f"/{first}" if first in PREFIXED else ""
        return f"/pages{prefix}/404.html", 404


class PagePath(PathConverter):
    """Any path but the API's, so a wrong method on an API call still gets its 405."""

    regex = r"(?!api(?:/|$))[^/].*?"


def html_response(body: bytes, status: int) -> Response:
    response = Response(body, status=status, content_type=_TYPES[".html"])
    response.headers["Content-Security-Policy"] = HTML_CSP
    return response


def register_site(app: Flask, site: Site) -> None:
    app.url_map.converters["page"] = PagePath
    app.register_blueprint(site_blueprint(site))


def respond(site: Site, name: str, status: int, cache: str) -> Response:
    # The connection check compares the visitor's address only when they ask (its button: ?check).
    answers_visitor = name in site.with_check and "check" in request.args
    variant = site.variant(
        name, caller_ip() if answers_visitor else None, request.if_none_match.as_set(), answers_visitor
    )
    if answers_visitor:
        # The page holds this visitor's answer: no shared cache may hand it to another.
        cache = "private, " + cache
    suffix = Path(name).suffix
    gzip_ok = "gzip" in request.headers.get("Accept-Encoding", "")
    if status == 200 and request.if_none_match.contains(variant.etag.strip('"')):
        response = Response(status=304)
    else:
        response = Response(
            variant.gzipped if gzip_ok else variant.body, status=status, content_type=_TYPES[suffix]
        )
        if gzip_ok:
            response.headers["Content-Encoding"] = "gzip"
    response.headers["ETag"] = variant.etag
    response.headers["Cache-Control"] = cache
    response.headers["Vary"] = "Accept-Encoding"
    if suffix == ".html":
        response.headers["Content-Security-Policy"] = HTML_CSP
    return response


def page_response(site: Site, path: str) -> Response:
    """The page at a path (without its leading slash), or its language's 404."""
    if not _SAFE_PATH.match(path):
        abort(404)
    name, status = site.page_for(path)
    return respond(site, name, status, "no-cache")


def site_blueprint(site: Site) -> Blueprint:
    blueprint = Blueprint("site", __name__)

    @blueprint.get("/assets/<path:name>")
    def asset(name: str) -> Response:
        key = f"/assets/{name}"
        if key not in site.files:
            abort(404)
        return respond(site, key, 200, "public, max-age=31536000, immutable")

    @blueprint.get("/source/<name>")
    def source(name: str) -> Response:
        # The tarball of the source the site was built from (build_ui.py), to download as it is:
        # already gzipped, so never encoded again; a new install may change it under one name.
        if not _SOURCE_ARCHIVE.match(name):
            abort(404)
        response = send_from_directory(
            site.root / "source", name, mimetype="application/gzip", as_attachment=True, max_age=0
        )
        response.headers["Cache-Control"] = "no-cache"
        return response

    @blueprint.get("/<any('robots.txt', 'sitemap.xml', 'favicon.svg'):name>")
    def well_known(name: str) -> Response:
        return respond(site, f"/{name}", 200, "public, max-age=3600")

    @blueprint.get("/", defaults={"path": ""})
    @blueprint.get("/<page:path>")
    def page(path: str) -> Response:
        return page_response(site, path)

    return blueprint
