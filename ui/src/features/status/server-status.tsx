import { Link } from "wouter";
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { conditionalGetter, type ServerStatus, type VpnServer } from "../../lib/api";
import { FREE_TIER_USERS, formatCount, freeTierProgress, loadLevel, PHONE_MAX_WIDTH, progressWidth, rankColour } from "../../lib/format";
import { useI18n, type Translate } from "../../lib/i18n";
import { countedUsersText, slot } from "../../lib/served";
import { localPath, type Language } from "../../lib/language";
import { useNarrow, usePolling } from "../../lib/poll";
import { STATUS_POLL_MS } from "../../lib/user-count";
import { Flag, Icon } from "../../components/icons";
import { ConnectionCheck } from "../../components/connection-check";

const fetchStatus = conditionalGetter("/api/server-status");

function popularityLabel(server: VpnServer, language: Language): string {
  return language === "en" ? server.popularity : (server[`popularity_${language}`] ?? server.popularity);
}

// The live block is drawn from views of plain strings, so the build can prerender it with slots
// that the server fills from its snapshot for pages sent without JavaScript (http/status_page.py,
// tied to this file by tests/integration/test_status_page.py).

/** A pill's text: online, offline, or anything else as "not configured". */
export function statusText(status: string, t: Translate): string {
  return status === "online" ? t("status.online") : status === "offline" ? t("status.offline") : t("status.notConfigured");
}

export function pingText(ping: number | null, t: Translate): string {
  return ping === null ? "—" : t("status.ms", { ms: ping });
}

type MetricsView = { ping: string; load: ComponentChildren };
type VpnRowView = MetricsView & { flag: ComponentChildren; name: string; city: string; status: string; statusText: string; rank: string; popularity: string };
type SystemRowView = MetricsView & { name: string; status: string; statusText: string };
// progressNow and progressWidth are numbers, or the server's slots when prerendered.
type UsersView = { users: string; progress: string; progressNow: string | number; progressWidth: string | number };

function StatusPill({ status, text }: { status: string; text: string }) {
  return (
    <span class={`pill pill-${status}`}>
      <span class={`dot ${status}`} aria-hidden="true" /> {text}
    </span>
  );
}

export function LoadValue({ load, level }: { load: string; level: string }) {
  return <span class={`load load-${level}`}>{load}</span>;
}

function loadOf(load: string | null): ComponentChildren {
  return load === null ? "—" : <LoadValue load={load} level={loadLevel(load)} />;
}

function Metrics({ view }: { view: MetricsView }) {
  const { t } = useI18n();
  return (
    <>
      <span class="metric">
        <span class="muted small">{t("status.ping")}</span> {view.ping}
      </span>
      <span class="metric">
        <span class="muted small">{t("status.load")}</span>
        {view.load}
      </span>
    </>
  );
}

export function VpnRow({ view }: { view: VpnRowView }) {
  return (
    <li class="server-row">
      {view.flag}
      <div class="server-name">
        <strong>{view.name}</strong>
        <span class="muted small">{view.city}</span>
      </div>
      <StatusPill status={view.status} text={view.statusText} />
      <Metrics view={view} />
      {/* Keyed by its text: a new rank is a new pill, not centred text moving inside the old one
          (which counts as a layout shift). */}
      <span key={view.popularity} class={`rank rank-${view.rank}`}>{view.popularity}</span>
    </li>
  );
}

export const SYSTEM_NAMES: Record<string, string> = { "activation-server": "status.activation", "hub-server": "status.hub" };

export function SystemRow({ view }: { view: SystemRowView }) {
  return (
    <li class="server-row system">
      <Icon name="server" />
      <div class="server-name">
        <strong>{view.name}</strong>
      </div>
      <StatusPill status={view.status} text={view.statusText} />
      <Metrics view={view} />
    </li>
  );
}

/** The live block's content: the demo note, the users card and both lists. */
export function StatusBlock({ demo, users, vpnRows, systemRows }: { demo: boolean; users: UsersView; vpnRows: ComponentChildren; systemRows: ComponentChildren }) {
  const { language, t } = useI18n();
  const progress = { percent: users.progress, cap: formatCount(FREE_TIER_USERS, language, false) };
  return (
    <>
      {demo && <p class="notice">{t("status.demo")}</p>}
      <div class="card users-card">
        <span class="muted">{t("status.users")}</span>
        <strong class="big-number" data-testid="user-count">{users.users}</strong>
        <div class="progress" role="progressbar" aria-label={t("status.progress", progress)} aria-valuemin={0} aria-valuemax={100} aria-valuenow={users.progressNow as number}>
          <div class="progress-bar" style={{ width: `${users.progressWidth}%` }} />
        </div>
        <span class="small muted">{t("status.progress", progress)}</span>
      </div>
      <h2>{t("status.vpnTitle")}</h2>
      <ul class="server-list" data-testid="vpn-servers">{vpnRows}</ul>
      <h2>{t("status.systemTitle")}</h2>
      <ul class="server-list">{systemRows}</ul>
    </>
  );
}

/** The block for a snapshot, as the script draws it. */
export function LiveStatus({ data, phone }: { data: ServerStatus; phone: boolean }) {
  const { language, t, dictionary } = useI18n();
  const users = data.summary.user_count;
  const vpnRows = data.vpn_servers.map((server) => {
    const place = dictionary.locations[server.flag as keyof typeof dictionary.locations];
    const name = place?.name ?? server.name;
    const view: VpnRowView = {
      flag: <Flag country={server.flag} label={name} />,
      name,
      city: place?.city ?? server.location,
      status: server.status,
      statusText: statusText(server.status, t),
      ping: pingText(server.ping, t),
      load: loadOf(server.load),
      rank: rankColour(server.rank),
      popularity: popularityLabel(server, language),
    };
    return <VpnRow key={server.id} view={view} />;
  });
  const systemRows = data.system_servers.map((server) => (
    <SystemRow
      key={server.id}
      view={{ name: t(SYSTEM_NAMES[server.id] ?? "status.billing"), status: server.status, statusText: statusText(server.status, t), ping: pingText(server.ping, t), load: loadOf(server.load) }}
    />
  ));
  const view: UsersView = {
    users: formatCount(users, language, phone),
    progress: freeTierProgress(users, language),
    progressNow: progressWidth(users),
    progressWidth: Math.max(progressWidth(users), 0.5),
  };
  return <StatusBlock demo={data.summary.demo} users={view} vpnRows={vpnRows} systemRows={systemRows} />;
}

/** The snapshot the server wrote into the page (`<script type="application/json" id="vpnsite-status">`). */
function servedStatus(): ServerStatus | null {
  if (typeof document === "undefined") return null;
  try {
    return JSON.parse(document.getElementById("vpnsite-status")?.textContent ?? "null") as ServerStatus | null;
  } catch {
    return null;
  }
}

export function ServerStatusScreen() {
  const { language, t, dictionary } = useI18n();
  const phone = useNarrow(PHONE_MAX_WIDTH);
  const { data } = usePolling(fetchStatus, STATUS_POLL_MS);
  const [served] = useState(servedStatus);
  const current = data ?? served;
  const users = current?.summary.user_count ?? null;
  return (
    <section class="container status-page">
      <h1>{t("status.title")}</h1>
      <p class="lead">{t("status.lead")}</p>
      <div class="status-live" aria-live="polite">
        {current ? <LiveStatus data={current} phone={phone} /> : slot("RAW_STATUS")}
      </div>
      <ConnectionCheck />
      <div class="card security-note">
        <Icon name="shield" size={32} />
        <div>
          <h2>{t("status.securityTitle")}</h2>
          <p>{t("status.securityText")}</p>
        </div>
      </div>
      <div class="closing">
        <h2>{countedUsersText("JOIN_USERS", users, language, dictionary, phone)}</h2>
        <Link href={`${localPath("/", language)}#signup`} class="button button-large">{t("status.ctaButton")}</Link>
      </div>
    </section>
  );
}
