"""What the driving adapters (the website and API) are given: the use cases, wired to their
ports, and the little else a request needs. Built by the composition root (`bootstrap`)."""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from vpnsite.archives import Archives
from vpnsite.devices import Devices
from vpnsite.erasures import Erasures
from vpnsite.fleet import Fleet
from vpnsite.licence_checks import LicenceChecks
from vpnsite.ports import Clock, UnitOfWork
from vpnsite.renewals import Renewals
from vpnsite.server_tokens import ServerAuthentication
from vpnsite.signups import Signups
from vpnsite.support import Support
from vpnsite.vpn_access import NodeAccess
from vpnsite_adapters.jobs.status_snapshot import StatusSnapshot
from vpnsite_adapters.metrics.registry import Metrics
from vpnsite_adapters.settings import Settings
from vpnsite_adapters.vpn.keystore import VpnKeys


@frozen
class UseCases:
    signups: Signups
    licence_checks: LicenceChecks
    archives: Archives
    support: Support
    renewals: Renewals
    fleet: Fleet
    server_authentication: ServerAuthentication
    node_access: NodeAccess
    devices: Devices
    erasures: Erasures


@frozen
class Services(UseCases):
    settings: Settings
    clock: Clock
    unit_of_work: UnitOfWork
    ready: Callable[[], None]
    """One round trip to the database; raises StoreUnavailable when it cannot be reached."""
    snapshot: StatusSnapshot
    vpn_keys: VpnKeys | None
    metrics: Metrics
