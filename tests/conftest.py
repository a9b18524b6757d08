"""How the suite is spread over pytest-xdist's workers (tox's `tests` environment runs it with
``-n 5 --dist loadgroup``): a test on its own wherever it goes, except

- tests/vpn, one group, so one worker runs it one test after another: its tests time
  reconnections in seconds, which two worlds built at once on two cores would blur (a world
  touches nothing on the host's network: tests/vpn/netns.py). It is the largest group, so
  xdist hands it out first, and its minutes of waiting on OpenVPN overlap the rest;
- the tests of a module that share a module-scoped fixture (a server, a browser's context), which
  run on one worker so the fixture is set up once;

and Hypothesis has no deadline: no test asserts wall-clock time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

VPN = Path(__file__).resolve().parent / "vpn"

# Hypothesis's 200 ms deadline is a wall-clock assertion: on four workers sharing two cores an
# e-mail property's example was seen taking longer, and the run failed on time, not behaviour.
settings.register_profile("vpnsite", deadline=None)
settings.load_profile("vpnsite")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(VPN):
            item.add_marker(pytest.mark.xdist_group("vpn"))
            continue
        info = getattr(item, "_fixtureinfo", None)
        definitions = info.name2fixturedefs.values() if info is not None else ()
        if any(d.scope == "module" for defs in definitions for d in defs):
            item.add_marker(pytest.mark.xdist_group(str(item.path)))


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """On a worker of ``--dist loadgroup``, every grouped test must carry its group in its id, or
    xdist spreads the group over workers: two vpn worlds built at once, each failing on the
    other's interfaces and ports (seen with pytest 9.2, whose ids xdist 3.8 cannot extend)."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if lost:
        said = f"pytest-xdist dropped the groups of {len(lost)} tests, {lost[0]} first"
        print(said, file=sys.stderr)
        raise pytest.UsageError(said)
