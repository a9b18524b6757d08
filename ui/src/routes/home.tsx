import { useEffect, useState } from "preact/hooks";
import { Link } from "wouter";
import { Flag, Icon } from "../components/icons";
import { Reveal } from "../components/reveal";
import { pickTestimonials, TESTIMONIALS } from "../content/testimonials";
import { SignupForm } from "../features/signup/signup-form";
import { COUNTRIES_OF_ACCESS, formatCount, formatPercent, UPTIME } from "../lib/format";
import { useI18n } from "../lib/i18n";
import { localPath } from "../lib/language";
import { usePolling } from "../lib/poll";
import { fetchUserCount, HOME_POLL_MS } from "../lib/user-count";
import { countedUsers, servedNumber, servedUserCount, slot } from "../lib/served";

const FEATURES: [string, string][] = [
  ["ip", "globe"],
  ["encryption", "lock"],
  ["dns", "shield"],
  ["wifi", "wifi"],
  ["nologs", "eye-off"],
  ["speed", "bolt"],
];
const COUNTRIES = ["nl", "lv", "pl", "ch", "ro", "de", "it", "us"] as const;
const SECURITY: [string, string][] = [
  ["protocols", "shield"],
  ["keys", "key"],
  ["privacy", "lock"],
];

export function Home() {
  const { language, t, dictionary } = useI18n();
  const { data } = usePolling(fetchUserCount, HOME_POLL_MS);
  const [served] = useState(servedUserCount);
  const users = data?.user_count ?? served;
  // The servers online as of the snapshot the server filled the page from (not polled).
  const [servers] = useState(() => servedNumber("servers"));
  // The server renders the first three; the visitor then sees three of the eight at random.
  const [testimonials, setTestimonials] = useState(TESTIMONIALS.slice(0, 3));
  useEffect(() => setTestimonials(pickTestimonials()), []);

  return (
    <>
      <section class="hero">
        <div class="container hero-inner">
          <p class="eyebrow">{t("home.badge")}</p>
          <h1>{t("home.title")}</h1>
          <p class="lead">{t("home.lead")}</p>
          <SignupForm />
          <p class="trust muted small">{t("home.trust")}</p>
        </div>
      </section>

      <section class="container section">
        <h2 class="section-title">{t("home.featuresTitle")}</h2>
        <p class="section-lead">{t("home.featuresLead")}</p>
        <ul class="grid grid-3">
          {FEATURES.map(([key, icon]) => (
            <Reveal as="li" key={key} class="card feature">
              <span class="feature-icon"><Icon name={icon} /></span>
              <h3>{t(`home.features.${key}.title`)}</h3>
              <p>{t(`home.features.${key}.text`)}</p>
            </Reveal>
          ))}
        </ul>
      </section>

      <section class="section alt">
        <div class="container">
          <h2 class="section-title">{t("home.locationsTitle")}</h2>
          <p class="section-lead">{t("home.locationsLead")}</p>
          <ul class="grid grid-4">
            {COUNTRIES.map((country) => (
              <Reveal as="li" key={country} class="card location" threshold={0.2}>
                <Flag country={country} label={t(`locations.${country}.name`)} />
                <h3>{t(`locations.${country}.name`)}</h3>
                <p class="small muted">{t(`locations.${country}.tagline`)}</p>
              </Reveal>
            ))}
          </ul>
        </div>
      </section>

      <section class="container section">
        <h2 class="section-title">{t("home.proofTitle")}</h2>
        <dl class="stats">
          <div><dt>{t("home.activeUsers")}</dt><dd data-testid="home-user-count">{countedUsers("USERS", users, language, dictionary)}</dd></div>
          <div><dt>{t("home.servers")}</dt><dd data-testid="home-servers">{servers === null ? slot("SERVERS_ONLINE") : formatCount(servers, language)}</dd></div>
          <div><dt>{t("home.uptime")}</dt><dd>{formatPercent(UPTIME, language, 1)}</dd></div>
          <div><dt>{t("home.countries")}</dt><dd>{t("home.countriesCount", { n: formatCount(COUNTRIES_OF_ACCESS, language) })}</dd></div>
        </dl>
        <h3 class="section-subtitle">{t("home.testimonialsTitle")}</h3>
        <ul class="grid grid-3">
          {testimonials.map((item) => (
            <li key={item.id} class="card testimonial">
              <div class="stars" role="img" aria-label="5/5">
                {Array.from({ length: item.rating }, (_, i) => (
                  <Icon key={i} name="star" size={16} />
                ))}
              </div>
              <blockquote>{t(`testimonials.t${item.id}.text`)}</blockquote>
              <div class="person">
                <span class="avatar" aria-hidden="true">{item.avatar}</span>
                <div>
                  <strong>{item.name}</strong>
                  <span class="small muted">
                    {t(`testimonials.t${item.id}.company`)} · {t(`testimonials.t${item.id}.location`)}
                  </span>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section class="section alt">
        <div class="container">
          <h2 class="section-title">{t("home.securityTitle")}</h2>
          <ul class="grid grid-3">
            {SECURITY.map(([key, icon]) => (
              <Reveal as="li" key={key} class="card feature">
                <span class="feature-icon"><Icon name={icon} /></span>
                <h3>{t(`home.security.${key}.title`)}</h3>
                <p>{t(`home.security.${key}.text`)}</p>
              </Reveal>
            ))}
          </ul>
        </div>
      </section>

      <section class="container section closing">
        <h2>{t("home.closingTitle")}</h2>
        <p class="lead">{t("home.closingText")}</p>
        <Link href={`${localPath("/", language)}#signup`} class="button button-large" onClick={(event: MouseEvent) => {
          event.preventDefault();
          document.getElementById("signup")?.scrollIntoView({ behavior: "smooth", block: "center" });
          document.getElementById("signup-email")?.focus({ preventScroll: true });
        }}>
          {t("home.closingButton")}
        </Link>
      </section>
    </>
  );
}
