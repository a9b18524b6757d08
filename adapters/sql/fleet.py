"""The VPN servers of the fleet and what they last reported."""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

import peewee
from attrs import frozen

from vpnsite.fleet import Location, VpnServer
from vpnsite_adapters.sql.database import from_db


@frozen
class SqlFleetStore:
    db: peewee.Database
    models: SimpleNamespace

    def list_servers(self) -> list[VpnServer]:
        servers = self.models.VpnServer
        return [
            VpnServer(
                location=Location(row.id, row.name, row.country, row.city),
                last_seen=None if row.last_seen is None else from_db(row.last_seen),
                load_percent=row.load_percent,
                ping_ms=row.ping_ms,
                sessions=row.sessions,
                service_up=row.service_up,
            )
            for row in servers.select().order_by(servers.position, servers.id)
        ]

    def add_locations(self, locations: Iterable[Location]) -> None:
        servers = self.models.VpnServer
        rows = [
            {"id": loc.id, "name": loc.name, "country": loc.country, "city": loc.city, "position": position}
            for position, loc in enumerate(locations)
        ]
        if rows:
            servers.insert_many(rows).on_conflict_ignore().execute()

    def is_empty(self) -> bool:
        return not self.models.VpnServer.select().exists()
