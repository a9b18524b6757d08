import { COMPACT_DISPLAY, LOCALE, type Language } from "./language";

/** Below this many users the site says it is new instead of showing a small count. The build
 * exports it to the server (forms/formats.json), so both write the same words at the same counts. */
export const FEW_USERS = 100;
/** Above this, phones (the stylesheet's 640 px) show a count in its short form ("1.2M"). */
export const SHORT_COUNT_FROM = 1_000_000;

/** A count with the language's separators. */
export function formatCount(value: number, language: Language): string {
  return new Intl.NumberFormat(LOCALE[language]).format(value);
}

/** A count's short form ("1.2m", "1,2 млн", "1,2 millones"): what phones show above a million.
 * British English and Russian abbreviate; Spanish, French and Portuguese write the word, as their
 * press does (the list's `compact`).
 * The server writes the same (formatting.py: format_short; tests/locale_vectors.json). */
export function shortCount(value: number, language: Language): string {
  return new Intl.NumberFormat(LOCALE[language], { notation: "compact", compactDisplay: COMPACT_DISPLAY[language], maximumFractionDigits: 1 }).format(value);
}

/** The spec's marketing figures the home page shows: uptime, and countries the VPN is used from. */

/** A share (0.25 → "25%", "25 %" in French or Russian) with exactly ``digits`` decimals. */
export function formatPercent(share: number, language: Language, digits: number): string {
  return new Intl.NumberFormat(LOCALE[language], { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share);
}

/** A load as the snapshot writes it ("29%") as the language writes a percentage ("29 %"). */
export function loadPercent(load: string, language: Language): string {
  return formatPercent(Math.round(Number.parseFloat(load) || 0) / 100, language, 0);
}

/** How full the free tier is (0 to 1), for the ``cap`` the operator set (the API's
 * free_tier_cap): a tier of none is full. */
function freeTierShare(users: number, cap: number): number {
  return cap > 0 ? Math.min(Math.max(0, users) / cap, 1) : 1;
}

/** Progress toward the free tier, as a percentage: one decimal from 10,000 users, three below. */
export function freeTierProgress(users: number, cap: number, language: Language): string {
  return formatPercent(freeTierShare(users, cap), language, users >= 10_000 ? 1 : 3);
}

export function progressWidth(users: number, cap: number): number {
  return freeTierShare(users, cap) * 100;
}

/** A day (the UTC date of ``date``) as the language writes it in a sentence; French writes the
 * first of a month "1er" ("1er mars 2027"), which Intl does not; Russian keeps the year with its
 * "г." on one line (a no-break space), which Intl does not either. */
export function formatDate(date: Date, language: Language): string {
  const text = new Intl.DateTimeFormat(LOCALE[language], { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(date);
  if (language === "ru") return text.replace(/ г\.$/, "\u00a0г.");
  return language === "fr" && date.getUTCDate() === 1 ? text.replace(/^1(?=\s)/, "1er") : text;
}

/** A moment as the pages write it: the day, the time and the zone ("1er mars 2027, 15:05 UTC+1"),
 * by default in the visitor's zone. The server, which does not know it, writes UTC and names it
 * the same way (formatting.py: format_moment). ``offset`` is in minutes, as getTimezoneOffset
 * gives it (UTC+1 is -60). */
export function formatMoment(seconds: number, language: Language, offset = new Date(seconds * 1000).getTimezoneOffset()): string {
  const local = new Date((seconds - offset * 60) * 1000);
  const time = `${String(local.getUTCHours()).padStart(2, "0")}:${String(local.getUTCMinutes()).padStart(2, "0")}`;
  return `${formatDate(local, language)}, ${time} ${zoneName(offset)}`;
}

/** "UTC", "UTC+1", "UTC-3", "UTC+5:30" for a getTimezoneOffset value. */
export function zoneName(offset: number): string {
  if (offset === 0) return "UTC";
  const east = Math.abs(offset);
  const minutes = east % 60;
  return `UTC${offset < 0 ? "+" : "-"}${Math.floor(east / 60)}${minutes ? `:${String(minutes).padStart(2, "0")}` : ""}`;
}

/** "2027-02-20" → a Date at midnight UTC. */
export function parseDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** A counted text's forms by plural category, with {n} for the count; ``millions`` is its form
 * beside a count's short form ("{n} пользователей", "{n} de usuarios": "1,2 млн пользователей",
 * "1,2 millones de usuarios"), where the noun no longer agrees with the number's own digits. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string; millions?: string };

/** The form of ``forms`` the language's plural rules pick for ``count``, with {n} the count as
 * shown (by default the count with the language's separators). */
export function plural(count: number, forms: PluralForms, language: Language, shown?: string): string {
  return pluralForm(count, forms, language).replace("{n}", shown ?? formatCount(count, language));
}

/** The form of ``forms`` the language's plural rules pick for ``count``, with {n} left in. */
export function pluralForm(count: number, forms: PluralForms, language: Language): string {
  return forms[new Intl.PluralRules(LOCALE[language]).select(count)] ?? forms.other;
}

/** A counted text with a count in its short form ("1,2 млн пользователей"): its ``millions``
 * form, else ``other`` (formatting.py: millions_form). */
export function millionsText(count: number, forms: PluralForms, language: Language): string {
  return (forms.millions ?? forms.other).replace("{n}", shortCount(count, language));
}

export type LoadLevel = "low" | "medium" | "high";

/** Load colour: under 30 % green, under 70 % yellow, otherwise red. */
export function loadLevel(load: string | null): LoadLevel {
  const value = Number.parseFloat(load ?? "0");
  if (value < 30) return "low";
  if (value < 70) return "medium";
  return "high";
}

/** The status page's colours say one thing: how well a server serves you now. Status and load
 * take green, amber or red by it; popularity is no such measure (a popular server is neither good
 * nor bad), so its badge is one neutral hue, deeper the more popular the server, and never green,
 * amber or red: a "Very high" badge cannot look good beside a load that says busy. */
export const RANK_TONES = ["deep", "mid", "pale", "plain"] as const;
export type RankTone = (typeof RANK_TONES)[number];

/** A rank's tone: very high deep, high mid, medium pale, otherwise plain. */
export function rankColour(rank: string): RankTone {
  if (rank === "very_high") return "deep";
  if (rank === "high") return "mid";
  if (rank === "medium") return "pale";
  return "plain";
}
