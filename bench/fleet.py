"""Fleet simulation: one hub (`vpnsite serve`, a real process, on PostgreSQL) with a million licences
and a fleet of simulated VPN servers, grown step by step (50, 100, 250, 500 servers), to see how
the hub's cost per heartbeat grows with the fleet.

Each simulated server is registered as `vpnsite vpn add-server` does it (in this process, against
the same database: a row and a token), sends one heartbeat with nothing held, then has its clients
log in through the node API (``/api/node/login`` then ``/api/node/established``, 200 of them by
default), and from then on heartbeats every 10 s listing the sessions the hub issued
(``connections``: session, licence, protocol). Besides, clients log in at a steady rate (20/s,
each followed by established) on servers drawn at random; those sessions are not held, so the
server's next heartbeat drops them, as a client that connected and left. Servers keep beating
while the next ones are brought up, so none falls silent.

For each fleet size, over a measuring window (``--seconds``, after a warm-up in which every
server has beaten with its full list):

- hub CPU per heartbeat: the hub process's CPU time (``/proc/<pid>/stat``) over the window divided
  by the heartbeats answered in it. It includes all the hub does meanwhile — the steady logins,
  the status snapshot every second, the fleet probe — which cost the same at every size, so the
  growth of the figure is the heartbeats'; also the CPU of the PostgreSQL backends serving this
  database, per heartbeat. The window's first half has heartbeats alone (these figures come from
  it), the second adds the steady logins: the hub's CPU share then, and a login's CPU estimated as
  what the hub spent beyond its heartbeats (rough where heartbeats dominate);
- heartbeat and login latency p50/p99, as the simulated servers see them (the client runs on the
  same two cores, its CPU share is shown: read them as relative figures);
- the status snapshot refresh (user count + fleet, as bench/api.py measures it, in a process of
  its own beside the running fleet), and the database part of the hub's own refresh as the hub
  reports it (the status page's "activation-server" ping, whole ms);
- the database's size and the ``vpn_session`` table's;
- rows PostgreSQL read per heartbeat, per table (``pg_stat_user_tables``: sequential scans and
  the rows they read, index scans and the rows they fetched), the tell-tale of a query whose cost
  grows with the fleet.

Then a table of growth against the first (smallest) fleet: a heartbeat's cost should stay flat,
the snapshot grow at most as the fleet does.

The node API is called on the hub's own node listener when it has one (``VPNSITE_NODE_ADDRESS``
is given a free port; when nothing listens there, the main port is used). A hub's CPU is its
`vpnsite serve` process's and its node API process's together.

``--hubs 2``: two `vpnsite serve` processes (each with its node API process) on the one database,
sharing a data directory (the key ring the servers' tokens and the sessions are sealed with, as
hubs behind one balancer must). The simulated servers' calls — heartbeats, logins, established —
go to the hubs in turn, one request to the next hub (what a round-robin balancer passing each
request on does; done in the client, so no proxy process competes for the two cores). Each hub
gives PostgreSQL its name (``PGAPPNAME``), so its backends' CPU is told apart. Rows for each hub
and for both together (``all``): CPU per beat and per login, p50/p99, the hub's own snapshot
refresh, PostgreSQL CPU. At the end, with the steady logins paused, the limits are probed with
every call spread over the hubs: one licence logs in on twenty servers at the same moment (the
device limit admits exactly ten), and wrong codes for one address are fired at one server (its
ceiling: ten a minute) and over twenty (the fleet's: a hundred) — exact or NOT EXACT is printed.

Usage: ``python bench/fleet.py [--servers 50,100,250,500] [--licences 1000000] [--seconds 60]
[--sessions 200] [--logins-per-second 20] [--hubs 1] [--py-spy DIR] [--explain]``; ``--quick`` (10⁵
licences, 50 and 100 servers holding 100 sessions each, 20 s windows) takes about three minutes
(``--quick --sessions 200``: full-size heartbeats, about four). ``--py-spy DIR``
samples the hub during each window's first half (py-spy must be installed: ``pip install py-spy``)
and prints where its time goes, in ms per heartbeat; ``--explain`` replays one heartbeat and one
login at the largest fleet through the hub's own app and prints EXPLAIN ANALYZE of every statement
they send. Needs the PostgreSQL of the tests. Setting up 500 servers makes 100,000 logins: the full
run takes 20-30 minutes on two cores.
"""

from __future__ import annotations

import argparse
import collections
import heapq
import http.client
import io
import itertools
import json
import os
import queue
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import peewee
import psycopg2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import free_port, fresh_postgres, snapshot_refresh_ms, vpnsite  # noqa: E402

from vpnsite.codes import luhn_check_digit  # noqa: E402
from vpnsite.emails import mailbox_key, normalise_email  # noqa: E402
from vpnsite.fleet import Location  # noqa: E402
from vpnsite.keyed_hashes import Keyring  # noqa: E402
from vpnsite.server_tokens import issue_server_token  # noqa: E402
from vpnsite.vpn_access import MAX_SESSIONS  # noqa: E402
from vpnsite.vpn_login_limits import ACROSS_FLEET, PER_SERVER  # noqa: E402
from vpnsite_adapters.protection.keyring_file import file_keyring  # noqa: E402
from vpnsite_adapters.runtime.clock_and_random import SystemRandom  # noqa: E402
from vpnsite_adapters.settings import load_settings  # noqa: E402
from vpnsite_adapters.sql.database import to_db  # noqa: E402
from vpnsite_adapters.sql.store import SqlStore  # noqa: E402

THREADS = 8
BEAT_SECONDS = 10.0
BEAT_WORKERS = 8
LOGIN_WORKERS = 4
SETUP_WORKERS = 6
LOGIN_POOL = 3000
TABLES = ("vpn_server", "vpn_session", "licence", "user_end", "user_tally")
SETTINGS = {
    "rate_limits": "off",
    "access_log": "false",
    "free_tier_cap": "100000000",
    "seed_default_fleet": "false",
    "db_pool_size": str(THREADS + 8),
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --- the population ----------------------------------------------------------------------------


def activation_code(n: int) -> str:
    payload = f"7{n:018d}"
    return payload + luhn_check_digit(payload)


def seed(url: str, keys: Keyring, total: int, known: int) -> list[tuple[str, str]]:
    """``total`` live licences, one address each, written with COPY; the first ``known`` have codes
    this bench knows (hashed with the hub's key ring), the rest are filler. Their e-mails and codes."""
    current = keys.current
    now = datetime.now(UTC)
    starts_at, ends_at = to_db(now), to_db(now + timedelta(days=90))
    accounts: list[tuple[str, str]] = []
    connection = psycopg2.connect(url)
    batch = 100_000
    with connection, connection.cursor() as cursor:
        for first in range(0, total, batch):
            licences, ends = io.StringIO(), io.StringIO()
            for n in range(first, min(total, first + batch)):
                if n < known:
                    email = f"fleet{n}@example.org"
                    code = activation_code(n)
                    code_hash = current.codes.hash(code)
                    accounts.append((email, code))
                else:
                    email = f"filler{n}@example.org"
                    code_hash = secrets.token_hex(32)
                key = mailbox_key(normalise_email(email))
                licences.write(
                    f"{secrets.token_hex(16)}\t{email}\t{key}\t{code_hash}\t{current.id}\t"
                    f"{starts_at}\t{ends_at}\ten\n"
                )
                ends.write(f"{key}\t{ends_at}\n")
            licences.seek(0)
            ends.seek(0)
            cursor.copy_expert(
                "COPY licence (id, email, email_key, code_hash, code_key, starts_at, ends_at, language)"
                " FROM STDIN",
                licences,
            )
            cursor.copy_expert("COPY user_end (email_key, ends_at) FROM STDIN", ends)
        cursor.execute(
            "INSERT INTO user_tally (stripe, users) VALUES (0, %s) "
            "ON CONFLICT (stripe) DO UPDATE SET users = user_tally.users + excluded.users",
            (total,),
        )
    connection.autocommit = True
    with connection.cursor() as cursor:
        # A production database has long been analysed by autovacuum; a fresh one has not.
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    return accounts


# --- talking to the hub ------------------------------------------------------------------------


class Client:
    """HTTP/1.1 keep-alive connections to the hubs' node listeners, one per thread and hub, cheap
    to call. With several hubs each request goes to the next one in turn: the load balancer, as
    a round-robin balancer passing each request on would spread them (no proxy between: it
    would be one more process on the same two cores)."""

    def __init__(self, bases: Sequence[str]) -> None:
        self.targets = [(urlsplit(base).hostname or "127.0.0.1", urlsplit(base).port or 80) for base in bases]
        self.turn = itertools.count()
        self.local = threading.local()

    def post(
        self, path: str, body: bytes, headers: dict[str, str], hub: int | None = None
    ) -> tuple[int, bytes, float, int]:
        """Status, body, seconds waited and the hub that answered (the next in turn unless
        ``hub`` is given); one retry on a connection the server closed."""
        if hub is None:
            hub = next(self.turn) % len(self.targets)
        connections: dict[int, http.client.HTTPConnection] = self.local.__dict__.setdefault("connections", {})
        for attempt in (1, 2):
            connection = connections.get(hub)
            if connection is None:
                host, port = self.targets[hub]
                connection = connections[hub] = http.client.HTTPConnection(host, port, timeout=30)
            try:
                started = time.perf_counter()
                connection.request("POST", path, body, headers)
                response = connection.getresponse()
                raw = response.read()
                waited = time.perf_counter() - started
                if response.will_close:
                    connection.close()
                    del connections[hub]
                return response.status, raw, waited, hub
            except (http.client.HTTPException, OSError):
                connection.close()
                connections.pop(hub, None)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def node_listener(base: str, port: int, seconds: float = 5.0) -> str:
    """The node listener's URL when the hub opened one on ``port``, else the main one. Only a TCP
    connection is tried: a call without a token would count against the caller's address."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    return base


class Server:
    """One simulated VPN server: its token, the sessions it holds and its heartbeat, ready to send."""

    def __init__(self, server_id: str, token: str) -> None:
        self.id = server_id
        self.token = token
        self.headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        self.held: list[tuple[str, str]] = []
        self.body = self.beat_body()

    def beat_body(self) -> bytes:
        return json.dumps(
            {
                "cpu_load": 35.0,
                "bandwidth_mbps": 2.5 * len(self.held),
                "sessions": len(self.held),
                "service_up": True,
                "connections": [
                    {"session": session, "licence": licence, "protocol": "udp"}
                    for session, licence in self.held
                ],
            },
            separators=(",", ":"),
        ).encode()


Answered = tuple[float, float, bool, int]
"""A call's finishing moment, seconds waited, whether it succeeded, and the hub that answered."""


class Recorder:
    """What the hubs answered, with when."""

    def __init__(self) -> None:
        self.beats: list[Answered] = []
        self.logins: list[Answered] = []
        self.ends_asked = 0
        self.beat_errors: collections.Counter[str] = collections.Counter()
        self.login_errors: collections.Counter[str] = collections.Counter()
        self.most_late = 0.0

    @staticmethod
    def within(samples: list[Answered], start: float, stop: float, hub: int | None = None) -> list[float]:
        """Seconds waited by the calls that succeeded between ``start`` and ``stop`` (on ``hub``)."""
        return [
            waited for at, waited, ok, by in list(samples) if ok and start <= at < stop and hub in (None, by)
        ]


def log_in(client: Client, server: Server, email: str, code: str) -> tuple[str, str, float, int]:
    """A client's login on ``server`` and its established (each on the hub next in turn); the
    session, its licence, the login's own wait and the hub that admitted it."""
    body = json.dumps({"username": email, "password": code, "protocol": "udp"}).encode()
    status, raw, waited, hub = client.post("/api/node/login", body, server.headers)
    answer = json.loads(raw) if raw.startswith(b"{") else {}
    if status != 200 or not answer.get("admitted"):
        raise RuntimeError(f"login refused ({status}): {raw[:200]!r}")
    session = str(answer["session"])
    status, raw, _, _ = client.post(
        "/api/node/established", json.dumps({"session": session}).encode(), server.headers
    )
    if status != 200 or json.loads(raw).get("known") is not True:
        raise RuntimeError(f"established not taken ({status}): {raw[:200]!r}")
    return session, str(answer["licence"]), waited, hub


class Heartbeats:
    """Every server beats every ``BEAT_SECONDS``, each at its own phase; worker threads send."""

    def __init__(self, client: Client, recorder: Recorder) -> None:
        self.client = client
        self.recorder = recorder
        self.due: list[tuple[float, int, Server]] = []
        self.condition = threading.Condition()
        self.ready: queue.Queue[tuple[float, Server] | None] = queue.Queue()
        self.stopping = threading.Event()
        self.count = 0
        self.threads = [threading.Thread(target=self._schedule, daemon=True)] + [
            threading.Thread(target=self._send, daemon=True) for _ in range(BEAT_WORKERS)
        ]
        for thread in self.threads:
            thread.start()

    def add(self, server: Server, first: float) -> None:
        with self.condition:
            self.count += 1
            heapq.heappush(self.due, (first, self.count, server))
            self.condition.notify()

    def stop(self) -> None:
        self.stopping.set()
        with self.condition:
            self.condition.notify()
        for _ in range(BEAT_WORKERS):
            self.ready.put(None)

    def _schedule(self) -> None:
        while not self.stopping.is_set():
            with self.condition:
                if not self.due:
                    self.condition.wait(1.0)
                    continue
                at, n, server = self.due[0]
                wait = at - time.monotonic()
                if wait > 0:
                    self.condition.wait(min(wait, 1.0))
                    continue
                heapq.heapreplace(self.due, (at + BEAT_SECONDS, n, server))
            self.ready.put((at, server))

    def _send(self) -> None:
        while (item := self.ready.get()) is not None:
            if self.stopping.is_set():
                continue  # a backlog of beats the client fell behind on: not sent
            due, server = item
            self.recorder.most_late = max(self.recorder.most_late, time.monotonic() - due)
            try:
                status, raw, waited, hub = self.client.post(
                    "/api/node/heartbeat", server.body, server.headers
                )
            except (http.client.HTTPException, OSError) as error:
                self.recorder.beat_errors[type(error).__name__] += 1
                continue
            ok = status == 200
            if ok:
                ended = json.loads(raw).get("end") or []
                self.recorder.ends_asked += len(ended)
            else:
                self.recorder.beat_errors[str(status)] += 1
            self.recorder.beats.append((time.monotonic(), waited, ok, hub))


class Logins:
    """Clients logging in at a steady rate (open loop) on servers drawn at random, each login
    followed by established; the accounts are taken in turn from a pool of their own."""

    def __init__(
        self,
        client: Client,
        recorder: Recorder,
        servers: list[Server],
        pool: list[tuple[str, str]],
        rate: float,
    ) -> None:
        self.client, self.recorder, self.servers, self.rate = client, recorder, servers, rate
        self.pool = pool
        self.next_account = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.paused = threading.Event()
        self.executor = ThreadPoolExecutor(LOGIN_WORKERS, thread_name_prefix="login")
        self.thread = threading.Thread(target=self._pace, daemon=True)
        if rate > 0:
            self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join()
        # Logins the client fell behind on are dropped, not sent to a hub that is stopping.
        self.executor.shutdown(wait=True, cancel_futures=True)

    def _pace(self) -> None:
        at = time.monotonic()
        while not self.stopping.is_set():
            at += 1 / self.rate
            pause = at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            if self.servers and not self.paused.is_set():
                self.executor.submit(self._one)

    def _one(self) -> None:
        with self.lock:
            email, code = self.pool[self.next_account % len(self.pool)]
            self.next_account += 1
        server = random.choice(self.servers)
        try:
            _, _, waited, hub = log_in(self.client, server, email, code)
        except (RuntimeError, http.client.HTTPException, OSError, ValueError) as error:
            self.recorder.login_errors[str(error)[:60]] += 1
            return
        self.recorder.logins.append((time.monotonic(), waited, True, hub))


@contextmanager
def probe_target() -> Iterator[int]:
    """A port that accepts and closes connections: the servers' address, so the hub's fleet
    probe (a TCP connect to every server every 10 s) finds them up, as it would real ones."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=512)
    stopping = threading.Event()

    def accept() -> None:
        listener.settimeout(0.5)
        while not stopping.is_set():
            try:
                connection, _ = listener.accept()
                connection.close()
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stopping.set()
        thread.join()
        listener.close()


# --- measuring ---------------------------------------------------------------------------------


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process, all its threads."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (the hub's node API process)."""
    found = []
    with suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as file:
                found += [int(child) for child in file.read().split()]
    return found


@dataclass(frozen=True)
class HubProcess:
    """One `vpnsite serve`: its main listener, where its node API answers, its pid, and the
    name its database connections give PostgreSQL (``application_name``)."""

    name: str
    base: str
    node: str
    pid: int

    @property
    def application(self) -> str:
        return f"fleet-hub-{self.name}"

    def cpu(self) -> float:
        """CPU seconds of the hub and its node API process together (a node process started
        again counts from its start)."""
        total = process_cpu(self.pid)
        for child in children(self.pid):
            with suppress(OSError):
                total += process_cpu(child)
        return total

    def resident_mb(self) -> float:
        return sum(resident_mb(pid) for pid in (self.pid, *children(self.pid)))


@dataclass(frozen=True)
class Sample:
    """The counters at one moment: each hub's CPU seconds, the database's backends' (by pid,
    with the application each serves), and PostgreSQL's table statistics."""

    at: float
    hubs: tuple[float, ...]
    client: float
    backends: dict[int, tuple[str, float]]
    tables: dict[str, tuple[int, ...]]


def backends_cpu(before: Sample, after: Sample, application: str | None = None) -> float:
    """CPU seconds the database's backends (those of ``application``) spent between two samples
    (a backend opened in between counts from its start)."""
    return sum(
        cpu - before.backends.get(pid, (name, 0.0))[1]
        for pid, (name, cpu) in after.backends.items()
        if application in (None, name)
    )


def resident_mb(pid: int) -> float:
    with suppress(OSError), open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Database:
    """The bench's own look at the database: its backends' CPU, table statistics, sizes."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg2.connect(url)
        self.connection.autocommit = True

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows

    def backends_cpu(self) -> dict[int, tuple[str, float]]:
        rows = self.query(
            "SELECT pid, application_name FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        found = {}
        for pid, application in rows:
            with suppress(OSError):
                found[pid] = (application, process_cpu(pid))
        return found

    def table_stats(self) -> dict[str, tuple[int, ...]]:
        rows = self.query(
            "SELECT relname, seq_scan, seq_tup_read, COALESCE(idx_scan, 0), COALESCE(idx_tup_fetch, 0),"
            " n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE relname = ANY(%s)",
            (list(TABLES),),
        )
        return {row[0]: tuple(int(value) for value in row[1:]) for row in rows}

    def sizes(self) -> tuple[float, float]:
        ((database, sessions),) = self.query(
            "SELECT pg_database_size(current_database()), pg_total_relation_size('vpn_session')"
        )
        return database / 2**20, sessions / 2**20

    def close(self) -> None:
        self.connection.close()


def snapshot_ms(url: str, refreshes: int = 20) -> float:
    """The status snapshot's refresh (user count + fleet) on the hub's database, as bench/api.py
    measures it, in a process of its own: in this one it would wait on the simulated servers'
    threads for the GIL."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--snapshot-of",
        url,
        "--refreshes",
        str(refreshes),
    ]
    return float(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def hub_snapshot_database_ms(base: str, reads: int = 5) -> float:
    """The database part of the hub's own refresh, as it reports it (the status page's
    "activation-server" ping), read once a second."""
    found = []
    for n in range(reads):
        if n:
            time.sleep(1.0)
        with urllib.request.urlopen(base + "/api/server-status", timeout=10) as response:  # noqa: S310
            status = json.loads(response.read())
        found += [
            entry["ping"]
            for entry in status.get("system_servers", [])
            if entry.get("id") == "activation-server"
        ]
    return statistics.median(found) if found else float("nan")


def py_spy_summary(path: Path, beats: int, rate: int, top: int = 22) -> list[str]:
    """Where the hub's sampled time went, inclusive, in ms per heartbeat: the functions of the
    project and the database driver, the largest first."""
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        samples = int(count)
        total += samples
        seen = set()
        for frame in stack.split(";"):
            name, _, where = frame.partition(" (")
            file = where.split(":")[0]
            if "vpnsite" not in file and "psycopg2" not in file and "peewee" not in file:
                continue
            short = f"{name} ({file.split('site-packages/')[-1].split('/main/')[-1]})"
            if short not in seen:
                seen.add(short)
                inclusive[short] += samples
    scale = 1000 / rate / max(1, beats)
    lines = [f"    {total * scale:7.2f} ms/beat  all samples ({total} at {rate} Hz)"]
    lines += [f"    {samples * scale:7.2f} ms/beat  {name}" for name, samples in inclusive.most_common(top)]
    return lines


# --- the run -----------------------------------------------------------------------------------


class Fleet:
    """The hub, the simulated servers and the measurements, one fleet size after another."""

    def __init__(
        self,
        args: argparse.Namespace,
        env: dict[str, str],
        url: str,
        hubs: Sequence[HubProcess],
        keys: Keyring,
    ) -> None:
        self.args = args
        self.env = env
        self.url = url
        self.hubs = list(hubs)
        self.keys = keys
        self.store = SqlStore.open(url, max_connections=4, run_migrations=False)
        self.db = Database(url)
        self.client = Client([hub.node for hub in hubs])
        self.recorder = Recorder()
        self.servers: list[Server] = []
        self.beats = Heartbeats(self.client, self.recorder)
        self.logins: Logins | None = None
        self.rows: list[dict[str, Any]] = []
        self.reads: list[tuple[int, str, list[float]]] = []

    def close(self) -> None:
        if self.logins is not None:
            self.logins.stop()
        self.beats.stop()
        self.db.close()
        self.store.close()

    def register(self, count: int, probe_port: int) -> list[Server]:
        """New servers as `vpnsite vpn add-server` makes them: a row and a token (no certificate:
        the node API needs none)."""
        made = []
        random_source = SystemRandom()
        with self.store.unit_of_work.atomic():
            for n in range(len(self.servers), len(self.servers) + count):
                server_id = f"fleet-{n:04d}"
                location = Location(server_id, "Netherlands", "nl", f"City {n}")
                if not self.store.fleet.add_server(location, "127.0.0.1", probe_port, None):
                    raise RuntimeError(f"{server_id} exists")
                token = issue_server_token(self.store.fleet, server_id, self.keys, random_source)
                assert token is not None
                made.append(Server(server_id, token))
        return made

    def bring_up(self, server: Server, accounts: Sequence[tuple[str, str]]) -> None:
        """First beat (nothing held: a server heard for the first time has its sessions dropped),
        then its clients log in, then it beats with them from a random phase on."""
        status, raw, _, hub = self.client.post("/api/node/heartbeat", server.body, server.headers)
        if status == 404 and self.hubs[hub].node != self.hubs[hub].base:
            raise RuntimeError("the node listener does not serve the node API")
        if status != 200:
            raise RuntimeError(f"first heartbeat of {server.id}: {status} {raw[:200]!r}")
        for email, code in accounts:
            session, licence, _, _ = log_in(self.client, server, email, code)
            server.held.append((session, licence))
        server.body = server.beat_body()
        self.beats.add(server, time.monotonic() + random.uniform(0, BEAT_SECONDS))
        self.servers.append(server)

    def grow(self, size: int, accounts: list[tuple[str, str]], probe_port: int) -> None:
        started = time.monotonic()
        new = self.register(size - len(self.servers), probe_port)
        per = self.args.sessions
        first = len(self.servers)
        with ThreadPoolExecutor(SETUP_WORKERS, thread_name_prefix="setup") as pool:
            jobs = [
                pool.submit(self.bring_up, server, accounts[(first + i) * per : (first + i + 1) * per])
                for i, server in enumerate(new)
            ]
            for job in jobs:
                job.result()
        print(
            f"  {size} servers up ({len(new) * per:,} logins in {time.monotonic() - started:.0f} s)",
            flush=True,
        )

    def sample(self) -> Sample:
        return Sample(
            time.monotonic(),
            tuple(hub.cpu() for hub in self.hubs),
            process_cpu(os.getpid()),
            self.db.backends_cpu(),
            self.db.table_stats(),
        )

    def measure(self, size: int) -> None:
        """Two halves: heartbeats alone (what a beat costs), then with the steady logins (the
        latencies, and what a login costs besides); a row for each hub, and for them together."""
        args = self.args
        half = args.seconds / 2
        assert self.logins is not None
        self.logins.paused.set()
        time.sleep(BEAT_SECONDS + 2)  # every server has beaten with its whole list, and dropped the logins'
        spy = self.start_py_spy(size, half) if args.py_spy else None
        alone = self.sample()
        time.sleep(half)
        mixed = self.sample()
        self.logins.paused.clear()
        time.sleep(half)
        end = self.sample()
        snapshot = snapshot_ms(self.url)
        database_mb, sessions_mb = self.db.sizes()
        sessions = sum(len(server.held) for server in self.servers)
        # The database part of each hub's own refresh, as its status page tells it.
        refreshes = [hub_snapshot_database_ms(hub.base) for hub in self.hubs]
        views: list[tuple[str, int | None, str | None]] = [
            (hub.name, n, hub.application) for n, hub in enumerate(self.hubs)
        ]
        if len(self.hubs) > 1:
            views.append(("all", None, None))
        for name, hub, application in views:

            def cpu(sample: Sample, hub: int | None = hub) -> float:
                return sum(sample.hubs) if hub is None else sample.hubs[hub]

            within = self.recorder.within
            beats_alone = within(self.recorder.beats, alone.at, mixed.at, hub)
            beats_mixed = within(self.recorder.beats, mixed.at, end.at, hub)
            logins = within(self.recorder.logins, mixed.at, end.at, hub)
            served = max(1, len(beats_alone))
            hub_ms = (cpu(mixed) - cpu(alone)) * 1000 / served
            login_ms = ((cpu(end) - cpu(mixed)) * 1000 - hub_ms * len(beats_mixed)) / max(1, len(logins))
            beats = beats_alone + beats_mixed
            chosen = self.hubs if hub is None else [self.hubs[hub]]
            row = {
                "servers": size,
                "hub": name,
                "sessions": sessions,
                "beats": len(beats_alone),
                "beats_per_s": len(beats_alone) / (mixed.at - alone.at),
                "hub_ms": hub_ms,
                "pg_ms": backends_cpu(alone, mixed, application) * 1000 / served,
                "pg_share": backends_cpu(alone, end, application) / (end.at - alone.at) * 100,
                "hub_share": (cpu(end) - cpu(mixed)) / (end.at - mixed.at) * 100,
                "login_ms": login_ms,
                "client_share": (end.client - alone.client) / (end.at - alone.at) * 100,
                "beat_p50": percentile(beats, 0.5) * 1000,
                "beat_p99": percentile(beats, 0.99) * 1000,
                "logins": len(logins),
                "login_p50": percentile(logins, 0.5) * 1000,
                "login_p99": percentile(logins, 0.99) * 1000,
                "snapshot_ms": snapshot,
                "hub_snapshot_db_ms": max(refreshes) if hub is None else refreshes[hub],
                "database_mb": database_mb,
                "sessions_mb": sessions_mb,
                "hub_mb": sum(one.resident_mb() for one in chosen),
            }
            self.rows.append(row)
            print(
                f"  {size} servers, hub {name}: heartbeats alone {len(beats_alone)}"
                f" ({row['beats_per_s']:.1f}/s), hub {hub_ms:.2f} ms CPU/beat, PostgreSQL"
                f" {row['pg_ms']:.2f} ms/beat; with {len(logins)} logins: hub {row['hub_share']:.0f} %"
                f" of a core, {login_ms:.2f} ms CPU/login; beat p99 {row['beat_p99']:.1f} ms, login p99"
                f" {row['login_p99']:.1f} ms",
                flush=True,
            )
        served = max(1, len(self.recorder.within(self.recorder.beats, alone.at, mixed.at)))
        for table in TABLES:
            before, after = alone.tables.get(table), mixed.tables.get(table)
            if before and after:
                per_beat = [(a - b) / served for a, b in zip(after, before, strict=True)]
                self.reads.append((size, table, per_beat))
        print(f"  latest beat sent {self.recorder.most_late:.2f} s late", flush=True)
        self.recorder.most_late = 0.0
        if spy is not None:
            process, path = spy
            process.wait(timeout=half + 30)
            if path.exists():
                print("  py-spy (heartbeats alone), inclusive time holding the GIL, ms per heartbeat:")
                print("\n".join(py_spy_summary(path, served, args.py_spy_rate)), flush=True)

    def start_py_spy(self, size: int, seconds: float) -> tuple[subprocess.Popen[bytes], Path]:
        path = Path(self.args.py_spy) / f"hub-{size}.txt"
        command = [
            self.args.py_spy_bin,
            "record",
            "--pid",
            str(self.hubs[0].pid),
            "--duration",
            str(max(1, int(seconds))),
            "--rate",
            str(self.args.py_spy_rate),
            # Samples of the thread holding the GIL only: the hub's own CPU, not its waits.
            "--gil",
            # The node API's process, where the heartbeats are answered.
            "--subprocesses",
            "--nonblocking",
            "--format",
            "raw",
            "--output",
            str(path),
        ]
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), path

    def explain(self) -> None:
        """One heartbeat and one login replayed in this process through the hub's own app, built
        from the hub's settings (the same code, whatever its stores look like), with every
        statement they send captured; then EXPLAIN ANALYZE of each."""
        from vpnsite_adapters.bootstrap import build_hub
        from vpnsite_adapters.http.app import create_app

        hub = build_hub(load_settings(environ=self.env, env_file=None))
        try:
            client = create_app(hub.services).test_client()
            server = self.servers[len(self.servers) // 2]
            local = {"REMOTE_ADDR": "127.0.0.1"}

            def call(path: str, body: bytes) -> Any:
                response = client.post(path, data=body, headers=server.headers, environ_base=local)
                if response.status_code != 200:
                    raise RuntimeError(f"{path}: {response.status_code} {response.data[:200]!r}")
                return response.get_json()

            timings = []
            for _ in range(20):
                started = time.perf_counter()
                call("/api/node/heartbeat", server.body)
                timings.append((time.perf_counter() - started) * 1000)
            beat: list[tuple[str, Any]] = []
            with capture_sql(beat):
                call("/api/node/heartbeat", server.body)
            email, code = self.logins.pool[0] if self.logins else ("", "")
            login: list[tuple[str, Any]] = []
            with capture_sql(login):
                answer = call("/api/node/login", json.dumps({"username": email, "password": code}).encode())
                call("/api/node/established", json.dumps({"session": answer.get("session", "")}).encode())
        finally:
            hub.close()
        print(
            f"\none heartbeat of {server.id} ({len(server.held)} connections, {len(self.servers)} servers,"
            f" {sum(len(s.held) for s in self.servers):,} sessions) replayed in the bench's process:"
            f" {statistics.median(timings):.2f} ms (median of 20, wall), {len(beat)} statements"
        )
        self.explain_statements(beat)
        print(f"\none login and its established, replayed: {len(login)} statements")
        self.explain_statements(login)

    def explain_statements(self, statements: list[tuple[str, Any]]) -> None:
        with self.db.connection.cursor() as cursor:
            for sql, params in statements:
                statement = cursor.mogrify(sql, params).decode()
                shown = shorten(statement)
                verb = statement.lstrip().split(None, 1)[0].upper()
                if verb not in ("SELECT", "UPDATE", "INSERT", "DELETE", "WITH"):
                    print(f"\n  {shown}")
                    continue
                # Writes are explained in a transaction rolled back: EXPLAIN ANALYZE runs them.
                cursor.execute("BEGIN")
                try:
                    cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement)
                    plan = [line for (line,) in cursor.fetchall()]
                finally:
                    cursor.execute("ROLLBACK")
                print(f"\n  {shown}")
                print("\n".join("      " + shorten(line) for line in plan))


@contextmanager
def capture_sql(into: list[tuple[str, Any]]) -> Iterator[None]:
    """Every statement peewee sends from this thread, with its parameters."""
    original: Callable[..., Any] = peewee.Database.execute_sql
    me = threading.get_ident()

    def spy(self: peewee.Database, sql: str, params: Any = None, *rest: Any, **named: Any) -> Any:
        if threading.get_ident() == me:
            into.append((sql, params))
        return original(self, sql, params, *rest, **named)

    peewee.Database.execute_sql = spy  # type: ignore[method-assign]
    try:
        yield
    finally:
        peewee.Database.execute_sql = original  # type: ignore[method-assign]


def shorten(text: str, limit: int = 300) -> str:
    """A statement or plan line without its long lists of ids."""
    text = re.sub(r"\(('[^']*'(, )?){4,}\)", "(…)", text)
    text = re.sub(r"'\{[^}]{80,}\}'", "'{…}'", text)
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= limit else text[:limit] + " …"


Answer = tuple[int, bytes, float, int]


def fire(calls: Sequence[Callable[[], Answer]]) -> list[str]:
    """Every call at the same moment, each in a thread of its own; what each answered: ``admitted``
    or the reason given for a refusal."""
    barrier = threading.Barrier(len(calls))

    def one(call: Callable[[], Answer]) -> str:
        barrier.wait()
        status, raw, _, _ = call()
        answer = json.loads(raw) if raw.startswith(b"{") else {}
        return "admitted" if status == 200 and answer.get("admitted") else str(answer.get("reason", status))

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


def probe_limits(fleet: Fleet, account: tuple[str, str]) -> list[str]:
    """Whether the device limit and the wrong-code ceilings of the VPN login hold exactly with the
    calls spread over every hub: one licence logging in on twice as many servers as it may use
    at the same moment, half on each hub; wrong codes for one address on one server past its
    ceiling, then over twenty servers past the fleet's, every call on the hub next in turn."""
    hubs = len(fleet.hubs)
    servers = random.sample(fleet.servers, 2 * MAX_SESSIONS)
    email, code = account

    def login(server: Server, password: str, n: int, who: str = email) -> Callable[[], Answer]:
        body = json.dumps({"username": who, "password": password, "protocol": "udp"}).encode()
        return lambda: fleet.client.post("/api/node/login", body, server.headers, n % hubs)

    # Each server beats first: a server the hub has not heard from lately is taken for down, and
    # the places its sessions held are free (what a fleet the client cannot keep beating shows).
    for server in servers:
        fleet.client.post("/api/node/heartbeat", server.body, server.headers)
    said = []
    answers = fire([login(server, code, n) for n, server in enumerate(servers)])
    admitted = answers.count("admitted")
    said.append(
        f"device limit across {hubs} hub(s): {admitted} of {len(answers)} simultaneous logins of one"
        f" licence admitted (limit {MAX_SESSIONS}: {'exact' if admitted == MAX_SESSIONS else 'NOT EXACT'});"
        f" the rest: {dict(collections.Counter(a for a in answers if a != 'admitted'))}"
    )
    wrong = "0" * len(code)
    for ceiling, spread, calls in (
        (PER_SERVER, servers[:1], PER_SERVER.limit * 2),
        (ACROSS_FLEET, servers, ACROSS_FLEET.limit + ACROSS_FLEET.limit // 2),
    ):
        who = f"guessed-{ceiling.limit}-{secrets.token_hex(4)}@example.org"
        answers = fire([login(spread[n % len(spread)], wrong, n, who) for n in range(calls)])
        judged = answers.count("bad_credentials")
        said.append(
            f"wrong codes for one address on {len(spread)} server(s) across {hubs} hub(s): {judged} of"
            f" {calls} judged (ceiling {ceiling.limit} a minute:"
            f" {'exact' if judged == ceiling.limit else 'NOT EXACT'}), {answers.count('rate_limited')}"
            " refused until it has room"
        )
    return said


COLUMNS = (
    ("servers", "servers", "{:,}"),
    ("hub", "hub", "{}"),
    ("sessions", "sessions", "{:,}"),
    ("beats/s", "beats_per_s", "{:.1f}"),
    ("hub ms/beat", "hub_ms", "{:.2f}"),
    ("pg ms/beat", "pg_ms", "{:.2f}"),
    ("pg %CPU", "pg_share", "{:.0f}"),
    ("hub ms/login", "login_ms", "{:.2f}"),
    ("hub %CPU", "hub_share", "{:.0f}"),
    ("client %CPU", "client_share", "{:.0f}"),
    ("beat p50", "beat_p50", "{:.1f}"),
    ("beat p99", "beat_p99", "{:.1f}"),
    ("logins", "logins", "{:,}"),
    ("login p50", "login_p50", "{:.1f}"),
    ("login p99", "login_p99", "{:.1f}"),
    ("snapshot ms", "snapshot_ms", "{:.2f}"),
    ("hub's snapshot db ms", "hub_snapshot_db_ms", "{:.0f}"),
    ("db MB", "database_mb", "{:,.0f}"),
    ("sessions MB", "sessions_mb", "{:.1f}"),
    ("hub RSS MB", "hub_mb", "{:.0f}"),
)
GROWTH = (
    "hub_ms",
    "pg_ms",
    "login_ms",
    "beat_p50",
    "beat_p99",
    "login_p50",
    "login_p99",
    "snapshot_ms",
    "database_mb",
)
READS = ("seq scans", "seq rows", "idx scans", "idx rows", "inserts", "updates", "deletes")


def print_table(heading: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(text) for text in column) for column in zip(heading, *rows, strict=True)]
    for line in (heading, *rows):
        print("  ".join(text.rjust(width) for text, width in zip(line, widths, strict=True)))


def print_tables(rows: list[dict[str, Any]], reads: list[tuple[int, str, list[float]]]) -> None:
    print(
        "\nfleet simulation: ms/beat from the half window of heartbeats alone; hub %CPU, ms/login and"
        "\nlogin latencies from the half with the steady logins; beat latencies over both (ms, as the"
        "\nsimulated servers saw them)"
    )
    print_table(
        [heading for heading, _, _ in COLUMNS],
        [[form.format(row[key]) for _, key, form in COLUMNS] for row in rows],
    )
    # The hubs together (the only one, with one hub): what the fleet costs.
    rows = [row for row in rows if row["hub"] == "all"] or rows
    first = rows[0]
    print(
        f"\ngrowth against {first['servers']} servers (a heartbeat's and a login's cost should stay at 1.0)"
    )
    names = {key: heading for heading, key, _ in COLUMNS}
    print_table(
        ["servers", "fleet ×", *(names[key] for key in GROWTH)],
        [
            [
                f"{row['servers']:,}",
                f"{row['servers'] / first['servers']:.1f}",
                *(f"{row[key] / first[key]:.2f}" if first[key] else "-" for key in GROWTH),
            ]
            for row in rows
        ],
    )
    print("\nPostgreSQL's work per heartbeat, by table (all the hub did while heartbeats ran alone)")
    print_table(
        ["servers", "table", *READS],
        [[f"{size:,}", table, *(f"{value:.2f}" for value in values)] for size, table, values in reads],
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--servers", default="50,100,250,500", help="fleet sizes, ascending (default 50,100,250,500)"
    )
    parser.add_argument("--licences", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=60, help="measuring window per fleet size")
    parser.add_argument(
        "--sessions", type=int, help="sessions each server holds (default 200; 100 with --quick)"
    )
    parser.add_argument("--logins-per-second", type=float, default=20)
    parser.add_argument(
        "--hubs", type=int, default=1, help="`vpnsite serve` processes sharing the database (default 1)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="10^5 licences, 50 and 100 servers, 20 s windows"
    )
    parser.add_argument("--py-spy", metavar="DIR", help="sample the hub with py-spy in each window, into DIR")
    parser.add_argument("--py-spy-rate", type=int, default=100, help="samples per second")
    parser.add_argument(
        "--explain", action="store_true", help="EXPLAIN ANALYZE a heartbeat's queries at the end"
    )
    parser.add_argument("--snapshot-of", help=argparse.SUPPRESS)
    parser.add_argument("--refreshes", type=int, default=20, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.snapshot_of:
        print(snapshot_refresh_ms(args.snapshot_of, args.refreshes))
        return 0
    if args.quick:
        args.servers, args.licences, args.seconds = "50,100", 100_000, 20
    if args.sessions is None:
        args.sessions = 100 if args.quick else 200
    sizes = sorted({int(size) for size in args.servers.split(",")})
    if args.py_spy:
        args.py_spy_bin = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        if not Path(args.py_spy_bin).exists():
            parser.error("py-spy is not installed (pip install py-spy)")
        Path(args.py_spy).mkdir(parents=True, exist_ok=True)
    # The held sessions' accounts, the probe's licence, the steady logins' pool.
    known = sizes[-1] * args.sessions + 1 + LOGIN_POOL
    if args.licences < known:
        print(f"{known:,} licences are needed to log in: seeding that many")
        args.licences = known

    found: dict[str, Any] = {}

    with fresh_postgres() as url, probe_target() as probe_port, ExitStack() as running:

        def prepare(env: dict[str, str]) -> None:
            found["env"] = env
            settings = load_settings(environ=env, env_file=None)
            found["keys"] = file_keyring(settings.data_dir, settings.secret_key)
            SqlStore.open(url).close()  # the schema, before the hub starts
            started = time.monotonic()
            found["accounts"] = seed(url, found["keys"], args.licences, known)
            print(f"  seeded {args.licences:,} licences in {time.monotonic() - started:.0f} s", flush=True)

        hubs: list[HubProcess] = []
        for name in "ABCDEFGH"[: args.hubs]:
            node_port = free_port()
            settings = {"node_address": f"127.0.0.1:{node_port}", **SETTINGS}
            if hubs:
                # The hubs share the first one's data directory: its key ring and secret.
                settings["data_dir"] = found["env"]["VPNSITE_DATA_DIR"]
            pids: list[int] = []
            base = running.enter_context(
                vpnsite(
                    url,
                    THREADS,
                    prepare=None if hubs else prepare,
                    started=lambda process, pids=pids: pids.append(process.pid),  # type: ignore[misc]
                    settings=settings,
                    environ={"PGAPPNAME": f"fleet-hub-{name}"},
                )
            )
            hub = HubProcess(name, base, node_listener(base, node_port), pids[0])
            where = "its own node listener" if hub.node != base else "the main port (no node listener)"
            print(f"  hub {name}: pid {hub.pid}, node API on {where}", flush=True)
            hubs.append(hub)
        accounts: list[tuple[str, str]] = found["accounts"]
        fleet = Fleet(args, found["env"], url, hubs, found["keys"])
        try:
            fleet.logins = Logins(
                fleet.client,
                fleet.recorder,
                fleet.servers,
                accounts[-LOGIN_POOL:],
                args.logins_per_second,
            )
            for size in sizes:
                fleet.grow(size, accounts, probe_port)
                fleet.measure(size)
            print_tables(fleet.rows, fleet.reads)
            recorder = fleet.recorder
            problems = {
                "heartbeat errors": dict(recorder.beat_errors),
                "login errors": dict(recorder.login_errors),
                "sessions the hub told servers to end": recorder.ends_asked,
            }
            print("\n" + "; ".join(f"{name}: {value or 'none'}" for name, value in problems.items()))
            fleet.logins.paused.set()
            print("\n" + "\n".join(probe_limits(fleet, accounts[-LOGIN_POOL - 1])))
            if args.explain:
                try:
                    fleet.explain()
                except Exception as error:  # noqa: BLE001 - a diagnosis, not the measurement
                    print(f"\nno EXPLAIN: the replay failed ({type(error).__name__}: {error})")
        finally:
            fleet.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
