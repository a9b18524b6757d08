"""First-load bytes of the home page in each language: the HTML, its inline stylesheet and every
script the page loads before it is interactive (the entry and its static imports; chunks imported
lazily by other pages are not counted). The HTML holds the testimonials the server writes in (the
three longest of the demo's examples, labelled so: the heaviest page it may send) and the locations
section of the demo's fleet (the specification's eight countries). Raw and gzip,
against the budgets: JS ≤ 20 KB gzip, HTML + CSS + JS ≤ 60 KB gzip. Exit 1 when a budget is missed.

Usage: ``python bench/page_weight.py`` after ``python build_ui.py``.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

from vpnsite.fleet import SPEC_LOCATIONS
from vpnsite_adapters.http.pages.fleet_locations import FleetLocations
from vpnsite_adapters.http.pages.testimonials import Testimonials
from vpnsite_adapters.operator_files.testimonials import example_testimonials

SITE = Path(__file__).resolve().parent.parent / "adapters" / "vpnsite_adapters" / "http" / "site"
JS_BUDGET = 20 * 1024
TOTAL_BUDGET = 60 * 1024
STYLE = re.compile(rb"<style>(.*?)</style>", re.S)
STATIC_IMPORT = re.compile(rb'(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?"(\./[^"]+)"')


def scripts_loaded(entry: Path) -> list[Path]:
    seen: list[Path] = []
    pending = [entry]
    while pending:
        script = pending.pop()
        if script in seen:
            continue
        seen.append(script)
        pending += [script.parent / name.decode() for name in STATIC_IMPORT.findall(script.read_bytes())]
    return seen


def with_testimonials(html: bytes, language: str) -> bytes:
    """The page with the demo's three longest examples, labelled so."""
    pieces = Testimonials.read(SITE / "forms" / "testimonials.json", example_testimonials())
    items = pieces.shown.of(language)
    heaviest = sorted(range(len(items)), key=lambda n: len(items[n].text), reverse=True)
    block = pieces.block(language, tuple(heaviest[: pieces.of(language)["shown"]]))
    return html.replace(b"__SLOT_RAW_TESTIMONIALS__", block)


def with_locations(html: bytes, language: str) -> bytes:
    """The page with the demo fleet's locations section."""
    pieces = FleetLocations.load(SITE / "forms" / "locations.json")
    return html.replace(b"__SLOT_RAW_LOCATIONS__", pieces.block(language, SPEC_LOCATIONS))


def weigh(contents: list[bytes]) -> tuple[int, int]:
    return sum(map(len, contents)), sum(len(gzip.compress(content, 9)) for content in contents)


def main() -> int:
    if not (SITE / "pages" / "index.html").is_file():
        print("build the website first: python build_ui.py", file=sys.stderr)
        return 2
    worst = 0.0
    for language, page in (
        ("en", "index.html"),
        ("ru", "ru/index.html"),
        ("es", "es/index.html"),
        ("fr", "fr/index.html"),
        ("pt", "pt/index.html"),
    ):
        html_path = SITE / "pages" / page
        html = with_locations(with_testimonials(html_path.read_bytes(), language), language)
        found = re.search(rb'<script type="module" src="/([^"]+)"', html)
        if found is None:
            print(f"{html_path} loads no script: rebuild the website (python build_ui.py)", file=sys.stderr)
            return 2
        entry = SITE / found.group(1).decode()
        scripts = scripts_loaded(entry)
        js_raw, js_gz = weigh([script.read_bytes() for script in scripts])
        css_raw, css_gz = weigh(STYLE.findall(html))
        html_raw, html_gz = weigh([STYLE.sub(b"", html)])
        total_gz = js_gz + css_gz + html_gz
        worst = max(worst, js_gz / JS_BUDGET, total_gz / TOTAL_BUDGET)
        print(
            f"{language}: HTML {html_raw / 1024:5.1f} KB ({html_gz / 1024:4.1f} gz)  "
            f"CSS {css_raw / 1024:5.1f} KB ({css_gz / 1024:4.1f} gz)  "
            f"JS {js_raw / 1024:5.1f} KB in {len(scripts)} files ({js_gz / 1024:4.1f} gz, "
            f"{js_gz / JS_BUDGET:.0%} of budget)  total {total_gz / 1024:4.1f} KB gz "
            f"({total_gz / TOTAL_BUDGET:.0%} of budget)"
        )
    print(f"worst ratio to budget: {worst:.2f} ({'within' if worst <= 1 else 'OVER'} budget)")
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
