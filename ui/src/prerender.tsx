// Rendered in Node at build time: every route in every language becomes a static page.
import type { ComponentChildren } from "preact";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { Flag } from "./components/icons";
import { LiveStatus, LoadValue, pingText, statusText, StatusBlock, SYSTEM_NAMES, SystemRow, VpnRow } from "./features/status/server-status";
import type { ServerStatus } from "./lib/api";
import { I18nContext, makeTranslator } from "./lib/i18n";
import { App } from "./app";
import en from "./i18n/en";
import es from "./i18n/es";
import fr from "./i18n/fr";
import pt from "./i18n/pt";
import ru from "./i18n/ru";
import type { Dictionary } from "./lib/i18n";
import { LANGUAGES, LOCALE, localPath, type Language } from "./lib/language";
import { ROUTES, pageOf } from "./lib/pages";
import { formatCount, formatDate, FREE_TIER_USERS, LOCALE_PLURALS, loadLevel, parseDay, plural, rankColour, type PluralForms } from "./lib/format";
import { SERVED_SCREENS, slot, type ServedScreen } from "./lib/served";

const DICTIONARIES: Record<Language, Dictionary> = { en, ru, es, fr, pt };

export { DICTIONARIES, LANGUAGES, ROUTES, SERVED_SCREENS, localPath, pageOf };

export function render(path: string, language: Language, served: ServedScreen | null = null): Promise<string> {
  // preact/compat's useSyncExternalStore reads the client snapshot even on the server, so wouter
  // looks at location.pathname: give it the page being rendered.
  (globalThis as { location?: unknown }).location = { pathname: path, search: "", hash: "" };
  return renderToStringAsync(<App language={language} dictionary={DICTIONARIES[language]} ssrPath={path} served={served} />) as Promise<string>;
}

/** What the server needs to format values as the script does, taken from the same Intl and
 * dictionaries: per language, digit grouping, one date pattern per month, and the plural category
 * of 0…999 with the dictionary's forms of "{n} days". */
export function formats() {
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const grouped = formatCount(1234567, language, false);
      const months = Array.from({ length: 12 }, (_, month) =>
        formatDate(new Date(Date.UTC(2001, month, 22)), language).replaceAll("{", "{{").replaceAll("}", "}}").replace("22", "{day}").replace("2001", "{year}"),
      );
      return [
        language,
        {
          group: grouped.slice(1, -7),
          group_four_digits: formatCount(1234, language, false) !== "1234",
          months,
          plurals: Array.from({ length: 1000 }, (_, n) => LOCALE_PLURALS(language).select(n)),
          days: DICTIONARIES[language].activation.days,
        },
      ];
    }),
  );
}

function inLanguage(language: Language, element: ComponentChildren): string {
  const { t, list } = makeTranslator(language, DICTIONARIES[language]);
  return renderToString(<I18nContext.Provider value={{ language, t, list, dictionary: DICTIONARIES[language] }}>{element}</I18nContext.Provider>);
}

const RANKS = ["very_high", "high", "medium", "low"];
const PING_SAMPLE = 987654321;

/** The status page's live block in pieces, per language, for the server to put together from its
 * snapshot (http/status_page.py): markup with slots, and the texts and tables it needs. */
export function statusParts(language: Language) {
  const { t } = makeTranslator(language, DICTIONARIES[language]);
  const row = { name: slot("NAME"), status: slot("STATUS"), statusText: slot("STATUS_TEXT"), ping: slot("PING"), load: slot("RAW_LOAD") };
  const users = { users: slot("USERS"), progress: slot("PROGRESS"), progressNow: slot("PROGRESS_NOW"), progressWidth: slot("PROGRESS_WIDTH") };
  const block = (demo: boolean) => inLanguage(language, <StatusBlock demo={demo} users={users} vpnRows={slot("RAW_VPN_ROWS")} systemRows={slot("RAW_SYSTEM_ROWS")} />);
  const flags = Object.fromEntries(
    [...Object.keys(DICTIONARIES[language].locations), "other"].map((country) => [country, inLanguage(language, <Flag country={country} label={slot("NAME")} />)]),
  );
  return {
    markup: {
      block: block(false),
      block_demo: block(true),
      vpn_row: inLanguage(language, <VpnRow view={{ ...row, flag: slot("RAW_FLAG"), city: slot("CITY"), rank: slot("RANK"), popularity: slot("POPULARITY") }} />),
      system_row: inLanguage(language, <SystemRow view={row} />),
      load: inLanguage(language, <LoadValue load={slot("LOAD")} level={slot("LEVEL")} />),
      flags,
    },
    locations: DICTIONARIES[language].locations,
    status: { online: statusText("online", t), offline: statusText("offline", t), other: statusText("other", t) },
    ping: pingText(PING_SAMPLE, t).replace(String(PING_SAMPLE), "{ms}"),
    no_value: pingText(null, t),
    system_names: { ...Object.fromEntries(Object.entries(SYSTEM_NAMES).map(([id, key]) => [id, t(key)])), other: t("status.billing") },
    load_levels: Array.from({ length: 101 }, (_, percent) => loadLevel(`${percent}%`)),
    rank_colours: { ...Object.fromEntries(RANKS.map((rank) => [rank, rankColour(rank)])), other: rankColour("") },
    free_tier_users: FREE_TIER_USERS,
    decimal: new Intl.NumberFormat(LOCALE[language]).formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".",
  };
}

/** A count, a date and "{n} days" as the script writes them: what the server's formats must equal. */
export function formatSamples(count: number, day: string, language: Language): [string, string, string] {
  const forms = DICTIONARIES[language].activation.days as PluralForms;
  return [formatCount(count, language, false), formatDate(parseDay(day), language), plural(count, forms, language)];
}

/** The live block for a snapshot as the script draws it (on a wide screen): what the server's must equal. */
export function renderStatusBlock(data: ServerStatus, language: Language): string {
  return inLanguage(language, <LiveStatus data={data} phone={false} />);
}
