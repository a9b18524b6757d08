import type { Activation } from "./api";
import { readTab, writeTab } from "./tab-storage";

// The tab's last activation. The answer whole (the activation code, which is the VPN password,
// and the personal links of the configuration archive, which hold a WireGuard key) lives in this
// page's memory only: a reload or another language starts a new page without it. The tab keeps
// only what the success screen shows besides them, and the licence form's e-mail.

/** What the tab keeps of its last activation: nothing that opens the VPN. */
export type KeptActivation = Pick<Activation, "user_email" | "user_days" | "user_stop" | "emailed">;

const KEY = "vpnsite:activation";
let whole: Activation | null = null;

export function rememberActivation(activation: Activation): void {
  whole = activation;
  const { user_email, user_days, user_stop, emailed } = activation;
  writeTab(KEY, { user_email, user_days, user_stop, emailed } satisfies KeptActivation);
}

/** The tab's last activation: whole while this page lives, else what the tab kept of it, or null. */
export function lastActivation(): Activation | KeptActivation | null {
  if (whole) return whole;
  const kept = readTab(KEY) as Partial<KeptActivation> | null;
  if (typeof kept?.user_email !== "string" || typeof kept.user_days !== "number" || typeof kept.user_stop !== "number") return null;
  // Kept before the answer said whether it was e-mailed: it was.
  return { user_email: kept.user_email, user_days: kept.user_days, user_stop: kept.user_stop, emailed: kept.emailed !== false };
}

export function isWhole(activation: Activation | KeptActivation): activation is Activation {
  return "user_code" in activation;
}
