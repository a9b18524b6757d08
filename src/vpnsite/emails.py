"""E-mail address validation and normalisation."""

from __future__ import annotations

import string
import unicodedata

from vpnsite.errors import InvalidField

MAX_LOCAL_PART = 64
MAX_ADDRESS = 254
MAX_LABEL = 63
# RFC 5322 "atext": what a dot-atom local part may hold. No quotes, commas, angle brackets,
# parentheses or semicolons, so an address can never be read as a list or a display name.
_ATEXT = frozenset(string.ascii_letters + string.digits + "!#$%&'*+-/=?^_`{|}~")


def normalise_email(raw: str, field: str = "email") -> str:
    """The address with surrounding whitespace removed and the domain lower-cased.

    Raises :class:`InvalidField` with a kind that says what is wrong.
    """
    address = raw.strip()
    if not address:
        raise InvalidField(field, "missing")
    if len(address) > MAX_ADDRESS:
        raise InvalidField(field, "email_too_long")
    if any(char.isspace() or unicodedata.category(char)[0] == "C" for char in address):
        raise InvalidField(field, "email_invalid")
    if address.count("@") != 1:
        raise InvalidField(field, "email_invalid")
    local, domain = address.split("@")
    if not local or len(local) > MAX_LOCAL_PART:
        raise InvalidField(field, "email_invalid")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        raise InvalidField(field, "email_invalid")
    if not all(char == "." or _is_atext(char) for char in local):
        raise InvalidField(field, "email_invalid")
    domain = domain.lower()
    if not _is_domain(domain):
        raise InvalidField(field, "email_invalid")
    normal = f"{local}@{domain}"
    # Lower-casing can lengthen a domain ("İ" becomes "i" and a combining dot): the limit holds
    # for what is kept, so a kept address is always accepted again.
    if len(normal) > MAX_ADDRESS:
        raise InvalidField(field, "email_too_long")
    return normal


def email_key(email: str) -> str:
    """The form two addresses are compared in: people do not expect 'Anna@x.org' and 'anna@x.org'
    to be different accounts, so matching ignores case."""
    return email.casefold()


def _is_atext(char: str) -> bool:
    """ASCII atext, or a letter, mark or digit of another script (internationalised mailboxes)."""
    if char.isascii():
        return char in _ATEXT
    return unicodedata.category(char)[0] in "LMN"


def _is_domain(domain: str) -> bool:
    labels = domain.split(".")
    if len(labels) < 2:
        return False
    for label in labels:
        try:
            ascii_label = label.encode("idna").decode("ascii") if not label.isascii() else label
        except UnicodeError:
            return False
        if not 0 < len(ascii_label) <= MAX_LABEL:
            return False
        if ascii_label.startswith("-") or ascii_label.endswith("-"):
            return False
        if not all(char.isalnum() or char == "-" for char in ascii_label):
            return False
    return not labels[-1].isdigit()
