import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { lazy } from "preact/compat";
import { Link } from "wouter";
import { goToSignup } from "../components/layout";
import { ServerMarkup } from "../components/server-markup";
import { SignupForm } from "../features/signup/signup-form";
import { formatCount, formatPercent } from "../lib/format";
import { useI18n } from "../i18n/context";
import { localPath } from "../lib/language";
import { usePolling } from "../lib/poll";
import { fetchUserCount, HOME_POLL_MS } from "../lib/user-count";
import { countedUsers, FewUsers } from "../i18n/counted-users";
import { servedNumber, servedText, servedUserCount, slot, terms } from "../lib/served";
import type { HomePartName } from "./home-sections";

const sectionsCode = () => import("./home-sections");
const HomePart = lazy(() => sectionsCode().then((m) => ({ default: m.HomePart })));

/** A part of a page with the screens' texts around it, drawn once its code (asked for at once) and
 * the texts have come (app.tsx). */
export type DrawScreen = (code: () => Promise<unknown>, shown: () => ComponentChildren) => () => ComponentChildren;

/** The home page. What it does (sign-up, counts, the way back to the form) is drawn by the first
 * script; its later sections are the server's markup on the page the server sent, and are loaded
 * with the screens' texts (`screen`) where the script draws the page itself. */
export function Home({ screen }: { screen: DrawScreen }) {
  const { language, t, dictionary } = useI18n();
  const { data } = usePolling(fetchUserCount, HOME_POLL_MS);
  const [served] = useState(servedUserCount);
  const users = data?.user_count ?? served;
  // The servers online as of the snapshot the server filled the page from (not polled).
  const [servers] = useState(() => servedNumber("servers"));
  // The fleet's uptime over the last 30 days (tenths of a per cent, null: not measured yet) and
  // its countries, from the same snapshot; markers while prerendering.
  const [uptime] = useState(() => servedNumber("uptime"));
  const [countries] = useState(() => servedNumber("countries"));
  const figure = (name: string, drawn: () => ComponentChildren) => (typeof document === "undefined" ? slot(name) : drawn());
  const part = (name: HomePartName) => screen(sectionsCode, () => <HomePart name={name} />);

  return (
    <>
      <section class="hero">
        <div class="container hero-inner">
          <p class="eyebrow">{t("home.badge", terms())}</p>
          <h1>{t("home.title")}</h1>
          <p class="lead">{t("home.lead", terms())}</p>
          <SignupForm />
          <p class="trust muted small">{t("home.trust", { devices: servedText("devices") })}</p>
        </div>
      </section>

      <ServerMarkup as="section" class="container section">{part("features")}</ServerMarkup>
      <ServerMarkup as="section" class="section alt">{part("locations")}</ServerMarkup>

      <section class="container section">
        <h2 class="section-title">{t("home.proofTitle")}</h2>
        <dl class="stats">
          <div><dt>{t("home.activeUsers")}</dt><dd data-testid="home-user-count">{countedUsers("USERS", users, language, dictionary)}</dd></div>
          <div><dt>{t("home.servers")}</dt><dd data-testid="home-servers">{servers === null ? slot("SERVERS_ONLINE") : formatCount(servers, language)}</dd></div>
          <div><dt>{t("home.uptime")}</dt><dd>{uptime === null ? figure("RAW_UPTIME", () => <FewUsers text={t("home.uptimeNone")} />) : formatPercent(uptime / 1000, language, 1)}</dd></div>
          <div><dt>{t("home.countries")}</dt><dd>{figure("COUNTRIES", () => formatCount(countries ?? 0, language))}</dd></div>
        </dl>
        <ServerMarkup as="div" class="testimonials">{part("testimonials")}</ServerMarkup>
      </section>

      <ServerMarkup as="section" class="section alt">{part("security")}</ServerMarkup>

      <section class="container section closing">
        <h2>{t("home.closingTitle")}</h2>
        <p class="lead">{t("home.closingText", terms())}</p>
        <Link href={`${localPath("/", language)}#signup`} class="button button-large" onClick={goToSignup}>
          {t("home.closingButton")}
        </Link>
      </section>
    </>
  );
}
