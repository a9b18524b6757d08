import { Link } from "wouter";
import type { PageText } from "../content/types";
import { useI18n } from "../lib/i18n";
import { localPath } from "../lib/language";

const TITLES = { terms: "footer.terms", privacy: "footer.privacy", cookie: "footer.cookie" } as const;

export function LegalPage({ document, text }: { document: keyof typeof TITLES; text: PageText }) {
  const { language, t } = useI18n();
  const sections = text[document];
  const titleKey = TITLES[document];
  return (
    <article class="container narrow legal">
      <h1>{t(titleKey)}</h1>
      <p class="muted">{t("legal.updated")}</p>
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
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p class="card">
        <Link href={`${localPath("/support", language)}#contact`}>{t("legal.contact")}</Link>
      </p>
    </article>
  );
}
