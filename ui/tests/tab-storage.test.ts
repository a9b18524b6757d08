import assert from "node:assert/strict";
import { test } from "node:test";
import type { Activation, FormData } from "../src/lib/api";
import { isWhole, lastActivation, rememberActivation } from "../src/lib/last-activation";
import { markSent, sentSignature, SIGNED_FORM_LIFETIME_MS } from "../src/features/signup/sent-form";

// The tab's storage as the browser has it: strings by key.
const tab = new Map<string, string>();
let refusing = false;
const storage = {
  getItem: (key: string) => {
    if (refusing) throw new Error("SecurityError");
    return tab.get(key) ?? null;
  },
  setItem: (key: string, value: string) => {
    if (refusing) throw new Error("QuotaExceededError");
    tab.set(key, value);
  },
  removeItem: (key: string) => void tab.delete(key),
};
Object.defineProperty(globalThis, "sessionStorage", { value: storage, configurable: true });

const CODE = "12345678901234567895";
const activation: Activation = {
  success: true,
  user_email: "tab@example.org",
  user_code: CODE,
  user_days: 90,
  user_start: 1_700_000_000,
  user_stop: 1_707_776_000,
  activation_url: "https://vpn.example/api/config/TOKEN",
  profiles: [],
  emailed: false,
};
const form: FormData = { user_email: "tab@example.org", user_days: 90, subscription: "free", user_comment: "", request_id: "r", sig: "ab".repeat(32) };

// First, as a new page finds the tab: nothing of this page's memory yet.
test("a new page gets the kept fields of the tab's activation, never a code, even one an earlier version stored", () => {
  assert.equal(lastActivation(), null);
  tab.set("vpnsite:activation", JSON.stringify({ user_email: "old@example.org", user_days: 90, user_stop: 1, user_code: CODE, activation_url: "x" }));
  assert.deepEqual(lastActivation(), { user_email: "old@example.org", user_days: 90, user_stop: 1, emailed: true });
  tab.set("vpnsite:activation", JSON.stringify({ user_email: "old@example.org" }));
  assert.equal(lastActivation(), null);
  tab.set("vpnsite:activation", "not json");
  assert.equal(lastActivation(), null);
});

test("an activation is kept whole in memory and without its code or links in the tab", () => {
  rememberActivation(activation);
  assert.deepEqual(JSON.parse(tab.get("vpnsite:activation") ?? ""), { user_email: "tab@example.org", user_days: 90, user_stop: 1_707_776_000, emailed: false });
  for (const value of tab.values()) assert.ok(!value.includes(CODE) && !value.includes("TOKEN"));
  const last = lastActivation();
  assert.ok(last && isWhole(last) && last.user_code === CODE);
});

test("the sent mark holds the signature and ends with the signed form's lifetime", () => {
  tab.clear();
  const now = 1_000_000;
  markSent(form, now);
  assert.deepEqual(JSON.parse(tab.get("vpnsite:signup-sent") ?? ""), { sig: form.sig, until: now + SIGNED_FORM_LIFETIME_MS });
  assert.equal(sentSignature(now + SIGNED_FORM_LIFETIME_MS - 1), form.sig);
  assert.equal(sentSignature(now + SIGNED_FORM_LIFETIME_MS), null);
  assert.equal(tab.size, 0);
  tab.set("vpnsite:signup-sent", JSON.stringify({ sig: form.sig }));
  assert.equal(sentSignature(now), null);
  assert.equal(tab.size, 0);
});

test("a browser that refuses storage loses the marks, not the page", () => {
  refusing = true;
  try {
    assert.doesNotThrow(() => markSent(form));
    assert.equal(sentSignature(), null);
    assert.doesNotThrow(() => rememberActivation(activation));
  } finally {
    refusing = false;
  }
});
