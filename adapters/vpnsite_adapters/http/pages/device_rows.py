"""A licence's devices (its live sessions) for the licence page the server answers without
JavaScript: the list with a form button per device and one for all, each posting the licence's
e-mail and code back to the licence page; then the WireGuard devices held out of their servers,
each with a button that connects it again.

The markup is the script's own (``ui/src/components/devices.tsx``), prerendered by the build into
pieces with slots (``site/forms/devices.json``); this module only chooses the pieces and fills
them. ``tests/integration/test_device_rows.py`` holds its output equal to what the script renders
for the same list. The script writes "since" in the visitor's time zone, which the server does not
know: the server writes it in UTC; both name the zone they write in ("14:05 UTC", "15:05 UTC+1").

How many devices a licence connects at once is said in the same words everywhere (the home page,
the FAQ, the device list): the server picks them for its fleet (``limit_texts``) and writes them
into every page it sends, and the script reads them from there (ui/src/lib/served.tsx).
"""

from __future__ import annotations

from typing import Any, ClassVar

from vpnsite.devices import devices_at_once
from vpnsite.vpn_access import MAX_SESSIONS
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw
from vpnsite_adapters.texts.formatting import format_moment, format_number, plural


def since_text(since: int, language: str) -> str:
    """When a session started, as a visitor anywhere can read it: the date and the UTC time, named."""
    return format_moment(since, language)


class DeviceRows(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "markup/section": frozenset({"CODE", "COUNT", "EMAIL", "RAW_LISTING", "RULE"}),
        "markup/listing": frozenset({"CODE", "EMAIL", "RAW_ROWS"}),
        "markup/row": frozenset({"CITY", "CODE", "DETAIL", "EMAIL", "RAW_FLAG", "SESSION"}),
        "markup/held_out_listing": frozenset({"RAW_ROWS"}),
        "markup/held_out_row": frozenset({"CITY", "CODE", "EMAIL", "RAW_FLAG", "SERVER"}),
        "markup/flags/*": frozenset({"NAME"}),
    }

    def disconnect_all(self) -> str:
        """The value of the form field that ends every device rather than one."""
        return str(self.parts["en"]["disconnect_all"])

    def limit_texts(self, language: str, servers: int) -> dict[str, str]:
        """How many devices a licence connects at once, for a fleet of ``servers``: the short text
        (``DEVICES``: "Up to 8 devices at once") and the sentence that says why (``DEVICE_RULE``:
        "… one on each of our 8 servers" while the fleet has fewer servers than the limit)."""
        parts = self.of(language)
        devices = devices_at_once(servers)
        rule = parts["rule_fleet"] if devices < MAX_SESSIONS else parts["rule_limit"]
        return {
            "DEVICES": plural(devices, parts["at_once"], language),
            "DEVICE_RULE": plural(devices, rule, language),
        }

    def section(self, language: str, listing: dict[str, Any], email: str, code: str, rule: str) -> bytes:
        """The whole section for a listing as the devices API answers it (``http/api/devices.py``),
        with the ``rule`` of ``limit_texts``."""
        parts = self.of(language)
        markup = parts["markup"]
        credentials = {"EMAIL": email, "CODE": code}
        if listing["devices"]:
            rows = b"".join(self._row(parts, device, credentials, language) for device in listing["devices"])
            shown = fill_raw(fill(markup["listing"].encode(), credentials), {"ROWS": rows})
        else:
            shown = markup["none"].encode()
        if listing.get("held_out"):
            held = b"".join(self._held_out_row(parts, device, credentials) for device in listing["held_out"])
            shown += fill_raw(markup["held_out_listing"].encode(), {"ROWS": held})
        count = plural(listing["limit"], parts["in_use"], language).replace(
            "{used}", format_number(listing["in_use"], language)
        )
        section = fill(markup["section"].encode(), {"COUNT": count, "RULE": rule, **credentials})
        return fill_raw(section, {"LISTING": shown})

    @staticmethod
    def _held_out_row(parts: dict[str, Any], device: dict[str, Any], credentials: dict[str, str]) -> bytes:
        server = device["server"]
        name, city = BuildPieces.place(
            parts,
            server.get("flag"),
            str(server.get("name") or server["id"]),
            str(server.get("location") or server["id"]),
        )
        row = fill(
            parts["markup"]["held_out_row"].encode(), {"SERVER": server["id"], "CITY": city, **credentials}
        )
        return fill_raw(row, {"FLAG": DeviceRows._flag(parts, server.get("flag"), name)})

    @staticmethod
    def _flag(parts: dict[str, Any], flag: str | None, name: str) -> bytes:
        if flag:
            return fill(BuildPieces.flag(parts, flag).encode(), {"NAME": name})
        return str(parts["markup"]["no_flag"]).encode()

    @staticmethod
    def _row(
        parts: dict[str, Any], device: dict[str, Any], credentials: dict[str, str], language: str
    ) -> bytes:
        markup = parts["markup"]
        server = device["server"]
        flag = server.get("flag")
        name, city = BuildPieces.place(
            parts, flag, str(server.get("name") or server["id"]), str(server.get("location") or server["id"])
        )
        since = parts["since"].replace("{time}", since_text(device["since"], language))
        detail = f"{device['protocol'].upper()} · {since}" if device["protocol"] else since
        row = fill(
            markup["row"].encode(),
            {"SESSION": device["session"], "CITY": city, "DETAIL": detail, **credentials},
        )
        return fill_raw(row, {"FLAG": DeviceRows._flag(parts, flag, name)})
