"""peewee models of the tables the migrations create, built per database so that two stores in
one process never share a binding."""

from __future__ import annotations

from typing import Any

import peewee
from attrs import frozen


@frozen
class Models:
    """The model classes bound to one database, by table. Their columns are peewee's own
    descriptors, which mypy cannot follow through a class made in a function: a model is ``Any``,
    the set of them is checked."""

    MailQueue: Any
    Erasure: Any
    VpnSession: Any
    WgPeer: Any
    Licence: Any
    UserEnd: Any
    UserTally: Any
    RenewalLink: Any
    RateEvent: Any
    Ticket: Any
    VpnServer: Any
    ServerUptime: Any


def bind_models(db: peewee.Database) -> Models:
    class Base(peewee.Model):
        class Meta:
            database = db
            legacy_table_names = False

    class Licence(Base):
        id = peewee.TextField(primary_key=True)
        request_id = peewee.TextField(null=True)
        email = peewee.TextField(null=True)
        email_key = peewee.TextField(null=True)
        ip = peewee.TextField(null=True)
        code_hash = peewee.TextField()
        code_key = peewee.IntegerField(default=1)
        starts_at = peewee.BigIntegerField()
        ends_at = peewee.BigIntegerField()
        anonymised_at = peewee.BigIntegerField(null=True)
        language = peewee.TextField(default="en")
        reminded_for_end = peewee.BigIntegerField(null=True)

    class UserEnd(Base):
        email_key = peewee.TextField(primary_key=True)
        ends_at = peewee.BigIntegerField()

    class UserTally(Base):
        stripe = peewee.IntegerField(primary_key=True)
        users = peewee.BigIntegerField()

    class RenewalLink(Base):
        token_hash = peewee.TextField(primary_key=True)
        token_key = peewee.IntegerField(default=1)
        licence_id = peewee.TextField()
        created_at = peewee.BigIntegerField()
        used_at = peewee.BigIntegerField(null=True)

    class RateEvent(Base):
        key = peewee.TextField()
        at = peewee.BigIntegerField()

        class Meta:
            primary_key = False

    class Ticket(Base):
        number = peewee.TextField(primary_key=True)
        email = peewee.TextField(null=True)
        email_key = peewee.TextField(null=True)
        code_hash = peewee.TextField(null=True)
        message = peewee.TextField(null=True)
        created_at = peewee.BigIntegerField()
        closed_at = peewee.BigIntegerField(null=True)
        language = peewee.TextField(default="en")

    class VpnServer(Base):
        id = peewee.TextField(primary_key=True)
        name = peewee.TextField()
        country = peewee.TextField()
        city = peewee.TextField()
        position = peewee.IntegerField(default=0)
        host = peewee.TextField(null=True)
        port = peewee.IntegerField(null=True)
        token_hash = peewee.TextField(null=True)
        token_key = peewee.IntegerField(default=1)
        last_seen = peewee.BigIntegerField(null=True)
        load_percent = peewee.DoubleField(null=True)
        bandwidth_mbps = peewee.DoubleField(null=True)
        udp_port = peewee.IntegerField(null=True)
        tcp_port = peewee.IntegerField(null=True)
        wg_port = peewee.IntegerField(null=True)
        wg_public_key = peewee.TextField(null=True)
        wg_running = peewee.BooleanField(null=True)
        ping_ms = peewee.IntegerField(null=True)
        sessions = peewee.IntegerField(default=0)
        service_up = peewee.BooleanField(default=False)
        exit_addresses = peewee.TextField(default="")
        configured_exit_addresses = peewee.TextField(default="")
        heard_since = peewee.BigIntegerField(null=True)

    class ServerUptime(Base):
        server_id = peewee.TextField()
        day = peewee.BigIntegerField()
        up_seconds = peewee.DoubleField()

        class Meta:
            primary_key = peewee.CompositeKey("server_id", "day")

    class VpnSession(Base):
        licence_id = peewee.TextField()
        server_id = peewee.TextField()
        started_at = peewee.BigIntegerField()
        confirmed = peewee.BooleanField(default=False)
        session_id = peewee.TextField(default="")
        protocol = peewee.TextField(null=True)
        ending = peewee.BooleanField(default=False)

        class Meta:
            primary_key = peewee.CompositeKey("licence_id", "server_id")

    class WgPeer(Base):
        licence_id = peewee.TextField()
        server_id = peewee.TextField()
        address = peewee.TextField()
        held_out = peewee.BooleanField(default=False)

        class Meta:
            primary_key = peewee.CompositeKey("licence_id", "server_id")

    class MailQueue(Base):
        id = peewee.TextField(primary_key=True)
        kind = peewee.TextField()
        payload = peewee.TextField(null=True)
        created_at = peewee.BigIntegerField()
        attempts = peewee.IntegerField(default=0)
        next_attempt_at = peewee.BigIntegerField(null=True)
        claimed_until = peewee.BigIntegerField(null=True)
        sent_at = peewee.BigIntegerField(null=True)
        last_error = peewee.TextField(null=True)
        about_key = peewee.TextField(null=True)

    class Erasure(Base):
        address_hash = peewee.TextField(primary_key=True)
        key_id = peewee.TextField()
        erased_at = peewee.BigIntegerField()

    return Models(
        MailQueue=MailQueue,
        Erasure=Erasure,
        VpnSession=VpnSession,
        WgPeer=WgPeer,
        Licence=Licence,
        UserEnd=UserEnd,
        UserTally=UserTally,
        RenewalLink=RenewalLink,
        RateEvent=RateEvent,
        Ticket=Ticket,
        VpnServer=VpnServer,
        ServerUptime=ServerUptime,
    )
