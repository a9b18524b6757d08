"""The ring of master keys and its rules: which key is current, which verify, how a key is added,
made current and retired, and when retiring one would cost users their codes.

Key 1 is the original master secret (``VPNSITE_SECRET_KEY`` or the generated ``secret.key``); it is
never written here, only recorded as retired. Rotated keys carry their secret in the ring."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import attrs
from attrs import field, frozen

from vpnsite.keyed_hashes import ORIGINAL_KEY, RingKeys

SECRET_BYTES = 32


class KeyRingError(ValueError):
    """An operator's request the ring refuses; the message says why."""


@frozen
class MasterKey:
    id: int
    secret: bytes = field(repr=False)
    created: datetime
    staged: bool = False
    """Verifies but does not sign yet: added on every process before any of them signs with it."""


@frozen
class KeyUsage:
    """How many stored hashes a key still holds that someone may yet use: codes of licences that
    can still be checked or renewed, unused renewal links, VPN servers' tokens."""

    codes: int = 0
    renewal_links: int = 0
    server_tokens: int = 0

    @property
    def total(self) -> int:
        return self.codes + self.renewal_links + self.server_tokens

    def describe(self) -> str:
        return (
            f"the codes of {self.codes} licence(s), {self.renewal_links} unused renewal link(s) "
            f"and {self.server_tokens} VPN server token(s)"
        )


@frozen
class KeyRing:
    """What the ring file records. With nothing recorded, key 1 alone is current."""

    current: int = ORIGINAL_KEY
    rotated: tuple[MasterKey, ...] = ()
    retired: frozenset[int] = frozenset()

    def ids(self) -> list[int]:
        """Every key that still verifies, in id order."""
        ids = [] if ORIGINAL_KEY in self.retired else [ORIGINAL_KEY]
        return ids + [key.id for key in self.rotated if key.id not in self.retired]

    def find(self, key_id: int) -> MasterKey | None:
        return next((key for key in self.rotated if key.id == key_id), None)

    def rotate(self, secret: bytes, now: datetime, stage: bool = False) -> KeyRing:
        """Add a new key; current at once, or (``stage``) verify-only until ``use``."""
        if len(secret) < SECRET_BYTES:
            raise KeyRingError(f"a master key needs at least {SECRET_BYTES} random bytes")
        new_id = max([ORIGINAL_KEY, *(key.id for key in self.rotated), *self.retired]) + 1
        added = attrs.evolve(self, rotated=(*self.rotated, MasterKey(new_id, secret, now, staged=stage)))
        return added if stage else added.use(new_id)

    def use(self, key_id: int) -> KeyRing:
        """Make a key of the ring current."""
        if key_id not in self.ids():
            raise KeyRingError(f"key {key_id} is not in the ring")
        rotated = tuple(attrs.evolve(key, staged=False) if key.id == key_id else key for key in self.rotated)
        return attrs.evolve(self, current=key_id, rotated=rotated)

    def retire(self, key_id: int) -> KeyRing:
        """Drop a key: nothing it signed or hashed is recognised any more. Key 1 stays recorded
        as retired (its secret is in the environment, not here); a rotated key is forgotten."""
        if key_id not in self.ids():
            raise KeyRingError(f"key {key_id} is not in the ring")
        if key_id == self.current:
            raise KeyRingError(f"key {key_id} is current: rotate to a new key first")
        return attrs.evolve(
            self,
            rotated=tuple(key for key in self.rotated if key.id != key_id),
            retired=self.retired | {key_id},
        )

    def keys(self, original: bytes) -> RingKeys:
        """The derived keys of every key that verifies, the current one signing."""
        masters: Mapping[int, bytes] = {
            key_id: original if key_id == ORIGINAL_KEY else self._secret(key_id) for key_id in self.ids()
        }
        return RingKeys.of(masters, self.current)

    def _secret(self, key_id: int) -> bytes:
        key = self.find(key_id)
        assert key is not None, "every id but the original's names a rotated key"
        return key.secret


def retire_refusal(key_id: int, usage: KeyUsage, force: bool) -> str | None:
    """Why retiring a key must wait, or None: a key is kept while anything still usable depends on
    it, unless the operator forces it."""
    if usage.total and not force:
        return (
            f"key {key_id} still holds {usage.describe()}: {usage.codes} licence(s) would lose their code; "
            "retire it anyway with --force"
        )
    return None
