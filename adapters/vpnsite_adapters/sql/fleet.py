"""The VPN servers of the fleet and what they last reported."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import peewee
from attrs import frozen

from vpnsite.fleet import Heard, Heartbeat, Location, VpnServer
from vpnsite.keyed_hashes import KeyedHash
from vpnsite.server_tokens import TokenHolder
from vpnsite.uptime import InService, UpTime, window_start
from vpnsite_adapters.sql.database import from_db, to_db
from vpnsite_adapters.sql.models import Models


def _server(row: Any) -> VpnServer:
    return VpnServer(
        location=Location(row.id, row.name, row.country, row.city),
        last_seen=None if row.last_seen is None else from_db(row.last_seen),
        load_percent=row.load_percent,
        ping_ms=row.ping_ms,
        sessions=row.sessions,
        service_up=row.service_up,
        host=row.host,
        port=row.port,
        bandwidth_mbps=row.bandwidth_mbps,
        udp_port=row.udp_port,
        tcp_port=row.tcp_port,
        wg_port=row.wg_port,
        wg_public_key=row.wg_public_key,
        wg_running=row.wg_running,
        exit_addresses=tuple(row.exit_addresses.split()),
        configured_exit_addresses=tuple(row.configured_exit_addresses.split()),
    )


@frozen
class SqlFleetStore:
    db: peewee.Database
    models: Models

    def list_servers(self) -> list[VpnServer]:
        servers = self.models.VpnServer
        return [_server(row) for row in servers.select().order_by(servers.position, servers.id)]

    def add_locations(self, locations: Iterable[Location]) -> None:
        servers = self.models.VpnServer
        first = (servers.select(peewee.fn.MAX(servers.position)).scalar() or 0) + 1
        rows = [
            {"id": loc.id, "name": loc.name, "country": loc.country, "city": loc.city, "position": first + n}
            for n, loc in enumerate(locations)
        ]
        if rows:
            servers.insert_many(rows).on_conflict_ignore().execute()

    def is_empty(self) -> bool:
        return not self.models.VpnServer.select().exists()

    def set_token(self, server_id: str, token: KeyedHash) -> bool:
        servers = self.models.VpnServer
        update = servers.update(token_hash=token.value, token_key=token.key_id)
        return bool(update.where(servers.id == server_id).execute())

    def rekey_token(self, server_id: str, old_hash: str, new: KeyedHash) -> None:
        servers = self.models.VpnServer
        servers.update(token_hash=new.value, token_key=new.key_id).where(
            (servers.id == server_id) & (servers.token_hash == old_hash)
        ).execute()

    def token_hashes(self) -> list[str]:
        servers = self.models.VpnServer
        query = servers.select(servers.token_hash).where(servers.token_hash.is_null(False))
        return [str(token_hash) for (token_hash,) in query.tuples()]

    def set_address(self, server_id: str, host: str | None, port: int | None) -> None:
        servers = self.models.VpnServer
        servers.update(host=host, port=port).where(servers.id == server_id).execute()

    def add_server(self, location: Location, host: str, udp_port: int | None, tcp_port: int | None) -> bool:
        """Register a VPN server; False if one of that name exists."""
        servers = self.models.VpnServer
        if servers.select().where(servers.id == location.id).exists():
            return False
        position = (servers.select(peewee.fn.MAX(servers.position)).scalar() or 0) + 1
        servers.insert(
            id=location.id,
            name=location.name,
            country=location.country,
            city=location.city,
            position=position,
            host=host,
            port=tcp_port or udp_port,
            udp_port=udp_port,
            tcp_port=tcp_port,
        ).execute()
        return True

    def set_openvpn_ports(self, server_id: str, udp_port: int | None, tcp_port: int | None) -> None:
        servers = self.models.VpnServer
        servers.update(udp_port=udp_port, tcp_port=tcp_port).where(servers.id == server_id).execute()

    def set_wireguard(self, server_id: str, port: int, public_key: str) -> None:
        servers = self.models.VpnServer
        servers.update(wg_port=port, wg_public_key=public_key).where(servers.id == server_id).execute()

    def find_server(self, server_id: str) -> VpnServer | None:
        row = self.models.VpnServer.get_or_none(self.models.VpnServer.id == server_id)
        return None if row is None else _server(row)

    def configure_exit_addresses(self, server_id: str, addresses: Sequence[str]) -> None:
        """The operator's exit addresses for the server, in use from now on."""
        servers = self.models.VpnServer
        joined = " ".join(addresses)
        servers.update(exit_addresses=joined, configured_exit_addresses=joined).where(
            servers.id == server_id
        ).execute()

    def set_ping(self, server_id: str, ping_ms: int | None) -> None:
        servers = self.models.VpnServer
        servers.update(ping_ms=ping_ms).where(servers.id == server_id).execute()

    def last_heard(self, server_id: str) -> Heard | None:
        servers = self.models.VpnServer
        row = (
            servers.select(servers.last_seen, servers.configured_exit_addresses)
            .where(servers.id == server_id)
            .first()
        )
        if row is None:
            return None
        return Heard(
            None if row.last_seen is None else from_db(row.last_seen),
            tuple(row.configured_exit_addresses.split()),
        )

    def token_holder(self, token_hashes: Sequence[str]) -> TokenHolder | None:
        servers = self.models.VpnServer
        row = (
            servers.select(servers.id, servers.token_hash)
            .where(servers.token_hash.in_(list(token_hashes)))
            .first()
        )
        return None if row is None else TokenHolder(str(row.id), str(row.token_hash))

    def record_heartbeat(
        self,
        server_id: str,
        beat: Heartbeat,
        exits: Sequence[str],
        now: datetime,
        end_sessions: bool,
        up: Sequence[UpTime] = (),
    ) -> None:
        servers, sessions = self.models.VpnServer, self.models.VpnSession
        with self.db.atomic():
            self.add_up_time(up)
            if len(up) > 1:
                # A new UTC day: the days that have left the window are not needed any more.
                uptime = self.models.ServerUptime
                uptime.delete().where(uptime.day < _day(window_start(now) - timedelta(days=1))).execute()
            if end_sessions:
                sessions.delete().where((sessions.server_id == server_id) & ~sessions.ending).execute()
            changes: dict[Any, Any] = {
                servers.last_seen: to_db(now),
                servers.load_percent: beat.cpu_load,
                servers.bandwidth_mbps: beat.bandwidth_mbps,
                servers.sessions: beat.sessions,
                servers.service_up: beat.service_up,
                servers.exit_addresses: " ".join(exits),
                servers.heard_since: peewee.fn.COALESCE(servers.heard_since, to_db(now)),
            }
            if beat.wireguard is not None:
                changes[servers.wg_running] = beat.wireguard
            servers.update(changes).where(servers.id == server_id).execute()

    def add_up_time(self, pieces: Sequence[UpTime]) -> None:
        uptime = self.models.ServerUptime
        for piece in pieces:
            uptime.insert(
                server_id=piece.server_id, day=_day(piece.day), up_seconds=piece.seconds
            ).on_conflict(
                conflict_target=[uptime.server_id, uptime.day],
                update={uptime.up_seconds: uptime.up_seconds + peewee.EXCLUDED.up_seconds},
            ).execute()

    def up_times_since(self, first_day: date) -> list[UpTime]:
        # Summed per server here: the status snapshot asks every second, and a fleet of 500
        # servers has 15,000 days in the window.
        uptime = self.models.ServerUptime
        rows = (
            uptime.select(uptime.server_id, peewee.fn.MIN(uptime.day), peewee.fn.SUM(uptime.up_seconds))
            .where(uptime.day >= _day(first_day))
            .group_by(uptime.server_id)
            .tuples()
        )
        return [UpTime(server_id, from_db(day).date(), float(seconds)) for server_id, day, seconds in rows]

    def in_service(self) -> list[InService]:
        servers = self.models.VpnServer
        rows = servers.select(servers.id, servers.heard_since)
        return [
            InService(str(row.id), None if row.heard_since is None else from_db(row.heard_since))
            for row in rows
        ]


def _day(day: date) -> int:
    """A UTC day as stored: its midnight."""
    return to_db(datetime.combine(day, time(), tzinfo=UTC))
