"""The calls a VPN server's agent makes to the hub (``/api/node/...``): the hub structures the
bodies and the agent the answers, with these same classes."""

from __future__ import annotations

from typing import Literal

from attrs import define, field, frozen

from vpnsite.fleet import MAX_BANDWIDTH_MBPS, MAX_EXIT_ADDRESSES, MAX_SESSIONS_REPORTED
from vpnsite.vpn_access import Refusal
from vpnsite_contract.structuring import capped, constraints

# ---- bodies ----


@define
class HeldConnection:
    session: str = field(metadata=capped(64))
    licence: str = field(metadata=capped(64))
    protocol: str | None = field(
        default=None,
        metadata=constraints(
            max_length=16, description="udp, tcp or wireguard (a peer that has shaken hands lately)"
        ),
    )


@define
class HeartbeatBody:
    """What a VPN server reports every ten seconds."""

    cpu_load: float = field(metadata=constraints(minimum=0, maximum=100))
    bandwidth_mbps: float = field(metadata=constraints(minimum=0, maximum=MAX_BANDWIDTH_MBPS))
    sessions: int = field(metadata=constraints(minimum=0, maximum=MAX_SESSIONS_REPORTED))
    service_up: bool
    # A simulated server without them reports only a count.
    connections: list[HeldConnection] | None = field(
        default=None,
        metadata=constraints(description="The connections the server holds; the hub answers which must end"),
    )
    # Absent: the hub keeps what it was told before.
    exit_addresses: list[str] | None = field(
        default=None,
        metadata=constraints(
            max_items=MAX_EXIT_ADDRESSES,
            items={"maxLength": 64},
            description="Public addresses (or networks) the clients' traffic leaves from, "
            "when not the address the heartbeat comes from (which the hub uses by default); "
            "the operator's `vpn add-server --exit-address` comes first",
        ),
    )
    # Absent: the hub keeps what it was told before.
    wireguard: bool | None = field(
        default=None,
        metadata=constraints(
            description="Whether the server's WireGuard runs; false when its machine lacks WireGuard's "
            "tools, and the hub then offers no WireGuard profile for it"
        ),
    )


@define
class NodeLogin:
    username: str = field(metadata=capped(320))
    password: str | None = field(default=None, metadata=capped(128))
    protocol: str | None = field(
        default=None, metadata=constraints(max_length=16, description="The OpenVPN instance: udp or tcp")
    )


@define
class NodeResume:
    """A connection OpenVPN let in by a session token it gave at an earlier login."""

    username: str = field(metadata=capped(320))
    protocol: str | None = field(
        default=None, metadata=constraints(max_length=16, description="The OpenVPN instance: udp or tcp")
    )


@define
class NodeSession:
    session: str = field(metadata=capped(64))


# ---- answers ----


@frozen
class HeartbeatResult:
    server: str
    end: list[str] = field(metadata=constraints(description="Sessions to cut"))
    success: Literal[True] = True


@frozen
class NodeLoginResult:
    """Admitted, with the session to report as established and ended; or refused, with why."""

    admitted: bool
    reason: Refusal | None = field(default=None, metadata=constraints(omit_if_none=True))
    session: str | None = field(
        default=None,
        metadata=constraints(description="The session's id, for established and ended", omit_if_none=True),
    )
    licence: str | None = field(
        default=None, metadata=constraints(description="The licence that logged in", omit_if_none=True)
    )
    retry_after: int | None = field(
        default=None,
        metadata=constraints(
            minimum=1,
            description="Refused as rate_limited: seconds until a login of this address is judged "
            "again (the server tells the app to wait that long and try again)",
            omit_if_none=True,
        ),
    )


@frozen
class NodeSessionResult:
    known: bool


@frozen
class WireGuardPeer:
    public_key: str
    allowed_ips: str
    licence: str


@frozen
class WireGuardPeers:
    """The calling server's WireGuard peers: the live licences, their keys and addresses."""

    peers: list[WireGuardPeer]
