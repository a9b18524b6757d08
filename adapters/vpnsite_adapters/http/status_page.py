"""The status page's live block, put together from the server's snapshot for pages sent without
JavaScript (and for the first paint with it).

The markup is the script's own (``ui/src/features/status/server-status.tsx``), prerendered by the
build into pieces with slots (``site/forms/status.json``) along with the texts and tables the
pieces need; this module only chooses the pieces and fills them. ``tests/integration/
test_status_page.py`` holds its output equal to what the script renders for the same snapshot.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from vpnsite_adapters.http.page_formats import LanguageFormats
from vpnsite_adapters.http.slots import fill, fill_raw


def js_number(value: float) -> str:
    """A number as JavaScript writes it into an attribute (``String(n)``), for the values here."""
    return str(int(value)) if value == int(value) else repr(value)


class StatusPage:
    def __init__(self, parts: dict[str, Any]) -> None:
        self.parts = parts

    @classmethod
    def load(cls, path: Path) -> StatusPage:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def block(self, language: str, status: dict[str, Any], formats: LanguageFormats) -> bytes:
        parts = self.parts.get(language, self.parts["en"])
        markup = parts["markup"]
        users = int(status.get("summary", {}).get("user_count", 0))
        share = max(0, users) / parts["free_tier_users"] * 100
        width = min(100.0, share)
        places = 1 if users >= 10_000 else 3
        # In decimals, as Intl rounds: the share of whole users is exact there.
        percent = min(Decimal(max(0, users)) * 100 / parts["free_tier_users"], Decimal(100))
        progress = percent.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
        demo = bool(status.get("summary", {}).get("demo"))
        block = fill(
            markup["block_demo" if demo else "block"].encode(),
            {
                "USERS": formats.count(users),
                "PROGRESS": parts["percent"].replace("{n}", str(progress).replace(".", parts["decimal"])),
                "PROGRESS_NOW": js_number(width),
                "PROGRESS_WIDTH": js_number(max(width, 0.5)),
            },
        )
        vpn_rows = b"".join(
            self._vpn_row(parts, language, server) for server in status.get("vpn_servers", [])
        )
        system_rows = b"".join(self._system_row(parts, server) for server in status.get("system_servers", []))
        return fill_raw(block, {"VPN_ROWS": vpn_rows, "SYSTEM_ROWS": system_rows})

    def _metrics(self, parts: dict[str, Any], server: dict[str, Any]) -> tuple[dict[str, str], bytes]:
        ping, load = server.get("ping"), server.get("load")
        status = str(server.get("status"))
        values = {
            "STATUS": status,
            "STATUS_TEXT": parts["status"].get(status, parts["status"]["other"]),
            "PING": parts["no_value"] if ping is None else parts["ping"].replace("{ms}", str(ping)),
        }
        if load is None:
            return values, fill(b"__SLOT_TEXT__", {"TEXT": parts["no_value"]})
        percent = min(100, max(0, int(float(str(load).rstrip("%") or 0))))
        level = parts["load_levels"][percent]
        return values, fill(parts["markup"]["load"].encode(), {"LOAD": str(load), "LEVEL": level})

    def _vpn_row(self, parts: dict[str, Any], language: str, server: dict[str, Any]) -> bytes:
        values, load = self._metrics(parts, server)
        flag = str(server.get("flag"))
        place = parts["locations"].get(flag)
        popularity = server.get("popularity", "")
        if language != "en":
            popularity = server.get(f"popularity_{language}", popularity)
        row = fill_raw(
            parts["markup"]["vpn_row"].encode(),
            {
                "FLAG": parts["markup"]["flags"].get(flag, parts["markup"]["flags"]["other"]).encode(),
                "LOAD": load,
            },
        )
        return fill(
            row,
            {
                **values,
                "NAME": place["name"] if place else str(server.get("name", "")),
                "CITY": place["city"] if place else str(server.get("location", "")),
                "RANK": parts["rank_colours"].get(server.get("rank"), parts["rank_colours"]["other"]),
                "POPULARITY": str(popularity),
            },
        )

    def _system_row(self, parts: dict[str, Any], server: dict[str, Any]) -> bytes:
        values, load = self._metrics(parts, server)
        row = fill_raw(parts["markup"]["system_row"].encode(), {"LOAD": load})
        name = parts["system_names"].get(server.get("id"), parts["system_names"]["other"])
        return fill(row, {**values, "NAME": name})
