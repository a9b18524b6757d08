import type { Activation } from "./api";

// The tab's last activation: the sign-up stores it, the licence check fills its form from it.
const LAST_ACTIVATION_KEY = "vpnsite:last-activation";

export function rememberActivation(activation: Activation): void {
  sessionStorage.setItem(LAST_ACTIVATION_KEY, JSON.stringify(activation));
}

/** The tab's last activation, or null; read as partial, since another version of the site may have stored it. */
export function lastActivation(): Partial<Activation> | null {
  const stored = sessionStorage.getItem(LAST_ACTIVATION_KEY);
  return stored ? (JSON.parse(stored) as Partial<Activation>) : null;
}

const SHOWN_FIELDS = ["user_email", "user_code", "user_days", "user_stop", "activation_url"] as const;

/** Whether a stored activation holds everything the success screen shows. */
export function isComplete(stored: Partial<Activation> | null): stored is Activation {
  return stored !== null && SHOWN_FIELDS.every((field) => stored[field] !== undefined);
}
