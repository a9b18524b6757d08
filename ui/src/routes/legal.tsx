import "../first-load";
import { Link } from "wouter";
import type { PageText } from "../content/types";
import { formatDate, parseDay } from "../lib/format";
import { useI18n } from "../i18n/context";
import { localPath } from "../lib/language";
import { operator, withOperator } from "../lib/operator";
import { withTerms } from "../content/terms";
import { servedText } from "../lib/served";

/** When the terms, privacy and cookie policies last changed. */
export const LEGAL_TEXTS_UPDATED = "2026-11-27";

const TITLES = { terms: "footer.terms", privacy: "footer.privacy", cookie: "footer.cookie" } as const;

export function LegalPage({ document, text }: { document: keyof typeof TITLES; text: PageText }) {
  const { language, t } = useI18n();
  const sections = text[document];
  const titleKey = TITLES[document];
  const who = operator();
  // How many devices a licence connects at once: the terms say it in the words the server picked
  // for its fleet, as the home page and the FAQ do (lib/served.tsx: servedText).
  const rule = servedText("device_rule");
  // Who has access to the servers: the operator's own word, from its file (operator_facts.py).
  const access = servedText("server_access");
  return (
    <article class="container narrow legal">
      <h1>{t(titleKey)}</h1>
      <p class="muted">{t("legal.updated", { date: formatDate(parseDay(LEGAL_TEXTS_UPDATED), language) })}</p>
      <nav class="card toc" aria-label={t("legal.contents")}>
        <h2>{t("legal.contents")}</h2>
        <ol>
          {sections.map((section) => (
            <li key={section.id}><a href={`#${section.id}`}>{section.title}</a></li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id}>
          <h2>{index + 1}. {section.title}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{withOperator(withTerms(paragraph.replace("{{rule}}", rule).replace("{{serverAccess}}", access)), who)}</p>
          ))}
          {section.entries?.map((entry) => (
            <div key={entry.id} class="card data-entry" data-kind={entry.id}>
              <h3>{entry.name}</h3>
              <dl>
                <dt>{t("legal.what")}</dt><dd>{entry.what}</dd>
                <dt>{t("legal.why")}</dt><dd>{entry.why}</dd>
                <dt>{t("legal.basis")}</dt><dd>{entry.basis}</dd>
                <dt>{t("legal.kept")}</dt><dd class="kept">{entry.kept}</dd>
              </dl>
            </div>
          ))}
        </section>
      ))}
      <p class="card">
        <Link href={`${localPath("/support", language)}#contact`}>{t("legal.contact")}</Link>
      </p>
    </article>
  );
}
