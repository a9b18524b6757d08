"""Hypothesis strategies shared by the domain's tests."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import strategies as st

from vpnsite.rate_limits import ACTIONS, SUBJECTS, SUPPORT, RateLimit

rules = st.builds(
    RateLimit,
    action=st.sampled_from(ACTIONS),
    subject=st.sampled_from(SUBJECTS),
    limit=st.integers(min_value=1, max_value=8),
    window=st.integers(min_value=1, max_value=600).map(lambda s: timedelta(seconds=s)),
    failures_only=st.booleans(),
).filter(lambda rule: (rule.action, rule.subject) != (SUPPORT, "email"))  # no such rule (parse_rules)

# Who calls, as the rate limits see them: a few of each, so calls share them and limits are reached.
visitor_ids = st.sampled_from(["hz-a", "hz-b", "hz-c", None])
emails = st.sampled_from(["a@example.org", "b@example.org", None])
# Client addresses: a few fixed, so they repeat (203.0.113.6 and 2001:db8:5:1::1 are neighbours of
# the exits of tests/unit/test_visitors_through_our_servers.py), and any other.
addresses = st.one_of(
    st.sampled_from(["198.51.100.7", "203.0.113.6", "2001:db8:6::1", "2001:db8:5:1::1", None]),
    st.ip_addresses().map(str),
)
