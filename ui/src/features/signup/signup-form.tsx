import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "wouter";
import { ApiError, post } from "../../lib/api";
import { visitorId } from "../../lib/cookie";
import { ERROR_DISPLAYS, errorText } from "../../lib/errors";
import { useI18n } from "../../i18n/context";
import { localPath } from "../../lib/language";
import { Icon, shieldIcon } from "../../components/icons";
import { slot, useServed } from "../../lib/served";

export function SignupForm() {
  const { language, t } = useI18n();
  const [, navigate] = useLocation();
  // Prerendered as the server's answer to a refused sign-up: the alert and the address typed.
  const refused = useServed()?.kind === "signup-error";
  const [email, setEmail] = useState(refused ? slot("EMAIL") : "");
  const [submitting, setSubmitting] = useState(false);
  const [alert, setAlert] = useState<string | null>(refused ? slot("ERROR") : null);
  // What the form is doing while it solves a challenge (proof-of-work.ts), read out as it changes.
  const [status, setStatus] = useState("");
  const inFlight = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (location.hash === "#signup") {
      document.getElementById("signup")?.scrollIntoView({ block: "center" });
      input.current?.focus({ preventScroll: true });
    }
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    if (!address || inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setAlert(null);
    try {
      // `altcha`: the solution of the challenge a 428 asked for.
      const send = (altcha?: string) => post("/api/submit-email", { email: address, cookies: { hz_id: visitorId() }, altcha }, language);
      const result = await send().catch((error: ApiError) =>
        // Sign-ups come faster than people do: the solver loads only now that it is asked for.
        error?.status === 428 ? import("./proof-of-work").then((pow) => pow.default(error, send, language, setStatus)) : Promise.reject(error),
      );
      navigate(localPath("/activation", language), { state: { formData: result.form_data, email: address } });
    } catch (error) {
      setAlert(errorText(error instanceof ApiError ? error.body : null, ERROR_DISPLAYS.signup(t("home.error"))));
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  return (
    <form id="signup" class="signup-form" method="post" action={localPath("/activation", language)} onSubmit={submit}>
      <label for="signup-email" class="visually-hidden">{t("home.emailLabel")}</label>
      <div class="signup-row">
        <input
          ref={input}
          id="signup-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder={t("home.emailPlaceholder")}
          value={email}
          disabled={submitting}
          onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="button button-large" disabled={submitting} aria-busy={submitting}>
          {submitting ? <span class="spinner" aria-hidden="true" /> : <Icon path={shieldIcon} size={18} />}
          {submitting ? t("home.submitting") : t("home.submit")}
        </button>
      </div>
      {status && (
        <p class="muted small" role="status">
          {status}
        </p>
      )}
      {alert && (
        <p class="alert" role="alert">
          {alert}
        </p>
      )}
    </form>
  );
}
