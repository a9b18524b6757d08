import "../../first-load";
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link } from "wouter";
import { ApiError, type DeviceList, type Licence } from "../../lib/api";
import { listDevices } from "../../components/devices-api";
import { checkLicense, renewLicence } from "./api";
import { codeGroups, codeProblem, cleanTypedCode } from "../../lib/check-digit";
import { ERROR_DISPLAYS, errorText } from "../../lib/errors";
import { formatDate, parseDay, plural } from "../../lib/format";
import { useI18n, useScreenI18n } from "../../i18n/context";
import { isWhole, lastActivation } from "../../lib/last-activation";
import { LICENCE_FORM, localPath } from "../../lib/language";
import { DownloadTiles, WithArchive } from "../../components/downloads";
import { Icon } from "../../components/icons";
import { refreshIcon } from "../../components/screen-icons";
import { servedText, slot, useServed, type RenewLinkStep } from "../../lib/served";
import { GroupedCode, SERVED_CODE_GROUPS } from "../../components/grouped-code";
import { OneTapSetup } from "../../components/one-tap-setup";
import { Devices } from "../../components/devices";
import { CHECK_QUERY, CONNECTION_CHECK_ID } from "../../components/connection-check";

export const SCROLL_AFTER_LOGIN_MS = 100;

function detailOf(error: unknown, fallback: string): string {
  return errorText(error instanceof ApiError ? error.body : null, ERROR_DISPLAYS.licence(fallback));
}

/** The dashboard as the server answers the no-script form: the licence's values are slots. */
function ServedDashboard({ active }: { active: boolean }) {
  const { language, t } = useI18n();
  const shown = { email: slot("EMAIL"), code: slot("CODE"), codeGroups: SERVED_CODE_GROUPS, started: slot("STARTED"), ends: slot("ENDS"), remaining: slot("REMAINING") };
  return (
    <DashboardView active={active} shown={shown} configUrl={active ? slot("ARCHIVE_URL") : null} devices={active && slot("RAW_DEVICES")} setup={active && <DashboardExtras setup={slot("RAW_ONE_TAP")} />}
      renewal={<ServedRenewal />}
      another={<Link href={localPath("/license", language)} class="button button-secondary">{t("licence.checkAnother")}</Link>}
    />
  );
}

/** The licence e-mail's link for a phone (``/license/setup/…``), as the server answers it: the
 * licence and its servers' one-tap profiles, opened by the link alone (the code stays in the e-mail). */
function ServedSetup() {
  const { language, t } = useI18n();
  return (
    <section class="container dashboard">
      <h1 id="dashboard-title" tabIndex={-1} autoFocus>{t("licence.dashboardTitle")}</h1>
      <div class="card details">
        <p class="badge badge-green">{t("licence.active")}</p>
        <dl>
          <div><dt>{t("licence.email")}</dt><dd>{slot("EMAIL")}</dd></div>
          <div><dt>{t("licence.ends")}</dt><dd>{slot("ENDS")}</dd></div>
          <div><dt>{t("licence.remaining")}</dt><dd class="big-number">{slot("REMAINING")}</dd></div>
        </dl>
      </div>
      <h2>{t("activation.downloadsTitle")}</h2>
      <DownloadTiles />
      <WithArchive href={slot("ARCHIVE_URL")}>{slot("RAW_ONE_TAP")}</WithArchive>
      <p class="center help-link">
        <Link href={localPath("/support", language)}>{t("activation.help")}</Link>
      </p>
    </section>
  );
}

/** The served dashboard's renewal, as the script's: the button inside the window, else the day it
 * opens, and after a renewal what it did. The server says which (RENEWAL: "renewable", "waiting"
 * or "renewed"; the stylesheet shows that one). The button posts the licence back with ``renew``. */
function ServedRenewal() {
  const { language, t } = useI18n();
  return (
    <div class="served-renewal" data-renewal={slot("RENEWAL")}>
      <form method="post" action={localPath("/license", language)} class="renew-now">
        <input type="hidden" name="email" value={slot("EMAIL")} />
        <input type="hidden" name="activation_code" value={slot("CODE")} />
        <input type="hidden" name="renew" value="yes" />
        <button type="submit" class="button">
          <Icon path={refreshIcon} size={18} /> {t("licence.renew", { days: servedText("term") })}
        </button>
      </form>
      <p class="muted small renew-waiting">{t("licence.renewFrom", { date: slot("RENEW_FROM") })}</p>
      <p class="notice renew-done" role="status">{t("licence.renewed", { date: slot("ENDS") })}</p>
    </div>
  );
}

/** What an active licence's dashboard adds below the apps: the setup list and the connection
 * check (its devices come first, under the licence: DashboardView). */
function DashboardExtras({ setup }: { setup: ComponentChildren }) {
  const { language, t } = useI18n();
  return (
    <>
      {setup}
      <p><Link href={`${localPath("/server-status", language)}?${CHECK_QUERY}=yes#${CONNECTION_CHECK_ID}`}>{t("devices.checkLink")}</Link></p>
    </>
  );
}

/** ``code``: the licence's code whole, as the licence form takes it (for LICENCE_FORM). */
type DashboardShown = { email: string; code: string; codeGroups: string[]; started: string; ends: string; remaining: string };

function DashboardView({ active, shown, configUrl, renewal, another, devices, setup }: { active: boolean; shown: DashboardShown; configUrl: string | null; renewal: ComponentChildren; another: ComponentChildren; devices?: ComponentChildren; setup?: ComponentChildren }) {
  const { language, t, list } = useI18n();
  // The script's dashboard moves the focus to its heading when it shows; the server's answer
  // (after a form post, or another language chosen from a dashboard) opens with it there.
  const served = useServed()?.kind === "licence";
  return (
    <section class="container dashboard">
      <h1 id="dashboard-title" tabIndex={-1} autoFocus={served}>{t("licence.dashboardTitle")}</h1>
      {/* What the language menu posts to show this dashboard in another language (layout.tsx). */}
      <form id={LICENCE_FORM} method="post" action={localPath("/license", language)} hidden>
        <input type="hidden" name="email" value={shown.email} />
        <input type="hidden" name="activation_code" value={shown.code} />
      </form>
      <div class="card details">
        <p class={active ? "badge badge-green" : "badge badge-grey"}>{active ? t("licence.active") : t("licence.ended")}</p>
        <dl>
          <div><dt>{t("licence.email")}</dt><dd>{shown.email}</dd></div>
          <div class="wide"><dt>{t("licence.code")}</dt><dd><GroupedCode groups={shown.codeGroups} /></dd></div>
          <div><dt>{t("licence.started")}</dt><dd>{shown.started}</dd></div>
          <div><dt>{t("licence.ends")}</dt><dd>{shown.ends}</dd></div>
          <div><dt>{t("licence.remaining")}</dt><dd class="big-number">{shown.remaining}</dd></div>
        </dl>
        {renewal}
      </div>
      {devices}
      <h2>{t("activation.downloadsTitle")}</h2>
      <DownloadTiles />
      <WithArchive href={configUrl}>{setup}</WithArchive>
      <div class="card">
        <h2>{t("licence.stepsTitle")}</h2>
        <ol class="steps">
          {list("licence.steps").map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
      <div class="actions">
        {another}
        <Link href={`${localPath("/", language)}#signup`} class="button button-ghost">{t("licence.getFree")}</Link>
      </div>
    </section>
  );
}

export function Dashboard({ licence, devices, credentials, onAnother }: { licence: Licence; devices: DeviceList | null; credentials: { email: string; code: string }; onAnother: () => void }) {
  const { language, t, dictionary } = useScreenI18n();
  const [current, setCurrent] = useState(licence);
  const [renewing, setRenewing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const renew = async () => {
    setRenewing(true);
    try {
      const result = await renewLicence({ email: credentials.email, activation_code: credentials.code }, language);
      setCurrent(result.license);
      setNotice(t("licence.renewed", { date: formatDate(parseDay(result.license.end), language) }));
    } catch (error) {
      setNotice(detailOf(error, t("support.error")));
    } finally {
      setRenewing(false);
    }
  };
  const shown = {
    email: current.email,
    code: credentials.code,
    codeGroups: codeGroups(current.code ?? credentials.code),
    started: formatDate(parseDay(current.start), language),
    ends: formatDate(parseDay(current.end), language),
    remaining: String(current.days),
  };
  const renewal = (
    <>
      {current.renewable ? (
        <button type="button" class="button" onClick={renew} disabled={renewing}>
          {renewing ? <span class="spinner" aria-hidden="true" /> : <Icon path={refreshIcon} size={18} />} {t("licence.renew", { days: plural(current.term_days, dictionary.activation.days, language) })}
        </button>
      ) : (
        <p class="muted small">{t("licence.renewFrom", { date: formatDate(parseDay(current.renewable_from), language) })}</p>
      )}
      {notice && <p class="notice" role="status">{notice}</p>}
    </>
  );
  return (
    <DashboardView active={current.active} shown={shown} configUrl={current.configUrl ?? null} renewal={renewal}
      devices={current.active && <Devices credentials={credentials} listed={devices} />}
      setup={current.active && <DashboardExtras setup={<OneTapSetup profiles={current.profiles} />} />}
      another={<button type="button" class="button button-secondary" onClick={onAnother}>{t("licence.checkAnother")}</button>}
    />
  );
}

/** The renewal reminder's link (``/license?renew=…``), as the server answers it, with or without
 * the script: a button that posts to the link itself, then what came of it. */
function ServedRenewByLink({ step }: { step: RenewLinkStep }) {
  const { t } = useI18n();
  return (
    <div class="card renew-card">
      {step === "ask" ? (
        <form method="post">
          <button type="submit" class="button button-large">
            <Icon path={refreshIcon} size={18} /> {t("licence.renew", { days: servedText("term") })}
          </button>
        </form>
      ) : (
        <p role="status">{step === "done" ? t("licence.renewed", { date: slot("ENDS") }) : slot("ERROR")}</p>
      )}
    </div>
  );
}

const ERROR_ID = "licence-error";

/** An input's link to the form's alert while it is the field in the wrong. */
function invalidWhen(invalid: boolean) {
  return invalid ? { "aria-invalid": "true" as const, "aria-describedby": ERROR_ID } : {};
}

export function LicenceCheck() {
  const { language, t } = useI18n();
  const served = useServed();
  // Prerendered as the server's answer to a failed check: the alert and what was typed.
  const refused = served?.kind === "licence-error";
  const [email, setEmail] = useState(refused ? slot("EMAIL") : "");
  const [code, setCode] = useState(refused ? slot("CODE") : "");
  const [checking, setChecking] = useState(false);
  // Which fields the alert is about: a mistyped code is the code's fault; a refusal, both.
  const [error, setError] = useState<{ text: string; codeOnly: boolean } | null>(refused ? { text: slot("ERROR"), codeOnly: false } : null);
  const [found, setFound] = useState<{ licence: Licence; devices: DeviceList | null; email: string; code: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  const backToForm = useRef(false);

  useEffect(() => {
    // The tab's last activation: its e-mail, and its code while the page that showed it lives.
    const activation = lastActivation();
    if (activation) {
      setEmail(activation.user_email);
      if (isWhole(activation)) setCode(activation.user_code);
    }
  }, []);

  // Back from a dashboard, the visitor is where the form starts, not wherever the dashboard's
  // button was (on a phone, the footer).
  useEffect(() => {
    if (found || !backToForm.current) return;
    backToForm.current = false;
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [found]);

  // A refusal's alert sits above the fields, maybe above the viewport: bring it into view.
  useEffect(() => {
    if (error) alert.current?.scrollIntoView({ block: "nearest" });
  }, [error]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const problem = codeProblem(code);
    if (problem) {
      setError({ text: problem === "code_format" ? t("licence.codeFormat") : t("licence.codeTypo"), codeOnly: true });
      return;
    }
    setChecking(true);
    setError(null);
    try {
      const credentials = { email: email.trim(), code: cleanTypedCode(code) };
      const result = await checkLicense(credentials.email, credentials.code, language);
      // The devices come before the dashboard shows, not under the visitor's pointer after it.
      // Asked only once the check has passed: a mistyped code is counted once, not twice.
      const devices = result.license.active ? await listDevices(credentials.email, credentials.code, language).catch(() => null) : null;
      setFound({ licence: result.license, devices, ...credentials });
      setTimeout(() => {
        window.scrollTo({ top: 0, behavior: "instant" });
        // The form, and the button that had the focus, are gone: the focus goes to what replaced them.
        document.getElementById("dashboard-title")?.focus({ preventScroll: true });
      }, SCROLL_AFTER_LOGIN_MS);
    } catch (failure) {
      setError({ text: detailOf(failure, t("licence.notFound")), codeOnly: false });
    } finally {
      setChecking(false);
    }
  };
  const another = () => {
    backToForm.current = true;
    setFound(null);
  };

  if (served?.kind === "licence") return <ServedDashboard active={served.active} />;
  if (served?.kind === "licence-setup") return <ServedSetup />;
  if (found) {
    return <Dashboard licence={found.licence} devices={found.devices} credentials={{ email: found.email, code: found.code }} onAnother={another} />;
  }
  return (
    <section class="container narrow">
      <h1 ref={heading} tabIndex={-1}>{t("licence.title")}</h1>
      <p class="lead">{t("licence.lead")}</p>
      {served?.kind === "renew-link" && <ServedRenewByLink step={served.step} />}
      <form class="card form" method="post" action={localPath("/license", language)} onSubmit={submit}>
        {error && (
          <p class="alert" role="alert" id={ERROR_ID} ref={alert}>
            {error.text}
          </p>
        )}
        <label for="licence-email">{t("licence.email")}</label>
        <input id="licence-email" name="email" type="email" required autoComplete="email" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} {...invalidWhen(error !== null && !error.codeOnly)} />
        <label for="licence-code">{t("licence.code")}</label>
        <input id="licence-code" name="activation_code" required inputMode="numeric" autoComplete="off" placeholder={t("licence.codePlaceholder")} value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value)} {...invalidWhen(error !== null)} />
        <button type="submit" class="button button-large" disabled={checking}>
          {checking && <span class="spinner" aria-hidden="true" />}
          {checking ? t("licence.checking") : t("licence.submit")}
        </button>
        <div class="form-links">
          <Link href={`${localPath("/", language)}#signup`}>{t("licence.newUser")}</Link>
          <Link href={localPath("/support", language)}>{t("licence.needSupport")}</Link>
        </div>
      </form>
    </section>
  );
}
