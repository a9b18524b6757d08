"""Device cookies, OWASP's answer to lock-out by strangers: a browser that has opened a licence is
given a token bound to the licence's mailbox, and while it shows one, its owner is judged by that
browser's own failures alone, never by the ceiling every client's failures fill together
(``rate_limits.Limiter.refuse_if_failing``).

A token holds no address: the ring key that signed it, a random id, and a keyed hash of the
mailbox and the id, which only a caller who types the mailbox's address can match. One browser
keeps tokens for a few mailboxes (a family's computer), the latest opened first. Any ring key
verifies a token, so a key rotation logs no browser out."""

from __future__ import annotations

import hmac
import re
from collections.abc import Sequence

from attrs import frozen

from vpnsite.emails import mailbox_key
from vpnsite.keyed_hashes import Keyring, KeySet
from vpnsite.ports import RandomSource

MAILBOXES_KEPT = 4
_ID_BYTES = 16
_MAC_CHARS = 32
_TOKEN = re.compile(r"^(\d{1,6})\.([0-9a-f]{32})\.([0-9a-f]{32})$")
# Ample for MAILBOXES_KEPT tokens; anything longer is not ours and is not read.
MAX_COOKIE = 512


@frozen
class DeviceCookies:
    keys: Keyring
    random: RandomSource

    def recognised(self, cookie: str | None, email: str) -> str | None:
        """The id of the browser's token for the address's mailbox, if its cookie holds a genuine
        one; None otherwise."""
        mailbox = mailbox_key(email)
        ring = {keys.id: keys for keys in self.keys.read().sets}
        for key_id, device, mac in _tokens(cookie):
            keys = ring.get(key_id)
            if keys is not None and hmac.compare_digest(mac, _mac(keys, mailbox, device)):
                return device
        return None

    def opened(self, cookie: str | None, email: str) -> str:
        """The cookie for a browser that has just opened a licence of the address: a new token for
        its mailbox first (each success starts the browser's count of failures afresh, as OWASP's
        pattern does), then the tokens it kept for other mailboxes, at most ``MAILBOXES_KEPT``."""
        mailbox = mailbox_key(email)
        ring = {keys.id: keys for keys in self.keys.read().sets}
        others = [
            (key_id, device, mac)
            for key_id, device, mac in _tokens(cookie)
            if key_id in ring and not hmac.compare_digest(mac, _mac(ring[key_id], mailbox, device))
        ]
        keys = self.keys.current
        device = self.random.token_bytes(_ID_BYTES).hex()
        kept = [(keys.id, device, _mac(keys, mailbox, device)), *others][:MAILBOXES_KEPT]
        return "~".join(f"{key_id}.{device}.{mac}" for key_id, device, mac in kept)


def _mac(keys: KeySet, mailbox: str, device: str) -> str:
    return keys.devices.hash(f"{device}|{mailbox}")[:_MAC_CHARS]


def _tokens(cookie: str | None) -> Sequence[tuple[int, str, str]]:
    if not cookie or len(cookie) > MAX_COOKIE:
        return []
    found = []
    for token in cookie.split("~")[:MAILBOXES_KEPT]:
        matched = _TOKEN.match(token)
        if matched:
            found.append((int(matched[1]), matched[2], matched[3]))
    return found
