"""Signed sign-up requests: what ``submit-email`` hands the browser and ``create-user`` takes back.

The signature covers a canonical encoding of every field, so changing any of them (the number of
days, say) is detected. Nothing is written when a request is issued: it is redeemed once because the
licence it becomes keeps its id under a unique constraint.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from datetime import UTC, datetime, timedelta

from attrs import frozen

REQUEST_TTL = timedelta(minutes=30)
SUBSCRIPTION_FREE = "free"
_CONTEXT = b"vpnsite/signup-request/v1\n"


@frozen
class FormData:
    user_email: str
    user_days: int
    subscription: str
    user_comment: str
    request_id: str

    def canonical(self) -> bytes:
        fields = {
            "request_id": self.request_id,
            "subscription": self.subscription,
            "user_comment": self.user_comment,
            "user_days": self.user_days,
            "user_email": self.user_email,
        }
        return _CONTEXT + json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()


def sign(form: FormData, key: bytes) -> str:
    return hmac.new(key, form.canonical(), hashlib.sha256).hexdigest()


def signature_matches(form: FormData, sig: str, key: bytes) -> bool:
    return sig.isascii() and hmac.compare_digest(sign(form, key), sig)


# A language's code as ISO 639 writes it, two letters or three: what a request id may carry, what
# the contract's pattern admits, and what the languages' list is held to when it is read.
LANGUAGE_CODE = "[a-z]{2,3}"


@frozen
class SignupRequest:
    """What a request's id carries: nothing about a request is stored until it is redeemed, so
    its expiry and the visitor's language travel inside the id, which the signature covers."""

    nonce: str
    expires_at: datetime
    language: str = "en"
    """The language the visitor signed up in: their e-mails are written in it."""

    @property
    def id(self) -> str:
        return f"{self.nonce}-{int(self.expires_at.timestamp())}-{self.language}"

    @classmethod
    def parse(cls, request_id: str) -> SignupRequest | None:
        """None for anything this version did not issue (a request from before the upgrade, say)."""
        match = _REQUEST_ID.fullmatch(request_id)
        if match is None:
            return None
        expires_at = datetime.fromtimestamp(int(match["expires"]), UTC)
        return cls(match["nonce"], expires_at, match["language"])

    def has_expired(self, now: datetime) -> bool:
        return now >= self.expires_at


_REQUEST_ID = re.compile(
    rf"(?P<nonce>[0-9a-f]{{32}})-(?P<expires>[0-9]{{1,12}})-(?P<language>{LANGUAGE_CODE})"
)


@frozen
class SignedForm:
    form: FormData
    sig: str
