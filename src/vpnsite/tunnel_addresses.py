"""WireGuard tunnel addresses (experimental): each licence gets one address per server, kept for
as long as the licence lasts, so its profile is the same on every download. The address is also
the licence's WireGuard peer on that server, which the hub can hold out: a WireGuard app cannot
be told to stop, so a peer the hub ended (its owner disconnected it, or it had no place) stays off
its server's interface until its owner connects it again from the devices page."""

from __future__ import annotations

import ipaddress
from collections.abc import Collection
from datetime import datetime
from typing import Protocol

NETWORK = ipaddress.ip_network("10.66.0.0/16")
SERVER_ADDRESS = "10.66.0.1"
# Two downloads racing for the same free address: the loser looks again, a few times at most.
CLAIM_ATTEMPTS = 5


class AddressesExhausted(Exception):
    """Every address of the server's network is taken."""


class TunnelAddressStore(Protocol):
    def address_of(self, licence_id: str, server_id: str) -> str | None: ...

    def taken_on(self, server_id: str) -> set[str]: ...

    def claim(self, licence_id: str, server_id: str, address: str) -> bool:
        """Record the address as the licence's on the server; False if someone took it first."""
        ...

    def live_peers(self, server_id: str, now: datetime) -> list[tuple[str, str]]:
        """(licence id, address) of the server's addresses whose licence is live at ``now``,
        but for the peers held out."""
        ...

    def hold_out(self, licence_id: str, server_ids: Collection[str]) -> int:
        """Keep the licence's peers on these servers off them; how many were not held out yet."""
        ...

    def let_in(self, licence_id: str, server_id: str) -> bool:
        """Stop holding out the licence's peer on the server; whether it was held out."""
        ...

    def held_out(self, licence_id: str) -> list[str]:
        """The servers the licence's peers are held out of."""
        ...


def first_free(taken: Collection[str]) -> str | None:
    return next(
        (str(host) for host in NETWORK.hosts() if str(host) != SERVER_ADDRESS and str(host) not in taken),
        None,
    )


def tunnel_address(store: TunnelAddressStore, licence_id: str, server_id: str) -> str:
    """The licence's address on the server, allocated on first use."""
    for _ in range(CLAIM_ATTEMPTS):
        found = store.address_of(licence_id, server_id)
        if found is not None:
            return found
        free = first_free(store.taken_on(server_id))
        if free is None:
            raise AddressesExhausted()
        if store.claim(licence_id, server_id, free):
            return free
    raise AddressesExhausted()
