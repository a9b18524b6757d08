"""The website's guard against a second licence from one signed form ends when the form can no
longer be redeemed: its lifetime there (ui/src/features/signup/sent-form.ts) is REQUEST_TTL."""

from __future__ import annotations

import math
import re
from pathlib import Path

from vpnsite.signup_requests import REQUEST_TTL

SENT_FORM = Path(__file__).resolve().parents[2] / "ui" / "src" / "features" / "signup" / "sent-form.ts"


def test_the_ui_guard_lives_as_long_as_a_signed_form() -> None:
    found = re.search(
        r"export const SIGNED_FORM_LIFETIME_MS = ([0-9_ *]+);", SENT_FORM.read_text(encoding="utf-8")
    )
    assert found, f"SIGNED_FORM_LIFETIME_MS is no longer a product of numbers in {SENT_FORM}"
    milliseconds = math.prod(int(factor) for factor in found[1].replace("_", "").split("*"))
    assert milliseconds == REQUEST_TTL.total_seconds() * 1000
