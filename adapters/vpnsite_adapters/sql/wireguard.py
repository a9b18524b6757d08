"""WireGuard (experimental): each licence's tunnel address on each server, and whether the hub
holds that peer out of the server."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

import peewee
from attrs import frozen

from vpnsite_adapters.sql.database import to_db
from vpnsite_adapters.sql.models import Models


@frozen
class SqlWireGuardStore:
    db: peewee.Database
    models: Models

    def address_of(self, licence_id: str, server_id: str) -> str | None:
        peers = self.models.WgPeer
        found = peers.get_or_none((peers.licence_id == licence_id) & (peers.server_id == server_id))
        return None if found is None else str(found.address)

    def taken_on(self, server_id: str) -> set[str]:
        peers = self.models.WgPeer
        return {row.address for row in peers.select(peers.address).where(peers.server_id == server_id)}

    def claim(self, licence_id: str, server_id: str, address: str) -> bool:
        try:
            with self.db.atomic():
                self.models.WgPeer.insert(
                    licence_id=licence_id, server_id=server_id, address=address
                ).execute()
        except peewee.IntegrityError:
            return False
        return True

    def live_peers(self, server_id: str, now: datetime) -> list[tuple[str, str]]:
        """(licence id, address) of the live licences that have an address on the server, but
        those held out."""
        peers, licences = self.models.WgPeer, self.models.Licence
        rows = (
            peers.select(peers.licence_id, peers.address)
            .join(licences, on=(licences.id == peers.licence_id))
            .where(
                (peers.server_id == server_id)
                & ~peers.held_out
                & (licences.ends_at > to_db(now))
                & licences.email.is_null(False)
            )
            .tuples()
        )
        return [(licence_id, address) for licence_id, address in rows]

    def hold_out(self, licence_id: str, server_ids: Collection[str]) -> int:
        if not server_ids:
            return 0
        peers = self.models.WgPeer
        mine = (peers.licence_id == licence_id) & peers.server_id.in_(sorted(server_ids)) & ~peers.held_out
        return int(peers.update(held_out=True).where(mine).execute())

    def let_in(self, licence_id: str, server_id: str) -> bool:
        peers = self.models.WgPeer
        mine = (peers.licence_id == licence_id) & (peers.server_id == server_id) & peers.held_out
        return bool(peers.update(held_out=False).where(mine).execute())

    def held_out(self, licence_id: str) -> list[str]:
        peers = self.models.WgPeer
        rows = peers.select(peers.server_id).where((peers.licence_id == licence_id) & peers.held_out)
        return sorted(row.server_id for row in rows)
