"""Business errors. Each carries the HTTP status it maps to and a stable machine code; the
human-readable text is chosen by the driving adapter in the caller's language."""

from __future__ import annotations

from datetime import timedelta


class DomainError(Exception):
    status = 400
    code = "domain_error"

    def __init__(self, **params: object) -> None:
        super().__init__(self.code)
        self.params = params


class RequestAlreadyUsed(DomainError):
    status = 400
    code = "request_already_used"


class InvalidSignature(DomainError):
    status = 403
    code = "invalid_signature"


class FreeTierFull(DomainError):
    status = 403
    code = "free_tier_full"


class NodeUnauthorized(DomainError):
    """A VPN server called the hub without a valid token."""

    status = 401
    code = "node_unauthorized"


class LicenceNotFound(DomainError):
    status = 404
    code = "licence_not_found"


class TicketNotFound(DomainError):
    status = 404
    code = "ticket_not_found"


class NotRenewableYet(DomainError):
    status = 409
    code = "not_renewable_yet"


class RenewalClosed(DomainError):
    status = 410
    code = "renewal_closed"


class RequestExpired(DomainError):
    status = 410
    code = "request_expired"


class RateLimited(DomainError):
    status = 429
    code = "rate_limited"

    def __init__(self, retry_after: timedelta) -> None:
        seconds = max(1, int(-(-retry_after.total_seconds() // 1)))
        super().__init__(seconds=seconds)
        self.retry_after_seconds = seconds


class InvalidField(DomainError):
    """A field failed a domain rule; the adapter reports it as a validation error (HTTP 422)."""

    status = 422
    code = "validation_error"

    def __init__(self, field: str, kind: str) -> None:
        super().__init__(field=field, kind=kind)
        self.field = field
        self.kind = kind
