// The home page's later sections: what the service does, where its servers are, what its users
// say and how it keeps them safe. A chunk of its own, with its texts in the screens' part of the
// dictionary: the page the server sends has them, so the first script does not carry them
// (components/server-markup.tsx).
import "../lib/first-load";
import { useState } from "preact/hooks";
import { Flag } from "../components/flag";
import { globeIcon, Icon, shieldIcon } from "../components/icons";
import { boltIcon, eyeOffIcon, keyIcon, lockIcon, starIcon, wifiIcon } from "../components/screen-icons";
import { pickTestimonials, type Testimonial } from "../content/testimonials";
import { useI18n } from "../lib/i18n";
import { slot } from "../lib/served";

const FEATURES: [string, string][] = [
  ["ip", globeIcon],
  ["encryption", lockIcon],
  ["dns", shieldIcon],
  ["wifi", wifiIcon],
  ["nologs", eyeOffIcon],
  ["speed", boltIcon],
];
const COUNTRIES = ["nl", "lv", "pl", "ch", "ro", "de", "it", "us"] as const;
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

function Locations() {
  const { t } = useI18n();
  return (
    <div class="container">
      <h2 class="section-title">{t("sections.locationsTitle")}</h2>
      <p class="section-lead">{t("sections.locationsLead")}</p>
      <ul class="grid grid-4">
        {COUNTRIES.map((country) => (
          <li key={country} class="reveal card location">
            <Flag country={country} label={t(`locations.${country}.name`)} />
            <h3>{t(`locations.${country}.name`)}</h3>
            <p class="small muted">{t(`locations.${country}.tagline`)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One testimonial: the server picks three of these per page it sends (http/testimonials.py). */
export function TestimonialCard({ item }: { item: Testimonial }) {
  const { t } = useI18n();
  return (
    <li class="card testimonial">
      <div class="stars" role="img" aria-label="5/5">
        {Array.from({ length: item.rating }, (_, i) => (
          <Icon key={i} path={starIcon} size={16} />
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
  );
}

/** Three of the eight at random; prerendered, the server's marker for its own three. */
function Testimonials() {
  const [shown] = useState(pickTestimonials);
  if (typeof document === "undefined") return <>{slot("RAW_TESTIMONIALS")}</>;
  return <>{shown.map((item) => <TestimonialCard key={item.id} item={item} />)}</>;
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
