// The licence's live sessions (issue 16): server, protocol and since when — the API never gives an
// address — with "Disconnect" per device and for all. Every answer carries the new list. A WireGuard
// device its owner disconnected stays listed as held out, with "Connect again": its app cannot be
// told, so the row says so.
//
// Each button is a form that posts the licence's e-mail and code back to the licence page, so the
// page the server answers without JavaScript has the same list and the same buttons: the server
// puts it together from these pieces, prerendered with slots by the build (http/pages/device_rows.py,
// tied to this file by tests/integration/test_device_rows.py). With the script, a submit is a call.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, type Device, type DeviceList, type HeldOutDevice } from "../lib/api";
import { connectAgain, disconnectDevices, listDevices } from "./devices-api";
import { ERROR_DISPLAYS, errorText } from "../lib/errors";
import { formatCount, formatMoment, plural, type PluralForms } from "../lib/format";
import { useI18n, useScreenI18n, type Dictionary, type Translate } from "../i18n/context";
import { localPath, type Language } from "../lib/language";
import { placeOf } from "../i18n/places";
import { servedText } from "../lib/served";
import { Flag } from "./flag";

export type Credentials = { email: string; code: string };

/** The form field that says which device to end: a session's id, or this word for all of them. */
export const DISCONNECT_ALL = "all";

export type DeviceRowView = { session: string; flag: ComponentChildren; city: string; detail: string };
export type HeldOutView = { server: string; flag: ComponentChildren; city: string };

/** A button that posts the licence's credentials (and what to disconnect or connect again, if anything). */
export function DeviceForm({ credentials, disconnect, connect, label, busy, onSubmit, class: className, children }: {
  credentials: Credentials; disconnect?: string; connect?: string; label?: string; busy: boolean; onSubmit?: () => void; class: string; children: ComponentChildren;
}) {
  const { language } = useI18n();
  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <form method="post" action={localPath("/license", language)} class="device-form" onSubmit={submit}>
      <input type="hidden" name="email" value={credentials.email} />
      <input type="hidden" name="activation_code" value={credentials.code} />
      {disconnect !== undefined && <input type="hidden" name="disconnect" value={disconnect} />}
      {connect !== undefined && <input type="hidden" name="connect_again" value={connect} />}
      <button type="submit" class={className} disabled={busy} aria-label={label}>
        {children}
      </button>
    </form>
  );
}

export function DeviceRow({ view, credentials, busy, onDisconnect }: { view: DeviceRowView; credentials: Credentials; busy: boolean; onDisconnect?: () => void }) {
  const { t } = useI18n();
  return (
    <li class="device-row">
      {view.flag}
      <span class="server-name">
        <strong>{view.city}</strong>
        <span class="muted small">{view.detail}</span>
      </span>
      <DeviceForm credentials={credentials} disconnect={view.session} label={t("devices.disconnectOne", { city: view.city })}
        busy={busy} onSubmit={onDisconnect} class="button button-ghost button-small">
        {t("devices.disconnect")}
      </DeviceForm>
    </li>
  );
}

/** A WireGuard device held out of its server, and the button that lets it back on. */
export function HeldOutRow({ view, credentials, busy, onConnect }: { view: HeldOutView; credentials: Credentials; busy: boolean; onConnect?: () => void }) {
  const { t } = useI18n();
  return (
    <li class="device-row">
      {view.flag}
      <span class="server-name">
        <strong>{view.city}</strong>
        <span class="muted small">{t("devices.heldOut")}</span>
        <span class="muted small">{t("devices.heldOutNote")}</span>
      </span>
      <DeviceForm credentials={credentials} connect={view.server} label={t("devices.connectAgainOne", { city: view.city })}
        busy={busy} onSubmit={onConnect} class="button button-ghost button-small">
        {t("devices.connectAgain")}
      </DeviceForm>
    </li>
  );
}

export function HeldOutListing({ rows }: { rows: ComponentChildren }) {
  return <ul class="device-list">{rows}</ul>;
}

/** The listed devices and the button that ends them all. */
export function DeviceListing({ rows, credentials, busy, onDisconnectAll }: { rows: ComponentChildren; credentials: Credentials; busy: boolean; onDisconnectAll?: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <ul class="device-list">{rows}</ul>
      <DeviceForm credentials={credentials} disconnect={DISCONNECT_ALL} busy={busy} onSubmit={onDisconnectAll} class="button button-secondary">
        {t("devices.disconnectAll")}
      </DeviceForm>
    </>
  );
}

export function NoDevices() {
  const { t } = useI18n();
  return <p class="muted small">{t("devices.none")}</p>;
}

/** The section; ``rule`` says how many devices may connect at once (the server's words for its
 * fleet: lib/served.tsx, servedText). */
export function DevicesSection({ count, rule, listing, error, credentials, busy, onRefresh }: {
  count: string; rule: string; listing: ComponentChildren; error?: string | null; credentials: Credentials; busy: boolean; onRefresh?: () => void;
}) {
  const { t } = useI18n();
  return (
    <section class="card devices" aria-labelledby="devices-title" aria-busy={busy}>
      <div class="devices-head">
        <h2 id="devices-title">{t("devices.title")}</h2>
        <DeviceForm credentials={credentials} busy={busy} onSubmit={onRefresh} class="button button-ghost button-small">
          {t("devices.refresh")}
        </DeviceForm>
      </div>
      <p class="devices-count" role="status">{count}</p>
      {error && <p class="alert" role="alert">{error}</p>}
      {listing}
      <p class="muted small">{rule} {t("devices.note")}</p>
    </section>
  );
}

/** "3 of 8 devices connected", in the language's plural form of the limit. */
export function inUseText(inUse: number, limit: number, forms: PluralForms, language: Language): string {
  return plural(limit, forms, language).replace("{used}", formatCount(inUse, language));
}

/** When a session started: the day and the time in the visitor's zone, the zone named (the
 * server's page without the script names UTC: http/pages/device_rows.py). */
function sinceText(since: number, language: Language): string {
  return formatMoment(since, language);
}

/** A device as its row shows it: the place in the page's language, protocol and since when. */
export function deviceRowView(device: Device, since: string, t: Translate, dictionary: Dictionary): DeviceRowView {
  const { name, city } = placeOf(dictionary.places, device.server.flag, device.server.name ?? device.server.id, device.server.location ?? device.server.id);
  return {
    session: device.session,
    flag: device.server.flag ? <Flag country={device.server.flag} label={name} /> : <span aria-hidden="true" />,
    city,
    detail: `${device.protocol ? `${device.protocol.toUpperCase()} · ` : ""}${t("devices.since", { time: since })}`,
  };
}

/** A held-out device as its row shows it: the place in the page's language. */
export function heldOutView(device: HeldOutDevice, dictionary: Dictionary): HeldOutView {
  const { name, city } = placeOf(dictionary.places, device.server.flag, device.server.name ?? device.server.id, device.server.location ?? device.server.id);
  return {
    server: device.server.id,
    flag: device.server.flag ? <Flag country={device.server.flag} label={name} /> : <span aria-hidden="true" />,
    city,
  };
}

/** The licence's devices: `listed` is the list fetched with the licence (so the dashboard comes
 * whole and nothing below the list moves under the visitor's pointer when it arrives); without
 * it the list is fetched here. */
export function Devices({ credentials, listed }: { credentials: Credentials; listed: DeviceList | null }) {
  const { language, t, dictionary } = useScreenI18n();
  const [list, setList] = useState<DeviceList | null>(listed);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (call: () => Promise<DeviceList>) => {
    setBusy(true);
    setError(null);
    try {
      setList(await call());
    } catch (failure) {
      setError(errorText(failure instanceof ApiError ? failure.body : null, ERROR_DISPLAYS.licence(t("support.error"))));
    } finally {
      setBusy(false);
    }
  };
  const refresh = () => run(() => listDevices(credentials.email, credentials.code, language));
  const disconnect = (session: string | null) => run(() => disconnectDevices(credentials.email, credentials.code, session, language));

  useEffect(() => {
    if (!listed) void refresh();
  }, [credentials.email, credentials.code]);

  let listing: ComponentChildren = null;
  if (list && list.devices.length > 0) {
    const rows = list.devices.map((device) => (
      <DeviceRow key={device.session} view={deviceRowView(device, sinceText(device.since, language), t, dictionary)} credentials={credentials} busy={busy} onDisconnect={() => disconnect(device.session)} />
    ));
    listing = <DeviceListing rows={rows} credentials={credentials} busy={busy} onDisconnectAll={() => disconnect(null)} />;
  } else if (list) {
    listing = <NoDevices />;
  }
  if (list && list.held_out.length > 0) {
    const rows = list.held_out.map((device) => (
      <HeldOutRow key={device.server.id} view={heldOutView(device, dictionary)} credentials={credentials} busy={busy}
        onConnect={() => run(() => connectAgain(credentials.email, credentials.code, device.server.id, language))} />
    ));
    listing = <>{listing}<HeldOutListing rows={rows} /></>;
  }
  return (
    <DevicesSection count={list ? inUseText(list.in_use, list.limit, dictionary.devices.inUse, language) : t("devices.loading")}
      rule={servedText("device_rule")} listing={listing} error={error} credentials={credentials} busy={busy} onRefresh={refresh} />
  );
}
