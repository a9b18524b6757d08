"""The plan a licence is given on, one for sign-ups and renewals alike: its term, and the free
tier's cap on how many people hold one at once, counted as the hub counts them now. A paid plan
(docs/architecture.md, its recipe) is a second value of this class."""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

# How many users the free tier takes unless the operator says otherwise.
DEFAULT_FREE_TIER_CAP = 1_000_000


@frozen
class Plan:
    """``cap``: free for the first ``cap`` users (distinct e-mails with a live licence), as
    ``count_users`` counts them; ``term_days``: how long a licence, or a renewal, runs."""

    cap: int
    term_days: int
    count_users: Callable[[], int]

    def admits(self, users: int) -> bool:
        """Whether one more person may hold a licence when ``users`` already do."""
        return users < self.cap
