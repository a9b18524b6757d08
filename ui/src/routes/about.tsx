import "../first-load";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Link } from "wouter";
import type { AboutText, PageText } from "../content/types";
import type { AboutFacts } from "../lib/api";
import { get } from "../lib/get";
import { useI18n } from "../i18n/context";
import { localPath } from "../lib/language";
import { operator, withOperator } from "../lib/operator";
import { slot } from "../lib/served";
import { withTerms } from "../content/terms";

const SECTIONS = ["company", "founder", "ready", "technologies", "investment", "roadmap", "contact"] as const;

// The operator's own facts (its founder, what is ready, the investment it asks for, the roadmap,
// its source code) come from the server, which reads them from the operator's file
// (adapters/vpnsite_adapters/operator_files/facts.py) and writes them, amounts and all, as the page says
// them: into the page it sends, in blocks put together from the pieces below
// (http/pages/about_facts.py), and as data in the page's head or from GET /api/about for the script.

export const FactItem = ({ text }: { text: string }) => <li>{text}</li>;

export const FactParagraph = ({ text }: { text: string }) => <p>{text}</p>;

export const CostRow = ({ label, cost }: { label: string; cost: string }) => (
  <tr><td>{label}</td><td>{cost}</td></tr>
);

/** The investment section's body: the financial promotion notice first, then what is asked for and
 * what the apps cost, each amount in its own currency. */
export function InvestmentFacts({ about, notice, paragraphs, rows, total }: { about: AboutText; notice: string; paragraphs: ComponentChildren; rows: ComponentChildren; total: string }) {
  return (
    <div class="investment-facts">
      <p class="card notice" role="note">{notice}</p>
      {paragraphs}
      <table class="cost-table">
        <caption>{about.costCaption}</caption>
        <thead><tr><th scope="col">{about.platform}</th><th scope="col">{about.cost}</th></tr></thead>
        <tbody>{rows}</tbody>
        <tfoot><tr><th scope="row">{about.total}</th><td>{total}</td></tr></tfoot>
      </table>
    </div>
  );
}

export const PhaseCard = ({ heading, items, note }: { heading: string; items: ComponentChildren; note: string }) => (
  <li class="card"><h3>{heading}</h3><ul>{items}</ul><p class="small muted">{note}</p></li>
);

/** The three blocks of the facts as the script draws them (and the server's must equal). */
export function factBlocks(facts: AboutFacts, about: AboutText) {
  return {
    ready: facts.ready.map((item, n) => <FactItem key={n} text={item} />),
    investment: (
      <InvestmentFacts about={about} notice={facts.notice} total={facts.total}
        paragraphs={facts.investment.map((text, n) => <FactParagraph key={n} text={text} />)}
        rows={facts.costs.map((row, n) => <CostRow key={n} label={row.label} cost={row.cost} />)} />
    ),
    roadmap: facts.roadmap.map((phase, n) => (
      <PhaseCard key={n} heading={phase.heading} note={phase.note} items={phase.items.map((item, m) => <FactItem key={m} text={item} />)} />
    )),
  };
}

/** The facts the page arrived with (its head carries them on the About page), or none. */
function servedFacts(): AboutFacts | null {
  const block = typeof document === "undefined" ? null : document.getElementById("vpnsite-about");
  if (!block?.textContent) return null;
  try {
    return JSON.parse(block.textContent) as AboutFacts;
  } catch {
    return null;
  }
}

export function About({ text }: { text: PageText }) {
  const { language, t } = useI18n();
  const about = text.about;
  const who = operator();
  const [facts, setFacts] = useState<AboutFacts | null>(servedFacts);
  useEffect(() => {
    if (facts === null) get("/api/about", { language }).then(setFacts, () => setFacts(null));
  }, [language]);
  // While prerendering: the server's markers, which it fills with the operator's facts.
  const prerendering = typeof document === "undefined";
  const blocks = facts ? factBlocks(facts, about) : null;
  const founder = prerendering ? slot("ABOUT_FOUNDER") : facts?.founder;
  const source = prerendering ? slot("SOURCE_CODE") : facts?.source_code;
  return (
    <article class="container about">
      <h1>{t("about.heading")}</h1>
      <p class="lead">{withTerms(about.lead)}</p>
      <Link href={localPath("/", language)} class="button">{t("about.tryFree")}</Link>
      <nav class="card toc" aria-label={t("about.contents")}>
        <ul class="jump-links">
          {SECTIONS.map((id) => (
            <li key={id}><a href={`#${id}`}>{about.titles[id]}</a></li>
          ))}
        </ul>
      </nav>
      <section id="company"><h2>{about.titles.company}</h2><p>{withOperator(about.company, who)}</p></section>
      <section id="founder"><h2>{about.titles.founder}</h2><p>{founder}</p></section>
      <section id="ready">
        <h2>{about.titles.ready}</h2>
        <ul>{prerendering ? slot("RAW_ABOUT_READY") : blocks?.ready}</ul>
      </section>
      <section id="technologies">
        <h2>{about.titles.technologies}</h2>
        <p>{about.technologies}</p>
        <p>{source ? <a href={source}>{about.sourceCode}</a> : null}</p>
      </section>
      <section id="investment">
        <h2>{about.titles.investment}</h2>
        {prerendering ? slot("RAW_ABOUT_INVESTMENT") : blocks?.investment}
      </section>
      <section id="roadmap">
        <h2>{about.titles.roadmap}</h2>
        <ol class="roadmap">{prerendering ? slot("RAW_ABOUT_ROADMAP") : blocks?.roadmap}</ol>
      </section>
      <section id="contact"><h2>{about.titles.contact}</h2><p><a href={`mailto:${who.email}`}>{who.email}</a></p></section>
    </article>
  );
}
