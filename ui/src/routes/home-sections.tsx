// The home page's later sections: what the service does, where its servers are (the fleet's, as
// the server knows it: http/pages/fleet_locations.py), what its users say and how it keeps them safe. A chunk of its own, with its texts in the screens' part of the
// dictionary: the page the server sends has them, so the first script does not carry them
// (components/server-markup.tsx).
import "../first-load";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Flag } from "../components/flag";
import { globeIcon, Icon, shieldIcon } from "../components/icons";
import { boltIcon, eyeOffIcon, keyIcon, lockIcon, starIcon, wifiIcon } from "../components/screen-icons";
import type { Testimonial, Testimonials as Picked } from "../content/testimonials";
import { conditionalGetter, type VpnServer } from "../lib/api";
import { get } from "../lib/get";
import { plural } from "../lib/format";
import { type Dictionary, useI18n, useScreenI18n } from "../i18n/context";
import { placeOf } from "../i18n/places";
import { slot } from "../lib/served";

const FEATURES: [string, string][] = [
  ["ip", globeIcon],
  ["encryption", lockIcon],
  ["dns", shieldIcon],
  ["wifi", wifiIcon],
  ["nologs", eyeOffIcon],
  ["speed", boltIcon],
];
const SECURITY: [string, string][] = [
  ["protocols", shieldIcon],
  ["keys", keyIcon],
  ["privacy", lockIcon],
];

/** A card that fades in as it scrolls into view (components/reveal.ts). */
function FeatureCard({ name, icon, group }: { name: string; icon: string; group: "features" | "security" }) {
  const { t } = useI18n();
  return (
    <li class="reveal card feature">
      <span class="feature-icon"><Icon path={icon} /></span>
      <h3>{t(`sections.${group}.${name}.title`)}</h3>
      <p>{t(`sections.${group}.${name}.text`)}</p>
    </li>
  );
}

function Features() {
  const { t } = useI18n();
  return (
    <>
      <h2 class="section-title">{t("sections.featuresTitle")}</h2>
      <p class="section-lead">{t("sections.featuresLead")}</p>
      <ul class="grid grid-3">
        {FEATURES.map(([name, icon]) => <FeatureCard key={name} name={name} icon={icon} group="features" />)}
      </ul>
    </>
  );
}

/** A country of the fleet: its code, and its name and cities in the page's language. */
export type FleetCountry = { code: string; name: string; cities: string };

/** The countries of the listed servers (online or not, as the status page lists them), in the
 * order each one's first server is listed, each city once (http/pages/fleet_locations.py: countries). */
export function fleetCountries(servers: readonly VpnServer[], places: Dictionary["places"]): FleetCountry[] {
  const found = new Map<string, { name: string; cities: string[] }>();
  for (const server of servers) {
    const { name, city } = placeOf(places, server.flag, server.name, server.location);
    let country = found.get(server.flag);
    if (!country) found.set(server.flag, (country = { name, cities: [] }));
    if (!country.cities.includes(city)) country.cities.push(city);
  }
  return [...found].map(([code, { name, cities }]) => ({ code, name, cities: cities.join(", ") }));
}

/** One country: its flag (given drawn, so the server can put its own in), name and cities. */
export function LocationCard({ flag, name, cities }: { flag: ComponentChildren; name: string; cities: string }) {
  return (
    <li class="reveal card location">
      {flag}
      <h3>{name}</h3>
      <p class="small muted">{cities}</p>
    </li>
  );
}

/** The heading that counts the countries, and their cards. */
export function LocationsBlock({ title, cards }: { title: string; cards: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <div class="container">
      <h2 class="section-title">{title}</h2>
      <p class="section-lead">{t("sections.locationsLead")}</p>
      <ul class="grid grid-4 location-list">{cards}</ul>
    </div>
  );
}

/** What the section says while no server is listed: so, plainly. */
export function NoLocations() {
  const { t } = useI18n();
  return (
    <div class="container">
      <h2 class="section-title">{t("sections.locationsNoneTitle")}</h2>
      <p class="section-lead">{t("sections.locationsNone")}</p>
    </div>
  );
}

/** The section as drawn from the servers the status snapshot lists. */
export function FleetLocations({ servers }: { servers: readonly VpnServer[] }) {
  const { language, dictionary } = useScreenI18n();
  const countries = fleetCountries(servers, dictionary.places);
  if (!countries.length) return <NoLocations />;
  const cards = countries.map((country) => (
    <LocationCard key={country.code} flag={<Flag country={country.code} label={country.name} />} name={country.name} cities={country.cities} />
  ));
  return <LocationsBlock title={plural(countries.length, dictionary.sections.locationsTitle, language)} cards={cards} />;
}

const fetchStatus = conditionalGetter("/api/server-status");

/** Prerendered, the server's marker for the fleet's locations; drawn by the script (after a link),
 * from the status snapshot the server answers with. */
function Locations() {
  const [servers, setServers] = useState<readonly VpnServer[] | null>(null);
  useEffect(() => {
    fetchStatus().then((status) => setServers(status?.vpn_servers ?? null), () => setServers(null));
  }, []);
  if (typeof document === "undefined") return <>{slot("RAW_LOCATIONS")}</>;
  return servers && <FleetLocations servers={servers} />;
}

/** One of the star icons a testimonial's rating is drawn with. */
export const Star = () => <Icon path={starIcon} size={16} />;

/** One testimonial, as the operator wrote it (text: escaped wherever it is drawn); its stars are
 * given drawn, so the server can repeat one (http/pages/testimonials.py). */
export function TestimonialCard({ item, stars }: { item: Testimonial; stars: ComponentChildren }) {
  return (
    <li class="card testimonial">
      <div class="stars" role="img" aria-label={item.stars}>{stars}</div>
      <blockquote>{item.text}</blockquote>
      <div class="person">
        <span class="avatar" aria-hidden="true">{item.initials}</span>
        <div>
          <strong>{item.name}</strong>
          <span class="small muted">{item.about}</span>
        </div>
      </div>
    </li>
  );
}

/** The heading, the cards and, for the demo's invented ones, a note that says so. */
export function TestimonialsBlock({ examples, cards }: { examples: boolean; cards: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <>
      <h3 class="section-subtitle">{t("sections.testimonialsTitle")}</h3>
      {examples && <p class="examples-note small muted">{t("sections.examplesNote")}</p>}
      <ul class="grid grid-3">{cards}</ul>
    </>
  );
}

/** The block as drawn from a pick (none: nothing at all, heading included). */
export function PickedTestimonials({ picked }: { picked: Picked }) {
  if (!picked.testimonials.length) return null;
  const cards = picked.testimonials.map((item, n) => (
    <TestimonialCard key={n} item={{ ...item, stars: `${item.stars}/5` }} stars={Array.from({ length: item.stars }, (_, i) => <Star key={i} />)} />
  ));
  return <TestimonialsBlock examples={picked.examples} cards={cards} />;
}

/** Prerendered, the server's marker for its own pick; drawn by the script (after a link), a pick
 * of the server's asked for. */
function Testimonials() {
  const { language } = useI18n();
  const [picked, setPicked] = useState<Picked | null>(null);
  useEffect(() => {
    get("/api/testimonials", { language }).then(setPicked, () => setPicked(null));
  }, [language]);
  if (typeof document === "undefined") return <>{slot("RAW_TESTIMONIALS")}</>;
  return picked && <PickedTestimonials picked={picked} />;
}

function Security() {
  const { t } = useI18n();
  return (
    <div class="container">
      <h2 class="section-title">{t("sections.securityTitle")}</h2>
      <ul class="grid grid-3">
        {SECURITY.map(([name, icon]) => <FeatureCard key={name} name={name} icon={icon} group="security" />)}
      </ul>
    </div>
  );
}

const PARTS = { features: Features, locations: Locations, testimonials: Testimonials, security: Security };

export type HomePartName = keyof typeof PARTS;

export function HomePart({ name }: { name: HomePartName }) {
  const Part = PARTS[name];
  return <Part />;
}
