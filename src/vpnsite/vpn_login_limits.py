"""How many wrong codes the VPN login judges for one address: at most ``PER_SERVER.limit`` a
minute on one server and ``ACROSS_FLEET.limit`` a minute on all of them together. A right code
is never counted. Once either ceiling is full, a login for that address is refused before its
code is looked at, with how long until the ceiling has room again; the node turns that into
OpenVPN's temporary refusal, so the owner's app waits and tries again by itself.

Fixed, not an operator's setting, and holding even with the website's limits off: it is what
keeps the VPN login from being a way round them (a server answered 234 wrong codes a second for
one address before). The counts live in the rate-limit store (exact across hubs sharing a
database), under keyed hashes of the server and the mailbox, never an address in clear."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Protocol

from attrs import frozen

from vpnsite.keyed_hashes import Hasher
from vpnsite.ports import Clock
from vpnsite.rate_limits import Counter, RateLimit, RateLimitStore

# Not one of rate_limits.ACTIONS: no operator's rule can name it, and its keys are no others'.
VPN_LOGIN = "vpn-login"
PER_SERVER = RateLimit(VPN_LOGIN, "email", 10, timedelta(minutes=1), failures_only=True)
ACROSS_FLEET = RateLimit(VPN_LOGIN, "email", 100, timedelta(minutes=1), failures_only=True)


class CountStore(RateLimitStore, Protocol):
    def lock(self, counters: Sequence[Counter]) -> None:
        """Inside an atomic unit of work: hold off every other one that locks or admits under
        these counters' keys until this one ends."""
        ...


@frozen
class WrongCodeCeilings:
    hasher: Hasher
    store: CountStore
    clock: Clock

    def counters(self, server_id: str, mailbox: str) -> list[Counter]:
        """The two counts a wrong code for ``mailbox`` on ``server_id`` goes into."""
        return [
            Counter(PER_SERVER, self.hasher.hash(f"{VPN_LOGIN}|server|{server_id}|{mailbox}")),
            Counter(ACROSS_FLEET, self.hasher.hash(f"{VPN_LOGIN}|fleet|{mailbox}")),
        ]

    def count_in_advance(self, server_id: str, mailbox: str) -> timedelta | None:
        """Inside an atomic unit of work: when both ceilings have room, count one wrong code and
        return None; otherwise count nothing and return how long until they have room.

        The code is judged after this, in the same unit of work, which holds off every other
        login of the mailbox until it ends: a right code then rolls the count back, a wrong one
        keeps it. So no burst, through any number of hubs, gets more codes judged than the
        ceilings allow. The time is read once the others are held off: a count another hub made
        meanwhile is then never in this one's future, where a window would not see it."""
        counters = self.counters(server_id, mailbox)
        self.store.lock(counters)
        return self.store.admit(counters, self.clock.now())
