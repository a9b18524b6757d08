import { Link } from "wouter";
import { conditionalGetter, type SystemServer, type VpnServer } from "../../lib/api";
import { FREE_TIER_USERS, formatCount, freeTierProgress, loadLevel, PHONE_MAX_WIDTH, plural, progressWidth, rankColour } from "../../lib/format";
import { useI18n } from "../../lib/i18n";
import { localPath, type Language } from "../../lib/language";
import { useNarrow, usePolling } from "../../lib/poll";
import { STATUS_POLL_MS } from "../../lib/user-count";
import { Flag, Icon } from "../../components/icons";

const fetchStatus = conditionalGetter("/api/server-status");

function popularityLabel(server: VpnServer, language: Language): string {
  return language === "en" ? server.popularity : (server[`popularity_${language}`] ?? server.popularity);
}

function StatusPill({ status }: { status: string }) {
  const { t } = useI18n();
  const text = status === "online" ? t("status.online") : status === "offline" ? t("status.offline") : t("status.notConfigured");
  return (
    <span class={`pill pill-${status}`}>
      <span class={`dot ${status}`} aria-hidden="true" /> {text}
    </span>
  );
}

function Metrics({ ping, load }: { ping: number | null; load: string | null }) {
  const { t } = useI18n();
  return (
    <>
      <span class="metric">
        <span class="muted small">{t("status.ping")}</span> {ping === null ? "—" : t("status.ms", { ms: ping })}
      </span>
      <span class="metric">
        <span class="muted small">{t("status.load")}</span>
        {load === null ? "—" : <span class={`load load-${loadLevel(load)}`}>{load}</span>}
      </span>
    </>
  );
}

function VpnRow({ server }: { server: VpnServer }) {
  const { language, t, dictionary } = useI18n();
  const place = dictionary.locations[server.flag as keyof typeof dictionary.locations];
  return (
    <li class="server-row">
      <Flag country={server.flag} label={place?.name ?? server.name} />
      <div class="server-name">
        <strong>{place?.name ?? server.name}</strong>
        <span class="muted small">{place?.city ?? server.location}</span>
      </div>
      <StatusPill status={server.status} />
      <Metrics ping={server.ping} load={server.load} />
      <span class={`rank rank-${rankColour(server.rank)}`}>{popularityLabel(server, language)}</span>
    </li>
  );
}

const SYSTEM_NAMES: Record<string, string> = { "activation-server": "status.activation", "hub-server": "status.hub" };

function SystemRow({ server }: { server: SystemServer }) {
  const { t } = useI18n();
  return (
    <li class="server-row system">
      <Icon name="server" />
      <div class="server-name">
        <strong>{t(SYSTEM_NAMES[server.id] ?? "status.billing")}</strong>
      </div>
      <StatusPill status={server.status} />
      <Metrics ping={server.ping} load={server.load} />
    </li>
  );
}

function Skeleton() {
  return (
    <div class="skeleton-block" aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} class="skeleton" />
      ))}
    </div>
  );
}

export function ServerStatusScreen() {
  const { language, t, dictionary } = useI18n();
  const phone = useNarrow(PHONE_MAX_WIDTH);
  const { data, loaded } = usePolling(fetchStatus, STATUS_POLL_MS);
  const users = data?.summary.user_count ?? 0;
  return (
    <section class="container status-page">
      <h1>{t("status.title")}</h1>
      <p class="lead">{t("status.lead")}</p>
      {!loaded || !data ? (
        <Skeleton />
      ) : (
        <div aria-live="polite">
          {data.summary.demo && <p class="notice">{t("status.demo")}</p>}
          <div class="card users-card">
            <span class="muted">{t("status.users")}</span>
            <strong class="big-number" data-testid="user-count">{formatCount(users, language, phone)}</strong>
            <div class="progress" role="progressbar" aria-label={t("status.progress", { percent: freeTierProgress(users, language), cap: formatCount(FREE_TIER_USERS, language, false) })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progressWidth(users)}>
              <div class="progress-bar" style={{ width: `${Math.max(progressWidth(users), 0.5)}%` }} />
            </div>
            <span class="small muted">{t("status.progress", { percent: freeTierProgress(users, language), cap: formatCount(FREE_TIER_USERS, language, false) })}</span>
          </div>
          <h2>{t("status.vpnTitle")}</h2>
          <ul class="server-list" data-testid="vpn-servers">
            {data.vpn_servers.map((server) => (
              <VpnRow key={server.id} server={server} />
            ))}
          </ul>
          <h2>{t("status.systemTitle")}</h2>
          <ul class="server-list">
            {data.system_servers.map((server) => (
              <SystemRow key={server.id} server={server} />
            ))}
          </ul>
        </div>
      )}
      <div class="card security-note">
        <Icon name="shield" size={32} />
        <div>
          <h2>{t("status.securityTitle")}</h2>
          <p>{t("status.securityText")}</p>
        </div>
      </div>
      <div class="closing">
        <h2>{plural(users, dictionary.status.ctaTitle, language, formatCount(users, language, phone))}</h2>
        <Link href={`${localPath("/", language)}#signup`} class="button button-large">{t("status.ctaButton")}</Link>
      </div>
    </section>
  );
}
