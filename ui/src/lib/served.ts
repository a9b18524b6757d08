// Pages the server answers a form post with, and what it writes into every page it sends.
//
// The build prerenders each answer once per language with the same components and dictionaries
// as the scripted screens, leaving markers (slot) where the visitor's values go; the server fills
// them, HTML-escaped, when it answers (adapters/vpnsite_adapters/http/site.py). Without JavaScript
// the forms post to the page's own path (form-action 'self').
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ActivationOutcome } from "./errors";
import { formatCount, plural, type PluralForms } from "./format";
import type { Dictionary } from "./i18n";
import type { Language } from "./language";

export type ServedScreen =
  | { kind: "signup-error" }
  | { kind: "activation"; outcome: "success" | ActivationOutcome }
  | { kind: "licence-error" }
  | { kind: "licence"; active: boolean }
  | { kind: "support-error" }
  | { kind: "support-sent" };

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

/** The user count of the server's last snapshot, written into every page it sends
 * (`<meta name="vpnsite-users">`); null while prerendering. */
export function servedUserCount(): number | null {
  if (typeof document === "undefined") return null;
  const value = document.querySelector('meta[name="vpnsite-users"]')?.getAttribute("content") ?? "";
  return /^\d+$/.test(value) ? Number(value) : null;
}

/** A user count as the page shows it: the server's marker while prerendering. */
export function usersText(count: number | null, format: (count: number) => string): string {
  return count === null ? slot("USERS") : format(count);
}

/** The texts that count users, by the marker the server writes each at: the build exports their
 * plural forms (prerender.tsx: formats), and the server picks the form with the same plural rules. */
export const COUNTED_USERS = {
  FOOTER_USERS: (dictionary: Dictionary) => dictionary.footer.users,
  JOIN_USERS: (dictionary: Dictionary) => dictionary.status.ctaTitle,
} satisfies Record<string, (dictionary: Dictionary) => PluralForms>;

export type CountedUsers = keyof typeof COUNTED_USERS;

/** A text counting users in the language's plural form: the server's marker while prerendering. */
export function countedUsersText(name: CountedUsers, count: number | null, language: Language, dictionary: Dictionary, phone: boolean): string {
  return count === null ? slot(name) : plural(count, COUNTED_USERS[name](dictionary), language, formatCount(count, language, phone));
}
