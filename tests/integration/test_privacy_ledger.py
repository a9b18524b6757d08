"""The stores hold to the data inventory (``vpnsite.personal_data``) on SQLite and PostgreSQL: every
column of the live schema is declared; an erasure leaves nothing of the address beyond the columns
the inventory says it keeps, and no mail queued for it is ever sent; retention applies each rule at
its boundary as the core's predicate does."""

from __future__ import annotations

import itertools
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import peewee
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.integration.processes import vpnsite
from tests.integration.sql import execute_sql
from vpnsite.emails import mailbox_key
from vpnsite.fleet import Heartbeat, Location
from vpnsite.personal_data import INVENTORY, Elsewhere, columns, kept_by_erasure
from vpnsite.privacy import export_address, held_document
from vpnsite.rate_limits import DEFAULT_RULES, longest_window
from vpnsite.retention import (
    anonymises_licence,
    deletes_erasure_record,
    deletes_mail,
    deletes_rate_event,
    deletes_renewal_link,
    deletes_ticket,
    deletes_tunnel_address,
    erases_signup_ip,
    plan_retention,
    run_retention,
)
from vpnsite.tunnel_addresses import tunnel_address
from vpnsite_adapters.bootstrap import Hub, retained_files
from vpnsite_adapters.protection import erasure_journal
from vpnsite_adapters.settings import load_settings
from vpnsite_adapters.sql.database import from_db, to_db

SERVERS = ("nl-ams", "de-fra", "fr-par")
numbers = itertools.count()
clients = itertools.count(1)


def client_ip() -> str:
    """A new client, in a /24 of its own, for every call: the examples share one hub and its rate
    limits."""
    n = next(clients)
    return f"10.{n // 256 % 256}.{n % 256}.1"


def live_columns(db: peewee.Database) -> set[tuple[str, str]]:
    return {(table, column.name) for table in db.get_tables() for column in db.get_columns(table)}


def test_every_column_of_the_live_schema_is_declared_in_the_inventory(make_hub: Any) -> None:
    hub: Hub = make_hub()
    found = live_columns(hub.store.db)
    declared = set(columns())
    assert found - declared == set(), "declare these columns in vpnsite.personal_data"
    assert declared - found == set(), "the inventory names columns the schema does not have"


def test_each_stored_kind_names_a_retention_rule_of_the_core() -> None:
    for data in INVENTORY:
        if data.kept.by == "store" and data.kept.period is not None:
            assert data.kept.rule is not None, data.id


def test_every_file_the_service_keeps_is_swept_by_its_kinds_rule(tmp_path: Path) -> None:
    """A file the inventory names as kept by the store names what applies its retention, and that
    is wired: a new kind of file without one fails here."""
    settings = load_settings(
        {"VPNSITE_ERASURE_JOURNAL": str(tmp_path / "erasures.jsonl")},
        env_file=None,
        data_dir=tmp_path / "data",
    )
    wired = retained_files(settings)
    named = set()
    for data in INVENTORY:
        for place in data.held_in:
            if isinstance(place, Elsewhere) and place.place == "file" and data.kept.by == "store":
                assert place.retained_as in wired, f"{data.id}: {place.name} has no retention"
                named.add(place.retained_as)
    assert named == set(wired), "a retention wired for no file of the inventory"


def _fleet(hub: Hub) -> None:
    keys = hub.services.server_authentication.keys
    for server in SERVERS:
        if hub.store.fleet.add_server(
            Location(server, server.title(), "nl", "Amsterdam"), f"{server}.test", 1194, 443
        ):
            hub.store.fleet.set_token(server, keys.read().nodes(f"{server}-token").current)
            hub.store.fleet.set_wireguard(server, 51820, "c2VydmVyIGtleQ==")
        hub.services.fleet.heartbeat(server, Heartbeat(5.0, 10.0, 0, True))


@attrs.define
class Footprint:
    email: str
    licence_ids: list[str]
    ticket_numbers: list[str]


def leave_footprint(hub: Hub, email: str, plan: dict[str, Any]) -> Footprint:
    """Everything one address can leave: licences (one renewed by link), tickets, sessions on
    several servers, WireGuard addresses, mail queued and sent, rate events."""
    uses = hub.services
    _fleet(hub)
    ids, codes = [], []
    for _ in range(plan["licences"]):
        ip = client_ip()
        form = uses.signups.submit_email(email, ip, None)
        activation = uses.signups.create_user(form, ip)
        ids.append(activation.licence.id)
        codes.append(activation.code)
    tickets = [
        uses.support.open_ticket(email, codes[0], f"message {n} from {email}", client_ip()).number
        for n in range(plan["tickets"])
    ]
    for server in SERVERS[: plan["sessions"]]:
        uses.node_access.log_in(server, email, codes[0], "openvpn")
    for server in SERVERS[: plan["tunnels"]]:
        tunnel_address(hub.store.wireguard, ids[-1], server)
    if plan["sent"]:
        hub.mail.deliver_due()
    if plan["reminded"]:
        with hub.store.unit_of_work.atomic():
            hub.store.renewals.add_renewal_link(
                hub.services.licence_checks.keys.read().tokens(f"link-{email}").current,
                ids[0],
                uses.clock.now(),
            )
    return Footprint(email, ids, tickets)


def traces(hub: Hub, footprint: Footprint) -> set[tuple[str, str]]:
    """Every (table, column) that still holds the address, one of its keyed hashes or one of its
    licence ids."""
    key = mailbox_key(footprint.email)
    ring = hub.services.licence_checks.keys.read()
    wanted = {key, footprint.email, *ring.addresses(key).values, *footprint.licence_ids}
    db = hub.store.db
    found = set()
    for table in db.get_tables():
        names = [column.name for column in db.get_columns(table)]
        for row in execute_sql(db, f"SELECT {', '.join(names)} FROM {table}"):
            for name, value in zip(names, row, strict=True):
                if isinstance(value, str) and any(
                    part and part.casefold() in value.casefold() for part in wanted
                ):
                    found.add((table, name))
    return found


footprints = st.fixed_dictionaries(
    {
        "licences": st.integers(min_value=1, max_value=3),
        "tickets": st.integers(min_value=0, max_value=2),
        "sessions": st.integers(min_value=0, max_value=3),
        "tunnels": st.integers(min_value=0, max_value=3),
        "sent": st.booleans(),
        "reminded": st.booleans(),
    }
)


# Each example is a dozen use-case calls on a real database: no shrinking, the example is small.
SLOW = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)


@settings(SLOW, max_examples=8)
@given(footprints, footprints)
def test_erasure_leaves_only_what_the_inventory_declares(
    make_hub: Any, tmp_path: Path, plan: dict[str, Any], other: dict[str, Any]
) -> None:
    hub: Hub = getattr(make_hub, "hub", None) or make_hub()
    make_hub.hub = hub  # one hub for every example: addresses differ
    number = next(numbers)
    erased = leave_footprint(hub, f"Erase.Me.{number}@example.org", plan)
    kept = leave_footprint(hub, f"keep{number}@example.org", other)
    keys = hub.services.licence_checks.keys
    before = held_document(export_address(hub.store.privacy, keys, kept.email))
    outbox = hub.services.settings.data_dir / "outbox"
    sent_before = set(outbox.glob("*.eml")) if outbox.exists() else set()

    hub.services.erasures.erase(erased.email)

    assert traces(hub, erased) <= kept_by_erasure()
    assert held_document(export_address(hub.store.privacy, keys, kept.email)) == before
    # What waited for the erased address, handed to this process's sender or left in the queue, is
    # never sent; the other address's mail is.
    hub.mail.deliver_due()
    written = {
        path.read_text() for path in (set(outbox.glob("*.eml")) if outbox.exists() else set()) - sent_before
    }
    assert not [text[:600] for text in written if erased.email.casefold() in text.casefold()]
    journal = {record.address_hash for record in hub.store.privacy.erasures()}
    assert hub.services.erasures.journal_keys.current().hash(mailbox_key(erased.email)) in journal


def test_a_queued_mail_to_an_erased_address_is_never_sent(make_hub: Any) -> None:
    hub: Hub = make_hub()
    uses = hub.services
    uses.signups.create_user(uses.signups.submit_email("gone@example.org", None, None), None)
    uses.signups.create_user(uses.signups.submit_email("stays@example.org", None, None), None)
    uses.erasures.erase("gone@example.org")
    assert hub.mail.deliver_due() == (1, 0)
    outbox = uses.settings.data_dir / "outbox"
    [written] = [path.read_text() for path in outbox.glob("*.eml")]
    assert "stays@example.org" in written and "gone@example.org" not in written


def _at(moment: datetime, seconds: float) -> datetime:
    return moment + timedelta(seconds=seconds)


OFFSETS = st.sampled_from([-86400.0, -1.0, -0.000001, 0.0, 0.000001, 1.0, 86400.0])


@settings(SLOW, max_examples=12)
@given(OFFSETS, OFFSETS, st.booleans())
def test_each_retention_rule_holds_at_its_boundary_as_the_core_says(
    make_hub: Any, offset: float, other_offset: float, used: bool
) -> None:
    """Rows placed around each cut-off (a microsecond either side, and further): what the store
    keeps is exactly what the core's predicate keeps."""
    hub: Hub = getattr(make_hub, "hub", None) or make_hub()
    make_hub.hub = hub
    db, m = hub.store.db, hub.store.retention.models
    now = hub.services.clock.now() + timedelta(days=400 + next(numbers))
    plan = plan_retention(now, longest_window(DEFAULT_RULES))
    tag = f"b{next(numbers)}"
    ends = _at(plan.licences_ended_before, offset)
    live_end = _at(now, other_offset)
    with hub.store.unit_of_work.atomic():
        m.Licence.insert(
            id=f"{tag}-a",
            email=f"{tag}@example.org",
            email_key=f"{tag}@example.org",
            ip="192.0.2.9",
            code_hash=f"{tag}-a",
            starts_at=to_db(ends - timedelta(days=90)),
            ends_at=to_db(ends),
        ).execute()
        m.Licence.insert(
            id=f"{tag}-b",
            email=f"{tag}@example.org",
            email_key=f"{tag}@example.org",
            ip="192.0.2.10",
            code_hash=f"{tag}-b",
            starts_at=to_db(live_end - timedelta(days=90)),
            ends_at=to_db(live_end),
        ).execute()
        m.WgPeer.insert(
            licence_id=f"{tag}-a", server_id="nl-ams", address=f"10.{next(numbers) % 250}.0.2"
        ).execute()
        link_created = _at(plan.renewal_links_created_before, offset)
        m.RenewalLink.insert(
            token_hash=tag,
            licence_id=f"{tag}-a",
            created_at=to_db(link_created),
            used_at=to_db(link_created) if used else None,
        ).execute()
        closed = _at(plan.tickets_closed_before, offset)
        m.Ticket.insert(
            number=tag,
            email="t@example.org",
            email_key="t@example.org",
            message="m",
            created_at=to_db(closed - timedelta(days=1)),
            closed_at=to_db(closed),
        ).execute()
        created = _at(plan.mail_created_before, offset)
        m.MailQueue.insert(
            id=tag,
            kind="licence",
            payload=None,
            created_at=to_db(created),
            next_attempt_at=to_db(created) if used else None,
        ).execute()
        m.Erasure.insert(
            address_hash=tag, key_id=1, erased_at=to_db(_at(plan.erasures_before, offset))
        ).execute()
        m.RateEvent.insert(key=tag, at=to_db(_at(plan.rate_events_before, offset))).execute()

    run_retention(hub.store.retention, now, longest_window(DEFAULT_RULES))

    licence = m.Licence.get_by_id(f"{tag}-a")
    live = live_end > now
    assert (licence.email is None) == anonymises_licence(plan, from_db(licence.ends_at), live)
    assert (licence.ip is None) == erases_signup_ip(plan, ends)
    peer_gone = not m.WgPeer.select().where(m.WgPeer.licence_id == f"{tag}-a").exists()
    assert peer_gone == deletes_tunnel_address(plan, ends, licence.anonymised_at is not None)
    link_gone = not m.RenewalLink.select().where(m.RenewalLink.token_hash == tag).exists()
    assert link_gone == deletes_renewal_link(plan, link_created, link_created if used else None)
    assert (m.Ticket.get_or_none(m.Ticket.number == tag) is None) == deletes_ticket(plan, closed)
    assert (m.MailQueue.get_or_none(m.MailQueue.id == tag) is None) == deletes_mail(plan, created, used)
    erasure_gone = m.Erasure.get_or_none(m.Erasure.address_hash == tag) is None
    assert erasure_gone == deletes_erasure_record(plan, _at(plan.erasures_before, offset))
    event_gone = not m.RateEvent.select().where(m.RateEvent.key == tag).exists()
    assert event_gone == deletes_rate_event(plan, _at(plan.rate_events_before, offset))
    assert db is hub.store.db


def test_the_erase_command_reaches_the_outbox_and_the_journal_and_names_the_inbox_copies(
    make_hub: Any, environment: dict[str, str], tmp_path: Path
) -> None:
    hub: Hub = make_hub()
    uses = hub.services
    uses.signups.create_user(uses.signups.submit_email("Mia@example.org", None, None), None)
    uses.signups.create_user(uses.signups.submit_email("noah@example.org", None, None), None)
    ticket = uses.support.open_ticket("mia@example.org", None, "Please erase me.", None)
    hub.mail.deliver_due()
    outbox = uses.settings.data_dir / "outbox"
    assert len(list(outbox.glob("*.eml"))) == 4  # two licences, the ticket's copy and its acknowledgement
    journal = tmp_path / "erasures.jsonl"

    result = vpnsite(
        "privacy", "erase", "MIA@example.org", env=environment | {"VPNSITE_ERASURE_JOURNAL": str(journal)}
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["outbox_files_deleted"] == 3
    [left] = [path.read_text() for path in outbox.glob("*.eml")]
    assert "noah@example.org" in left
    assert ticket.number in result.stderr and "support inbox" in result.stderr
    assert "mia" not in result.stderr.casefold() and "mia" not in journal.read_text().casefold()
    [record] = erasure_journal.read(journal).records
    assert record.address_hash in {r.address_hash for r in hub.store.privacy.erasures()}


def test_an_unwritable_journal_file_is_reported_and_the_erasure_stands(
    make_hub: Any, environment: dict[str, str], tmp_path: Path
) -> None:
    hub: Hub = make_hub()
    uses = hub.services
    uses.signups.create_user(uses.signups.submit_email("ola@example.org", None, None), None)
    missing = tmp_path / "no-such-folder" / "erasures.jsonl"

    result = vpnsite(
        "privacy", "erase", "ola@example.org", env=environment | {"VPNSITE_ERASURE_JOURNAL": str(missing)}
    )

    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "could not be written" in result.stderr and "privacy journal" in result.stderr
    assert json.loads(result.stdout)["licences_erased"] == 1
    assert export_address(hub.store.privacy, uses.licence_checks.keys, "ola@example.org").licences == ()
