"""Random identifiers and tokens drawn from the injected CSPRNG."""

from __future__ import annotations

import base64

from vpnsite.ports import RandomSource

TOKEN_BYTES = 24  # 192 bits: well above the 128 an unguessable link needs


def new_id(random: RandomSource) -> str:
    """A 128-bit identifier as 32 hex digits."""
    return random.token_bytes(16).hex()


def new_token(random: RandomSource) -> str:
    """A URL-safe token for personal links."""
    return base64.urlsafe_b64encode(random.token_bytes(TOKEN_BYTES)).decode().rstrip("=")


def new_server_token(random: RandomSource) -> str:
    """A VPN server's secret for calling the hub, in hex: an operator passes it on a command line,
    where a URL-safe token starting with "-" (one in 64) would be read as an option."""
    return random.token_bytes(TOKEN_BYTES).hex()


def new_ticket_number(random: RandomSource) -> str:
    """A ticket number a person can read out on the phone: ``T-`` and eight digits."""
    return "T-" + "".join(str(random.randbelow(10)) for _ in range(8))
