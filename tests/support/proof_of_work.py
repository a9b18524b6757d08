"""Solving a sign-up's challenge as any ALTCHA client does, with Python's hashlib: what the tests
send back, and what an attacker without a browser would run (bench/attack.py times it)."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping


def solution_number(challenge: Mapping[str, object]) -> int:
    """The number from 0 to ``maxnumber`` whose SHA-256 of the salt and the number is the challenge."""
    salt = str(challenge["salt"]).encode()
    target = bytes.fromhex(str(challenge["challenge"]))
    top = int(str(challenge.get("maxnumber", challenge.get("max_number"))))
    for number in range(top + 1):
        if hashlib.sha256(salt + str(number).encode()).digest() == target:
            return number
    raise ValueError("the challenge has no solution up to its maxnumber")


def payload(challenge: Mapping[str, object], number: int | None = None) -> str:
    """ALTCHA's payload for ``challenge``: base64 of the JSON the server judges; ``number`` given
    as it is (a wrong one, say), else the solution."""
    found = solution_number(challenge) if number is None else number
    fields = {name: challenge[name] for name in ("algorithm", "challenge", "salt", "signature")}
    return base64.b64encode(json.dumps({**fields, "number": found}).encode()).decode()
