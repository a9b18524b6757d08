import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import solveThenSend, { payloadOf, sha256, solve, type Challenge } from "../src/features/signup/proof-of-work";
import { ApiError } from "../src/lib/api";

const hex = (words: Int32Array) => Array.from(words, (word) => (word >>> 0).toString(16).padStart(8, "0")).join("");

function challengeFor(salt: string, number: number, maxnumber = 5000): Challenge {
  const challenge = createHash("sha256").update(salt + number).digest("hex");
  return { algorithm: "SHA-256", challenge, maxnumber, salt, signature: "f".repeat(64) };
}

test("the solver's SHA-256 is SHA-256, for messages of one block, of two and at the edge between", () => {
  const out = new Int32Array(8);
  for (const length of [0, 1, 44, 51, 55, 56, 63, 64, 65, 119, 120, 200]) {
    const text = "a1?expires=1800000000&".repeat(10).slice(0, length);
    const message = new Uint8Array(length + 72 + 64);
    message.set(new TextEncoder().encode(text));
    sha256(message, length, out);
    assert.equal(hex(out), createHash("sha256").update(text).digest("hex"), `length ${length}`);
  }
});

test("the solver finds ALTCHA's number, the first and the last of the range included", async () => {
  for (const number of [0, 1, 4321, 5000]) {
    assert.equal(await solve(challengeFor("0a1b2c3d4e5f60718293a4b5?expires=1800000000&", number)), number);
  }
  assert.equal(await solve(challengeFor("salt&", 5001)), null, "none within maxnumber");
});

test("the payload is ALTCHA's: base64 of the challenge's fields and the number", () => {
  const challenge = challengeFor("salt?expires=1&", 7);
  assert.deepEqual(JSON.parse(atob(payloadOf(challenge, 7))), {
    algorithm: "SHA-256",
    challenge: challenge.challenge,
    number: 7,
    salt: "salt?expires=1&",
    signature: challenge.signature,
  });
});

test("a refused solution is solved again with the fresh challenge, three times at most", async () => {
  const asked = (number: number) => new ApiError(428, { detail: "", code: "challenge_expired", challenge: challengeFor("s&", number, 50) } as never);
  const sent: number[] = [];
  const said: string[] = [];
  const answer = await solveThenSend(asked(3), async (altcha) => {
    sent.push(JSON.parse(atob(altcha)).number);
    if (sent.length < 2) throw asked(9);
    return "signed";
  }, "ru", (status) => said.push(status));
  assert.equal(answer, "signed");
  assert.deepEqual(sent, [3, 9]);
  assert.match(said[0], /браузер/);

  const always = await solveThenSend(asked(1), async () => Promise.reject(asked(2)), "en", (status) => said.push(status)).catch((error) => error);
  assert.equal((always as ApiError).status, 428);
  assert.equal(said.at(-1), "", "the status is cleared when it fails");
  const other = await solveThenSend(asked(1), async () => Promise.reject(new ApiError(429, null)), "en", () => undefined).catch((error) => error);
  assert.equal((other as ApiError).status, 429, "anything else is thrown as it came");
});
