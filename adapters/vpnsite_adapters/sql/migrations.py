"""Versioned schema migrations, applied in order and recorded in ``schema_migrations``.

The DDL is written once for both databases: text keys, BIGINT microsecond times, no
auto-increment, nothing either dialect lacks; what only PostgreSQL has (a table that skips the WAL)
is marked :class:`PostgresOnly`, and SQLite has nothing to do for it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import peewee
from attrs import frozen

from vpnsite.emails import mailbox_key
from vpnsite_adapters.sql.database import is_postgres


class PostgresOnly(str):
    """A statement for what PostgreSQL alone has."""


@frozen
class Rewrite:
    """A step that rewrites rows by a rule of the core's, which SQL cannot state, in the
    migration's transaction."""

    run: Callable[[peewee.Database], None]


Step = str | Rewrite

MIGRATIONS: tuple[tuple[int, str, tuple[Step, ...]], ...] = (
    (
        1,
        "licences, sign-up requests, archive links, rate limits, tickets, fleet, mail queue",
        (
            """CREATE TABLE signup_request (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                email_key TEXT NOT NULL,
                user_days INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                redeemed_at BIGINT,
                language TEXT NOT NULL DEFAULT 'en'
            )""",
            "CREATE INDEX signup_request_expires_at ON signup_request (expires_at)",
            "CREATE INDEX signup_request_email_key ON signup_request (email_key)",
            """CREATE TABLE licence (
                id TEXT PRIMARY KEY,
                request_id TEXT UNIQUE,
                email TEXT,
                email_key TEXT,
                ip TEXT,
                code_hash TEXT NOT NULL UNIQUE,
                starts_at BIGINT NOT NULL,
                ends_at BIGINT NOT NULL,
                anonymised_at BIGINT,
                language TEXT NOT NULL DEFAULT 'en',
                reminded_for_end BIGINT
            )""",
            "CREATE INDEX licence_ends_at_email_key ON licence (ends_at, email_key)",
            "CREATE INDEX licence_email_key ON licence (email_key)",
            """CREATE TABLE archive_link (
                token_hash TEXT PRIMARY KEY,
                licence_id TEXT NOT NULL REFERENCES licence (id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL
            )""",
            "CREATE INDEX archive_link_licence_id ON archive_link (licence_id)",
            """CREATE TABLE renewal_link (
                token_hash TEXT PRIMARY KEY,
                licence_id TEXT NOT NULL REFERENCES licence (id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                used_at BIGINT
            )""",
            """CREATE TABLE rate_event (
                key TEXT NOT NULL,
                at BIGINT NOT NULL
            )""",
            "CREATE INDEX rate_event_key_at ON rate_event (key, at)",
            "CREATE INDEX rate_event_at ON rate_event (at)",
            """CREATE TABLE ticket (
                number TEXT PRIMARY KEY,
                email TEXT,
                email_key TEXT,
                code_hash TEXT,
                message TEXT,
                created_at BIGINT NOT NULL,
                closed_at BIGINT,
                language TEXT NOT NULL DEFAULT 'en'
            )""",
            "CREATE INDEX ticket_email_key ON ticket (email_key)",
            """CREATE TABLE vpn_server (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                country TEXT NOT NULL,
                city TEXT NOT NULL,
                position INTEGER NOT NULL DEFAULT 0,
                host TEXT,
                port INTEGER,
                token_hash TEXT UNIQUE,
                last_seen BIGINT,
                load_percent DOUBLE PRECISION,
                bandwidth_mbps DOUBLE PRECISION,
                ping_ms INTEGER,
                sessions INTEGER NOT NULL DEFAULT 0,
                service_up BOOLEAN NOT NULL DEFAULT FALSE
            )""",
            """CREATE TABLE mail_queue (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                payload TEXT,
                created_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT,
                claimed_until BIGINT,
                sent_at BIGINT,
                last_error TEXT
            )""",
            "CREATE INDEX mail_queue_next_attempt_at ON mail_queue (next_attempt_at)",
        ),
    ),
)

MIGRATIONS += (
    (
        2,
        "VPN sessions, server ports",
        (
            # A session holds the licence, the server and the start — nothing about what the user
            # does and no address. Unconfirmed ones are logins that passed but never connected.
            """CREATE TABLE vpn_session (
                licence_id TEXT NOT NULL,
                server_id TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                confirmed BOOLEAN NOT NULL DEFAULT FALSE,
                PRIMARY KEY (licence_id, server_id)
            )""",
            "CREATE INDEX vpn_session_server_id ON vpn_session (server_id)",
            "ALTER TABLE vpn_server ADD COLUMN udp_port INTEGER",
            "ALTER TABLE vpn_server ADD COLUMN tcp_port INTEGER",
        ),
    ),
)

MIGRATIONS += (
    (
        3,
        "WireGuard (experimental): server keys and ports, tunnel addresses per licence and server",
        (
            "ALTER TABLE vpn_server ADD COLUMN wg_port INTEGER",
            "ALTER TABLE vpn_server ADD COLUMN wg_public_key TEXT",
            """CREATE TABLE wg_peer (
                licence_id TEXT NOT NULL,
                server_id TEXT NOT NULL,
                address TEXT NOT NULL,
                PRIMARY KEY (licence_id, server_id),
                UNIQUE (server_id, address)
            )""",
        ),
    ),
)

MIGRATIONS += (
    (
        4,
        "VPN sessions named by the hub, so a replaced session's late disconnect frees nothing",
        (
            # Sessions of the hook era carry no id; the nodes report what they hold with their
            # next heartbeat and the hub counts those again.
            "DELETE FROM vpn_session",
            "ALTER TABLE vpn_session ADD COLUMN session_id TEXT NOT NULL DEFAULT ''",
        ),
    ),
    (
        5,
        "archive links are signed and expire after a week: nothing stored for them",
        (
            # Links stored until now never expired; a visitor checks the licence for a fresh one.
            "DROP TABLE archive_link",
        ),
    ),
)

MIGRATIONS += (
    (
        6,
        "nothing stored for a sign-up request until it is redeemed; the user count kept as licences change",
        (
            # A request issued before the upgrade cannot be redeemed after it: its visitor signs up again.
            "DROP TABLE signup_request",
            """CREATE TABLE user_end (
                email_key TEXT PRIMARY KEY,
                ends_at BIGINT NOT NULL
            )""",
            "CREATE INDEX user_end_ends_at ON user_end (ends_at)",
            """CREATE TABLE user_tally (
                stripe INTEGER PRIMARY KEY,
                users BIGINT NOT NULL
            )""",
            """INSERT INTO user_end (email_key, ends_at)
                SELECT email_key, MAX(ends_at) FROM licence WHERE email_key IS NOT NULL GROUP BY email_key""",
            "INSERT INTO user_tally (stripe, users) SELECT 0, COUNT(*) FROM user_end",
        ),
    ),
)

MIGRATIONS += (
    (
        7,
        "which master key of the ring made each stored keyed hash; every earlier one was key 1",
        (
            "ALTER TABLE licence ADD COLUMN code_key INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE renewal_link ADD COLUMN token_key INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE vpn_server ADD COLUMN token_key INTEGER NOT NULL DEFAULT 1",
        ),
    ),
)

MIGRATIONS += (
    (
        8,
        "devices: a session's protocol and its owner's disconnect; each server's exit addresses",
        (
            "ALTER TABLE vpn_session ADD COLUMN protocol TEXT",
            "ALTER TABLE vpn_session ADD COLUMN ending BOOLEAN NOT NULL DEFAULT FALSE",
            # Space-separated addresses or networks; compared with visitors' addresses in memory only.
            "ALTER TABLE vpn_server ADD COLUMN exit_addresses TEXT NOT NULL DEFAULT ''",
        ),
    ),
)

MIGRATIONS += (
    (
        9,
        "each server's exit addresses as its operator gave them, apart from those learnt from heartbeats",
        (
            # Until now only `vpn add-server --exit-address` and the nodes (reporting the same,
            # from node.json) set them: they stay the server's own.
            "ALTER TABLE vpn_server ADD COLUMN configured_exit_addresses TEXT NOT NULL DEFAULT ''",
            "UPDATE vpn_server SET configured_exit_addresses = exit_addresses",
        ),
    ),
)

MIGRATIONS += (
    (
        10,
        "rate-limit events skip PostgreSQL's write-ahead log",
        (
            # Three events a sign-up, each already committed without waiting for the disk: the log
            # was most of what they cost. A crash of PostgreSQL now empties the table, forgiving
            # every client the calls of the windows then open, and a replica holds none of it.
            PostgresOnly("ALTER TABLE rate_event SET UNLOGGED"),
        ),
    ),
)

MIGRATIONS += (
    (
        11,
        "the privacy ledger: which address each e-mail is about, the erasure journal, and what an "
        "anonymised licence no longer needs",
        (
            # A keyed hash of the address a message is about (its recipient, or the visitor a
            # ticket's copy to support is about), so an erasure finds the messages still queued.
            # Messages queued before this carry none; they are sent or given up within a day.
            "ALTER TABLE mail_queue ADD COLUMN about_key TEXT",
            "CREATE INDEX mail_queue_about_key ON mail_queue (about_key)",
            """CREATE TABLE erasure (
                address_hash TEXT PRIMARY KEY,
                key_id INTEGER NOT NULL,
                erased_at BIGINT NOT NULL
            )""",
            "CREATE INDEX erasure_erased_at ON erasure (erased_at)",
            # A sign-up request's id guards against replaying it for 30 minutes; an anonymised
            # licence has no use for it.
            "UPDATE licence SET request_id = NULL WHERE anonymised_at IS NOT NULL",
            "DELETE FROM wg_peer WHERE licence_id IN"
            " (SELECT id FROM licence WHERE anonymised_at IS NOT NULL)",
        ),
    ),
)

MIGRATIONS += (
    (
        12,
        "the fleet's uptime: when each server went into service, and its up time per day",
        (
            # Since its first heartbeat; a server heard before this counts from its last beat.
            "ALTER TABLE vpn_server ADD COLUMN heard_since BIGINT",
            "UPDATE vpn_server SET heard_since = last_seen",
            # Seconds a server was up on a UTC day (its midnight, as every time is stored): a few
            # rows a server, the last 30 days' kept.
            """CREATE TABLE server_uptime (
                server_id TEXT NOT NULL,
                day BIGINT NOT NULL,
                up_seconds DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (server_id, day)
            )""",
            "CREATE INDEX server_uptime_day ON server_uptime (day)",
        ),
    ),
)


def _keys_by_mailbox(db: peewee.Database) -> None:
    """Each licence's and ticket's key becomes the mailbox its address reaches (until now: the
    address ignoring case), read in batches so a million licences need no more memory than a few
    thousand."""
    param = db.param
    for table, primary in (("licence", "id"), ("ticket", "number")):
        last = ""
        while True:
            rows = db.execute_sql(
                f"SELECT {primary}, email, email_key FROM {table}"
                f" WHERE {primary} > {param} AND email IS NOT NULL ORDER BY {primary} LIMIT 5000",
                (last,),
            ).fetchall()
            if not rows:
                break
            for row_id, email, key in rows:
                if mailbox_key(email) != key:
                    db.execute_sql(
                        f"UPDATE {table} SET email_key = {param} WHERE {primary} = {param}",
                        (mailbox_key(email), row_id),
                    )
            last = rows[-1][0]


MIGRATIONS += (
    (
        13,
        "an address is kept under the mailbox it reaches, so no spelling of one mailbox counts twice",
        (
            Rewrite(_keys_by_mailbox),
            # Two spellings of one mailbox were two users; they are one from now on.
            "DELETE FROM user_end",
            """INSERT INTO user_end (email_key, ends_at)
                SELECT email_key, MAX(ends_at) FROM licence WHERE email_key IS NOT NULL GROUP BY email_key""",
            "DELETE FROM user_tally",
            "INSERT INTO user_tally (stripe, users) SELECT 0, COUNT(*) FROM user_end",
        ),
    ),
)

MIGRATIONS += (
    (
        14,
        "licences by start time: the sign-up pace, which decides when sign-ups must solve a challenge",
        (
            # The last hour and the same hour of the seven days before, counted every few seconds
            # while sign-ups come: eight ranges of this index, however many licences there are.
            "CREATE INDEX licence_starts_at ON licence (starts_at)",
        ),
    ),
)

MIGRATIONS += (
    (
        15,
        "the erasure journal's entries are keyed under journal keys of their own, named by text",
        (
            # SQLite keeps the text in the INTEGER column as it is (a journal key's id is never a
            # number); an entry made before names its master key by number, read back as text.
            PostgresOnly("ALTER TABLE erasure ALTER COLUMN key_id TYPE TEXT"),
        ),
    ),
)

MIGRATIONS += (
    (
        16,
        "whether a server's WireGuard runs, as its node reports it",
        ("ALTER TABLE vpn_server ADD COLUMN wg_running BOOLEAN",),
    ),
)

MIGRATIONS += (
    (
        17,
        "a WireGuard peer its owner disconnected is held out by the hub until they connect it again",
        # On the licence's peer itself (licence and server, no address of anyone's), so erasure
        # and retention take it with the peer.
        ("ALTER TABLE wg_peer ADD COLUMN held_out BOOLEAN NOT NULL DEFAULT FALSE",),
    ),
)

LATEST = MIGRATIONS[-1][0]


def applied_version(db: peewee.Database) -> int:
    if not db.table_exists("schema_migrations"):
        return 0
    row = db.execute_sql("SELECT MAX(version) FROM schema_migrations").fetchone()
    return int(row[0] or 0)


def tables_at(version: int) -> tuple[str, ...]:
    """Our tables as the migrations up to ``version`` leave them, in the order they were created
    (a table comes after the tables it references)."""
    tables = ["schema_migrations"]
    for number, _, statements in MIGRATIONS:
        if number > version:
            break
        for statement in statements:
            if isinstance(statement, Rewrite):
                continue
            if created := re.match(r"\s*CREATE TABLE (\w+)", statement):
                tables.append(created[1])
            elif dropped := re.match(r"\s*DROP TABLE (\w+)", statement):
                tables.remove(dropped[1])
    return tuple(tables)


def migrate(db: peewee.Database, up_to: int = LATEST) -> list[int]:
    """Apply the migrations this database lacks, up to ``up_to``; return their versions. Safe to
    run concurrently from several processes: on PostgreSQL an advisory lock serialises them."""
    applied = []
    with db.atomic():
        if is_postgres(db):
            db.execute_sql("SELECT pg_advisory_xact_lock(7253901)")
        db.execute_sql(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
        )
        current = applied_version(db)
        for version, name, statements in MIGRATIONS:
            if version <= current or version > up_to:
                continue
            for statement in statements:
                if isinstance(statement, Rewrite):
                    statement.run(db)
                elif is_postgres(db) or not isinstance(statement, PostgresOnly):
                    db.execute_sql(statement)
            db.execute_sql(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
                f"({db.param}, {db.param}, {db.param})",
                (version, name, int(time.time())),
            )
            applied.append(version)
    return applied
