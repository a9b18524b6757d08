import "../../first-load";
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link } from "wouter";
import { ApiError, type Activation, type FormData } from "../../lib/api";
import { createUser } from "./api";
import { visitorId } from "../../lib/cookie";
import { activationOutcome, ERROR_DISPLAYS, errorText, shouldRetryActivation, type ActivationOutcome } from "../../lib/errors";
import { formatDate, plural, type PluralForms } from "../../lib/format";
import { useI18n, useScreenI18n } from "../../i18n/context";
import { isWhole, lastActivation, rememberActivation, type KeptActivation } from "../../lib/last-activation";
import { KEPT, localPath } from "../../lib/language";
import { DownloadTiles, WithArchive } from "../../components/downloads";
import { Icon } from "../../components/icons";
import { checkIcon, refreshIcon } from "../../components/screen-icons";
import { codeGroups } from "../../lib/check-digit";
import { SERVED_CODE_GROUPS } from "../../components/grouped-code";
import { slot, useServed } from "../../lib/served";
import { CopyCode } from "./copy-code";
import { SetupGuide } from "./setup-guide";
import { OneTapSetup } from "../../components/one-tap-setup";
import { forgetSent, markSent, sentSignature } from "./sent-form";

const RETRY_DELAYS_MS = [1000, 3000];

type Arrival = { formData: FormData; email: string };
type State = { kind: "loading" } | { kind: "success"; activation: Activation | KeptActivation } | { kind: "error"; outcome: ActivationOutcome; message: string };
/** What the success screen shows, formatted; without the code and the archive's links once the
 * page that had them is gone (last-activation.ts). */
/** ``mailed``: "yes" when the licence e-mail went too, "no" when the address had had one that day;
 * in the server's answer its slot, for the stylesheet to show or hide the note by. */
type Shown = { email: string; codeGroups: string[] | null; days: string; expires: string; archiveUrl: string | null; setup: ComponentChildren; mailed: string };
/** The signed request the server's "Try again" posts back (spec: create-user's fields). */
const SIGNED_FIELDS = ["email", "user_days", "subscription", "user_comment", "request_id", "sig"] as const;

/** The server's answer to the form post, prerendered with its slots. */
function servedState(outcome: "success" | ActivationOutcome): State | null {
  if (outcome === "success") return null;
  return { kind: "error", outcome, message: outcome === "generic" ? slot("ERROR") : "" };
}

/** The result's heading. The script's result takes the focus (the form that had it is gone); the
 * server's answer opens with it there. */
function useResultHeading() {
  const ref = useRef<HTMLHeadingElement>(null);
  const served = useServed() !== null;
  useEffect(() => {
    if (!served) ref.current?.focus();
  }, []);
  return { ref, tabIndex: -1, autoFocus: served };
}

function ActivationFailure({ outcome, message, retry }: { outcome: ActivationOutcome; message: string; retry: ComponentChildren }) {
  const { language, t } = useI18n();
  const heading = useResultHeading();
  const denied = outcome !== "generic";
  return (
    <section class="container narrow">
      <div class="card error-card" role="alert">
        <h1 {...heading}>{denied ? t("activation.deniedTitle") : t("activation.errorTitle")}</h1>
        {outcome === "rate_limited" && <p>{t("activation.tooMany")}</p>}
        {outcome === "already_used" && <p>{t("activation.alreadyUsed")}</p>}
        {outcome === "generic" && message && <p class="muted">{message}</p>}
        <p>{t("activation.mayExist")}</p>
        <div class="actions">
          {outcome === "generic" && retry}
          <Link href={localPath("/license", language)} class="button button-secondary">{t("activation.checkLicense")}</Link>
          <Link href={localPath("/", language)} class="button button-ghost">{t("activation.backHome")}</Link>
        </div>
      </div>
    </section>
  );
}

function ActivationSuccess({ shown }: { shown: Shown }) {
  const { language, t } = useI18n();
  const heading = useResultHeading();
  return (
    <section class="container activation">
      <div class="center">
        <span class="success-mark"><Icon path={checkIcon} size={36} /></span>
        <h1 {...heading}>{t("activation.successTitle")}</h1>
        <p class="lead">{t("activation.successLead")}</p>
      </div>
      <div class="card details">
        <dl>
          <div><dt>{t("activation.email")}</dt><dd>{shown.email}</dd></div>
          <div class="wide">
            <dt>{t("activation.code")}</dt>
            <dd>
              {shown.codeGroups ? (
                <CopyCode groups={shown.codeGroups} />
              ) : (
                <p class="notice">{t(shown.mailed === "no" ? "activation.codeNotMailed" : "activation.codeInEmail")}</p>
              )}
              {shown.codeGroups && shown.mailed !== "yes" && (
                <p class="notice mail-note" data-mailed={shown.mailed} role="note">
                  {t("activation.notMailed")}
                </p>
              )}
            </dd>
          </div>
          <div><dt>{t("activation.validity")}</dt><dd>{shown.days}</dd></div>
          <div><dt>{t("activation.expires")}</dt><dd>{shown.expires}</dd></div>
        </dl>
      </div>
      <h2>{t("activation.downloadsTitle")}</h2>
      <DownloadTiles />
      <WithArchive href={shown.archiveUrl}>{shown.setup}</WithArchive>
      <SetupGuide />
      <p class="center help-link">
        <Link href={localPath("/support", language)}>{t("activation.help")}</Link>
      </p>
    </section>
  );
}

function takeArrival(): Arrival | null {
  const state = history.state as Partial<Arrival> | null;
  if (!state?.formData || !state.email) return null;
  // Forget the state at once: a reload then goes home instead of creating anything again.
  history.replaceState(null, "");
  return state as Arrival;
}

export function ActivationScreen() {
  const { language, t, dictionary } = useScreenI18n();
  const served = useServed();
  const answered = served?.kind === "activation" ? served.outcome : null;
  const [state, setState] = useState<State>((answered && servedState(answered)) || { kind: "loading" });
  const arrival = useRef<Arrival | null>(null);
  const inFlight = useRef(false);

  const create = async (form: FormData) => {
    if (inFlight.current) return;
    inFlight.current = true;
    markSent(form);
    setState({ kind: "loading" });
    for (let attempt = 0; ; attempt++) {
      try {
        const activation = await createUser(form, visitorId(), language);
        rememberActivation(activation);
        forgetSent();
        setState({ kind: "success", activation });
        break;
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        const body = error instanceof ApiError ? error.body : null;
        if (attempt < RETRY_DELAYS_MS.length && shouldRetryActivation(status, body)) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
          continue;
        }
        setState({ kind: "error", outcome: activationOutcome(status, body), message: errorText(body, ERROR_DISPLAYS.activation) });
        break;
      }
    }
    inFlight.current = false;
  };

  useEffect(() => {
    if (answered) return;
    const sent = sentSignature();
    const found = takeArrival();
    if (!found) {
      // The same page again (another language, a reload): the tab's activation, or home. Home
      // as the server sends it: drawn here, its later sections would load after the page had
      // emptied, and the footer would jump up and back (server-markup.tsx).
      const shownBefore = lastActivation();
      if (shownBefore) setState({ kind: "success", activation: shownBefore });
      else location.replace(localPath("/", language));
      return;
    }
    arrival.current = found;
    if (sent !== found.formData.sig) void create(found.formData);
    else setState({ kind: "error", outcome: "generic", message: "" });
  }, []);

  // The address says the tab has an activation to show (``?kept``): reloaded or opened in another
  // language, the server sends this page for the script to show it; bare, the server sends home
  // (adapters/vpnsite_adapters/http/pages/forms.py: activation_page).
  useEffect(() => {
    if (!answered && state.kind === "success" && !location.search) history.replaceState(history.state, "", `${location.pathname}${KEPT}`);
  }, [state.kind]);

  const retryWithScript = () => {
    if (!arrival.current) return;
    forgetSent();
    void create(arrival.current.formData);
  };

  if (answered === "success") {
    const shown = { email: slot("EMAIL"), codeGroups: SERVED_CODE_GROUPS, days: slot("DAYS"), expires: slot("EXPIRES"), archiveUrl: slot("ARCHIVE_URL"), setup: slot("RAW_ONE_TAP"), mailed: slot("MAILED") };
    return <ActivationSuccess shown={shown} />;
  }

  if (state.kind === "loading") {
    return (
      <section class="container narrow center activation-loading" aria-live="polite" aria-busy="true">
        <span class="spinner large" aria-hidden="true" />
        <h1>{t("activation.loadingTitle")}</h1>
        <p class="muted">{t("activation.loadingText")}</p>
      </section>
    );
  }

  if (state.kind === "error") {
    const retry = answered ? (
      <form method="post" action={localPath("/activation", language)}>
        {SIGNED_FIELDS.map((name) => (
          <input key={name} type="hidden" name={name} value={slot(`SIGNED_${name.toUpperCase()}`)} />
        ))}
        <button type="submit" class="button">
          <Icon path={refreshIcon} size={18} /> {t("activation.tryAgain")}
        </button>
      </form>
    ) : (
      <button type="button" class="button" onClick={retryWithScript}>
        <Icon path={refreshIcon} size={18} /> {t("activation.tryAgain")}
      </button>
    );
    return <ActivationFailure outcome={state.outcome} message={state.message} retry={retry} />;
  }

  const { activation } = state;
  const whole = isWhole(activation) ? activation : null;
  return (
    <ActivationSuccess
      shown={{
        email: activation.user_email,
        codeGroups: whole && codeGroups(whole.user_code),
        days: plural(activation.user_days, dictionary.activation.days as PluralForms, language),
        expires: formatDate(new Date(activation.user_stop * 1000), language),
        archiveUrl: whole && whole.activation_url,
        setup: whole && <OneTapSetup profiles={whole.profiles} />,
        mailed: activation.emailed ? "yes" : "no",
      }}
    />
  );
}
