import "../../first-load";
import { useEffect, useRef, useState } from "preact/hooks";
import { faqIn, filterFaq, type FaqItem } from "../../content/faq";
import type { PageText } from "../../content/types";
import { ApiError } from "../../lib/api";
import { sendTicket } from "./api";
import { ERROR_DISPLAYS, errorText } from "../../lib/errors";
import { useI18n } from "../../i18n/context";
import { Icon, chevronIcon, sendIcon } from "../../components/icons";
import { checkIcon, searchIcon } from "../../components/screen-icons";
import { localPath } from "../../lib/language";
import { servedText, slot, useServed } from "../../lib/served";

function Faq({ faq }: { faq: FaqItem[] }) {
  const { t } = useI18n();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  // Keep what a quick visitor typed before the page came to life.
  useEffect(() => setQuery((document.getElementById("faq-search") as HTMLInputElement | null)?.value ?? ""), []);
  const items = filterFaq(faq, query);
  return (
    <div class="faq">
      <label for="faq-search" class="visually-hidden">{t("support.search")}</label>
      {/* The search filters with the script; a page without it hides the box (build.mjs: noscript). */}
      <div class="search needs-script">
        <Icon path={searchIcon} size={20} />
        <input id="faq-search" type="search" placeholder={t("support.search")} value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
      </div>
      {items.length === 0 ? (
        <p class="muted empty" role="status">{t("support.empty")}</p>
      ) : (
        <ul class="faq-list">
          {items.map((item) => {
            const expanded = open === item.id;
            return (
              // <details> opens without JavaScript; the script keeps one answer open at a time.
              <li key={item.id}>
                <details
                  class={`faq-item accent-${item.colour}`}
                  open={expanded}
                  onToggle={(event) => {
                    const opened = (event.currentTarget as HTMLDetailsElement).open;
                    if (opened) setOpen(item.id);
                    else setOpen((current) => (current === item.id ? null : current));
                  }}
                >
                  <summary id={`faq-q-${item.id}`}>
                    <span class="faq-icon"><Icon path={item.icon} size={20} /></span>
                    <span class="faq-question">{item.question}</span>
                    <Icon path={chevronIcon} size={20} />
                  </summary>
                  <div id={`faq-${item.id}`} class="faq-answer">
                    <p>{item.answer}</p>
                  </div>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function ContactForm() {
  const { language, t } = useI18n();
  const served = useServed()?.kind;
  // Prerendered as the server's answers to the form: refused (the alert and what was typed) or sent.
  const refused = served === "support-error";
  const [email, setEmail] = useState(refused ? slot("EMAIL") : "");
  const [code, setCode] = useState(refused ? slot("CODE") : "");
  const [message, setMessage] = useState(refused ? slot("MESSAGE") : "");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(refused ? slot("ERROR") : null);
  const [ticket, setTicket] = useState<string | null>(served === "support-sent" ? slot("TICKET") : null);
  const sentHeading = useRef<HTMLHeadingElement>(null);
  const another = useRef(false);

  // The confirmation takes the form's place, and the focus with it, in view (on a phone it comes
  // before the FAQ: styles.css). The server's answer opens with the focus there (autofocus). Back
  // from it ("Submit another ticket"), the focus goes to the form's first field, not to the page.
  useEffect(() => {
    if (!ticket && another.current) document.getElementById("support-email")?.focus();
    another.current = false;
    if (!ticket || served === "support-sent") return;
    sentHeading.current?.focus({ preventScroll: true });
    sentHeading.current?.parentElement?.scrollIntoView({ block: "nearest" });
  }, [ticket]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      const result = await sendTicket(email.trim(), code.trim(), message, language);
      setTicket(result.ticket);
      setEmail("");
      setCode("");
      setMessage("");
    } catch (failure) {
      const texts = { generic: t("support.error"), validation: t("support.validation"), input: t("support.checkInput") };
      setError(errorText(failure instanceof ApiError ? failure.body : null, ERROR_DISPLAYS.support(texts)));
    } finally {
      setSending(false);
    }
  };

  if (ticket) {
    return (
      <div class="card center sent" role="status">
        <span class="success-mark"><Icon path={checkIcon} size={32} /></span>
        <h2 ref={sentHeading} tabIndex={-1} autoFocus={served === "support-sent"}>{t("support.sentTitle")}</h2>
        <p>{t("support.sentText", { ticket })}</p>
        {served === "support-sent" ? (
          // The answer's own address is /support: a query makes the link load the empty form
          // (a fragment alone would stay on this answer), and #contact starts the Tab order there.
          <a class="button" href={`${localPath("/support", language)}?new#contact`}>{t("support.another")}</a>
        ) : (
          <button type="button" class="button" onClick={() => { another.current = true; setTicket(null); }}>{t("support.another")}</button>
        )}
      </div>
    );
  }
  return (
    <form class="card form" method="post" action={localPath("/support", language)} onSubmit={submit} id="contact">
      <h2>{t("support.formTitle")}</h2>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <label for="support-email">{t("support.email")}</label>
      <input id="support-email" name="email" type="email" required autoComplete="email" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
      <label for="support-code">{t("support.code")}</label>
      <input id="support-code" name="activation_code" inputMode="numeric" autoComplete="off" value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value)} />
      <label for="support-message">{t("support.message")}</label>
      <textarea id="support-message" name="message" required rows={6} placeholder={t("support.messagePlaceholder")} value={message} onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)} />
      <button type="submit" class="button button-large" disabled={sending}>
        {sending ? <span class="spinner" aria-hidden="true" /> : <Icon path={sendIcon} size={18} />} {sending ? t("support.sending") : t("support.send")}
      </button>
    </form>
  );
}

export function SupportScreen({ text }: { text: PageText }) {
  const { t } = useI18n();
  return (
    <section class="container support">
      <h1>{t("support.title")}</h1>
      <p class="lead">{t("support.lead")}</p>
      <div class="support-grid">
        <Faq faq={faqIn(text.faq, servedText("device_rule"))} />
        <ContactForm />
      </div>
    </section>
  );
}
