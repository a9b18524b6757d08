""" "Am I protected?": is a visitor's address the exit address of one of the online VPN servers?
Compared in memory against the fleet as last read; the visitor's address is neither kept nor
returned."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence

from attrs import field, frozen

from vpnsite.fleet import ServerView, VpnServer

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@frozen
class ExitIndex:
    """The exit networks of the online servers, each with its server. Every API call asks it
    (the rate limits tell visitors through our servers apart), and a fleet of a thousand servers
    has a thousand exit addresses: a single address is found by its value, and only the wider
    networks are looked through."""

    # Address -> (its place among the exits, its server); the first place where two claim one.
    hosts: Mapping[Address, tuple[int, VpnServer]] = field(factory=dict)
    # (place, network, server), in the order of the places.
    networks: tuple[tuple[int, Network, VpnServer], ...] = ()

    @classmethod
    def of(cls, views: Sequence[ServerView]) -> ExitIndex:
        exits = [
            (ipaddress.ip_network(address, strict=False), view.server)
            for view in views
            if view.online
            for address in view.server.exit_addresses
        ]
        hosts: dict[Address, tuple[int, VpnServer]] = {}
        networks = []
        for place, (network, server) in enumerate(exits):
            if network.prefixlen == network.max_prefixlen:
                hosts.setdefault(network.network_address, (place, server))
            else:
                networks.append((place, network, server))
        return cls(hosts, tuple(networks))

    def server_of(self, address: str | None) -> VpnServer | None:
        """The online server whose clients leave from ``address`` (the first listed, when more
        than one claims it); None when it is nobody's (or not an address at all)."""
        if not address or not (self.hosts or self.networks):
            return None
        try:
            visitor = ipaddress.ip_address(address)
        except ValueError:
            return None
        if isinstance(visitor, ipaddress.IPv6Address) and visitor.ipv4_mapped is not None:
            visitor = visitor.ipv4_mapped
        host = self.hosts.get(visitor)
        for place, network, server in self.networks:
            if host is not None and place > host[0]:
                break
            if visitor.version == network.version and visitor in network:
                return server
        return None if host is None else host[1]
