"""Signed sign-up requests: what ``submit-email`` hands the browser and ``create-user`` takes back.

The signature covers a canonical encoding of every field, so changing any of them (the number of
days, say) is detected; the request itself is kept server-side so it can be redeemed only once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime, timedelta

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


@frozen
class SignupRequest:
    """A pending request as the server keeps it."""

    id: str
    email: str
    user_days: int
    created_at: datetime
    expires_at: datetime
    language: str = "en"
    """The language the visitor signed up in: their e-mails are written in it."""

    def has_expired(self, now: datetime) -> bool:
        return now >= self.expires_at


@frozen
class SignedForm:
    form: FormData
    sig: str
