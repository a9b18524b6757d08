// The calls only the screens after the home page make (the activation, the licence page, the
// devices, support, the connection check): a module of their own, so the home page's first script
// does not carry them (api.ts holds what it needs, and how a call is made).
import { ApiError, post, send, type FormData, type GetPath, type GetQuery, type GetResult, type PostBody } from "./api";
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

/** Lets the licence's WireGuard device back on a server it was disconnected from. */
export const connectAgain = (email: string, activationCode: string, server: string, language: Language) =>
  post("/api/devices/connect-again", { email, activation_code: activationCode, server }, language);

export const checkConnection = () => get("/api/connection-check");

/** A GET answered for this visitor alone (never cached), typed by its path and its query. */
export async function get<P extends GetPath>(path: P, query?: GetQuery<P>): Promise<GetResult<P>> {
  const response = await send(query ? `${path}?${new URLSearchParams(query as Record<string, string>)}` : path, { cache: "no-store" });
  if (!response.ok) throw new ApiError(response.status, null);
  return (await response.json()) as GetResult<P>;
}
