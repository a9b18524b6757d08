// One-tap setup (issue 16): a personal link per server and protocol beside the archive. Which
// path a visitor sees is decided by CSS (.phone-only / .desktop-only at the phone width), not by
// the script, so the first paint is already the right one and nothing moves when it hydrates; a
// hidden lazy QR image is never fetched.
import type { ProfileServer } from "../lib/api";
import { loadLevel } from "../lib/format";
import { useI18n } from "../lib/i18n";
import { Flag, Icon } from "./icons";

/** Drawn at this size (CSS pixels): segno's SVG scales without blur, and the box is reserved. */
const QR_SIZE = 112;

function ProfileRow({ server }: { server: ProfileServer }) {
  const { t, dictionary } = useI18n();
  const place = dictionary.locations[server.flag as keyof typeof dictionary.locations];
  const name = place?.name ?? server.name;
  const city = place?.city ?? server.location;
  // UDP first: it is the faster one, and the one the import button and QR code carry.
  const first = server.openvpn.find((profile) => profile.protocol === "udp") ?? server.openvpn[0];
  return (
    <li class="profile-row" data-server={server.id}>
      <Flag country={server.flag} label={name} />
      <span class="server-name">
        <strong>{city}</strong>
        <span class="muted small">{name}</span>
      </span>
      <span class="metric">
        <span class="muted small">{t("status.load")}</span>
        <span class={`load load-${loadLevel(server.load)}`}>{server.load}</span>
      </span>
      <span class="profile-links">
        {server.openvpn.map((profile) => (
          <a key={profile.protocol} class="button button-secondary button-small" href={profile.url} rel="noreferrer" download
            aria-label={t("setup.downloadProfile", { protocol: profile.protocol.toUpperCase(), city })}>
            <Icon name="download" size={16} /> {profile.protocol.toUpperCase()}
          </a>
        ))}
        {server.wireguard && (
          <a class="button button-ghost button-small desktop-only" href={server.wireguard.url} rel="noreferrer" download
            aria-label={t("setup.downloadWireguard", { city })}>
            WireGuard
          </a>
        )}
      </span>
      {first && (
        <>
          <a class="button phone-only import-button" href={first.import_url}>
            {t("setup.import")}
          </a>
          <img class="qr desktop-only" src={first.qr_svg} width={QR_SIZE} height={QR_SIZE} loading="lazy" decoding="async"
            alt={t("setup.qrAlt", { city })} />
        </>
      )}
    </li>
  );
}

export function OneTapSetup({ profiles }: { profiles: ProfileServer[] }) {
  const { t } = useI18n();
  if (profiles.length === 0) return null;
  return (
    <section class="one-tap" aria-labelledby="one-tap-title">
      <h2 id="one-tap-title">{t("setup.title")}</h2>
      <p class="muted phone-only">{t("setup.leadPhone")}</p>
      <p class="muted desktop-only">{t("setup.leadDesktop")}</p>
      <ul class="profile-list">
        {profiles.map((server) => (
          <ProfileRow key={server.id} server={server} />
        ))}
      </ul>
    </section>
  );
}
