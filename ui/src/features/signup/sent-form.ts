import type { FormData } from "../../lib/api";
import { forgetTab, readTab, writeTab } from "../../lib/tab-storage";

// The guard against a second licence from one signed form. Set before create-user is called and
// removed once it has answered with the licence, it stays after a failure, so that the same page
// again (a reload, a restored tab) shows the error screen, where the licence may be looked for,
// instead of sending the form again. It holds the form's signature, an HMAC made with the server's
// key, from which nothing about the visitor can be read, and when it ends: with the tab, or once the
// signed form could no longer be redeemed, whichever comes first.

/** How long a signed form can be redeemed: REQUEST_TTL in src/vpnsite/signup_requests.py
 * (tests/unit/test_ui_signed_form_lifetime.py checks that they agree). */
export const SIGNED_FORM_LIFETIME_MS = 30 * 60 * 1000;

const KEY = "vpnsite:signup-sent";
type Sent = { sig: string; until: number };

export function markSent(form: FormData, now = Date.now()): void {
  writeTab(KEY, { sig: form.sig, until: now + SIGNED_FORM_LIFETIME_MS } satisfies Sent);
}

/** The signature of the form this tab last sent, while that form lives; a spent mark is removed. */
export function sentSignature(now = Date.now()): string | null {
  const sent = readTab(KEY) as Partial<Sent> | null;
  if (sent === null) return null;
  if (typeof sent.sig !== "string" || typeof sent.until !== "number" || sent.until <= now) {
    forgetSent();
    return null;
  }
  return sent.sig;
}

export function forgetSent(): void {
  forgetTab(KEY);
}
