import { Link } from "wouter";
import { COOKIE, PRIVACY, TERMS, type Section } from "../content/legal";
import { useI18n } from "../lib/i18n";
import { localPath } from "../lib/language";

const DOCUMENTS: Record<"terms" | "privacy" | "cookie", { sections: Section[]; titleKey: string }> = {
  terms: { sections: TERMS, titleKey: "footer.terms" },
  privacy: { sections: PRIVACY, titleKey: "footer.privacy" },
  cookie: { sections: COOKIE, titleKey: "footer.cookie" },
};

export function LegalPage({ document }: { document: keyof typeof DOCUMENTS }) {
  const { language, t } = useI18n();
  const { sections, titleKey } = DOCUMENTS[document];
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
