"""A VPN server's token: the secret it calls the hub with, shown once to its operator and kept
only as a keyed hash; on each call, the one way the hub learns which server is calling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from attrs import frozen

from vpnsite.errors import NodeUnauthorized
from vpnsite.identifiers import new_server_token
from vpnsite.keyed_hashes import KeyedHash, Keyring
from vpnsite.ports import RandomSource


@frozen
class TokenHolder:
    server_id: str
    # The hash as stored: made by the current key or by an older one of the ring.
    token_hash: str


class ServerTokens(Protocol):
    def set_token(self, server_id: str, token: KeyedHash) -> bool:
        """Replace the server's token hash; False for an unknown server."""
        ...


class TokenHolders(Protocol):
    def token_holder(self, token_hashes: Sequence[str]) -> TokenHolder | None:
        """The server holding a token whose hash is any of these (one per ring key); None if
        nobody does."""
        ...

    def rekey_token(self, server_id: str, old_hash: str, new: KeyedHash) -> None:
        """Store the server's token hash under another key, unless its token changed meanwhile."""
        ...

    def token_hashes(self) -> list[str]:
        """Every server's token hash, as stored."""
        ...


def issue_server_token(
    store: ServerTokens, server_id: str, keys: Keyring, random: RandomSource
) -> str | None:
    """A new secret for a VPN server to call the hub with, replacing its old one; only its keyed
    hash is kept, so it is shown once. None for an unknown server."""
    token = new_server_token(random)
    current = keys.current
    return token if store.set_token(server_id, KeyedHash(current.id, current.nodes.hash(token))) else None


@frozen
class ServerAuthentication:
    """Which server a call comes from, asked once per call by the hub's node listener: every use
    case a server calls is then handed the server, never its token."""

    tokens: TokenHolders
    keys: Keyring

    def server(self, token: str) -> str:
        """The server holding this token; NodeUnauthorized for no token or one nobody holds. A
        token hashed under an older key of the ring is kept under the current one from now on,
        so the server goes on calling with it after a key rotation."""
        if not token:
            raise NodeUnauthorized()
        candidates = self.keys.read().nodes(token)
        holder = self.tokens.token_holder(candidates.values)
        if holder is None:
            raise NodeUnauthorized()
        if candidates.is_stale(holder.token_hash):
            self.tokens.rekey_token(holder.server_id, holder.token_hash, candidates.current)
        return holder.server_id

    def token_hashes(self) -> list[str]:
        return self.tokens.token_hashes()
