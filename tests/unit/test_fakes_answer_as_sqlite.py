"""The fakes are honest: any sequence of use-case calls gets the same answers, errors and stored
data from the in-memory stores as from SQLite (same seed, same clock, so the same ids). Where a
store promises no order (the licences due a reminder, say) the comparison ignores it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.conftest import World, open_world
from vpnsite.errors import DomainError
from vpnsite.notifications import Reminder
from vpnsite.privacy import export_address
from vpnsite.rate_limits import DEFAULT_RULES, longest_window
from vpnsite.retention import run_retention

ADDRESSES = ["anna@example.org", "Bob@example.org", "bob@EXAMPLE.org", " anna@example.org"]
IPS = [None, "192.0.2.1", "2001:db8::1", "2001:db8::2"]
WAITS = [1, 24, 24 * 6, 24 * 30, 24 * 84, 24 * 84]  # hours
OFTEN = ["sign up", "check", "renew", "remind", "renew by link", "archive", "log in", "wait", "until renewal"]
NOW_AND_THEN = ["submit", "create", "ticket", "erase", "retention", "mail fails"]
# A call: what, and two numbers that pick its arguments (an address, a credential, a wait ...).
calls = st.tuples(
    st.sampled_from(OFTEN * 3 + NOW_AND_THEN),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=0, max_value=5),
)
NOBODY = ("anna@example.org", "12345678901234567894", "")


class Script:
    """One world driven by the calls, keeping what it was handed for later calls."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.forms: list[Any] = []
        self.credentials: list[tuple[str, str, str]] = []  # address, code, licence id
        self.links: dict[str, str] = {}  # licence id -> its newest renewal link
        self.archives: list[str] = ["not-a-token"]
        world.add_server("nl-amsterdam", "ams-secret", wireguard=True)

    @staticmethod
    def pick(items: list[Any], n: int) -> Any:
        """The n-th newest, round and round."""
        return items[-1 - n % len(items)]

    def credential(self, a: int, b: int) -> tuple[str, str, str]:
        address, code, licence_id = self.pick(self.credentials or [NOBODY], a)
        return ("someone@example.org" if b == 5 else address), code, licence_id

    def run(self, call: tuple[str, int, int]) -> object:
        try:
            return self._run(*call)
        except DomainError as error:
            return (type(error).__name__, error.params)
        except OSError as error:
            return ("OSError", str(error))

    def _run(self, kind: str, a: int, b: int) -> object:
        w = self.world
        if kind in ("sign up", "submit"):
            self.forms.append(w.signups.submit_email(self.pick(ADDRESSES, a), self.pick(IPS, b), "hz"))
            return self.forms[-1] if kind == "submit" else self._run("create", 0, b)
        if kind == "create":
            signed = self.pick(self.forms, a) if self.forms else None
            if signed is None:
                return None
            activation = w.signups.create_user(signed, self.pick(IPS, b))
            self.credentials.append((signed.form.user_email, activation.code, activation.licence.id))
            self.archives.append(activation.archive_token)
            return activation
        if kind == "check":
            checked = w.checks.check(*self.credential(a, b)[:2], "192.0.2.9")
            self.archives.append(checked.archive_token or "none")
            return checked
        if kind == "ticket":
            code = self.credential(a, b)[1] if b % 2 else None
            return w.support.open_ticket(self.pick(ADDRESSES, a), code, "Help", self.pick(IPS, b))
        if kind == "renew":
            return w.renewals.renew_with_code(*self.credential(a, b)[:2], None)
        if kind == "remind":
            before = len(w.notifications.said)
            sent = w.renewals.send_reminders()
            for _, reminder in w.notifications.said[before:]:
                assert isinstance(reminder, Reminder)
                self.links[reminder.licence.id] = reminder.renewal_token
            return sent
        if kind == "renew by link":
            return w.renewals.renew_with_link(self.links.get(self.credential(a, b)[2], "not-a-link"))
        if kind == "archive":
            return w.archives.open(self.pick(self.archives, a), None)
        if kind == "log in":
            return w.node_access.log_in(w.server("ams-secret"), *self.credential(a, b)[:2])
        if kind == "erase":
            return w.erasures.erase(self.pick(ADDRESSES, a)).erased
        if kind == "retention":
            return run_retention(w.store.retention, w.clock.now(), longest_window(DEFAULT_RULES))
        if kind == "wait":
            w.clock.advance(hours=WAITS[a])
            return None
        if kind == "until renewal":  # a few days before a licence ends
            licence = w.store.licences.find_by_id(self.credential(a, b)[2])
            if licence is not None:
                w.clock.moment = max(w.clock.now(), licence.ends_at - timedelta(days=b))
            return None
        w.notifications.failing = a == 0  # "mail fails"
        return None

    def state(self) -> object:
        w = self.world
        exports = [export_address(w.store.privacy, w.keys, address) for address in ADDRESSES]
        said = [
            (kind, subject.licence if isinstance(subject, Reminder) else subject)  # tokens go in no set order
            for kind, subject in w.notifications.said
        ]
        return (
            w.users(),
            [repr(held) for held in exports],
            sorted(map(repr, w.store.tickets.list_tickets(open_only=False, limit=100))),
            sorted(w.node_access.deny_list()),
            sorted(w.node_access.tunnel_peers(w.server("ams-secret"))),
            sorted(map(repr, w.store.sessions.sessions_on("nl-amsterdam"))),
            sorted(map(repr, said)),
        )


@settings(max_examples=30, deadline=None)
@given(st.lists(calls, max_size=40))
def test_the_fakes_answer_every_call_as_sqlite_does(plan: list[tuple[str, int, int]]) -> None:
    with open_world("memory") as memory, open_world("sqlite") as sqlite:
        fake, real = Script(memory), Script(sqlite)
        for step, call in enumerate(plan):
            assert fake.run(call) == real.run(call), (step, call)
        assert fake.state() == real.state()
