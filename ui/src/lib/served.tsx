// Pages the server answers a form post with, and what it writes into every page it sends.
//
// The build prerenders each answer once per language with the same components and dictionaries
// as the scripted screens, leaving markers (slot) where the visitor's values go; the server fills
// them, HTML-escaped, when it answers (adapters/vpnsite_adapters/http/pages/site.py). Without JavaScript
// the forms post to the page's own path (form-action 'self').
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ActivationOutcome } from "./errors";

export type ServedScreen =
  | { kind: "signup-error" }
  | { kind: "activation"; outcome: "success" | ActivationOutcome }
  | { kind: "licence-error" }
  | { kind: "licence"; active: boolean }
  | { kind: "renew-link"; step: RenewLinkStep }
  | { kind: "licence-setup" }
  | { kind: "support-error" }
  | { kind: "support-sent" }
  | { kind: "erasure"; step: ErasureStep };

/** The pages of the licence e-mail's erasure link (features/erasure): the confirmation its link
 * opens, and the server's answers to its button — erased, the link leading nowhere (used, or no
 * longer valid), or not erased (a refusal, its reason in a slot). The server sends them alone:
 * no script renders them. */
export type ErasureStep = "confirm" | "done" | "gone" | "failed";

/** The pages of the renewal reminder's link (``/license?renew=…``): its button, which posts to the
 * link itself, and the server's answers to it — renewed, or refused (the reason in a slot). */
export type RenewLinkStep = "ask" | "done" | "failed";

/** Every answer the build prerenders: its file name and the route it answers on. */
export const SERVED_SCREENS: { name: string; route: string; screen: ServedScreen }[] = [
  { name: "signup-error", route: "/", screen: { kind: "signup-error" } },
  { name: "activation-success", route: "/activation", screen: { kind: "activation", outcome: "success" } },
  { name: "activation-rate_limited", route: "/activation", screen: { kind: "activation", outcome: "rate_limited" } },
  { name: "activation-already_used", route: "/activation", screen: { kind: "activation", outcome: "already_used" } },
  { name: "activation-generic", route: "/activation", screen: { kind: "activation", outcome: "generic" } },
  { name: "licence-error", route: "/license", screen: { kind: "licence-error" } },
  { name: "licence-active", route: "/license", screen: { kind: "licence", active: true } },
  { name: "licence-ended", route: "/license", screen: { kind: "licence", active: false } },
  { name: "licence-setup", route: "/license", screen: { kind: "licence-setup" } },
  { name: "renew-link", route: "/license", screen: { kind: "renew-link", step: "ask" } },
  { name: "renew-link-done", route: "/license", screen: { kind: "renew-link", step: "done" } },
  { name: "renew-link-failed", route: "/license", screen: { kind: "renew-link", step: "failed" } },
  { name: "support-error", route: "/support", screen: { kind: "support-error" } },
  { name: "support-sent", route: "/support", screen: { kind: "support-sent" } },
];

/** The marker the server replaces with a value: letters, digits and underscores only, so no
 * escaping can change it. */
export const slot = (name: string): string => `__SLOT_${name}__`;

export const ServedContext = createContext<ServedScreen | null>(null);

/** The answer being prerendered, or null (every page the script renders). */
export function useServed(): ServedScreen | null {
  return useContext(ServedContext);
}

/** A number the server wrote into every page it sends (`<meta name="vpnsite-users">`,
 * `vpnsite-servers`, `vpnsite-countries`, `vpnsite-uptime`: tenths of a per cent, empty while not
 * measured); null while prerendering or when there is none. */
export function servedNumber(name: "users" | "servers" | "uptime" | "countries"): number | null {
  if (typeof document === "undefined") return null;
  const value = document.querySelector(`meta[name="vpnsite-${name}"]`)?.getAttribute("content") ?? "";
  return /^\d+$/.test(value) ? Number(value) : null;
}

export const servedUserCount = (): number | null => servedNumber("users");

/** A text the server wrote into every page it sends: picked for its fleet (`<meta
 * name="vpnsite-devices">`: "Up to 8 devices at once"; `vpnsite-device_rule`: the sentence that
 * says why), or the operator's terms (`vpnsite-term`: "90 days"; `vpnsite-free_users`: "1,000,000
 * users"; `vpnsite-free_count`: "1,000,000", for a language that puts a word between the number and
 * its noun), or the operator's own facts (`vpnsite-server_access`: who has access to the servers,
 * from its file), in the page's language; its marker (DEVICES, TERM…) while prerendering. */
export const servedText = (name: "devices" | "device_rule" | "term" | "free_users" | "free_count" | "server_access"): string =>
  typeof document === "undefined" ? slot(name.toUpperCase()) : document.querySelector(`meta[name="vpnsite-${name}"]`)?.getAttribute("content") ?? "";

/** The operator's terms (VPNSITE_LICENCE_DAYS, VPNSITE_FREE_TIER_CAP) as a text names them:
 * {{term}}, {{freeUsers}}, {{freeCount}}. */
export const terms = () => ({ term: servedText("term"), freeUsers: servedText("free_users"), freeCount: servedText("free_count") });

