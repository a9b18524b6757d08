"""The no-script sign-up's answer, kept for a reload: Post/Redirect/Get.

The post that creates a licence answers 303 to ``/activation``; the licence it made rides to that
page, and to its reloads, in a cookie of this browser alone: sealed (AES-GCM, a key of the ring's
of its own), read only by the server (HttpOnly), sent only with the site's own requests
(SameSite=Strict), for half an hour. Nothing of it is in an address or a log line, and a reload
is a GET: it shows the same licence and never makes another."""

from __future__ import annotations

import base64
import binascii
import json
import os
from datetime import datetime

from attrs import asdict, frozen
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from vpnsite.keyed_hashes import Keyring
from vpnsite.personal_data import SIGNUP_COOKIE_KEPT

COOKIE = "hz_signup"
LIFETIME = SIGNUP_COOKIE_KEPT
_NONCE_BYTES = 12
_CONTEXT = b"vpnsite-shown-activation"


@frozen
class ShownActivation:
    """What the success screen shows: the licence's address, code, term, end (Unix seconds), the
    archive link's token, whether the licence e-mail went too, and when the licence was made."""

    email: str
    code: str
    term_days: int
    ends_at: int
    archive_token: str
    emailed: bool
    made_at: int


def seal(shown: ShownActivation, keys: Keyring) -> str:
    nonce = os.urandom(_NONCE_BYTES)
    plain = json.dumps(asdict(shown), separators=(",", ":")).encode()
    sealed = AESGCM(keys.current.shown_activations).encrypt(nonce, plain, _CONTEXT)
    return base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")


def unseal(value: str | None, keys: Keyring, now: datetime) -> ShownActivation | None:
    """The activation a cookie holds, sealed by any key of the ring, within its lifetime; None
    for anything else (no cookie, an old one, one this server did not seal)."""
    if not value or len(value) > 2048:
        return None
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None
    for key_set in keys.read().sets:
        try:
            aead = AESGCM(key_set.shown_activations)
            plain = aead.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _CONTEXT)
        except (InvalidTag, ValueError):
            continue
        try:
            shown = ShownActivation(**json.loads(plain))
        except (TypeError, ValueError):
            return None
        made = datetime.fromtimestamp(shown.made_at, now.tzinfo)
        return shown if made <= now < made + LIFETIME else None
    return None
