""" "Am I protected?": is a visitor's address the exit address of one of the online VPN servers?
Compared in memory against the fleet as last read; the visitor's address is neither kept nor
returned."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from attrs import frozen

from vpnsite.fleet import ServerView, VpnServer

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@frozen
class ExitIndex:
    """The exit networks of the online servers, each with its server."""

    exits: tuple[tuple[Network, VpnServer], ...] = ()

    @classmethod
    def of(cls, views: Sequence[ServerView]) -> ExitIndex:
        return cls(
            tuple(
                (ipaddress.ip_network(address, strict=False), view.server)
                for view in views
                if view.online
                for address in view.server.exit_addresses
            )
        )

    def server_of(self, address: str | None) -> VpnServer | None:
        """The online server whose clients leave from ``address``; None when it is nobody's (or
        not an address at all)."""
        if not address:
            return None
        try:
            visitor = ipaddress.ip_address(address)
        except ValueError:
            return None
        if isinstance(visitor, ipaddress.IPv6Address) and visitor.ipv4_mapped is not None:
            visitor = visitor.ipv4_mapped
        for network, server in self.exits:
            if visitor.version == network.version and visitor in network:
                return server
        return None
