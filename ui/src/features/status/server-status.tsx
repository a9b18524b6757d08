import "../../first-load";
import { Link } from "wouter";
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { conditionalGetter, type ServerStatus } from "../../lib/api";
import { FEW_USERS, formatCount, formatMoment, freeTierProgress, loadLevel, loadPercent, plural, progressWidth, rankColour } from "../../lib/format";
import { useI18n, useScreenI18n, type Translate } from "../../i18n/context";
import { countedUsers } from "../../i18n/counted-users";
import { slot } from "../../lib/served";
import { localPath, type Language } from "../../lib/language";
import { placeOf } from "../../i18n/places";
import { usePolling } from "../../lib/poll";
import { STATUS_POLL_MS } from "../../lib/user-count";
import { Icon, shieldIcon } from "../../components/icons";
import { serverIcon } from "../../components/screen-icons";
import { Flag } from "../../components/flag";
import { ConnectionCheck } from "../../components/connection-check";

const fetchStatus = conditionalGetter("/api/server-status");

// The live block is drawn from views of plain strings, so the build can prerender it with slots
// that the server fills from its snapshot for pages sent without JavaScript (http/pages/status_page.py,
// tied to this file by tests/integration/test_status_page.py).

/** A VPN server's pill: online, offline, or anything else as "not configured". */
export function statusText(status: string, t: Translate): string {
  return status === "online" ? t("status.online") : status === "offline" ? t("status.offline") : t("status.notConfigured");
}

/** A system service's pill: up, down, or "not configured". */
export function serviceText(status: string, t: Translate): string {
  return status === "online" ? t("status.up") : status === "offline" ? t("status.down") : t("status.notConfigured");
}

export function pingText(ping: number | null, language: Language, t: Translate): string {
  return ping === null ? "—" : t("status.ms", { ms: formatCount(ping, language) });
}

export const RANKS = ["very_high", "high", "medium", "low"] as const;

export function rankText(rank: string, t: Translate): string {
  return (RANKS as readonly string[]).includes(rank) ? t(`status.ranks.${rank}`) : "—";
}

type VpnRowView = { flag: ComponentChildren; name: string; city: string; status: string; statusText: string; ping: string; load: ComponentChildren; rank: string; rankText: string };
type SystemRowView = { name: string; status: string; statusText: string; ping: ComponentChildren };
// progressNow and progressWidth are numbers, or the server's slots when prerendered; progress is
// null below FEW_USERS, where the site says it is new rather than count (i18n/counted-users.tsx:
// countedUsers): a share of the free tier would give the count away. cap: the free tier's size as
// the operator set it, written out, and as a count of users (freeUsers); slots when prerendered.
type UsersView = { users: ComponentChildren; progress: string | null; progressNow: string | number; progressWidth: string | number; cap: string; freeUsers: string };

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

function loadOf(load: string | null, language: Language): ComponentChildren {
  return load === null ? "—" : <LoadValue load={loadPercent(load, language)} level={loadLevel(load)} />;
}

// Each metric keeps its column in both lists (styles.css), so a system service's response time
// sits under the VPN servers' ping.
function Metric({ kind, label, children }: { kind: "ping" | "load" | "rank"; label: string; children: ComponentChildren }) {
  return (
    <span class={`metric metric-${kind}`}>
      <span class="muted small">{label}</span> {children}
    </span>
  );
}

export function VpnRow({ view }: { view: VpnRowView }) {
  const { t } = useI18n();
  return (
    <li class="server-row">
      {view.flag}
      <div class="server-name">
        <strong>{view.name}</strong>
        <span class="muted small">{view.city}</span>
      </div>
      {/* Keyed as the rank is: a server that goes offline gets a new pill, not a moved one. */}
      <StatusPill key={view.status} status={view.status} text={view.statusText} />
      <Metric kind="ping" label={t("status.ping")}>{view.ping}</Metric>
      <Metric kind="load" label={t("status.load")}>{view.load}</Metric>
      <Metric kind="rank" label={t("status.popularity")}>
        {/* Keyed by its text: a new rank is a new pill, not centred text moving inside the old one
            (which counts as a layout shift). */}
        <span key={view.rankText} class={`rank rank-${view.rank}`}>{view.rankText}</span>
      </Metric>
    </li>
  );
}

export const SYSTEM_NAMES: Record<string, string> = { "activation-server": "status.activation", "hub-server": "status.hub" };

/** A system service: up or down and its response time; one that is not configured says so, with
 * no time. No load: the services share the hub's machine, whose load says nothing of them. */
export function SystemRow({ view }: { view: SystemRowView }) {
  return (
    <li class="server-row system">
      <Icon path={serverIcon} />
      <div class="server-name">
        <strong>{view.name}</strong>
      </div>
      <StatusPill key={view.status} status={view.status} text={view.statusText} />
      {view.ping}
    </li>
  );
}

export function ResponseTime({ ping }: { ping: string }) {
  const { t } = useI18n();
  return <Metric kind="ping" label={t("status.response")}>{ping}</Metric>;
}

/** The live block's content: the demo note, the users card (progress toward the free tier, or
 * below FEW_USERS only the free tier's size) and both lists. */
/** ``updated``: when the snapshot the figures come from was taken. */
export function StatusBlock({ demo, updated, users, vpnRows, systemRows }: { demo: boolean; updated: string; users: UsersView; vpnRows: ComponentChildren; systemRows: ComponentChildren }) {
  const { t } = useI18n();
  const progress = { percent: users.progress ?? "", cap: users.cap };
  return (
    <>
      {demo && <p class="notice">{t("status.demo")}</p>}
      <p class="small muted status-updated">{t("status.updated", { time: updated })}</p>
      <div class="card users-card">
        <span class="muted">{t("status.users")}</span>
        <strong class="big-number" data-testid="user-count">{users.users}</strong>
        {users.progress === null ? (
          <span class="small muted" data-testid="free-tier">{t("home.badge", { freeUsers: users.freeUsers })}</span>
        ) : (
          <>
            <div class="progress" role="progressbar" aria-label={t("status.progress", progress)} aria-valuemin={0} aria-valuemax={100} aria-valuenow={users.progressNow as number}>
              <div class="progress-bar" style={{ width: `${users.progressWidth}%` }} />
            </div>
            <span class="small muted" data-testid="free-tier">{t("status.progress", progress)}</span>
          </>
        )}
      </div>
      <h2>{t("status.vpnTitle")}</h2>
      <ul class="server-list" data-testid="vpn-servers">{vpnRows}</ul>
      <p class="small muted">{t("status.pingFrom")}</p>
      <h2>{t("status.systemTitle")}</h2>
      <ul class="server-list" data-testid="system-servers">{systemRows}</ul>
    </>
  );
}

/** The block for a snapshot, as the script draws it: its time in the visitor's zone, or at
 * ``offset`` (minutes, as getTimezoneOffset gives them; the server writes UTC). */
export function LiveStatus({ data, offset }: { data: ServerStatus; offset?: number }) {
  const { language, t, dictionary } = useScreenI18n();
  const users = data.summary.user_count;
  const cap = data.summary.free_tier_cap;
  const vpnRows = data.vpn_servers.map((server) => {
    const { name, city } = placeOf(dictionary.places, server.flag, server.name, server.location);
    const view: VpnRowView = {
      flag: <Flag country={server.flag} label={name} />,
      name,
      city,
      status: server.status,
      statusText: statusText(server.status, t),
      ping: pingText(server.ping, language, t),
      load: loadOf(server.load, language),
      rank: rankColour(server.rank),
      rankText: rankText(server.rank, t),
    };
    return <VpnRow key={server.id} view={view} />;
  });
  const systemRows = data.system_servers.map((server) => {
    const configured = server.status === "online" || server.status === "offline";
    const view: SystemRowView = {
      name: t(SYSTEM_NAMES[server.id] ?? "status.billing"),
      status: server.status,
      statusText: serviceText(server.status, t),
      ping: configured ? <ResponseTime ping={pingText(server.ping, language, t)} /> : null,
    };
    return <SystemRow key={server.id} view={view} />;
  });
  const view: UsersView = {
    users: countedUsers("USERS", users, language, dictionary),
    progress: users < FEW_USERS ? null : freeTierProgress(users, cap, language),
    progressNow: progressWidth(users, cap),
    progressWidth: Math.max(progressWidth(users, cap), 0.5),
    cap: formatCount(cap, language),
    freeUsers: plural(cap, dictionary.footer.users, language),
  };
  const updated = formatMoment(data.summary.updated_at, language, offset);
  return <StatusBlock demo={data.summary.demo} updated={updated} users={view} vpnRows={vpnRows} systemRows={systemRows} />;
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
  const { language, t, dictionary } = useScreenI18n();
  const { data } = usePolling(fetchStatus, STATUS_POLL_MS);
  const [served] = useState(servedStatus);
  const current = data ?? served;
  const users = current?.summary.user_count ?? null;
  return (
    <section class="container status-page">
      <h1>{t("status.title")}</h1>
      <p class="lead">{t("status.lead")}</p>
      <div class="status-live" aria-live="polite">
        {current ? <LiveStatus data={current} /> : slot("RAW_STATUS")}
      </div>
      <ConnectionCheck />
      <div class="card security-note">
        <Icon path={shieldIcon} size={32} />
        <div>
          <h2>{t("status.securityTitle")}</h2>
          <p>{t("status.securityText")}</p>
        </div>
      </div>
      <div class="closing">
        <h2>{countedUsers("JOIN_USERS", users, language, dictionary)}</h2>
        <Link href={`${localPath("/", language)}#signup`} class="button button-large">{t("status.ctaButton")}</Link>
      </div>
    </section>
  );
}
