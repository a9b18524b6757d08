"""Hypothesis strategies shared by the domain's tests."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import strategies as st

from vpnsite.rate_limits import ACTIONS, SUBJECTS, RateLimit

rules = st.builds(
    RateLimit,
    action=st.sampled_from(ACTIONS),
    subject=st.sampled_from(SUBJECTS),
    limit=st.integers(min_value=1, max_value=8),
    window=st.integers(min_value=1, max_value=600).map(lambda s: timedelta(seconds=s)),
    failures_only=st.booleans(),
)
