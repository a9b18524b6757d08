// The licence e-mail's "Didn't sign up? Erase this address": the page its link opens, and the
// server's answers to the page's button (adapters/vpnsite_adapters/http/pages/erasure_pages.py).
//
// Only the server sends these pages, prerendered here with slots for what it knows (the address,
// the counts, a refusal's reason; TOKEN, the link's own, in the language menu's links). They ship
// no script: the button is a plain form post to the page's own address (a form with no action),
// so it works the same with JavaScript and without, and opening the link changes nothing.
import { Link } from "wouter";
import { Icon } from "../../components/icons";
import { checkIcon, trashIcon } from "../../components/screen-icons";
import { useI18n } from "../../i18n/context";
import { localPath } from "../../lib/language";
import { slot, type ErasureStep } from "../../lib/served";

/** Every page the build prerenders for the link: its file name (a screen the server answers with). */
export const ERASURE_SCREENS: { name: string; step: ErasureStep }[] = [
  { name: "erasure-confirm", step: "confirm" },
  { name: "erasure-done", step: "done" },
  { name: "erasure-gone", step: "gone" },
  { name: "erasure-failed", step: "failed" },
];

/** Where the link leads, with the token's slot: the language menu's links keep it, so the page
 * reads the same in another language. */
export const erasurePath = () => `/erase/${slot("TOKEN")}`;

function EraseButton({ label }: { label: string }) {
  return (
    <form method="post">
      <button type="submit" class="button button-danger">
        <Icon path={trashIcon} size={18} /> {label}
      </button>
    </form>
  );
}

function HomeLink({ primary = false }: { primary?: boolean }) {
  const { language, t } = useI18n();
  return <Link href={localPath("/", language)} class={primary ? "button" : "button button-ghost"}>{t("erasure.home")}</Link>;
}

function Confirm() {
  const { t, list } = useI18n();
  return (
    <section class="container narrow erasure">
      <div class="card">
        <h1>{t("erasure.confirmTitle")}</h1>
        <p>{t("erasure.confirmLead")}</p>
        <div class="details">
          <dl>
            <div class="wide"><dt>{t("erasure.address")}</dt><dd>{slot("EMAIL")}</dd></div>
          </dl>
        </div>
        <ul class="steps">
          {list("erasure.what").map((line) => <li key={line}>{line}</li>)}
        </ul>
        <p class="muted">{t("erasure.confirmKeep")}</p>
        <div class="actions">
          <EraseButton label={t("erasure.button")} />
          <HomeLink />
        </div>
      </div>
    </section>
  );
}

function Done() {
  const { t } = useI18n();
  const counted: [string, string][] = [
    ["erasure.licences", "LICENCES"],
    ["erasure.ended", "ENDED"],
    ["erasure.tickets", "TICKETS"],
    ["erasure.mails", "MAILS"],
  ];
  return (
    <section class="container narrow erasure">
      <div class="center">
        <span class="success-mark"><Icon path={checkIcon} size={36} /></span>
        <h1>{t("erasure.doneTitle")}</h1>
        <p class="lead">{t("erasure.doneLead")}</p>
      </div>
      <div class="card details">
        <dl>
          <div class="wide"><dt>{t("erasure.address")}</dt><dd>{slot("EMAIL")}</dd></div>
          {counted.map(([key, name]) => (
            <div key={name}><dt>{t(key)}</dt><dd>{slot(name)}</dd></div>
          ))}
        </dl>
      </div>
      <p class="muted">{t("erasure.doneKept")}</p>
      <div class="actions"><HomeLink primary /></div>
    </section>
  );
}

function Gone() {
  const { language, t } = useI18n();
  return (
    <section class="container narrow center erasure">
      <h1>{t("erasure.goneTitle")}</h1>
      <p class="lead">{t("erasure.goneText")}</p>
      <div class="actions">
        <HomeLink primary />
        <Link href={localPath("/support", language)} class="button button-ghost">{t("erasure.support")}</Link>
      </div>
    </section>
  );
}

function Failed() {
  const { t } = useI18n();
  return (
    <section class="container narrow erasure">
      <div class="card error-card" role="alert">
        <h1>{t("erasure.failedTitle")}</h1>
        <p>{slot("ERROR")}</p>
        <div class="actions">
          <EraseButton label={t("erasure.tryAgain")} />
          <HomeLink />
        </div>
      </div>
    </section>
  );
}

export function ErasureScreen({ step }: { step: ErasureStep }) {
  if (step === "confirm") return <Confirm />;
  if (step === "done") return <Done />;
  if (step === "gone") return <Gone />;
  return <Failed />;
}
