// Spec section 8: turning an API failure into what the visitor reads.

export type ApiErrorBody = { detail?: unknown; code?: string } | null;

/** Sign-up failure alert: string as is; list → msgs on separate lines; object → its message. */
export function signupAlert(body: ApiErrorBody, fallback: string): string {
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((item) => (item && typeof item === "object" ? String((item as { msg?: unknown }).msg ?? "") : String(item))).join("\n");
  if (detail && typeof detail === "object") {
    const message = (detail as { message?: unknown }).message;
    return typeof message === "string" ? message : JSON.stringify(detail);
  }
  return fallback;
}

/** Support form failure: string as is; list joined with ". " (fallback 'Validation error'); object msg/message. */
export function supportError(body: ApiErrorBody, texts: { generic: string; validation: string; input: string }): string {
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const messages = detail.map((item) => (item && typeof item === "object" ? (item as { msg?: unknown }).msg : item)).filter((m): m is string => typeof m === "string" && m !== "");
    return messages.length ? messages.join(". ") : texts.validation;
  }
  if (detail && typeof detail === "object") {
    const { msg, message } = detail as { msg?: unknown; message?: unknown };
    if (typeof msg === "string") return msg;
    if (typeof message === "string") return message;
    return texts.input;
  }
  return texts.generic;
}

export type ActivationOutcome = "rate_limited" | "already_used" | "generic";

/** Activation failures: by the API's stable code first, then the two phrases of older servers. */
export function activationOutcome(status: number, body: ApiErrorBody): ActivationOutcome {
  const code = body?.code;
  const detail = typeof body?.detail === "string" ? body.detail : "";
  if (code === "rate_limited" || status === 429 || /too many requests/i.test(detail)) return "rate_limited";
  if (code === "request_already_used" || /already been used/i.test(detail)) return "already_used";
  return "generic";
}

/** create-user is retried on failure except on 429 and on a 400 that says the request was used. */
export function shouldRetryActivation(status: number, body: ApiErrorBody): boolean {
  if (status === 429) return false;
  return !(status === 400 && activationOutcome(status, body) === "already_used");
}
