"""Business errors, each with a stable machine code. What they mean to a protocol (an HTTP status,
say) and their human-readable text are chosen by the driving adapter, in the caller's language."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vpnsite.proof_of_work import Challenge


class DomainError(Exception):
    code = "domain_error"

    def __init__(self, **params: object) -> None:
        super().__init__(self.code)
        self.params = params


class RequestAlreadyUsed(DomainError):
    code = "request_already_used"


class InvalidSignature(DomainError):
    code = "invalid_signature"


class FreeTierFull(DomainError):
    code = "free_tier_full"


class NodeUnauthorized(DomainError):
    """A VPN server called the hub without a valid token."""

    code = "node_unauthorized"


class LicenceNotFound(DomainError):
    code = "licence_not_found"


class NotRenewableYet(DomainError):
    code = "not_renewable_yet"


class RenewalClosed(DomainError):
    code = "renewal_closed"


class RequestExpired(DomainError):
    code = "request_expired"


class StoreUnavailable(DomainError):
    """The database cannot be reached (or lost the connection) just now; nothing was decided."""

    code = "unavailable"


class RateLimited(DomainError):
    """``action`` is the rate-limited action refused (``submit-email``, ...), for the operator's
    counts; it is not part of the visitor's message."""

    code = "rate_limited"

    def __init__(self, retry_after: timedelta, action: str) -> None:
        seconds = max(1, int(-(-retry_after.total_seconds() // 1)))
        super().__init__(seconds=seconds)
        self.retry_after_seconds = seconds
        self.action = action


class InvalidField(DomainError):
    """A field failed a domain rule (``also``: more fields that failed it); the adapter reports
    it as a validation error naming each, its text filled in with ``details`` (the network a
    server may not report, say)."""

    code = "validation_error"

    def __init__(self, field: str, kind: str, also: Sequence[str] = (), **details: str) -> None:
        super().__init__(field=field, kind=kind)
        self.field = field
        self.kind = kind
        self.fields = (field, *also)
        self.details = details


class SessionNotFound(DomainError):
    """No session of the licence has that id (it ended, or never was the licence's)."""

    code = "session_not_found"


class ProfileNotFound(DomainError):
    """The personal link is good, but no server offers that profile."""

    code = "profile_not_found"


class SignupsBusy(RateLimited):
    """Sign-ups come faster than people do, and the hour's allowance of those that solve no
    challenge (a page without a script) is taken: try again after the wait."""

    code = "signups_busy"


class ChallengeRequired(DomainError):
    """Sign-ups come faster than people do: this one must first solve ``challenge`` (a proof of
    work, :mod:`vpnsite.proof_of_work`) and send its solution. Each refusal of a solution is one
    of the subclasses and carries a fresh challenge too."""

    code = "challenge_required"

    def __init__(self, challenge: Challenge) -> None:
        super().__init__()
        self.challenge = challenge


class ChallengeInvalid(ChallengeRequired):
    """The solution is not one of a challenge we made, or not its answer (forged, or altered)."""

    code = "challenge_invalid"


class ChallengeExpired(ChallengeRequired):
    code = "challenge_expired"


class ChallengeUsed(ChallengeRequired):
    """The solution was sent before: each is good for one sign-up."""

    code = "challenge_used"
