"""Who runs the service: the company the footer, About page, terms and privacy policy name.

The website is prerendered with placeholders; the served pages get these values (see
``http/pages/site.py``), so the operator is a runtime setting like the public URL."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from attrs import astuple, fields, frozen

from vpnsite.emails import normalise_email
from vpnsite.errors import InvalidField


class OperatorError(ValueError):
    pass


@frozen
class Operator:
    name: str
    number: str
    address: str
    email: str
    founder: str

    def placeholders(self) -> dict[bytes, str]:
        """Each prerendered placeholder and the value that replaces it."""
        return {
            f"__OPERATOR_{field.name.upper()}__".encode(): value
            for field, value in zip(fields(Operator), astuple(self), strict=True)
        }


DEMO_OPERATOR = Operator(
    name="Example VPN Ltd (demo)",
    number="00000000",
    address="1 Example Street, London, EC1A 1AA, United Kingdom (fictitious)",
    email="operator@example.invalid",
    founder="Alex Example (fictitious)",
)

SETTING_NAMES = tuple(f"VPNSITE_OPERATOR_{field.name.upper()}" for field in fields(Operator))
# Companies House numbers: eight digits, or two letters (SC, NI, OC…) and six digits.
_COMPANY_NUMBER = re.compile(r"^(?:\d{8}|[A-Z]{2}\d{6})$")
_MAX_LENGTH = 300


def read_operator(get: Callable[[str], str | None]) -> Operator | None:
    """The operator from ``VPNSITE_OPERATOR_*``: None when none is set, an error when only some
    are or one is malformed."""
    given = {field.name: (get(f"OPERATOR_{field.name.upper()}") or "").strip() for field in fields(Operator)}
    missing = [f"VPNSITE_OPERATOR_{name.upper()}" for name, value in given.items() if not value]
    if len(missing) == len(given):
        return None
    if missing:
        raise OperatorError(f"the operator's identity is incomplete: set {', '.join(missing)}")
    for name, value in given.items():
        if len(value) > _MAX_LENGTH or any(unicodedata.category(char)[0] == "C" for char in value):
            raise OperatorError(
                f"VPNSITE_OPERATOR_{name.upper()} must be one line of at most {_MAX_LENGTH} characters"
            )
    number = given["number"].upper().replace(" ", "")
    if not _COMPANY_NUMBER.match(number):
        raise OperatorError(
            "VPNSITE_OPERATOR_NUMBER must be a UK company number (8 digits, or 2 letters and 6 digits),"
            f" not {given['number']!r}"
        )
    try:
        email = normalise_email(given["email"])
    except InvalidField:
        raise OperatorError(
            f"VPNSITE_OPERATOR_EMAIL must be an e-mail address, not {given['email']!r}"
        ) from None
    return Operator(given["name"], number, given["address"], email, given["founder"])
