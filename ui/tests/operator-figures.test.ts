// What the operator sets is what the pages say (issue 29): the licence term a renewal adds
// (VPNSITE_LICENCE_DAYS, the API's term_days) and the free tier's cap (VPNSITE_FREE_TIER_CAP, the
// snapshot's free_tier_cap), never numbers the build knew.
import assert from "node:assert/strict";
import { test } from "node:test";
import { h, type ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { DICTIONARIES } from "../src/i18n/all";
import { Dashboard } from "../src/features/licence/licence-check";
import { LiveStatus } from "../src/features/status/server-status";
import type { Licence, ServerStatus } from "../src/lib/api";
import { makeI18n, WholeI18n } from "../src/i18n/context";
import type { Language } from "../src/lib/language";

const render = (language: Language, node: ComponentChildren) => renderToString(h(WholeI18n, { value: makeI18n(language, DICTIONARIES[language]), children: node }));

const status = (users: number, cap: number): ServerStatus => ({
  vpn_servers: [],
  system_servers: [],
  summary: { vpn_servers_count: 0, vpn_servers_online: 0, system_servers_count: 0, user_count: users, free_tier_cap: cap, demo: false, updated_at: 0 },
});

const licence = (termDays: number): Licence => ({
  email: "anna@example.org",
  code: "12345678901234567890",
  start: "2027-01-01",
  end: "2027-01-31",
  end_timestamp: 1801440000,
  days: 3,
  active: true,
  renewable: true,
  renewable_from: "2027-01-24",
  configUrl: null,
  profiles: [],
  term_days: termDays,
});

test("the status page measures the free tier against the operator's cap", () => {
  const html = render("en", h(LiveStatus, { data: status(1285, 5000) }));
  assert.match(html, /25\.700% of the free tier \(5,000 users\)/);
  assert.match(render("fr", h(LiveStatus, { data: status(1285, 5000) })), /5\u202f000/);
});

test("the dashboard offers to renew for the operator's term", () => {
  // What the dashboard reads of the browser: the user agent (its download tiles), the address (its links).
  Object.defineProperty(globalThis, "navigator", { value: { userAgent: "" }, configurable: true });
  Object.defineProperty(globalThis, "location", { value: { pathname: "/license", search: "" }, configurable: true });
  for (const [days, said] of [[30, "Renew for 30 days"], [90, "Renew for 90 days"], [1, "Renew for 1 day"]] as const) {
    const dashboard = h(Dashboard, { licence: licence(days), devices: null, credentials: { email: "anna@example.org", code: "12345678901234567890" }, onAnother: () => {} });
    const html = render("en", dashboard);
    assert.ok(html.includes(said), `${days}: ${said}`);
  }
});
