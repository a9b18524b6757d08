"""Erased means gone from the database's files too, as far as each database lets us.

SQLite runs with ``secure_delete`` (every connection: a deleted or rewritten row's bytes are
overwritten with zeros in its page), but the pages as they were stay in the write-ahead log until a
checkpoint copies the log back and empties it; after an erasure and after retention a
``wal_checkpoint(TRUNCATE)`` does so at once, while the site runs. PostgreSQL keeps an updated or
deleted row's old version in the table's pages until VACUUM; the tables an erasure or retention
touched are vacuumed then, which frees those versions for new rows to overwrite but does not zero
them (the README says how long they may stay)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import peewee

from vpnsite_adapters.sql.database import is_postgres

log = logging.getLogger("vpnsite")


def scrub(db: peewee.Database, tables: Iterable[str]) -> None:
    """After a committed erasure or retention run that changed ``tables``; outside any transaction
    (one still open leaves the work to the next run)."""
    if db.in_transaction():
        return
    try:
        if is_postgres(db):
            for table in sorted(set(tables)):
                db.execute_sql(f"VACUUM {table}")
            return
        busy, _, _ = db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            log.warning(
                "the database's write-ahead log was busy: erased rows stay in it until the next checkpoint"
            )
    except peewee.DatabaseError as error:
        log.warning("erased rows were not cleared from the database's files: %s", error)
