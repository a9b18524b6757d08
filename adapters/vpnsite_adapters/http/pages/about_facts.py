"""The operator's own facts in the pages (``operator_facts.py``): on the About page the founder's
sentence, what is ready, the investment section with its notice and the roadmap, and the link to
the source code; in the terms, who has access to the servers (on every page, for the script).

The markup is the script's own (``ui/src/routes/about.tsx``), prerendered by the build in pieces
with markers (``site/forms/about.json``), with the language's money formats (what Intl writes for
each currency); the facts do not change while the server runs, so each page is filled once.
``GET /api/about`` gives the script the same facts, written as the page writes them, where it
draws the About page itself (after a link)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import ClassVar

from flask import Blueprint, Response, request

from vpnsite_adapters.http.described import Call, described, route
from vpnsite_adapters.http.pages.slot_manifest import Declared
from vpnsite_adapters.http.pages.slots import BuildPieces, fill, fill_raw
from vpnsite_adapters.http.wire import answer
from vpnsite_adapters.operator_files.facts import Money, OperatorFacts
from vpnsite_adapters.texts.formatting import format_number
from vpnsite_adapters.texts.languages import DEFAULT_LANGUAGE, LANGUAGES
from vpnsite_contract import website
from vpnsite_contract.structuring import unstructure


class AboutPieces(BuildPieces):
    SLOTS: ClassVar[Declared] = {
        "markup/item": frozenset({"TEXT"}),
        "markup/paragraph": frozenset({"TEXT"}),
        "markup/investment": frozenset({"NOTICE", "RAW_PARAGRAPHS", "RAW_ROWS", "TOTAL"}),
        "markup/row": frozenset({"COST", "LABEL"}),
        "markup/phase": frozenset({"HEADING", "NOTE", "RAW_ITEMS"}),
    }

    def money(self, language: str, money: Money) -> str:
        """An amount in its own currency, as Intl writes it in the language ("US$10,000", "10 000 $")."""
        pattern: str = self.of(language)["money"][money.currency]
        return pattern.replace("{n}", format_number(money.amount, language))

    def data(self, facts: OperatorFacts, language: str, founder: str) -> website.AboutFacts:
        """The facts in ``language`` as the page writes them, the operator's ``founder`` named."""
        told = facts.of(language)
        parts = self.of(language)

        def money(value: Money) -> str:
            return self.money(language, value)

        def text(template: str) -> str:
            return facts.text(template, money, told.mixed)

        roadmap = [
            website.AboutPhase(
                parts["phase"].replace("{n}", str(number)).replace("{title}", phase.title),
                list(phase.items),
                f"{text(phase.cost)} · {phase.duration}" if phase.cost else phase.duration,
            )
            for number, phase in enumerate(told.roadmap, 1)
        ]
        return website.AboutFacts(
            source_code=facts.source_code,
            founder=told.founder.replace("{founder}", founder)
            .replace("{years}", str(facts.experience_years))
            .replace("{since}", str(facts.director_since)),
            ready=list(told.ready),
            notice=told.notice,
            investment=[text(paragraph) for paragraph in told.paragraphs],
            costs=[website.AboutCost(label, money(cost)) for label, cost in facts.platform_costs],
            total=facts.amount(facts.platform_total, money, told.mixed),
            roadmap=roadmap,
        )

    def blocks(self, data: website.AboutFacts, language: str) -> tuple[dict[str, str], dict[str, bytes]]:
        """The About page's slots for these facts: its texts, and its blocks as markup (with the
        facts as JSON for the script, which draws the page from them)."""
        markup = self.of(language)["markup"]

        def items(texts: list[str]) -> bytes:
            return b"".join(fill(markup["item"].encode(), {"TEXT": text}) for text in texts)

        paragraphs = b"".join(fill(markup["paragraph"].encode(), {"TEXT": text}) for text in data.investment)
        rows = b"".join(
            fill(markup["row"].encode(), {"LABEL": cost.label, "COST": cost.cost}) for cost in data.costs
        )
        investment = fill_raw(
            fill(markup["investment"].encode(), {"NOTICE": data.notice, "TOTAL": data.total}),
            {"PARAGRAPHS": paragraphs, "ROWS": rows},
        )
        phases = b"".join(
            fill_raw(
                fill(markup["phase"].encode(), {"HEADING": phase.heading, "NOTE": phase.note}),
                {"ITEMS": items(phase.items)},
            )
            for phase in data.roadmap
        )
        # A data block for the script: nothing in it may close the element, nor read as a marker
        # to a later filling of the page (JSON reads "\u005f" as "_").
        encoded = json.dumps(unstructure(data), ensure_ascii=False, separators=(",", ":"))
        encoded = encoded.replace("<", "\\u003c").replace("__", "_\\u005f")
        texts = {"ABOUT_FOUNDER": data.founder, "SOURCE_CODE": data.source_code}
        raw = {
            "ABOUT_READY": items(data.ready),
            "ABOUT_INVESTMENT": investment,
            "ABOUT_ROADMAP": phases,
            "ABOUT_JSON": encoded.encode(),
        }
        return texts, raw


FACTS = described(
    Call(
        "/api/about",
        "What the operator says of itself on the About page, in a language",
        website.AboutFacts,
        method="get",
        answered="The facts, as the page writes them",
        query=("language",),
    )
)


def about_api(by_language: Mapping[str, website.AboutFacts]) -> Blueprint:
    """``GET /api/about``: the facts in a language as the page writes them (``AboutPieces.data``)."""
    blueprint = Blueprint("about", __name__)

    @route(blueprint, FACTS)
    def about() -> Response:
        language = request.args.get("language", DEFAULT_LANGUAGE)
        return answer(by_language[language if language in LANGUAGES else DEFAULT_LANGUAGE])

    return blueprint
