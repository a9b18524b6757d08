"""Fixtures for the adapters against the real databases: every store test runs on SQLite and on
PostgreSQL. PostgreSQL tests skip with a reason outside CI when no server answers; under
CI=true they fail instead."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import psycopg2
import pytest

from tests.support.clock import ManualClock
from tests.support.serve import OPERATOR_ENV, serve, stop
from vpnsite_adapters.bootstrap import Hub, build_hub
from vpnsite_adapters.http.app import create_app
from vpnsite_adapters.services import Services
from vpnsite_adapters.settings import load_settings, sqlite_url
from vpnsite_adapters.sql.store import SqlStore

POSTGRES_ADMIN = os.environ.get("VPNSITE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI") == "true"


def _postgres_unavailable() -> str | None:
    try:
        psycopg2.connect(POSTGRES_ADMIN, connect_timeout=3).close()
    except psycopg2.OperationalError as error:
        return f"PostgreSQL at {POSTGRES_ADMIN} is not reachable: {error}".strip()
    return None


@pytest.fixture(scope="session")
def postgres_server() -> str:
    problem = _postgres_unavailable()
    if problem:
        if IN_CI:
            pytest.fail(problem + " (CI=true: PostgreSQL tests must run)")
        pytest.skip(problem)
    return POSTGRES_ADMIN


def admin(sql: str) -> None:
    """One statement as the server's administrator, outside any transaction (CREATE DATABASE)."""
    connection = psycopg2.connect(POSTGRES_ADMIN)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
    finally:
        connection.close()


@pytest.fixture
def new_postgres_database(postgres_server: str) -> Iterator[Callable[[], str]]:
    """Makes empty PostgreSQL databases, as many as a test asks for; all dropped after it."""
    names: list[str] = []
    base = postgres_server.rsplit("/", 1)[0]

    def create() -> str:
        names.append(f"vpnsite_test_{uuid.uuid4().hex[:12]}")
        admin(f"CREATE DATABASE {names[-1]}")
        return f"{base}/{names[-1]}"

    try:
        yield create
    finally:
        for name in names:
            admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def fresh_postgres_url(new_postgres_database: Callable[[], str]) -> str:
    return new_postgres_database()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "vpnsite.db")
    return str(request.getfixturevalue("fresh_postgres_url"))


@pytest.fixture
def store(database_url: str) -> Iterator[SqlStore]:
    opened = SqlStore.open(database_url)
    yield opened
    opened.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 1, 15, 12, 0, tzinfo=UTC))


@pytest.fixture
def make_hub(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[object]:
    built: list[Hub] = []

    def make(**overrides: object) -> Hub:
        environ = {"VPNSITE_DATABASE_URL": database_url, "VPNSITE_ACCESS_LOG": "true"}
        environ.update({f"VPNSITE_{k.upper()}": str(v) for k, v in overrides.items()})
        settings = load_settings(environ, env_file=None, data_dir=tmp_path / "data")
        hub = build_hub(settings, clock=clock)
        hub.services.snapshot.refresh()
        built.append(hub)
        return hub

    yield make
    for hub in built:
        hub.close()


@pytest.fixture
def hub(make_hub: object) -> Hub:
    return make_hub()  # type: ignore[operator, no-any-return]


@pytest.fixture
def services(hub: Hub) -> Services:
    return hub.services


@pytest.fixture
def client(services: Services):  # type: ignore[no-untyped-def]
    return create_app(services).test_client()


@pytest.fixture
def environment(tmp_path: Path, database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        **OPERATOR_ENV,
        "VPNSITE_DATA_DIR": str(tmp_path / "data"),
        "VPNSITE_DATABASE_URL": database_url,
    }


@pytest.fixture
def server(environment: dict[str, str], tmp_path: Path) -> Iterator[tuple[str, Path]]:
    served = serve(environment, tmp_path / "serve.log")
    try:
        yield served.base, served.log
    finally:
        stop(served.process)
