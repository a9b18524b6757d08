"""The counters and histograms the adapters update, in a registry of the hub's own (several hubs
in one process, as in the tests, never share a count), and the scrape of everything in it.

Labels carry only fixed words: route templates, methods, statuses, outcomes and actions; never an
address, a code or a token."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, get_args

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from vpnsite.errors import (
    ChallengeExpired,
    ChallengeInvalid,
    ChallengeRequired,
    ChallengeUsed,
    DomainError,
    InvalidField,
    LicenceNotFound,
    RateLimited,
)
from vpnsite.proof_of_work import UNCHALLENGED_SIGN_UP
from vpnsite.rate_limits import ACTIONS
from vpnsite.vpn_access import Refusal

_log = logging.getLogger("vpnsite")

# Any other path: a route's label is its template, and a path no route knows must not become one.
UNMATCHED_ROUTE = "unmatched"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CHECK_OUTCOME_OF: dict[type[DomainError], str] = {
    LicenceNotFound: "not_found",
    RateLimited: "limited",
    InvalidField: "invalid",
}
CHECK_OUTCOMES = ("ok", *_CHECK_OUTCOME_OF.values())
# A login is admitted, refused for the core's reason, or asked with a token no server holds.
NODE_LOGIN_RESULTS: tuple[str, ...] = ("admitted", *get_args(Refusal), "bad_token")
CHALLENGE_CODES = tuple(
    error.code for error in (ChallengeRequired, ChallengeInvalid, ChallengeExpired, ChallengeUsed)
)
# A page, a licence check and a sign-up take milliseconds; an archive or a slow database, seconds.
# Summed across processes: what each process counts. Gauges are the hub's own.
_ADDITIVE = frozenset({"counter", "histogram"})
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def method_label(method: str) -> str:
    """A client may send any method name: the label takes the standard ones, the rest as one."""
    return method if method in _METHODS else "OTHER"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        # What a scrape shows: the registry, and the node process's counts once there is one.
        self.exposed = MergedMetrics(self.registry)
        registry = self.registry
        self.requests = Counter(
            "vpnsite_http_requests",
            "HTTP requests answered, by route template, method and status",
            ["route", "method", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "vpnsite_http_request_duration_seconds",
            "Time to answer a request, by route template (the polling endpoints are not timed)",
            ["route"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.signups = Counter("vpnsite_signups", "Licences created by sign-up", registry=registry)
        self.licence_checks = Counter(
            "vpnsite_licence_checks",
            "Licence checks (POST /api/check-license) by outcome",
            ["outcome"],
            registry=registry,
        )
        self.renewals = Counter("vpnsite_renewals", "Licences renewed", registry=registry)
        self.tickets = Counter("vpnsite_support_tickets", "Support tickets opened", registry=registry)
        self.rate_limited = Counter(
            "vpnsite_rate_limit_refusals",
            "Calls refused by a rate limit, by action",
            ["action"],
            registry=registry,
        )
        self.mail_failures = Counter(
            "vpnsite_mail_send_failures",
            "Messages the mailer did not take (each is retried)",
            registry=registry,
        )
        self.node_logins = Counter(
            "vpnsite_node_logins",
            "VPN logins asked of the hub by servers, by result (admitted or the refusal's reason)",
            ["result"],
            registry=registry,
        )
        self.signup_challenges = Counter(
            "vpnsite_signup_challenges",
            "Sign-ups asked to solve a proof of work (428), by why: none sent, or the one sent wrong, "
            "expired or used",
            ["code"],
            registry=registry,
        )
        self.database_errors = Counter(
            "vpnsite_database_errors",
            "Times the database could not be reached or lost the connection",
            registry=registry,
        )
        # Every known label value shows from the start, so a dashboard sees 0 rather than nothing.
        for outcome in CHECK_OUTCOMES:
            self.licence_checks.labels(outcome)
        for action in (*ACTIONS, UNCHALLENGED_SIGN_UP):
            self.rate_limited.labels(action)
        for code in CHALLENGE_CODES:
            self.signup_challenges.labels(code)
        for result in NODE_LOGIN_RESULTS:
            self.node_logins.labels(result)

    def request_counter(self, route: str, method: str, status: int) -> Callable[[], None]:
        """The increment of one (route, method, status): resolved once by a caller that counts the
        same answer many times (the polling endpoints), so each count is one call."""
        return self.requests.labels(route, method_label(method), str(status)).inc

    def observe_request(self, route: str | None, method: str, status: int, seconds: float) -> None:
        route = route or UNMATCHED_ROUTE
        self.requests.labels(route, method_label(method), str(status)).inc()
        self.latency.labels(route).observe(seconds)

    @contextmanager
    def counting_licence_check(self) -> Iterator[None]:
        """Counts the licence check run inside by its outcome; an unreachable database is none."""
        try:
            yield
        except tuple(_CHECK_OUTCOME_OF) as error:
            self.licence_checks.labels(_CHECK_OUTCOME_OF[type(error)]).inc()
            raise
        self.licence_checks.labels("ok").inc()

    def node_login(self, refused: Refusal | None) -> None:
        self.node_logins.labels(refused or "admitted").inc()

    def count_elsewhere(self, scrape: Callable[[], bytes]) -> None:
        """Another process (the node API's) counts too: its counts are added to ours."""
        self.exposed.others = scrape

    def scrape(self) -> tuple[bytes, str]:
        """The whole registry in the Prometheus text format, and its content type."""
        return generate_latest(self.exposed), CONTENT_TYPE_LATEST


class MergedMetrics:
    """A registry's metrics with another process's counters and histograms added to its own,
    sample by sample (the other's gauges are left out: they are the hub's to say)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self._registry = registry
        self.others: Callable[[], bytes] = bytes

    def collect(self) -> Iterator[Metric]:
        added: dict[str, list[Any]] = {}
        for family in _families(self.others()):
            if family.type in _ADDITIVE:
                added.setdefault(family.name, []).extend(
                    sample for sample in family.samples if not sample.name.endswith("_created")
                )
        for family in self._registry.collect():
            extra = added.get(family.name)
            if extra:
                family.samples = _summed(family.samples, extra)
            yield family


def _families(text: bytes) -> Iterable[Metric]:
    if not text:
        return []
    try:
        return list(text_string_to_metric_families(text.decode()))
    except ValueError:
        _log.warning("the node API's process sent metrics that do not parse: left out")
        return []


def _summed(samples: list[Any], extra: list[Any]) -> list[Any]:
    def key(sample: Any) -> tuple[str, tuple[tuple[str, str], ...]]:
        return sample.name, tuple(sorted(sample.labels.items()))

    values = {key(sample): sample.value for sample in extra}
    merged = []
    for sample in samples:
        more = values.pop(key(sample), None)
        merged.append(sample if more is None else sample._replace(value=sample.value + more))
    merged.extend(sample for sample in extra if key(sample) in values)
    return merged
