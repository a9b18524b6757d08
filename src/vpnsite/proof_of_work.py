"""The proof of work a sign-up pays when sign-ups come faster than people do (``signup_pace``): an
ALTCHA challenge, made and judged by an adapter (``ChallengeIssuer``), solved by the visitor's
browser, and good for one sign-up.

A page without a script cannot solve one; it must not be the way around it either. While under
pressure, sign-ups that come without a solution (the site's plain form) share one allowance, the
usual pace of the hour, counted across every hub in the rate-limit store; beyond it they are told
when to try again. The per-client and per-network limits hold for everyone as always.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, Protocol

from attrs import frozen

from vpnsite.errors import ChallengeExpired, ChallengeInvalid, ChallengeRequired, ChallengeUsed, SignupsBusy
from vpnsite.rate_limits import Counter, RateLimit, RateLimitStore, Subject
from vpnsite.signup_pace import HOUR, Pace, PaceGauge

ChallengeMode = Literal["auto", "always", "off"]
CHALLENGE_MODES: tuple[ChallengeMode, ...] = ("auto", "always", "off")

CHALLENGE_TTL = timedelta(minutes=10)
"""How long a challenge may be solved and sent back: a phone that slept through it asks again."""

DIFFICULTY = 800_000
"""The challenge's ``maxnumber``: its number is drawn from 0 to this, so a solver tries half of it
on average. A phone (Chromium, four times slowed) solves in about 0.6 s at the median, with room
under a second when the phone is busy; an attacker pays about 0.15 CPU-seconds a licence with
Python's hashlib, about 12 ms with native code (README, "Proof of work on sign-ups";
``python bench/proof_of_work.py`` measures both)."""

# Not rate-limit actions an operator's rule can name: the store keeps these counts only.
SOLVED_CHALLENGE = "solved-challenge"
UNCHALLENGED_SIGN_UP = "unchallenged-sign-up"
# The store reads a counter's key, limit and window; the subject is nobody's here.
_EVERYONE: Subject = "visitor"


@frozen
class Challenge:
    """What the visitor's browser solves: find ``number`` ≤ ``max_number`` whose SHA-256 of
    ``salt + number`` is ``challenge``; ``signature`` is the server's, over ``challenge``."""

    algorithm: str
    challenge: str
    max_number: int
    salt: str
    signature: str


Verdict = Literal["solved", "invalid", "expired"]


@frozen
class Judged:
    """A solution's verdict; a solved one names its challenge, under which its one use is kept."""

    verdict: Verdict
    challenge: str = ""


class ChallengeIssuer(Protocol):
    def issue(self, expires_at: datetime) -> Challenge:
        """A fresh challenge, good until ``expires_at``."""
        ...

    def judge(self, solution: str, now: datetime) -> Judged:
        """Whether ``solution`` (ALTCHA's payload: base64 JSON) solves a challenge we made, under
        any key of the ring, that has not expired at ``now``."""
        ...


@frozen
class Passage:
    """What a sign-up admitted by :meth:`ProofOfWork.check` still owes once the rate limits have
    admitted it: the one use of the challenge it solved, or its place in the allowance of
    unchallenged sign-ups."""

    solved: str | None = None
    allowance: int | None = None


FREE = Passage()


@frozen
class ProofOfWork:
    mode: ChallengeMode
    pace: Pace
    gauge: PaceGauge
    issuer: ChallengeIssuer
    store: RateLimitStore

    def check(self, solution: str | None, solvable: bool, now: datetime) -> Passage:
        """Whether a sign-up may go on; raise a :class:`ChallengeRequired` (carrying a fresh
        challenge) when it must solve one first, or solved one wrong.

        ``solvable``: whether the caller can solve a challenge at all (a page without a script
        cannot); one that cannot is admitted within the allowance of unchallenged sign-ups.
        Outside pressure a solution sent anyway is not looked at.
        """
        if self.mode == "off":
            return FREE
        if self.mode == "auto" or not solvable:
            reading = self.gauge.read(now)
            if self.mode == "auto" and not self.pace.under_pressure(reading):
                return FREE
            if not solvable:
                return Passage(allowance=self.pace.unchallenged_allowance(reading))
        if not solution:
            raise ChallengeRequired(self.issue(now))
        judged = self.issuer.judge(solution, now)
        if judged.verdict == "expired":
            raise ChallengeExpired(self.issue(now))
        if judged.verdict != "solved":
            raise ChallengeInvalid(self.issue(now))
        return Passage(solved=judged.challenge)

    def record(self, passage: Passage, now: datetime) -> None:
        """Keep what the sign-up owes: a solved challenge's one use (raise :class:`ChallengeUsed`
        if it was used), or its place in the hour's allowance (raise :class:`SignupsBusy` with the
        wait when that is full)."""
        if passage.solved is not None:
            # Remembered as long as the challenge could still be sent back: its whole lifetime.
            once = RateLimit(SOLVED_CHALLENGE, _EVERYONE, 1, CHALLENGE_TTL)
            # The challenge is a hash of a random salt, not anyone's secret: kept as it is, so a
            # key rotation does not forget it.
            if self.store.admit([Counter(once, f"{SOLVED_CHALLENGE}:{passage.solved}")], now) is not None:
                raise ChallengeUsed(self.issue(now))
        if passage.allowance is not None:
            hour = RateLimit(UNCHALLENGED_SIGN_UP, _EVERYONE, passage.allowance, HOUR)
            wait = self.store.admit([Counter(hour, UNCHALLENGED_SIGN_UP)], now)
            if wait is not None:
                raise SignupsBusy(wait, UNCHALLENGED_SIGN_UP)

    def issue(self, now: datetime) -> Challenge:
        return self.issuer.issue(now + CHALLENGE_TTL)
