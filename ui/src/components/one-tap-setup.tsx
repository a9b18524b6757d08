// One-tap setup (issue 16): a personal link per server and protocol beside the archive. Which
// path a visitor sees is decided by CSS (.phone-only / .desktop-only at the phone width), not by
// the script, so the first paint is already the right one and nothing moves when it hydrates; a
// hidden lazy QR image is never fetched. One server is recommended (the least loaded online, listed
// first by the API): on a phone its import button is the one primary button, the others secondary.
//
// The pieces are exported for the build, which prerenders them with slots for the screens the
// server answers form posts with (http/pages/profile_rows.py puts them together, tied to this file by
// tests/integration/test_profile_rows.py).
import type { ComponentChildren } from "preact";
import type { ProfileServer } from "../lib/api";
import { loadLevel, loadPercent } from "../lib/format";
import { useI18n, useScreenI18n } from "../i18n/context";
import { placeOf } from "../i18n/places";
import { Icon } from "./icons";
import { downloadIcon } from "./screen-icons";
import { Flag } from "./flag";

/** Drawn at this size (CSS pixels): segno's SVG scales without blur, and the box is reserved. */
const QR_SIZE = 112;

export type ProfileRowView = { id: string; recommended: boolean; flag: ComponentChildren; name: string; city: string; load: string; level: string; links: ComponentChildren; open: ComponentChildren };

export function ProfileLink({ url, protocol, city }: { url: string; protocol: string; city: string }) {
  const { t } = useI18n();
  return (
    <a class="button button-secondary button-small" href={url} rel="noreferrer" download aria-label={t("setup.downloadProfile", { protocol, city })}>
      <Icon path={downloadIcon} size={16} /> {protocol}
    </a>
  );
}

export function WireguardLink({ url, city }: { url: string; city: string }) {
  const { t } = useI18n();
  return (
    <a class="button button-ghost button-small desktop-only" href={url} rel="noreferrer" download aria-label={t("setup.downloadWireguard", { city })}>
      WireGuard
    </a>
  );
}

/** The phone's import button and the desktop's QR code, both of the same profile; the button is
 * the primary one for the recommended server only. */
export function OpenProfile({ importUrl, qrUrl, city, primary }: { importUrl: string; qrUrl: string; city: string; primary: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <a class={primary ? "button phone-only import-button" : "button button-secondary phone-only import-button"} href={importUrl}>
        {t("setup.import")}
      </a>
      <img class="qr desktop-only" src={qrUrl} width={QR_SIZE} height={QR_SIZE} loading="lazy" decoding="async" alt={t("setup.qrAlt", { city })} />
    </>
  );
}

export function ProfileRow({ view }: { view: ProfileRowView }) {
  const { t } = useI18n();
  return (
    <li class={view.recommended ? "profile-row recommended" : "profile-row"} data-server={view.id}>
      {view.flag}
      <span class="server-name">
        <strong>{view.city}</strong>
        <span class="muted small">{view.name}</span>
        {view.recommended && <span class="badge badge-green">{t("setup.recommended")}</span>}
      </span>
      <span class="metric">
        <span class="muted small">{t("status.load")}</span>
        <span class={`load load-${view.level}`}>{view.load}</span>
      </span>
      <span class="profile-links">{view.links}</span>
      {view.open}
    </li>
  );
}

function LiveProfileRow({ server }: { server: ProfileServer }) {
  const { language, dictionary } = useScreenI18n();
  const { name, city } = placeOf(dictionary.places, server.flag, server.name, server.location);
  // UDP first: it is the faster one, and the one the import button and QR code carry.
  const first = server.openvpn.find((profile) => profile.protocol === "udp") ?? server.openvpn[0];
  const links = (
    <>
      {server.openvpn.map((profile) => (
        <ProfileLink key={profile.protocol} url={profile.url} protocol={profile.protocol.toUpperCase()} city={city} />
      ))}
      {server.wireguard && <WireguardLink url={server.wireguard.url} city={city} />}
    </>
  );
  const view: ProfileRowView = {
    id: server.id,
    recommended: server.recommended,
    flag: <Flag country={server.flag} label={name} />,
    name,
    city,
    load: loadPercent(server.load, language),
    level: loadLevel(server.load),
    links,
    open: first && <OpenProfile importUrl={first.import_url} qrUrl={first.qr_svg} city={city} primary={server.recommended} />,
  };
  return <ProfileRow view={view} />;
}

export function ProfileSection({ rows }: { rows: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <section class="one-tap" aria-labelledby="one-tap-title">
      <h2 id="one-tap-title">{t("setup.title")}</h2>
      <p class="muted phone-only">{t("setup.leadPhone")}</p>
      <p class="muted desktop-only">{t("setup.leadDesktop")}</p>
      <ul class="profile-list">{rows}</ul>
    </section>
  );
}

export function OneTapSetup({ profiles }: { profiles: ProfileServer[] }) {
  if (profiles.length === 0) return null;
  return (
    <ProfileSection
      rows={profiles.map((server) => (
        <LiveProfileRow key={server.id} server={server} />
      ))}
    />
  );
}
