"""Browser tests: Debian's Chromium driven by Playwright against a real `vpnsite serve`.

They skip with a reason when Chromium, Playwright or the built website is missing, except under
CI=true, where they must run."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.integration.processes import free_port
from tests.support.serve import serve, stop
from vpnsite_adapters.http.pages.site import SITE_DIR

CHROMIUM = os.environ.get("VPNSITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; the browser comes from Debian)"
    if not (SITE_DIR / "pages" / "index.html").is_file():
        return "the website is not built (python build_ui.py)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    problem = _missing()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(problem + " — under CI=true the browser tests must run")
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Server:
    def __init__(self, base: str, data_dir: Path, process: subprocess.Popen[bytes]) -> None:
        self.base = base
        self.data_dir = data_dir
        self.process = process

    def licences(self) -> int:
        with sqlite3.connect(self.data_dir / "vpnsite.db") as db:
            return int(db.execute("SELECT COUNT(*) FROM licence").fetchone()[0])

    def users(self) -> int:
        return int(requests.get(self.base + "/api/user-count", timeout=5).json()["user_count"])

    def set_users(self, users: int) -> None:
        """Make the service ``users`` strong: the difference goes onto the database's user tally,
        which the running server counts from; returns once the server counts it. The difference
        is taken from the tally itself, not from the server's count, which may not yet include a
        sign-up just made (no licence ends on these servers: their clock is the real one)."""
        with sqlite3.connect(self.data_dir / "vpnsite.db") as db:
            db.execute(
                "INSERT INTO user_tally (stripe, users)"
                " VALUES (0, ? - (SELECT COALESCE(SUM(users), 0) FROM user_tally))"
                " ON CONFLICT (stripe) DO UPDATE SET users = user_tally.users + excluded.users",
                (users,),
            )
        deadline = time.monotonic() + 15
        while self.users() != users:
            assert time.monotonic() < deadline, f"the server still counts {self.users()} users"
            time.sleep(0.1)

    def tickets(self) -> list[str]:
        with sqlite3.connect(self.data_dir / "vpnsite.db") as db:
            return [row[0] for row in db.execute("SELECT number FROM ticket")]


def start_server(tmp: Path, **settings: str) -> Server:
    port = free_port()
    data_dir = tmp / f"data-{port}"
    env = {**os.environ, "VPNSITE_DATA_DIR": str(data_dir), "VPNSITE_ACCESS_LOG": "false"}
    env.pop("VPNSITE_DATABASE_URL", None)
    env.update({f"VPNSITE_{key.upper()}": value for key, value in settings.items()})
    served = serve(env, tmp / f"serve-{port}.log", port=port)
    return Server(served.base, data_dir, served.process)


@pytest.fixture(scope="module")
def make_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []
    tmp = tmp_path_factory.mktemp("e2e")

    def make(**settings: str) -> Server:
        server = start_server(tmp, **settings)
        started.append(server)
        return server

    yield make
    for server in started:
        stop(server.process)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def server(make_server: Callable[..., Server]) -> Server:
    return make_server(rate_limits="off", demo="true")


@contextmanager
def page_in(context: Any, settle: bool = True) -> Iterator[Any]:
    """A page of the browser ``context``, which is closed after it; the test fails if the page's
    script threw. With ``settle``, ``goto`` waits until the network is idle: screens hydrate once
    their chunk has loaded, so act on a page the way a person does, after it has finished loading."""
    opened = context.new_page()
    if settle:
        navigate = opened.goto
        opened.goto = lambda url, **options: navigate(url, **{"wait_until": "networkidle", **options})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.base)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    with page_in(context) as opened:
        yield opened
