"""The browser tests wait on functions, never on bare expressions: the site's Content-Security-Policy
has no 'unsafe-eval', and Playwright evaluates an expression string with eval as soon as it has to
poll, so such a wait fails whenever the page is slower than the first look (a loaded machine)."""

from __future__ import annotations

import re
from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "e2e"
# A string handed to wait_for_function that does not begin as a function does.
BARE_EXPRESSION = re.compile(r'wait_for_function\(\s*(?:"""|"(?!"")|\')(?!\s*(?:\(|function\b|async\b))')


def test_no_browser_test_waits_on_a_bare_expression() -> None:
    found = [
        f"{path.name}:{source[: match.start()].count(chr(10)) + 1}"
        for path in sorted(E2E.glob("*.py"))
        for source in [path.read_text()]
        for match in BARE_EXPRESSION.finditer(source)
    ]
    assert not found, f"wait on a function ('() => …') instead: {found}"


def test_the_check_finds_a_bare_expression() -> None:
    assert BARE_EXPRESSION.search('page.wait_for_function("scrollY > 400")')
    assert not BARE_EXPRESSION.search('page.wait_for_function("() => scrollY > 400")')
    assert not BARE_EXPRESSION.search("page.wait_for_function(WHOLLY_IN_VIEW, arg=selector)")
