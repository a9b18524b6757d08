"""The same-stack anchor: a Flask app on waitress with vpnsite's threads and its database set up
as vpnsite sets it up (PostgreSQL: a psycopg2 pool, commits that wait for the disk; SQLite: WAL,
synchronous=NORMAL), doing the least each of our calls must do and nothing else:

- ``POST /echo``: parse a JSON body, answer JSON (what a call that writes nothing costs);
- ``POST /insert``: the same plus one INSERT and its COMMIT (what a call that writes costs);
- ``POST /select``: the same plus one SELECT of a row by an indexed key (what a look-up costs).

A sign-up is one call of each kind that does not write and one that does: a pair of /echo and
/insert. ``--rows N`` seeds N rows for /select to find (keys ``k0`` … ``k{N-1}``).

Usage: ``python bench/anchor_app.py PORT THREADS DATABASE_URL [--rows N]``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote, urlsplit

import waitress
from flask import Flask, jsonify, request

TABLE = "CREATE TABLE IF NOT EXISTS anchor (id TEXT PRIMARY KEY, key TEXT NOT NULL, at BIGINT NOT NULL)"
INDEX = "CREATE INDEX IF NOT EXISTS anchor_key ON anchor (key)"
SEED_POSTGRES = "INSERT INTO anchor SELECT 'r' || g, 'k' || g, 1 FROM generate_series(0, %s - 1) AS g"
SEED_SQLITE = (
    "WITH RECURSIVE g(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM g WHERE n + 1 < ?)"
    " INSERT INTO anchor SELECT 'r' || n, 'k' || n, 1 FROM g"
)

Cursor = Callable[[], Any]


def postgres(url: str, threads: int, rows: int) -> tuple[Callable[[], Any], str]:
    from psycopg2.pool import ThreadedConnectionPool

    pool = ThreadedConnectionPool(1, 2 * threads, url)

    @contextmanager
    def transaction() -> Iterator[Any]:
        connection = pool.getconn()
        try:
            with connection, connection.cursor() as cursor:
                yield cursor
        finally:
            pool.putconn(connection)

    with transaction() as cursor:
        cursor.execute(TABLE)
        cursor.execute(INDEX)
        cursor.execute("SELECT count(*) FROM anchor")
        if cursor.fetchone()[0] < rows:
            cursor.execute("TRUNCATE anchor")
            cursor.execute(SEED_POSTGRES, (rows,))
        cursor.execute("ANALYZE anchor")
    return transaction, "%s"


def sqlite(url: str, rows: int) -> tuple[Callable[[], Any], str]:
    path = unquote(urlsplit(url).path)[1:]
    local = threading.local()

    def connection() -> sqlite3.Connection:
        if not hasattr(local, "connection"):
            opened = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
            for pragma in ("journal_mode=wal", "synchronous=normal", "busy_timeout=10000"):
                opened.execute(f"PRAGMA {pragma}")
            local.connection = opened
        return local.connection  # type: ignore[no-any-return]

    @contextmanager
    def transaction() -> Iterator[Any]:
        database = connection()
        database.execute("BEGIN IMMEDIATE")
        try:
            yield database.cursor()
        except BaseException:
            database.execute("ROLLBACK")
            raise
        database.execute("COMMIT")

    database = connection()
    database.execute(TABLE)
    database.execute(INDEX)
    if database.execute("SELECT count(*) FROM anchor").fetchone()[0] < rows:
        database.execute("DELETE FROM anchor")
        database.execute(SEED_SQLITE, (rows,))
    database.execute("ANALYZE")
    return transaction, "?"


def create_app(transaction: Callable[[], Any], param: str) -> Flask:
    app = Flask("anchor")

    @app.post("/echo")
    def echo() -> Any:
        return jsonify(success=True, got=len(request.get_json()))

    @app.post("/insert")
    def insert() -> Any:
        request.get_json()
        with transaction() as cursor:
            cursor.execute(
                f"INSERT INTO anchor (id, key, at) VALUES ({param}, {param}, 1)", (os.urandom(16).hex(),) * 2
            )
        return jsonify(success=True)

    @app.post("/select")
    def select() -> Any:
        key = request.get_json()["key"]
        with transaction() as cursor:
            cursor.execute(f"SELECT id, at FROM anchor WHERE key = {param}", (key,))
            row = cursor.fetchone()
        return jsonify(found=row is not None)

    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("threads", type=int)
    parser.add_argument("url")
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    if args.url.startswith("sqlite"):
        transaction, param = sqlite(args.url, args.rows)
    else:
        transaction, param = postgres(args.url, args.threads, args.rows)
    app = create_app(transaction, param)
    waitress.serve(app, host="127.0.0.1", port=args.port, threads=args.threads, _quiet=True)


if __name__ == "__main__":
    main()
