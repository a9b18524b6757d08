import "../lib/first-load";
import { Link } from "wouter";
import { MICRO_INVESTMENT_FROM, MINIMUM_START, OPTIMAL, PHASE_COSTS, PLATFORM_COSTS, SERVERS_PER_MONTH, usd, type Money, type PhaseCost } from "../content/figures";
import type { AboutText, PageText } from "../content/types";
import { useI18n } from "../lib/i18n";
import { LOCALE, localPath, type Language } from "../lib/language";
import { operator, withOperator } from "../lib/operator";
import { withTerms } from "../content/terms";

const SECTIONS = ["company", "founder", "ready", "technologies", "investment", "roadmap", "contact"] as const;

export function formatMoney(money: Money, language: Language): string {
  return new Intl.NumberFormat(LOCALE[language], { style: "currency", currency: money.currency, maximumFractionDigits: 0 }).format(money.amount);
}

export function phaseCost(cost: PhaseCost, about: AboutText, language: Language): string {
  switch (cost.kind) {
    case "range":
      return `${formatMoney(cost.from, language)} – ${formatMoney(cost.to, language)}`;
    case "once":
      return formatMoney(cost.money, language);
    case "monthly":
      return about.costLabels.perMonth.replace("{money}", formatMoney(cost.money, language));
    default:
      return about.costLabels[cost.kind];
  }
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export function About({ text }: { text: PageText }) {
  const { language, t } = useI18n();
  const about = text.about;
  const who = operator();
  const money = (value: Money) => formatMoney(value, language);
  const appsTotal = usd(PLATFORM_COSTS.reduce((sum, row) => sum + row.cost.amount, 0));
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
      <section id="founder"><h2>{about.titles.founder}</h2><p>{withOperator(about.founder, who)}</p></section>
      <section id="ready">
        <h2>{about.titles.ready}</h2>
        <ul>{about.ready.map((item) => <li key={item}>{withTerms(item)}</li>)}</ul>
      </section>
      <section id="technologies"><h2>{about.titles.technologies}</h2><p>{about.technologies}</p></section>
      <section id="investment">
        <h2>{about.titles.investment}</h2>
        <p>
          {fill(about.investment, {
            micro: money(MICRO_INVESTMENT_FROM),
            minimum: money(MINIMUM_START.total),
            apps: money(MINIMUM_START.apps),
            advertising: money(MINIMUM_START.advertising),
            servers: money(MINIMUM_START.servers),
            optimal: money(OPTIMAL.total),
            optimalAdvertising: money(OPTIMAL.advertising),
            optimalServers: money(OPTIMAL.servers),
          })}
        </p>
        <table class="cost-table">
          <caption>{about.costCaption}</caption>
          <thead><tr><th scope="col">{about.platform}</th><th scope="col">{about.cost}</th></tr></thead>
          <tbody>
            {PLATFORM_COSTS.map((row) => (
              <tr key={row.platform}><td>{row.platform}</td><td>{money(row.cost)}</td></tr>
            ))}
          </tbody>
          <tfoot><tr><th scope="row">{about.total}</th><td>{money(appsTotal)}</td></tr></tfoot>
        </table>
        <p class="small muted">{fill(about.serverCosts, { hundred: money(SERVERS_PER_MONTH.hundred), thousand: money(SERVERS_PER_MONTH.thousand) })}</p>
      </section>
      <section id="roadmap">
        <h2>{about.titles.roadmap}</h2>
        <ol class="roadmap">
          {about.phases.map((phase, index) => (
            <li key={phase.title} class="card">
              <h3>{fill(about.phase, { n: String(index + 1), title: phase.title })}</h3>
              <ul>{phase.items.map((item) => <li key={item}>{item}</li>)}</ul>
              <p class="small muted">{PHASE_COSTS[index].kind === "done" ? phase.duration : `${phaseCost(PHASE_COSTS[index], about, language)} · ${phase.duration}`}</p>
            </li>
          ))}
        </ol>
      </section>
      <section id="contact"><h2>{about.titles.contact}</h2><p><a href={`mailto:${who.email}`}>{who.email}</a></p></section>
    </article>
  );
}
