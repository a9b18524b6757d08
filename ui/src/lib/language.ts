// The interface language lives in the first path segment: /ru, /es, /fr, /pt; anything else is the
// default, English. The languages and how each is tagged are the list the server reads too
// (adapters/vpnsite_adapters/texts/languages.json); their texts are the dictionaries (i18n/all.ts).

import LIST from "../../../adapters/vpnsite_adapters/texts/languages.json";

/** A language of the list, as the compiler knows it (a JSON file's strings are only strings):
 * ui/tests/language.test.ts holds it, the dictionaries and the texts to the list, and
 * i18n/all.ts has a dictionary for each. */
export type Language = "en" | "es" | "ru" | "fr" | "pt";
type Listed = (typeof LIST.languages)[number];

/** In the language menu's order. */
export const LANGUAGES: readonly Language[] = LIST.languages.map((listed) => listed.code as Language);
export const DEFAULT_LANGUAGE = LIST.default as Language;

const PREFIXED: readonly Language[] = LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE);

/** Each language's ``field`` in the list, written as ``write`` says. */
function byLanguage<K extends keyof Listed, T = Listed[K]>(field: K, write = (value: Listed[K]) => value as T): Record<Language, T> {
  return Object.fromEntries(LIST.languages.map((listed) => [listed.code, write(listed[field])])) as Record<Language, T>;
}

export function languageFromPath(path: string): Language {
  const first = path.split("/")[1] ?? "";
  return (PREFIXED as readonly string[]).includes(first) ? (first as Language) : DEFAULT_LANGUAGE;
}

/** The path without its language prefix: "/ru/license" → "/license", "/ru" → "/". */
export function stripLanguage(path: string): string {
  const language = languageFromPath(path);
  if (language === DEFAULT_LANGUAGE) return path || "/";
  const rest = path.slice(language.length + 1);
  return rest === "" ? "/" : rest;
}

export function prefix(language: Language): string {
  return language === DEFAULT_LANGUAGE ? "" : `/${language}`;
}

/** A route in a language: ("/license", "ru") → "/ru/license"; ("/", "ru") → "/ru". */
export function localPath(route: string, language: Language): string {
  if (language === DEFAULT_LANGUAGE) return route;
  return route === "/" ? prefix(language) : prefix(language) + route;
}

/** The id of a dashboard's hidden form with its licence (e-mail and code): on a dashboard the
 * language menu's buttons post it to another language's licence page, which answers with the
 * dashboard in that language. The code is kept in the page alone: no address, no storage. */
export const LICENCE_FORM = "shown-licence";

/** The activation page's query when the tab (or, without the script, the browser) has an activation
 * to show: the server sends the page bare only then, and home otherwise. */
export const KEPT = "?kept";

/** The switch rule: replace another language's prefix with the chosen one, or add it; English drops
 * it. The activation page keeps saying it has an activation to show (KEPT). */
export function switchLanguage(path: string, to: Language): string {
  const route = stripLanguage(path);
  return localPath(route, to) + (route === "/activation" ? KEPT : "");
}

/** The language's name in itself, as the language menu shows it. */
export const LANGUAGE_NAMES = /* @__PURE__ */ byLanguage("name");

/** Accept-Language for the API, per spec section 7. */
export const ACCEPT_LANGUAGE = /* @__PURE__ */ byLanguage("accept");

/** The language as HTML (`lang`, `hreflang`) names it: the Portuguese is Brazilian. */
export const HTML_LANG = /* @__PURE__ */ byLanguage("html");

/** Formatting locales: British English, like the company and its spelling ("licence"). */
export const LOCALE = /* @__PURE__ */ byLanguage("locale");

/** og:locale: the formatting locale, as Open Graph writes it (en_GB, pt_BR). */
export const OG_LOCALE = /* @__PURE__ */ byLanguage("locale", (locale) => locale.replace("-", "_"));

/** How a count of millions is shortened: abbreviated ("1.2m", "1,2 млн") or in words ("1,2 millones"). */
export const COMPACT_DISPLAY = /* @__PURE__ */ byLanguage("compact") as Record<Language, "short" | "long">;
