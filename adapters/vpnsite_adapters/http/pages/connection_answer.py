"""The connection check's answer ("am I protected?") as the API gives it and as the status page
shows it: when a visitor asks (the page's button, ``?check``), the server writes the answer into
the page it sends, so it needs no script; until then the page holds the button alone.

The markup is the script's own (``ui/src/components/connection-check.tsx``), prerendered by the
build for each answer with the city as a slot (``site/forms/check.json``);
``tests/integration/test_device_rows.py`` holds what this module writes equal to what the
script renders for the same answer.
"""

from __future__ import annotations

import json
from typing import ClassVar

from vpnsite.fleet import VpnServer
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill
from vpnsite_contract.structuring import unstructure
from vpnsite_contract.website import ConnectionCheck, ServerName


def server_name(server: VpnServer) -> ServerName:
    """A server as the visitor may see it: its place, never an address."""
    location = server.location
    return ServerName(id=location.id, name=location.name, flag=location.country, location=location.city)


def connection_check_answer(server: VpnServer | None) -> ConnectionCheck:
    """Protected (via ``server``) or not; the visitor's own address is never part of it."""
    return ConnectionCheck(
        protected=server is not None, server=None if server is None else server_name(server)
    )


class ConnectionAnswers(BuildPieces):
    SLOTS: ClassVar[Declared] = {"markup/protected_via": frozenset({"CITY"})}

    def idle(self, language: str) -> bytes:
        """The check before the visitor asks: its button, nothing compared."""
        idle: str = self.of(language)["markup"]["idle"]
        return idle.encode()

    def block(self, language: str, server: VpnServer | None) -> bytes:
        parts = self.of(language)
        if server is None:
            exposed: str = parts["markup"]["exposed"]
            return exposed.encode()
        _, city = self.place(parts, server.location.country, server.location.name, server.location.city)
        return fill(parts["markup"]["protected_via"].encode(), {"CITY": city})

    @staticmethod
    def data(server: VpnServer | None) -> bytes:
        """The answer for the script, in a data block: nothing in it may close the element."""
        answer = unstructure(connection_check_answer(server))
        return json.dumps(answer, separators=(",", ":")).encode().replace(b"<", b"\\u003c")
