import { LOCALE, type Language } from "./language";

export const FREE_TIER_USERS = 1_000_000;
export const PHONE_MAX_WIDTH = 640;

/** A count with the language's separators; on phones, above a million, the compact "1.2M" form. */
export function formatCount(value: number, language: Language, phone: boolean): string {
  if (phone && value > 1_000_000) {
    return new Intl.NumberFormat(LOCALE[language], { notation: "compact", maximumFractionDigits: 1 }).format(value);
  }
  return new Intl.NumberFormat(LOCALE[language]).format(value);
}

/** Measured uptime the home page shows. */
export const UPTIME = 0.999;

/** A share (0.25 → "25%", "25 %" in French or Russian) with exactly ``digits`` decimals. */
export function formatPercent(share: number, language: Language, digits: number): string {
  return new Intl.NumberFormat(LOCALE[language], { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share);
}

/** Progress toward the free tier, as a percentage: one decimal from 10,000 users, three below. */
export function freeTierProgress(users: number, language: Language): string {
  const share = Math.min(Math.max(0, users) / FREE_TIER_USERS, 1);
  return formatPercent(share, language, users >= 10_000 ? 1 : 3);
}

export function progressWidth(users: number): number {
  return Math.min(100, (Math.max(0, users) / FREE_TIER_USERS) * 100);
}

export function formatDate(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE[language], { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(date);
}

/** "2027-02-20" → a Date at midnight UTC. */
export function parseDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The form of ``forms`` the language's plural rules pick for ``count``, with {n} the count as
 * shown (by default the count with the language's separators). */
export function plural(count: number, forms: PluralForms, language: Language, shown?: string): string {
  const rule = new Intl.PluralRules(LOCALE[language]).select(count);
  return (forms[rule] ?? forms.other).replace("{n}", shown ?? formatCount(count, language, false));
}

export type LoadLevel = "low" | "medium" | "high";

/** Load colour: under 30 % green, under 70 % yellow, otherwise red. */
export function loadLevel(load: string | null): LoadLevel {
  const value = Number.parseFloat(load ?? "0");
  if (value < 30) return "low";
  if (value < 70) return "medium";
  return "high";
}

/** Rank colour: very high green, high blue, medium yellow, otherwise grey. */
export function rankColour(rank: string): "green" | "blue" | "yellow" | "grey" {
  if (rank === "very_high") return "green";
  if (rank === "high") return "blue";
  if (rank === "medium") return "yellow";
  return "grey";
}
