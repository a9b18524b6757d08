"""The one-tap setup list (a licence's servers with their profile links, import buttons and QR
codes) for the screens sent without JavaScript: the activation result and the licence page.

The markup is the script's own (``ui/src/components/one-tap-setup.tsx``), prerendered by the build
into pieces with slots (``site/forms/profiles.json``); this module only chooses the pieces and
fills them. ``tests/integration/test_profile_rows.py`` holds its output equal to what the script
renders for the same profiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from vpnsite_adapters.http.pages.page_formats import load_percent, load_value
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw


class ProfileRows(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "markup/section": frozenset({"RAW_ROWS"}),
        "markup/row*": frozenset(
            {"CITY", "ID", "LEVEL", "LOAD", "NAME", "RAW_FLAG", "RAW_LINKS", "RAW_OPEN"}
        ),
        "markup/link": frozenset({"CITY", "PROTOCOL", "URL"}),
        "markup/wireguard": frozenset({"CITY", "URL"}),
        "markup/open*": frozenset({"CITY", "IMPORT_URL", "QR_URL"}),
        "markup/flags/*": frozenset({"NAME"}),
    }

    def section(self, language: str, profiles: Sequence[dict[str, Any]]) -> bytes:
        """The whole section, or nothing for a licence without profiles (as the script does)."""
        if not profiles:
            return b""
        parts = self.of(language)
        rows = b"".join(self._row(parts, server) for server in profiles)
        return fill_raw(parts["markup"]["section"].encode(), {"ROWS": rows})

    @staticmethod
    def _row(parts: dict[str, Any], server: dict[str, Any]) -> bytes:
        markup = parts["markup"]
        # The recommended server's row says so, and its import button is the primary one.
        picked = "_recommended" if server.get("recommended") else ""
        flag = str(server["flag"])
        name, city = BuildPieces.place(parts, flag, str(server["name"]), str(server["location"]))
        openvpn = server["openvpn"]
        links = b"".join(
            fill(markup["link"].encode(), {"URL": p["url"], "PROTOCOL": p["protocol"].upper(), "CITY": city})
            for p in openvpn
        )
        if server.get("wireguard"):
            links += fill(markup["wireguard"].encode(), {"URL": server["wireguard"]["url"], "CITY": city})
        # UDP first, as the script picks: the profile the import button and QR code carry.
        first = next((p for p in openvpn if p["protocol"] == "udp"), openvpn[0] if openvpn else None)
        opened = b""
        if first:
            values = {"IMPORT_URL": first["import_url"], "QR_URL": first["qr_svg"], "CITY": city}
            opened = fill(markup["open" + picked].encode(), values)
        load = load_percent(parts["percent"], parts["decimal"], server["load"])
        percent = min(100, max(0, int(load_value(server["load"]))))
        # Text first, pieces after: a value (a link, a name) is never read as a marker.
        row = fill(
            markup["row" + picked].encode(),
            {
                "ID": str(server["id"]),
                "NAME": name,
                "CITY": city,
                "LOAD": load,
                "LEVEL": parts["load_levels"][percent],
            },
        )
        shown_flag = fill(BuildPieces.flag(parts, flag).encode(), {"NAME": name})
        return fill_raw(row, {"FLAG": shown_flag, "LINKS": links, "OPEN": opened})
