// Rendered in Node at build time: every route in every language becomes a static page.
import { renderToStringAsync } from "preact-render-to-string";
import { App } from "./app";
import en from "./i18n/en";
import es from "./i18n/es";
import fr from "./i18n/fr";
import pt from "./i18n/pt";
import ru from "./i18n/ru";
import type { Dictionary } from "./lib/i18n";
import { HTML_LANG, LANGUAGES, OG_LOCALE, localPath, type Language } from "./lib/language";
import { operatorMeta } from "./lib/operator";
import { ROUTES, pageOf } from "./lib/pages";

const DICTIONARIES: Record<Language, Dictionary> = { en, ru, es, fr, pt };

export { DICTIONARIES, HTML_LANG, LANGUAGES, OG_LOCALE, ROUTES, localPath, operatorMeta, pageOf };

export function render(path: string, language: Language): Promise<string> {
  // preact/compat's useSyncExternalStore reads the client snapshot even on the server, so wouter
  // looks at location.pathname: give it the page being rendered.
  (globalThis as { location?: unknown }).location = { pathname: path, search: "", hash: "" };
  return renderToStringAsync(<App language={language} dictionary={DICTIONARIES[language]} ssrPath={path} />) as Promise<string>;
}
