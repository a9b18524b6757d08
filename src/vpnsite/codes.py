"""Activation codes: 20 digits whose last digit is a Luhn check digit, so a mistyped code is
recognised before any look-up."""

from __future__ import annotations

from vpnsite.ports import RandomSource

CODE_LENGTH = 20
# How the code is shown, on the site and in the e-mails: in groups of four digits (ui/src/lib/
# check-digit.ts: CODE_GROUP_LENGTH); typed or pasted back with the spaces, it is still the code.
CODE_GROUP_LENGTH = 4
_SEPARATORS = str.maketrans("", "", " -\u00a0\t")


def luhn_check_digit(payload: str) -> str:
    """The digit that makes ``payload + digit`` pass the Luhn check."""
    total = 0
    for position, char in enumerate(reversed(payload)):
        digit = int(char)
        if position % 2 == 0:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return str((10 - total % 10) % 10)


def is_well_formed(code: str) -> bool:
    """True for exactly 20 ASCII digits whose last digit checks the other nineteen."""
    return (
        len(code) == CODE_LENGTH
        and code.isascii()
        and code.isdigit()
        and luhn_check_digit(code[:-1]) == code[-1]
    )


def clean_typed_code(typed: str) -> str:
    """What a person typed, without the spaces and dashes they may group the digits with."""
    return typed.strip().translate(_SEPARATORS)


def code_groups(code: str) -> list[str]:
    """The code in groups of four digits, as it is shown ("1234", "5678", …; ui/src/lib/
    check-digit.ts: codeGroups)."""
    return [code[start : start + CODE_GROUP_LENGTH] for start in range(0, len(code), CODE_GROUP_LENGTH)]


def new_activation_code(random: RandomSource) -> str:
    # One draw over every 19-digit payload, leading zeros included: as uniform as nineteen draws of
    # a digit, at one call of the system's randomness rather than nineteen.
    payload = f"{random.randbelow(10 ** (CODE_LENGTH - 1)):0{CODE_LENGTH - 1}d}"
    return payload + luhn_check_digit(payload)


def code_problem(code: str) -> str | None:
    """Why a cleaned code cannot be an activation code: ``code_format`` (not 20 digits),
    ``code_mistyped`` (the check digit does not match), or None."""
    if len(code) != CODE_LENGTH or not (code.isascii() and code.isdigit()):
        return "code_format"
    if not is_well_formed(code):
        return "code_mistyped"
    return None
