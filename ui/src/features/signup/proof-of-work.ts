// The proof of work a sign-up pays when sign-ups come faster than people do (the server answers
// submit-email with 428 and an ALTCHA challenge): find the number from 0 to maxnumber whose
// SHA-256 of salt + number is the challenge, and send the sign-up again with it. Loaded only when a
// challenge is asked for (signup-form.tsx), so the first script carries none of it.
//
// SHA-256 is written out here rather than asked of Web Crypto: crypto.subtle.digest answers each
// hash through a promise, and measured in Chromium it does about a tenth of the hashes a second
// of this loop (bench/proof_of_work.py), so a phone would need ten times longer for the
// same challenge. The search runs in slices of a few milliseconds, so the page stays responsive
// and its status is read out while it works.

// Types only from the shared modules: importing any of their code would split it out of the
// first script's chunk into one of its own, which costs the home page a file and its bytes.
import type { ApiError } from "../../lib/api";
import type { components } from "../../lib/api-types";
import type { Language } from "../../lib/language";
import WORKING from "../../i18n/signup-check";

type Challenged = components["schemas"]["Challenged"];
export type Challenge = Challenged["challenge"];

// SHA-256's round constants (FIPS 180-4, 4.2.2).
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
/** SHA-256 of the first `length` bytes of `message` (which has room for the padding) into `out`. */
export function sha256(message: Uint8Array, length: number, out: Int32Array, w = new Int32Array(64)): void {
  const blocks = ((length + 8) >> 6) + 1;
  message.fill(0, length, blocks * 64);
  message[length] = 0x80;
  const bits = length * 8;
  message[blocks * 64 - 4] = bits >>> 24;
  message[blocks * 64 - 3] = bits >>> 16;
  message[blocks * 64 - 2] = bits >>> 8;
  message[blocks * 64 - 1] = bits;
  // The initial hash value (FIPS 180-4, 5.3.3), kept in locals: the loop is the whole cost.
  let h0 = 0x6a09e667, h1 = 0xbb67ae85 | 0, h2 = 0x3c6ef372, h3 = 0xa54ff53a | 0, h4 = 0x510e527f, h5 = 0x9b05688c | 0, h6 = 0x1f83d9ab, h7 = 0x5be0cd19;
  for (let block = 0; block < blocks; block++) {
    const at = block * 64;
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = (message[j] << 24) | (message[j + 1] << 16) | (message[j + 2] << 8) | message[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15];
      const y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  out[0] = h0;
  out[1] = h1;
  out[2] = h2;
  out[3] = h3;
  out[4] = h4;
  out[5] = h5;
  out[6] = h6;
  out[7] = h7;
}

/** How long one slice of the search may hold the page, in milliseconds. */
const SLICE_MS = 30;

/** The number that solves the challenge (ALTCHA's search: 0 upwards, SHA-256 of salt + number in
 * decimal, in hex, equal to the challenge); null when none up to maxnumber does. */
export async function solve(challenge: Challenge): Promise<number | null> {
  const salt = new TextEncoder().encode(challenge.salt);
  const target = new Int32Array(8);
  for (let i = 0; i < 8; i++) target[i] = parseInt(challenge.challenge.slice(i * 8, i * 8 + 8), 16);
  // Room for the salt, the digits and the padding; the number's digits are counted up in place.
  const message = new Uint8Array(salt.length + 16 + 72);
  message.set(salt);
  message[salt.length] = 48;
  let end = salt.length + 1;
  const out = new Int32Array(8);
  const w = new Int32Array(64);
  let number = 0;
  while (number <= challenge.maxnumber) {
    const until = performance.now() + SLICE_MS;
    do {
      const last = Math.min(number + 2000, challenge.maxnumber + 1);
      for (; number < last; number++) {
        sha256(message, end, out, w);
        if (out[0] === target[0] && out[1] === target[1] && out[2] === target[2] && out[3] === target[3] && out[4] === target[4] && out[5] === target[5] && out[6] === target[6] && out[7] === target[7]) return number;
        end = countUp(message, salt.length, end);
      }
    } while (number <= challenge.maxnumber && performance.now() < until);
    // The page's turn: its spinner turns, and a screen reader reads the status.
    await new Promise((resolve) => setTimeout(resolve));
  }
  return null;
}

/** Adds one to the decimal number written in `message` from `start` to `end`; its new end. */
function countUp(message: Uint8Array, start: number, end: number): number {
  let at = end - 1;
  while (at >= start && message[at] === 57) message[at--] = 48;
  if (at >= start) {
    message[at]++;
    return end;
  }
  // 99 becomes 100: every digit is 0 now, so a 1 in front of them.
  message[start] = 49;
  message[end] = 48;
  return end + 1;
}

/** ALTCHA's payload: what the server judges, as base64 of its JSON. */
export const payloadOf = (challenge: Challenge, number: number) =>
  btoa(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature }));

/** Solves the challenge a 428 carried and sends the sign-up again with it, as often as the server
 * asks (a phone that slept past the challenge's ten minutes gets a fresh one), three times at most;
 * `say` shows the status, in the page's language, meanwhile, and clears it when this fails.
 * Anything but a 428 is thrown as it came. */
export default async function solveThenSend<T>(asked: ApiError, send: (altcha: string) => Promise<T>, language: Language, say: (status: string) => void): Promise<T> {
  say(WORKING[language]);
  let refusal = asked;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const challenge = (refusal.body as Challenged | null)?.challenge;
      const number = challenge ? await solve(challenge) : null;
      if (!challenge || number === null) break;
      try {
        return await send(payloadOf(challenge, number));
      } catch (error) {
        if ((error as ApiError | null)?.status !== 428) throw error;
        refusal = error as ApiError;
      }
    }
    throw refusal;
  } catch (error) {
    say("");
    throw error;
  }
}
