import assert from "node:assert/strict";
import { test } from "node:test";
import { activationOutcome, ERROR_DISPLAYS, errorText, shouldRetryActivation, type ReceivedErrorBody } from "../src/lib/errors";

const signupAlert = (body: ReceivedErrorBody, fallback: string) => errorText(body, ERROR_DISPLAYS.signup(fallback));
const supportError = (body: ReceivedErrorBody, support: typeof texts) => errorText(body, ERROR_DISPLAYS.support(support));
const texts = { generic: "An error occurred. Please try again.", validation: "Validation error", input: "Please check your input and try again." };

test("the sign-up alert reads strings, lists and objects", () => {
  assert.equal(signupAlert({ detail: "Too many requests." }, "x"), "Too many requests.");
  assert.equal(signupAlert({ detail: [{ msg: "a" }, { msg: "b" }] }, "x"), "a\nb");
  assert.equal(signupAlert({ detail: { message: "m" } }, "x"), "m");
  assert.equal(signupAlert({ detail: { other: 1 } }, "x"), '{"other":1}');
  assert.equal(signupAlert(null, "An error occurred. Please try again."), "An error occurred. Please try again.");
});

test("the support form joins validation messages as sentences and falls back", () => {
  assert.equal(supportError({ detail: "Plain." }, texts), "Plain.");
  // The API's field messages are sentences with their own stop (tests/unit/test_support_errors.py):
  // joined, each keeps its one stop, never "..".
  const ended = supportError({ detail: [{ msg: "Enter a valid e-mail address." }, { msg: "The message is required." }, { msg: "Is it 20 digits?" }] }, texts);
  assert.equal(ended, "Enter a valid e-mail address. The message is required. Is it 20 digits?");
  assert.doesNotMatch(ended, /\.\./);
  assert.equal(supportError({ detail: [] }, texts), "Validation error");
  assert.equal(supportError({ detail: { msg: "M" } }, texts), "M");
  assert.equal(supportError({ detail: {} }, texts), "Please check your input and try again.");
  assert.equal(supportError(null, texts), "An error occurred. Please try again.");
});

test("the licence check reads strings and lists and falls back on anything else", () => {
  const licence = (body: ReceivedErrorBody) => errorText(body, ERROR_DISPLAYS.licence("Activation code or e-mail not found."));
  assert.equal(licence({ detail: "Not renewable yet.", code: "not_renewable_yet" }), "Not renewable yet.");
  assert.equal(licence({ detail: [{ msg: "a" }, { msg: "b" }], code: "validation_error" }), "a\nb");
  assert.equal(licence({ detail: { message: "m" } }), "Activation code or e-mail not found.");
  assert.equal(licence(null), "Activation code or e-mail not found.");
});

test("the activation error card shows only a string detail", () => {
  assert.equal(errorText({ detail: "Invalid signature.", code: "invalid_signature" }, ERROR_DISPLAYS.activation), "Invalid signature.");
  assert.equal(errorText({ detail: [{ msg: "a" }], code: "validation_error" }, ERROR_DISPLAYS.activation), "");
  assert.equal(errorText(null, ERROR_DISPLAYS.activation), "");
});

test("activation failures map by status and code, never by the words of the detail", () => {
  assert.equal(activationOutcome(429, { code: "rate_limited", detail: "Слишком много запросов" }), "rate_limited");
  assert.equal(activationOutcome(429, null), "rate_limited");
  assert.equal(activationOutcome(400, { code: "request_already_used" }), "already_used");
  assert.equal(activationOutcome(400, { detail: "This link has already been used." }), "generic");
  assert.equal(activationOutcome(500, { detail: "Too many requests from you" }), "generic");
  assert.equal(activationOutcome(403, { code: "invalid_signature", detail: "bad" }), "generic");
});

test("create-user is retried except on 429 and on a used request", () => {
  assert.equal(shouldRetryActivation(0, null), true);
  assert.equal(shouldRetryActivation(503, null), true);
  assert.equal(shouldRetryActivation(429, { code: "rate_limited" }), false);
  assert.equal(shouldRetryActivation(400, { code: "request_already_used" }), false);
  assert.equal(shouldRetryActivation(400, { detail: "This link has already been used." }), true);
  assert.equal(shouldRetryActivation(400, { code: "invalid_json" }), true);
});
