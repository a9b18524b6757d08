"""The status page's live block, put together from the server's snapshot for pages sent without
JavaScript (and for the first paint with it).

The markup is the script's own (``ui/src/features/status/server-status.tsx``), prerendered by the
build into pieces with slots (``site/forms/status.json``) along with the texts and tables the
pieces need; this module only chooses the pieces and fills them. ``tests/integration/
test_status_page.py`` holds its output equal to what the script renders for the same snapshot.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar

from vpnsite_adapters.http.pages.page_formats import LanguageFormats, load_percent, load_value, percent_text
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, escape, fill, fill_raw
from vpnsite_adapters.texts.formatting import format_moment


def js_number(value: float) -> str:
    """A number as JavaScript writes it into an attribute (``String(n)``), for the values here."""
    return str(int(value)) if value == int(value) else repr(value)


class StatusPage(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "markup/block*": frozenset(
            {
                "CAP",
                "PROGRESS",
                "PROGRESS_NOW",
                "PROGRESS_WIDTH",
                "RAW_SYSTEM_ROWS",
                "RAW_USERS",
                "RAW_VPN_ROWS",
                "UPDATED",
            }
        ),
        # Below the count it shows, the block says how many the free tier takes instead.
        "markup/block_few*": frozenset(
            {"FREE_USERS", "RAW_SYSTEM_ROWS", "RAW_USERS", "RAW_VPN_ROWS", "UPDATED"}
        ),
        "markup/vpn_row": frozenset(
            {"CITY", "NAME", "PING", "RANK", "RANK_TEXT", "RAW_FLAG", "RAW_LOAD", "STATUS", "STATUS_TEXT"}
        ),
        "markup/system_row": frozenset({"NAME", "RAW_RESPONSE", "STATUS", "STATUS_TEXT"}),
        "markup/response": frozenset({"PING"}),
        "markup/load": frozenset({"LEVEL", "LOAD"}),
        "markup/flags/*": frozenset({"NAME"}),
    }

    def block(self, language: str, status: dict[str, Any], formats: LanguageFormats) -> bytes:
        parts = self.of(language)
        markup = parts["markup"]
        users = int(status.get("summary", {}).get("user_count", 0))
        # The free tier's size as the operator set it (the snapshot's), not as the build knew it;
        # a tier of none is full.
        cap = int(status.get("summary", {}).get("free_tier_cap", 0))
        width = min(100.0, max(0, users) / cap * 100) if cap > 0 else 100.0
        places = 1 if users >= 10_000 else 3
        # In decimals, as Intl rounds: the share of whole users is exact there.
        percent = min(Decimal(max(0, users)) * 100 / cap, Decimal(100)) if cap > 0 else Decimal(100)
        progress = percent.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
        demo = bool(status.get("summary", {}).get("demo"))
        # Below the threshold under which every page says the service is new instead of a count
        # (``LanguageFormats.counted``), no share of the free tier either: it would give it away.
        few = "_few" if users < formats.few_users else ""
        block = fill(
            markup[f"block{few}{'_demo' if demo else ''}"].encode(),
            {
                "PROGRESS": percent_text(parts["percent"], parts["decimal"], str(progress)),
                "PROGRESS_NOW": js_number(width),
                "PROGRESS_WIDTH": js_number(max(width, 0.5)),
                "CAP": formats.count(cap),
                "FREE_USERS": formats.users_text(cap),
                # When the snapshot was taken, in UTC (the script writes the visitor's zone).
                "UPDATED": format_moment(int(status.get("summary", {}).get("updated_at", 0)), language),
            },
        )
        vpn_rows = b"".join(self._vpn_row(parts, formats, server) for server in status.get("vpn_servers", []))
        system_rows = b"".join(
            self._system_row(parts, formats, server) for server in status.get("system_servers", [])
        )
        return fill_raw(
            block,
            {"USERS": formats.counted(users)["USERS"], "VPN_ROWS": vpn_rows, "SYSTEM_ROWS": system_rows},
        )

    def _vpn_row(self, parts: dict[str, Any], formats: LanguageFormats, server: dict[str, Any]) -> bytes:
        flag = str(server.get("flag"))
        name, city = self.place(parts, flag, str(server.get("name", "")), str(server.get("location", "")))
        rank = server.get("rank")
        row = fill_raw(
            parts["markup"]["vpn_row"].encode(),
            {
                "FLAG": self.flag(parts, flag).encode(),
                "LOAD": _load(parts, server.get("load")),
            },
        )
        status = str(server.get("status"))
        return fill(
            row,
            {
                "STATUS": status,
                "STATUS_TEXT": parts["status"].get(status, parts["status"]["other"]),
                "PING": _ping(parts, formats, server.get("ping")),
                "NAME": name,
                "CITY": city,
                "RANK": parts["rank_colours"].get(rank, parts["rank_colours"]["other"]),
                "RANK_TEXT": parts["ranks"].get(rank, parts["ranks"]["other"]),
            },
        )

    def _system_row(self, parts: dict[str, Any], formats: LanguageFormats, server: dict[str, Any]) -> bytes:
        status = str(server.get("status"))
        # A service that is not configured has no response time to show.
        response = (
            fill(parts["markup"]["response"].encode(), {"PING": _ping(parts, formats, server.get("ping"))})
            if status in ("online", "offline")
            else b""
        )
        row = fill_raw(parts["markup"]["system_row"].encode(), {"RESPONSE": response})
        name = parts["system_names"].get(server.get("id"), parts["system_names"]["other"])
        return fill(
            row,
            {
                "NAME": name,
                "STATUS": status,
                "STATUS_TEXT": parts["service"].get(status, parts["service"]["other"]),
            },
        )


def _ping(parts: dict[str, Any], formats: LanguageFormats, ping: Any) -> str:
    return (
        str(parts["no_value"])
        if ping is None
        else str(parts["ping"]).replace("{ms}", formats.count(int(ping)))
    )


def _load(parts: dict[str, Any], load: Any) -> bytes:
    """A load ("29%") as the language writes a percentage, coloured by its level."""
    if load is None:
        return escape(parts["no_value"]).encode()
    level = parts["load_levels"][min(100, max(0, int(load_value(load))))]
    text = load_percent(parts["percent"], parts["decimal"], load)
    return fill(parts["markup"]["load"].encode(), {"LOAD": text, "LEVEL": level})
