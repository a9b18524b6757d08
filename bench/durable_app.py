"""The anchor for writes: a bare WSGI app on waitress that answers each request after one INSERT
and its COMMIT, on the database vpnsite would use and configured as vpnsite configures it
(PostgreSQL: a pool of connections, commits that wait for the disk; SQLite: WAL, synchronous=NORMAL,
which survives a crash of the process but not of the machine, the same as vpnsite).

Usage: ``python bench/durable_app.py PORT THREADS DATABASE_URL``.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
from urllib.parse import unquote, urlsplit

import waitress

BODY = b'{"success":true}'
HEADERS = [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))]
TABLE = "CREATE TABLE IF NOT EXISTS anchor (id TEXT PRIMARY KEY, at BIGINT NOT NULL)"


def postgres_app(url: str, threads: int):  # type: ignore[no-untyped-def]
    from psycopg2.pool import ThreadedConnectionPool

    pool = ThreadedConnectionPool(1, 2 * threads, url)
    connection = pool.getconn()
    with connection, connection.cursor() as cursor:
        cursor.execute(TABLE)
    pool.putconn(connection)

    def app(environ, start_response):  # type: ignore[no-untyped-def]
        connection = pool.getconn()
        try:
            with connection, connection.cursor() as cursor:
                cursor.execute("INSERT INTO anchor (id, at) VALUES (%s, %s)", (os.urandom(16).hex(), 1))
        finally:
            pool.putconn(connection)
        start_response("200 OK", HEADERS)
        return [BODY]

    return app


def sqlite_app(url: str):  # type: ignore[no-untyped-def]
    path = unquote(urlsplit(url).path)[1:]
    local = threading.local()

    def connection() -> sqlite3.Connection:
        if not hasattr(local, "connection"):
            opened = sqlite3.connect(path, timeout=10, isolation_level=None)
            for pragma in ("journal_mode=wal", "synchronous=normal", "busy_timeout=10000"):
                opened.execute(f"PRAGMA {pragma}")
            local.connection = opened
        return local.connection  # type: ignore[no-any-return]

    connection().execute(TABLE)

    def app(environ, start_response):  # type: ignore[no-untyped-def]
        database = connection()
        database.execute("BEGIN IMMEDIATE")
        database.execute("INSERT INTO anchor (id, at) VALUES (?, ?)", (os.urandom(16).hex(), 1))
        database.execute("COMMIT")
        start_response("200 OK", HEADERS)
        return [BODY]

    return app


if __name__ == "__main__":
    port, threads, url = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    app = sqlite_app(url) if url.startswith("sqlite") else postgres_app(url, threads)
    waitress.serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)
