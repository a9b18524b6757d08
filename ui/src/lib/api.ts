// The only module that knows the HTTP details of the API.

import { ACCEPT_LANGUAGE, type Language } from "./language";
import type { ApiErrorBody } from "./errors";

export type FormData = {
  user_email: string;
  user_days: number;
  subscription: string;
  user_comment: string;
  request_id: string;
  sig: string;
};

export type Activation = {
  success: true;
  user_email: string;
  user_code: string;
  user_days: number;
  user_start: number;
  user_stop: number;
  activation_url: string;
};

export type Licence = {
  email: string;
  code: string | null;
  start: string;
  end: string;
  end_timestamp: number;
  days: number;
  active: boolean;
  renewable: boolean;
  renewable_from: string;
  configUrl: string | null;
};

export type VpnServer = {
  id: string;
  name: string;
  flag: string;
  location: string;
  status: "online" | "offline";
  ping: number | null;
  load: string;
  sessions: number;
  rank: string;
  popularity: string;
  popularity_ru: string;
  [label: `popularity_${string}`]: string;
};

export type SystemServer = { id: string; location: string; status: string; ping: number | null; load: string | null };

export type ServerStatus = {
  vpn_servers: VpnServer[];
  system_servers: SystemServer[];
  summary: { vpn_servers_count: number; vpn_servers_online: number; system_servers_count: number; user_count: number; demo: boolean; updated_at: number };
};

/** A failed call: the HTTP status (0 when the network failed) and the body the API sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`API ${status}`);
  }
}

async function post<T>(path: string, body: unknown, language: Language): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": ACCEPT_LANGUAGE[language] },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  const payload = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, payload as ApiErrorBody);
  return payload as T;
}

export const submitEmail = (email: string, hzId: string, language: Language) =>
  post<{ success: true; form_data: FormData }>("/api/submit-email", { email, cookies: { hz_id: hzId } }, language);

export const createUser = (form: FormData, hzId: string, language: Language) =>
  post<Activation>(
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
  post<{ success: true; license: Licence }>("/api/check-license", { email, activation_code: activationCode }, language);

export const renewLicence = (body: { email: string; activation_code: string } | { token: string }, language: Language) =>
  post<{ success: true; license: Licence }>("/api/renew", body, language);

export const sendTicket = (email: string, activationCode: string, message: string, language: Language) =>
  post<{ success: true; ticket: string }>("/api/support", { email, activation_code: activationCode, message }, language);

/** A GET that remembers the last ETag: an unchanged answer comes back as 304 and costs nothing. */
export function conditionalGetter<T>(path: string): () => Promise<T | null> {
  let etag: string | null = null;
  let last: T | null = null;
  return async () => {
    const response = await fetch(path, { headers: etag ? { "If-None-Match": etag } : {} });
    if (response.status === 304) return last;
    if (!response.ok) throw new ApiError(response.status, null);
    etag = response.headers.get("ETag");
    last = (await response.json()) as T;
    return last;
  };
}
