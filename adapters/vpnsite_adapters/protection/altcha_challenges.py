"""The proof-of-work challenges of sign-ups under pressure, made and judged with the ``altcha``
package: ALTCHA's classic challenge (SHA-256 of a salt and a number up to ``maxnumber``, the
challenge signed by HMAC), which any ALTCHA client solves and the site's own script solves
without one (ui/src/features/signup/proof-of-work.ts).

Self-hosted and stateless: the challenge carries its expiry in its signed salt and its signature,
under a key derived from the ring's master keys (``KeySet.challenges``). The current key signs;
every key of the ring is tried when a solution comes back, so a rotation breaks no challenge in
flight. The randomness is the injected source and the expiry is read by the injected clock."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from altcha.v1 import SHA256, PayloadType, create_challenge, extract_params, verify_solution
from attrs import frozen

from vpnsite.keyed_hashes import Keyring
from vpnsite.ports import RandomSource
from vpnsite.proof_of_work import DIFFICULTY, Challenge, Judged

ALGORITHM = SHA256
SALT_BYTES = 12
# A payload is ~300 bytes; anything far longer is nobody's solution.
MAX_SOLUTION = 2000


@frozen
class AltchaChallenges:
    keys: Keyring
    random: RandomSource
    difficulty: int = DIFFICULTY

    def issue(self, expires_at: datetime) -> Challenge:
        made = create_challenge(
            algorithm=ALGORITHM,
            max_number=self.difficulty,
            salt_length=SALT_BYTES,
            hmac_key=self.keys.current.challenges,
            salt=self.random.token_bytes(SALT_BYTES).hex(),
            number=self.random.randbelow(self.difficulty + 1),
            expires=expires_at,
            params=None,
        )
        return Challenge(made.algorithm, made.challenge, made.max_number, made.salt, made.signature)

    def judge(self, solution: str, now: datetime) -> Judged:
        payload = _payload(solution)
        if payload is None:
            return Judged("invalid")
        # The expiry is read by our clock, not the library's: altcha checks it against the
        # system's time, which tests (and a skewed host) do not share.
        keys = self.keys.read().sets
        if not any(verify_solution(payload, key.challenges, check_expires=False)[0] for key in keys):
            return Judged("invalid")
        expires = extract_params(payload).get("expires", [""])[0]
        if not expires.isdigit() or int(expires) <= now.timestamp():
            # A challenge we made always carries its expiry: one without is not ours.
            return Judged("expired" if expires.isdigit() else "invalid")
        return Judged("solved", str(payload["challenge"]))


def _payload(solution: str) -> PayloadType | None:
    """ALTCHA's payload (base64 of a JSON object) with the fields it must have, of their types;
    None for anything else, which no key could verify."""
    if len(solution) > MAX_SOLUTION:
        return None
    try:
        found = json.loads(base64.b64decode(solution, validate=True))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(found, dict):
        return None
    texts = ("algorithm", "challenge", "salt", "signature")
    if not all(isinstance(found.get(name), str) for name in texts):
        return None
    number = found.get("number")
    if found["algorithm"] != ALGORITHM or not isinstance(number, int) or isinstance(number, bool):
        return None
    if not 0 <= number <= 10**12:
        return None
    return PayloadType(
        algorithm=ALGORITHM,
        challenge=found["challenge"],
        number=number,
        salt=found["salt"],
        signature=found["signature"],
    )
