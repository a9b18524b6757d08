// The about page: an investor pitch. Every figure comes from the tables here, and tests check that
// the totals add up.

export type CostRow = { platform: string; cost: number };
export type Phase = { phase: number; title: string; items: string[]; cost: string; duration: string };

export const PLATFORM_COSTS: CostRow[] = [
  { platform: "Windows", cost: 10_000 },
  { platform: "macOS", cost: 10_000 },
  { platform: "Android", cost: 10_000 },
  { platform: "iOS", cost: 10_000 },
  { platform: "Linux", cost: 10_000 },
];

export const MINIMUM_START = { apps: 50_000, advertising: 10_000, serversEur: 3_600 };
export const OPTIMAL = { apps: 50_000, advertising: 110_000, serversEur: 108_000 };
export const SERVERS_MONTHLY_EUR = { hundred: 300, thousand: 3_000 };

export const ROADMAP: Phase[] = [
  { phase: 1, title: "Free service launch", items: ["Website in five languages", "Licences and activation codes", "OpenVPN servers in eight countries"], cost: "Done", duration: "Completed" },
  { phase: 2, title: "Apps for five platforms", items: ["Windows, macOS, Linux, Android and iOS apps", "Sign-in with the activation code"], cost: "$25,000–$50,000", duration: "4–6 months" },
  { phase: 3, title: "First advertising campaign", items: ["Search and social campaigns", "Launch in five language markets"], cost: "$10,000", duration: "2 months" },
  { phase: 4, title: "100 servers", items: ["Servers across Europe and North America", "Load-aware server choice"], cost: "€300/month (€3,600 a year)", duration: "1 year" },
  { phase: 5, title: "WireGuard for everyone", items: ["WireGuard out of experimental mode", "Mobile support"], cost: "Included in the apps budget", duration: "3 months" },
  { phase: 6, title: "Paid plans", items: ["7-day demo", "Subscriptions"], cost: "Internal", duration: "3 months" },
  { phase: 7, title: "Second advertising campaign", items: ["Wider campaigns in all markets", "Affiliate programme paying up to 50% of client payments"], cost: "$100,000", duration: "6 months" },
  { phase: 8, title: "1,000 servers", items: ["Servers on every continent", "Dedicated streaming locations"], cost: "€3,000/month", duration: "3 years" },
  { phase: 9, title: "One million users", items: ["Free tier full", "Self-sustaining paid service"], cost: "From revenue", duration: "Ongoing" },
];

export function usd(value: number): string {
  return `$${value.toLocaleString("en-US")}`;
}

export function eur(value: number): string {
  return `€${value.toLocaleString("en-US")}`;
}
