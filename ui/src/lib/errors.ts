// Spec section 8: turning an API failure into what the visitor reads. One mapper, errorText; the
// screens differ only in how they join a list of messages, how they read an object and what they
// fall back to. Outcomes are decided by the HTTP status and the API's stable `code`, never by the
// words of `detail`, which are in the visitor's language.

/**
 * A failure body as it arrived. The API sends `{detail, code}` (its schemas are ApiErrorBody in
 * api.ts), but a proxy or an older server may send anything, so every field is read with care.
 */
export type ReceivedErrorBody = { detail?: unknown; code?: unknown } | null;

/** What differs between screens in showing a failure. */
export type ErrorDisplay = {
  /** Shown when the body has no detail the screen reads: no body, a network failure, another shape. */
  fallback: string;
  /** A list detail (field errors): the `msg` of each item joined by `join`; `empty` when none has one. */
  list?: { join: string; empty?: string };
  /** An object detail: the first of `fields` that is a string, else `otherwise`, else its JSON. */
  object?: { fields: readonly ("msg" | "message")[]; otherwise?: string };
};

/** Each screen's way of showing a failure, as spec section 8 lists them. */
export const ERROR_DISPLAYS = {
  /** Sign-up alert: list on separate lines; object → its message or its serialised form. */
  signup: (fallback: string): ErrorDisplay => ({ fallback, list: { join: "\n" }, object: { fields: ["message"] } }),
  /** Support form: list joined with a space, as the sentences they are, each with its own full
   * stop (http/messages.py: FIELD_ERRORS), or 'Validation error'; object → msg or message (or
   * 'check your input'). */
  support: (texts: { generic: string; validation: string; input: string }): ErrorDisplay => ({
    fallback: texts.generic,
    list: { join: " ", empty: texts.validation },
    object: { fields: ["msg", "message"], otherwise: texts.input },
  }),
  /** Licence check and renewal: list on separate lines; anything else → the fallback. */
  licence: (fallback: string): ErrorDisplay => ({ fallback, list: { join: "\n" } }),
  /** Activation's generic error card: the server's message when it is a string, else nothing. */
  activation: { fallback: "" } as ErrorDisplay,
};

function messageOf(item: unknown): unknown {
  return item && typeof item === "object" ? (item as { msg?: unknown }).msg : item;
}

/** The text a screen shows for a failure body. */
export function errorText(body: ReceivedErrorBody, display: ErrorDisplay): string {
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    if (!display.list) return display.fallback;
    const messages = detail.map(messageOf).filter((message): message is string => typeof message === "string" && message !== "");
    return messages.length ? messages.join(display.list.join) : (display.list.empty ?? "");
  }
  if (detail && typeof detail === "object" && display.object) {
    const fields = detail as Record<string, unknown>;
    const found = display.object.fields.map((name) => fields[name]).find((value): value is string => typeof value === "string");
    return found ?? display.object.otherwise ?? JSON.stringify(detail);
  }
  return display.fallback;
}

export type ActivationOutcome = "rate_limited" | "already_used" | "generic";

/** Activation failures: a 429 or the code rate_limited, the code request_already_used, or anything else. */
export function activationOutcome(status: number, body: ReceivedErrorBody): ActivationOutcome {
  if (status === 429 || body?.code === "rate_limited") return "rate_limited";
  if (body?.code === "request_already_used") return "already_used";
  return "generic";
}

/** create-user is retried on failure except on 429 and on a 400 that says the request was used. */
export function shouldRetryActivation(status: number, body: ReceivedErrorBody): boolean {
  if (status === 429) return false;
  return !(status === 400 && activationOutcome(status, body) === "already_used");
}
