"""The website's API: the bodies its calls take (with their caps, so no field carries a megabyte
into the domain) and the answers they give. Field names are the product specification's
(``configUrl`` beside ``renewable_from`` included: the spec names both)."""

from __future__ import annotations

from typing import Literal

from attrs import define, field, frozen

from vpnsite.codes import CODE_LENGTH
from vpnsite.fleet import Rank
from vpnsite.protocols import OPENVPN_PROTOCOLS, WIREGUARD
from vpnsite.signup_requests import LANGUAGE_CODE
from vpnsite.vpn_access import MAX_SESSIONS
from vpnsite_contract.structuring import capped, constraints

EMAIL = 320
ALTCHA_SOLUTION = 2000
ACTIVATION_CODE = 64
SESSION = 64

# ---- bodies ----


@define
class Cookies:
    hz_id: str | None = field(default=None, metadata=capped(64))


@define
class SubmitEmail:
    email: str = field(metadata=capped(EMAIL))
    cookies: Cookies | None = None
    altcha: str | None = field(
        default=None,
        metadata=constraints(
            max_length=ALTCHA_SOLUTION,
            description="The solution of the challenge a 428 answer asked for: ALTCHA's payload, "
            "base64 of {algorithm, challenge, number, salt, signature}; good for one sign-up",
        ),
    )


@define
class CreateUser:
    """The signed request /api/submit-email answered, sent back unchanged."""

    email: str = field(metadata=capped(EMAIL))
    user_days: int
    subscription: str = field(metadata=capped(32))
    user_comment: str = field(metadata=capped(500))
    request_id: str = field(metadata=capped(64))
    sig: str = field(metadata=capped(128))
    cookies: Cookies | None = None


@define
class CheckLicense:
    email: str = field(metadata=capped(EMAIL))
    activation_code: str = field(metadata=capped(ACTIVATION_CODE))


@define
class DisconnectDevices:
    """One session to end, or all: true."""

    email: str = field(metadata=capped(EMAIL))
    activation_code: str = field(metadata=capped(ACTIVATION_CODE))
    session: str | None = field(default=None, metadata=capped(SESSION))
    all: bool = False


@define
class ConnectAgain:
    """The server whose WireGuard device to let back on (an id of the list's held_out)."""

    email: str = field(metadata=capped(EMAIL))
    activation_code: str = field(metadata=capped(ACTIVATION_CODE))
    server: str = field(metadata=capped(64))


@define
class RenewLicence:
    """Either the token of a reminder e-mail's link, or the e-mail and activation code."""

    token: str | None = field(default=None, metadata=capped(64))
    email: str | None = field(default=None, metadata=capped(EMAIL))
    activation_code: str | None = field(default=None, metadata=capped(ACTIVATION_CODE))


@define
class SupportRequest:
    email: str = field(metadata=capped(EMAIL))
    message: str = field(metadata=capped(10_000))
    activation_code: str | None = field(default=None, metadata=capped(ACTIVATION_CODE))


# ---- answers ----

Status = Literal["online", "offline"]
_CODE = f"^[0-9]{{{CODE_LENGTH}}}$"
_FLAG = "^[a-z]{2}$"
_LOAD = "^[0-9]{1,3}%$"
_UNIX_TIME = "Unix time in seconds"


@frozen
class Error:
    detail: str
    code: str


@frozen
class Challenge:
    """ALTCHA's challenge: find the number from 0 to maxnumber whose SHA-256 of salt + number (in
    decimal) is challenge, in hex."""

    algorithm: str = field(metadata=constraints(enum=["SHA-256"]))
    challenge: str = field(metadata=constraints(pattern="^[0-9a-f]{64}$"))
    maxnumber: int = field(metadata=constraints(minimum=1))
    salt: str
    signature: str = field(metadata=constraints(pattern="^[0-9a-f]{64}$"))


@frozen
class Challenged:
    """Sign-ups come faster than people do: solve the challenge and send the call again with its
    solution (``altcha``). The code says why: none was sent (challenge_required), or the one sent
    was wrong (challenge_invalid), expired (challenge_expired) or already used (challenge_used)."""

    detail: str
    code: str = field(
        metadata=constraints(
            enum=["challenge_required", "challenge_invalid", "challenge_expired", "challenge_used"]
        )
    )
    challenge: Challenge


@frozen
class FieldProblem:
    loc: list[str | int]
    msg: str
    type: str


@frozen
class ValidationError:
    detail: list[FieldProblem] = field(metadata=constraints(min_items=1))
    code: Literal["validation_error"] = "validation_error"


@frozen
class FormData:
    user_email: str
    user_days: int = field(metadata=constraints(minimum=1))
    subscription: str
    user_comment: str
    request_id: str = field(metadata=constraints(pattern=f"^[0-9a-f]{{32}}-[0-9]{{1,12}}-{LANGUAGE_CODE}$"))
    sig: str = field(metadata=constraints(pattern="^[0-9a-f]{64}$"))


@frozen
class SubmitEmailResult:
    form_data: FormData
    success: Literal[True] = True


@frozen
class OpenVpnProfile:
    protocol: str = field(metadata=constraints(enum=OPENVPN_PROTOCOLS))
    url: str = field(metadata=constraints(format="uri", description="The .ovpn, personal, a week"))
    import_url: str = field(
        metadata=constraints(
            description="openvpn://import-profile/<url>: opens OpenVPN Connect (3.3.6+), "
            "which downloads the profile (over HTTPS only)"
        )
    )
    qr_svg: str = field(metadata=constraints(format="uri", description="A QR code of url (SVG)"))
    qr_png: str = field(metadata=constraints(format="uri", description="The same QR code as PNG"))


@frozen
class WireGuardProfile:
    """WireGuard (experimental, desktops): the .conf."""

    url: str = field(metadata=constraints(format="uri"))


@frozen
class ProfileServer:
    id: str
    name: str
    flag: str = field(metadata=constraints(pattern=_FLAG))
    location: str = field(metadata=constraints(description="The city"))
    status: Status
    load: str = field(metadata=constraints(pattern=_LOAD))
    recommended: bool = field(
        metadata=constraints(description="The server to use first: the least loaded online; listed first")
    )
    openvpn: list[OpenVpnProfile]
    wireguard: WireGuardProfile | None = field(metadata=constraints(description="null where not offered"))


_PROFILES = constraints(
    description="Per server: its personal profile links (empty when the licence has ended)"
)


@frozen
class ActivationResult:
    user_email: str
    user_code: str = field(metadata=constraints(pattern=_CODE))
    user_days: int = field(metadata=constraints(minimum=1))
    user_start: int = field(metadata=constraints(description=_UNIX_TIME))
    user_stop: int = field(metadata=constraints(description=f"Expiry, {_UNIX_TIME}"))
    activation_url: str = field(metadata=constraints(format="uri"))
    profiles: list[ProfileServer] = field(metadata=_PROFILES)
    emailed: bool = field(
        metadata=constraints(
            description="Whether the licence was also e-mailed: an address is sent one licence e-mail a day, "
            "and a later sign-up's licence is shown here only"
        )
    )
    success: Literal[True] = True


@frozen
class Licence:
    email: str
    code: str | None = field(metadata=constraints(pattern=_CODE, description="null after a renewal by link"))
    start: str = field(metadata=constraints(format="date"))
    end: str = field(metadata=constraints(format="date"))
    end_timestamp: int
    days: int = field(metadata=constraints(minimum=0))
    active: bool
    renewable: bool
    renewable_from: str = field(metadata=constraints(format="date"))
    configUrl: str | None = field(metadata=constraints(format="uri"))  # noqa: N815 - the spec's name
    profiles: list[ProfileServer] = field(metadata=_PROFILES)
    term_days: int = field(
        metadata=constraints(minimum=1, description="The days a renewal adds: the operator's licence term")
    )


@frozen
class LicenceResult:
    license: Licence
    success: Literal[True] = True


@frozen
class SupportResult:
    ticket: str = field(metadata=constraints(pattern="^T-[0-9]{8}$"))
    success: Literal[True] = True


@frozen
class UserCount:
    user_count: int = field(metadata=constraints(minimum=0))
    free_tier_cap: int = field(
        metadata=constraints(minimum=0, description="Users the free tier takes: the operator's cap")
    )
    success: Literal[True] = True


@frozen
class VpnServer:
    id: str
    name: str
    flag: str = field(metadata=constraints(pattern=_FLAG))
    location: str
    status: Status
    ping: int | None = field(metadata=constraints(minimum=0))
    load: str = field(metadata=constraints(pattern=_LOAD))
    sessions: int = field(metadata=constraints(minimum=0))
    rank: Rank
    # The spec's two: in English and in Russian.
    popularity: str
    popularity_ru: str
    # In every language the site speaks, by its code: a language added to the list changes no field.
    popularity_by_language: dict[str, str]


@frozen
class SystemServer:
    id: str
    location: str
    status: Status
    ping: int | None = field(metadata=constraints(minimum=0))
    load: str | None


@frozen
class StatusSummary:
    vpn_servers_count: int = field(metadata=constraints(minimum=0))
    vpn_servers_online: int = field(metadata=constraints(minimum=0))
    system_servers_count: int = field(metadata=constraints(minimum=0))
    user_count: int = field(metadata=constraints(minimum=0))
    free_tier_cap: int = field(
        metadata=constraints(minimum=0, description="Users the free tier takes: the operator's cap")
    )
    demo: bool
    updated_at: int


@frozen
class ServerStatus:
    vpn_servers: list[VpnServer]
    system_servers: list[SystemServer] = field(
        metadata=constraints(
            description="The activation and hub servers, and the billing service when one is"
            " configured (VPNSITE_BILLING_HEALTH_URL): what is not configured is not listed"
        )
    )
    summary: StatusSummary


@frozen
class Health:
    status: str


@frozen
class ServerName:
    """A server as a visitor may see it: its place, never an address."""

    id: str
    name: str
    flag: str = field(metadata=constraints(pattern=_FLAG))
    location: str = field(metadata=constraints(description="The city"))


@frozen
class DeviceServer:
    """Only the id for a server no longer listed."""

    id: str
    name: str | None = field(default=None, metadata=constraints(omit_if_none=True))
    flag: str | None = field(default=None, metadata=constraints(pattern=_FLAG, omit_if_none=True))
    location: str | None = field(
        default=None, metadata=constraints(description="The city", omit_if_none=True)
    )


@frozen
class Device:
    session: str = field(metadata=constraints(description="For /api/devices/disconnect"))
    server: DeviceServer
    protocol: str | None = field(metadata=constraints(enum=[*OPENVPN_PROTOCOLS, WIREGUARD, None]))
    since: int = field(metadata=constraints(description=_UNIX_TIME))


@frozen
class HeldOutDevice:
    """A WireGuard device its owner disconnected: off its server until they connect it again
    (/api/devices/connect-again). Its app is not told and may still show it as on."""

    server: DeviceServer


@frozen
class DeviceList:
    in_use: int = field(metadata=constraints(minimum=0, description="Servers in use (one device each)"))
    limit: int = field(
        metadata=constraints(
            minimum=1,
            description="Devices a licence may connect at once: one per server, "
            f"at most {MAX_SESSIONS}, and no more than the fleet has servers",
        )
    )
    devices: list[Device]
    held_out: list[HeldOutDevice] = field(
        factory=list,
        metadata=constraints(description="WireGuard devices disconnected here, off until connected again"),
    )
    success: Literal[True] = True


@frozen
class ConnectionCheck:
    protected: bool
    server: ServerName | None = field(
        metadata=constraints(description="The server whose exit address the request came from")
    )


@frozen
class Testimonial:
    name: str
    about: str = field(metadata=constraints(description="Role and place, as shown under the name"))
    text: str
    stars: int = field(metadata=constraints(minimum=1, maximum=5))
    initials: str


@frozen
class Testimonials:
    examples: bool = field(
        metadata=constraints(description="Invented examples (the demo's), shown labelled so")
    )
    testimonials: list[Testimonial]


@frozen
class AboutCost:
    label: str
    cost: str = field(
        metadata=constraints(description="The amount, in its own currency, as the page writes it")
    )


@frozen
class AboutPhase:
    heading: str
    items: list[str]
    note: str = field(
        metadata=constraints(description="What the phase costs, if anything, and how long it takes")
    )


@frozen
class AboutFacts:
    """What the operator says of itself on the About page, in a language, as the page writes it
    (every amount in its own currency; a total of several currencies says so)."""

    source_code: str = field(metadata=constraints(description="The address of the site's source code"))
    founder: str
    ready: list[str]
    notice: str = field(
        metadata=constraints(description="The financial promotion notice the investment section carries")
    )
    investment: list[str]
    costs: list[AboutCost]
    total: str
    roadmap: list[AboutPhase]
