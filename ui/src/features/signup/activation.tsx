import { useEffect, useRef, useState } from "preact/hooks";
import { Link, useLocation } from "wouter";
import { ApiError, createUser, type Activation, type FormData } from "../../lib/api";
import { visitorId } from "../../lib/cookie";
import { activationOutcome, ERROR_DISPLAYS, errorText, shouldRetryActivation, type ActivationOutcome } from "../../lib/errors";
import { formatDate, plural, type PluralForms } from "../../lib/format";
import { useI18n } from "../../lib/i18n";
import { rememberActivation } from "../../lib/last-activation";
import { localPath } from "../../lib/language";
import { ArchiveLink, DownloadTiles } from "../../components/downloads";
import { Icon } from "../../components/icons";
import { CopyCode } from "./copy-code";
import { SetupGuide } from "./setup-guide";

const RETRY_DELAYS_MS = [1000, 3000];
const marker = (sig: string) => `created${sig}`;

type Arrival = { formData: FormData; email: string };
type State = { kind: "loading" } | { kind: "success"; activation: Activation } | { kind: "error"; outcome: ActivationOutcome; message: string };

function takeArrival(): Arrival | null {
  const state = history.state as Partial<Arrival> | null;
  if (!state?.formData || !state.email) return null;
  // Forget the state at once: a reload then goes home instead of creating anything again.
  history.replaceState(null, "");
  return state as Arrival;
}

export function ActivationScreen() {
  const { language, t, dictionary } = useI18n();
  const [, navigate] = useLocation();
  const [state, setState] = useState<State>({ kind: "loading" });
  const arrival = useRef<Arrival | null>(null);
  const inFlight = useRef(false);

  const create = async (form: FormData) => {
    if (inFlight.current) return;
    inFlight.current = true;
    localStorage.setItem(marker(form.sig), "1");
    setState({ kind: "loading" });
    for (let attempt = 0; ; attempt++) {
      try {
        const activation = await createUser(form, visitorId(), language);
        rememberActivation(activation);
        localStorage.removeItem(marker(form.sig));
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
    const found = takeArrival();
    if (!found) {
      navigate(localPath("/", language), { replace: true });
      return;
    }
    arrival.current = found;
    if (localStorage.getItem(marker(found.formData.sig)) === null) void create(found.formData);
    else setState({ kind: "error", outcome: "generic", message: "" });
  }, []);

  const retry = () => {
    if (!arrival.current) return;
    localStorage.removeItem(marker(arrival.current.formData.sig));
    void create(arrival.current.formData);
  };

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
    const denied = state.outcome !== "generic";
    return (
      <section class="container narrow">
        <div class="card error-card" role="alert">
          <h1>{denied ? t("activation.deniedTitle") : t("activation.errorTitle")}</h1>
          {state.outcome === "rate_limited" && <p>{t("activation.tooMany")}</p>}
          {state.outcome === "already_used" && <p>{t("activation.alreadyUsed")}</p>}
          {state.outcome === "generic" && state.message && <p class="muted">{state.message}</p>}
          <p>{t("activation.mayExist")}</p>
          <div class="actions">
            {state.outcome === "generic" && (
              <button type="button" class="button" onClick={retry}>
                <Icon name="refresh" size={18} /> {t("activation.tryAgain")}
              </button>
            )}
            <Link href={localPath("/license", language)} class="button button-secondary">{t("activation.checkLicense")}</Link>
            <Link href={localPath("/", language)} class="button button-ghost">{t("activation.backHome")}</Link>
          </div>
        </div>
      </section>
    );
  }

  const { activation } = state;
  const days = plural(activation.user_days, dictionary.activation.days as PluralForms, language);
  return (
    <section class="container activation">
      <div class="center">
        <span class="success-mark"><Icon name="check" size={36} /></span>
        <h1>{t("activation.successTitle")}</h1>
        <p class="lead">{t("activation.successLead")}</p>
      </div>
      <div class="card details">
        <dl>
          <div><dt>{t("activation.email")}</dt><dd>{activation.user_email}</dd></div>
          <div class="wide"><dt>{t("activation.code")}</dt><dd><CopyCode code={activation.user_code} /></dd></div>
          <div><dt>{t("activation.validity")}</dt><dd>{days}</dd></div>
          <div><dt>{t("activation.expires")}</dt><dd>{formatDate(new Date(activation.user_stop * 1000), language)}</dd></div>
        </dl>
      </div>
      <h2>{t("activation.downloadsTitle")}</h2>
      <DownloadTiles />
      <ArchiveLink href={activation.activation_url} />
      <SetupGuide />
      <p class="center">
        <Link href={localPath("/support", language)}>{t("activation.help")}</Link>
      </p>
    </section>
  );
}
