// Rendered in Node at build time: every route in every language becomes a static page.
import { renderToStringAsync } from "preact-render-to-string";
import { App } from "./app";
import en from "./i18n/en";
import es from "./i18n/es";
import fr from "./i18n/fr";
import pt from "./i18n/pt";
import ru from "./i18n/ru";
import type { Dictionary } from "./lib/i18n";
import { LANGUAGES, localPath, type Language } from "./lib/language";
import { ROUTES, pageOf } from "./lib/pages";
import { formatDate, formatCount, LOCALE_PLURALS } from "./lib/format";
import { SERVED_SCREENS, type ServedScreen } from "./lib/served";

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
