import { Link } from "wouter";
import { eur, MINIMUM_START, OPTIMAL, PLATFORM_COSTS, ROADMAP, SERVERS_MONTHLY_EUR, usd } from "../content/about";
import { useI18n } from "../lib/i18n";
import { localPath } from "../lib/language";

const SECTIONS: [string, string][] = [
  ["company", "Company"],
  ["founder", "Founder"],
  ["ready", "What is ready"],
  ["technologies", "Technologies"],
  ["investment", "Investment"],
  ["roadmap", "Roadmap"],
  ["contact", "Contact"],
];

export function About() {
  const { language, t } = useI18n();
  const appsTotal = PLATFORM_COSTS.reduce((sum, row) => sum + row.cost, 0);
  return (
    <article class="container about">
      <h1>vpnsite</h1>
      <p class="lead">A free VPN for the first million users, built to become a self-sustaining paid service.</p>
      <Link href={localPath("/", language)} class="button">{t("about.tryFree")}</Link>
      <nav class="card toc" aria-label={t("about.contents")}>
        <ul class="jump-links">
          {SECTIONS.map(([id, title]) => (
            <li key={id}><a href={`#${id}`}>{title}</a></li>
          ))}
        </ul>
      </nav>
      <section id="company"><h2>Company</h2><p>An independent company registered in the United Kingdom, with no outside owners or data-sharing partners.</p></section>
      <section id="founder"><h2>Founder</h2><p>Our founder has 15 years of experience in networks and software and has been a company director since 2015.</p></section>
      <section id="ready">
        <h2>What is ready</h2>
        <ul>
          <li>This website in five languages, with sign-up, licence check, renewal, server status and support.</li>
          <li>Licence issuance: 20-digit activation codes, 90-day licences, one-time signed sign-up requests, rate limits and the free-tier cap.</li>
          <li>VPN servers reporting their health to the hub every 10 seconds; a live status page.</li>
          <li>Mail in five languages, data retention and erasure, and an operator command line.</li>
        </ul>
      </section>
      <section id="technologies"><h2>Technologies</h2><p>OpenVPN (UDP and TCP, AES-256-GCM and ChaCha20-Poly1305, tls-crypt-v2), WireGuard (experimental), Python, PostgreSQL, and a small prerendered Preact website.</p></section>
      <section id="investment">
        <h2>Investment</h2>
        <p>Micro investment from $10K. Minimum start $65K: apps for five platforms {usd(MINIMUM_START.apps)}, first advertising {usd(MINIMUM_START.advertising)}, 100 servers for a year {eur(MINIMUM_START.serversEur)}. Optimal $270K: apps {usd(OPTIMAL.apps)}, advertising {usd(OPTIMAL.advertising)}, 1,000 servers for three years {eur(OPTIMAL.serversEur)}.</p>
        <table class="cost-table">
          <caption>Platform development cost</caption>
          <thead><tr><th scope="col">Platform</th><th scope="col">Cost</th></tr></thead>
          <tbody>
            {PLATFORM_COSTS.map((row) => (
              <tr key={row.platform}><td>{row.platform}</td><td>{usd(row.cost)}</td></tr>
            ))}
          </tbody>
          <tfoot><tr><th scope="row">Total</th><td>{usd(appsTotal)}</td></tr></tfoot>
        </table>
        <p class="small muted">Servers: {eur(SERVERS_MONTHLY_EUR.hundred)} a month for 100, {eur(SERVERS_MONTHLY_EUR.thousand)} a month for 1,000.</p>
      </section>
      <section id="roadmap">
        <h2>Roadmap</h2>
        <ol class="roadmap">
          {ROADMAP.map((phase) => (
            <li key={phase.phase} class="card">
              <h3>Phase {phase.phase}: {phase.title}</h3>
              <ul>{phase.items.map((item) => <li key={item}>{item}</li>)}</ul>
              <p class="small muted">{phase.cost} · {phase.duration}</p>
            </li>
          ))}
        </ol>
      </section>
      <section id="contact"><h2>Contact</h2><p><a href="mailto:invest@vpnsite.example">invest@vpnsite.example</a></p></section>
    </article>
  );
}
