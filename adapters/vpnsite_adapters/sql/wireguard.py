"""WireGuard (experimental): each licence's tunnel address on each server."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite_adapters.sql.database import to_db

NETWORK = ipaddress.ip_network("10.66.0.0/16")
SERVER_ADDRESS = "10.66.0.1"


@frozen
class SqlWireGuardStore:
    db: peewee.Database
    models: SimpleNamespace

    def address(self, licence_id: str, server_id: str) -> str:
        """The licence's address on the server, allocated on first use."""
        peers = self.models.WgPeer
        for _ in range(5):
            found = peers.get_or_none((peers.licence_id == licence_id) & (peers.server_id == server_id))
            if found is not None:
                return str(found.address)
            taken = {row.address for row in peers.select(peers.address).where(peers.server_id == server_id)}
            free = next(
                str(host)
                for host in NETWORK.hosts()
                if str(host) != SERVER_ADDRESS and str(host) not in taken
            )
            try:
                with self.db.atomic():
                    peers.insert(licence_id=licence_id, server_id=server_id, address=free).execute()
            except peewee.IntegrityError:
                continue  # another process took that address first: look again
        raise RuntimeError("no tunnel address could be allocated")

    def live_peers(self, server_id: str, now: datetime) -> list[tuple[str, str]]:
        """(licence id, address) of the live licences that have an address on the server."""
        peers, licences = self.models.WgPeer, self.models.Licence
        rows = (
            peers.select(peers.licence_id, peers.address)
            .join(licences, on=(licences.id == peers.licence_id))
            .where(
                (peers.server_id == server_id)
                & (licences.ends_at > to_db(now))
                & licences.email.is_null(False)
            )
            .tuples()
        )
        return [(licence_id, address) for licence_id, address in rows]
