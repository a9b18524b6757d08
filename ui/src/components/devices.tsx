// The licence's live sessions (issue 16): server, protocol and since when — the API never gives an
// address — with "Disconnect" per device and for all. Every answer carries the new list.
import { useEffect, useState } from "preact/hooks";
import { ApiError, disconnectDevices, listDevices, type Device, type DeviceList } from "../lib/api";
import { ERROR_DISPLAYS, errorText } from "../lib/errors";
import { formatCount, plural } from "../lib/format";
import { useI18n } from "../lib/i18n";
import { LOCALE, type Language } from "../lib/language";
import { Flag } from "./icons";

type Credentials = { email: string; code: string };

function sinceText(since: number, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE[language], { dateStyle: "medium", timeStyle: "short" }).format(new Date(since * 1000));
}

function DeviceRow({ device, busy, onDisconnect }: { device: Device; busy: boolean; onDisconnect: () => void }) {
  const { language, t, dictionary } = useI18n();
  const place = device.server.flag ? dictionary.locations[device.server.flag as keyof typeof dictionary.locations] : undefined;
  const name = place?.name ?? device.server.name ?? device.server.id;
  const city = place?.city ?? device.server.location ?? device.server.id;
  return (
    <li class="device-row">
      {device.server.flag ? <Flag country={device.server.flag} label={name} /> : <span aria-hidden="true" />}
      <span class="server-name">
        <strong>{city}</strong>
        <span class="muted small">
          {device.protocol ? `${device.protocol.toUpperCase()} · ` : ""}
          {t("devices.since", { time: sinceText(device.since, language) })}
        </span>
      </span>
      <button type="button" class="button button-ghost button-small" onClick={onDisconnect} disabled={busy}
        aria-label={t("devices.disconnectOne", { city })}>
        {t("devices.disconnect")}
      </button>
    </li>
  );
}

export function Devices({ credentials }: { credentials: Credentials }) {
  const { language, t, dictionary } = useI18n();
  const [list, setList] = useState<DeviceList | null>(null);
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
    void refresh();
  }, [credentials.email, credentials.code]);

  return (
    <section class="card devices" aria-labelledby="devices-title" aria-busy={busy}>
      <div class="devices-head">
        <h2 id="devices-title">{t("devices.title")}</h2>
        <button type="button" class="button button-ghost button-small" onClick={refresh} disabled={busy}>
          {t("devices.refresh")}
        </button>
      </div>
      <p class="devices-count" role="status">
        {list
          ? plural(list.limit, dictionary.devices.inUse, language).replace("{used}", formatCount(list.in_use, language))
          : t("devices.loading")}
      </p>
      {error && <p class="alert" role="alert">{error}</p>}
      {list && list.devices.length > 0 && (
        <>
          <ul class="device-list">
            {list.devices.map((device) => (
              <DeviceRow key={device.session} device={device} busy={busy} onDisconnect={() => disconnect(device.session)} />
            ))}
          </ul>
          <button type="button" class="button button-secondary" onClick={() => disconnect(null)} disabled={busy}>
            {t("devices.disconnectAll")}
          </button>
        </>
      )}
      {list && list.devices.length === 0 && <p class="muted small">{t("devices.none")}</p>}
      <p class="muted small">{t("devices.note")}</p>
    </section>
  );
}
