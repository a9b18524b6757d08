"""Deterministic stand-ins for the randomness, notification, server credential and journal-key
ports (the stores' are in `memory`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from vpnsite.erasure_journal import JournalKey, new_journal_key
from vpnsite.ports import RandomSource


class SeededRandom:
    """The RandomSource port over ``random.Random(seed)``: the same seed, the same codes and ids."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, upper: int) -> int:
        return self.rng.randrange(upper)

    def token_bytes(self, size: int) -> bytes:
        return self.rng.randbytes(size)


class ScriptedRandom(SeededRandom):
    """A seeded source whose next ``randbelow`` answers are given in advance (to force a clash)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.script: list[int] = []

    def then(self, answers: Iterable[int]) -> None:
        self.script.extend(answers)

    def randbelow(self, upper: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert 0 <= value < upper
            return value
        return super().randbelow(upper)


class RecordingNotifications:
    """The Notifications port as a list of what was said. A message is ``asked`` for inside the
    use case's unit of work and ``said`` once that has committed, as the mail queue's sender only
    sees it then; ``failing`` makes it raise instead, as a full disk or a lost connection would."""

    def __init__(self, after_commit: Callable[[Callable[[], None]], None] | None = None) -> None:
        self.asked: list[tuple[str, object]] = []
        self.said: list[tuple[str, object]] = []
        self.failing = False
        self.after_commit = after_commit or (lambda callback: callback())

    def _say(self, kind: str, subject: object) -> None:
        self.asked.append((kind, subject))
        if self.failing:
            raise OSError("the outbox could not be written")
        self.after_commit(lambda: self.said.append((kind, subject)))

    def licence_issued(self, activation: object) -> None:
        self._say("licence", activation)

    def renewal_due(self, reminder: object) -> None:
        self._say("renewal", reminder)

    def ticket_opened(self, ticket: object) -> None:
        self._say("ticket", ticket)

    def acknowledgement_due(self, ticket: object) -> None:
        self._say("acknowledgement", ticket)


class IssuedCredentials:
    """The ServerCredentials port, remembering what it issued (the real one writes files)."""

    def __init__(self) -> None:
        self.wireguard: dict[str, str] = {}
        self.certificates: list[str] = []

    def new_wireguard_key(self, server_id: str) -> str:
        self.wireguard[server_id] = f"public key {len(self.wireguard)} of {server_id}"
        return self.wireguard[server_id]

    def issue_certificate(self, server_id: str) -> None:
        self.certificates.append(server_id)


class HeldJournalKeys:
    """The erasure journal's keys (``erasure_journal.JournalKeyring``) held in memory: the first
    made on first use, a new one by ``rotate``."""

    def __init__(self, random: RandomSource) -> None:
        self.random = random
        self.keys: list[JournalKey] = []

    def current(self) -> JournalKey:
        return self.keys[-1] if self.keys else self.rotate()

    def known(self) -> tuple[JournalKey, ...]:
        return tuple(self.keys)

    def rotate(self) -> JournalKey:
        self.keys.append(new_journal_key(self.random))
        return self.keys[-1]
