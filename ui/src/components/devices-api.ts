// The devices panel's calls (components/devices.tsx), which the licence page and the activation
// share: the licence's sessions, ending them, and letting a held-out device back.
import { post } from "../lib/api";
import type { Language } from "../lib/language";

export const listDevices = (email: string, activationCode: string, language: Language) =>
  post("/api/devices", { email, activation_code: activationCode }, language);

/** Ends one session of the licence, or all of them (session null). */
export const disconnectDevices = (email: string, activationCode: string, session: string | null, language: Language) =>
  post("/api/devices/disconnect", session === null ? { email, activation_code: activationCode, all: true } : { email, activation_code: activationCode, session }, language);

/** Lets the licence's WireGuard device back on a server it was disconnected from. */
export const connectAgain = (email: string, activationCode: string, server: string, language: Language) =>
  post("/api/devices/connect-again", { email, activation_code: activationCode, server }, language);
