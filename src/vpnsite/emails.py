"""E-mail addresses: which are accepted, the form one is kept in, and the mailbox it reaches.

Syntax and internationalised domains are judged by ``email-validator`` (RFC 5321/5322 dot-atoms,
IDNA 2008 with UTS #46 mapping), not by hand: a domain typed in Unicode or in its ``xn--`` form
is kept in one form, so ``anna@bücher.de`` and ``anna@XN--BCHER-KVA.DE`` are one address."""

from __future__ import annotations

import unicodedata

from email_validator import EmailNotValidError, validate_email
from email_validator.syntax import validate_email_domain_name

from vpnsite.errors import InvalidField

MAX_LOCAL_PART = 64
MAX_ADDRESS = 254
# Google delivers every spelling of a Gmail address to one mailbox: any dots in the local part,
# either domain.
GMAIL_DOMAINS = frozenset({"gmail.com", "googlemail.com"})
GMAIL = "gmail.com"


def normalise_email(raw: str, field: str = "email") -> str:
    """The address as it is kept and shown: surrounding whitespace removed, the local part as typed
    (in Unicode's composed form), the domain in its canonical form (lower case, Unicode labels for
    an internationalised one).

    Raises :class:`InvalidField` with a kind that says what is wrong. Special-use domains that no
    mail reaches (``localhost``, ``.local``, ``.invalid``, ``.onion``, ``.arpa``) are refused;
    ``.test`` is not, for test deployments.
    """
    address = raw.strip()
    if not address:
        raise InvalidField(field, "missing")
    if len(address) > MAX_ADDRESS:
        raise InvalidField(field, "email_too_long")
    if any(char.isspace() or unicodedata.category(char)[0] == "C" for char in address):
        raise InvalidField(field, "email_invalid")
    try:
        valid = validate_email(address, check_deliverability=False, test_environment=True)
    except EmailNotValidError as refused:
        # Its one message for every length it enforces; anything else is the address's shape.
        raise InvalidField(
            field, "email_too_long" if "too long" in str(refused) else "email_invalid"
        ) from None
    # Without quotes, a local part can never hold an @ or white space, so a kept address is one plain
    # local@domain (email-validator refuses quoted local parts unless asked).
    if len(valid.local_part) > MAX_LOCAL_PART:
        raise InvalidField(field, "email_invalid")
    normal = valid.normalized
    # Canonical forms can lengthen an address ("İ" lower-cases to two characters): the limit holds
    # for what is kept, so a kept address is always accepted again.
    if len(normal) > MAX_ADDRESS:
        raise InvalidField(field, "email_too_long")
    return normal


def address_to_mail(raw: str, field: str = "email") -> str:
    """A new address the service is to write to (a sign-up's), as :func:`normalise_email` keeps
    it, and only if its local part is ASCII: one in another script (``jörg@…``) is reached only by
    SMTPUTF8, which the service's mail does not speak, and would be given a licence whose e-mail
    can never be sent. Addresses already held are read with :func:`normalise_email`, so that a
    licence issued under an earlier rule is still found, checked and erased."""
    address = normalise_email(raw, field)
    if not address.rpartition("@")[0].isascii():
        raise InvalidField(field, "email_invalid")
    return address


def mailbox_key(address: str) -> str:
    """The mailbox an address reaches, as far as can be told from the address alone: every
    per-address rule (the limits, the mail an address may be sent, what an erasure finds, who
    counts as one user) reads an address through it, so no spelling of one mailbox counts twice.

    Ignored: case; a ``+tag`` after the local part (which most providers deliver to the same
    mailbox); for Gmail, dots in the local part and ``googlemail.com``; the form an
    internationalised domain is written in (Unicode or ``xn--``). Takes an address as
    :func:`normalise_email` keeps it or as a mail header writes it, and never raises: an address
    kept before a rule was added still has a key.
    """
    local, _, domain = unicodedata.normalize("NFC", address.strip()).rpartition("@")
    domain = _canonical_domain(domain)
    # Case folding may decompose a letter ("ΐ"): composed again, one mailbox has one key.
    local = unicodedata.normalize("NFC", local.casefold())
    local = local.split("+", 1)[0] or local
    if domain in GMAIL_DOMAINS:
        local, domain = local.replace(".", "") or local, GMAIL
    return f"{local}@{domain}"


def _canonical_domain(domain: str) -> str:
    lowered = domain.lower()
    if lowered.isascii() and "xn--" not in lowered:
        return lowered
    try:
        return validate_email_domain_name(domain, test_environment=True, globally_deliverable=False)["domain"]
    except EmailNotValidError:
        return domain.casefold()
