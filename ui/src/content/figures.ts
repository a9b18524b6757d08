// The one table every figure of the about page comes from; tests check the text against it and
// that the totals add up.

export type Money = { amount: number; currency: "USD" | "EUR" };

export const usd = (amount: number): Money => ({ amount, currency: "USD" });
export const eur = (amount: number): Money => ({ amount, currency: "EUR" });

export const PLATFORM_COSTS: { platform: string; cost: Money }[] = [
  { platform: "Windows", cost: usd(10_000) },
  { platform: "macOS", cost: usd(10_000) },
  { platform: "Linux", cost: usd(10_000) },
  { platform: "Android", cost: usd(10_000) },
  { platform: "iOS", cost: usd(10_000) },
];

export const MICRO_INVESTMENT_FROM = usd(10_000);
export const SERVERS_PER_MONTH = { hundred: eur(300), thousand: eur(3_000) };
export const MINIMUM_START = { total: usd(65_000), apps: usd(50_000), advertising: usd(10_000), servers: eur(3_600) };
export const OPTIMAL = { total: usd(270_000), apps: usd(50_000), advertising: usd(110_000), servers: eur(108_000) };

/** What each of the nine roadmap phases costs, in the order of the phases. */
export type PhaseCost =
  | { kind: "done" }
  | { kind: "range"; from: Money; to: Money }
  | { kind: "once"; money: Money }
  | { kind: "monthly"; money: Money }
  | { kind: "included" }
  | { kind: "internal" }
  | { kind: "revenue" };

export const PHASE_COSTS: PhaseCost[] = [
  { kind: "done" },
  { kind: "range", from: usd(25_000), to: usd(50_000) },
  { kind: "once", money: MINIMUM_START.advertising },
  { kind: "monthly", money: SERVERS_PER_MONTH.hundred },
  { kind: "included" },
  { kind: "internal" },
  { kind: "once", money: usd(100_000) },
  { kind: "monthly", money: SERVERS_PER_MONTH.thousand },
  { kind: "revenue" },
];
