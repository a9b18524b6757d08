// The calls only the screens after the home page make (the activation, the licence page, the
// devices, support, the connection check): a module of their own, so the home page's first script
// does not carry them (api.ts holds what it needs, and how a call is made).
import { get, post, type FormData, type PostBody } from "./api";
import type { Language } from "./language";

export const createUser = (form: FormData, hzId: string, language: Language) =>
  post(
    "/api/create-user",
    {
      email: form.user_email,
      user_days: form.user_days,
      subscription: form.subscription,
      user_comment: form.user_comment,
      request_id: form.request_id,
      sig: form.sig,
      cookies: { hz_id: hzId },
    },
    language,
  );

export const checkLicense = (email: string, activationCode: string, language: Language) =>
  post("/api/check-license", { email, activation_code: activationCode }, language);

export const renewLicence = (body: PostBody<"/api/renew">, language: Language) => post("/api/renew", body, language);

export const sendTicket = (email: string, activationCode: string, message: string, language: Language) =>
  post("/api/support", { email, activation_code: activationCode, message }, language);

export const listDevices = (email: string, activationCode: string, language: Language) =>
  post("/api/devices", { email, activation_code: activationCode }, language);

/** Ends one session of the licence, or all of them (session null). */
export const disconnectDevices = (email: string, activationCode: string, session: string | null, language: Language) =>
  post("/api/devices/disconnect", session === null ? { email, activation_code: activationCode, all: true } : { email, activation_code: activationCode, session }, language);

export const checkConnection = () => get("/api/connection-check");
