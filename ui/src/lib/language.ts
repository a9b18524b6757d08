// The interface language lives in the first path segment: /ru, /es, /fr, /pt; anything else is English.

export const LANGUAGES = ["en", "es", "ru", "fr", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];

const PREFIXED: readonly Language[] = ["ru", "es", "fr", "pt"];

export function languageFromPath(path: string): Language {
  const first = path.split("/")[1] ?? "";
  return (PREFIXED as readonly string[]).includes(first) ? (first as Language) : "en";
}

/** The path without its language prefix: "/ru/license" → "/license", "/ru" → "/". */
export function stripLanguage(path: string): string {
  const language = languageFromPath(path);
  if (language === "en") return path || "/";
  const rest = path.slice(language.length + 1);
  return rest === "" ? "/" : rest;
}

export function prefix(language: Language): string {
  return language === "en" ? "" : `/${language}`;
}

/** A route in a language: ("/license", "ru") → "/ru/license"; ("/", "ru") → "/ru". */
export function localPath(route: string, language: Language): string {
  if (language === "en") return route;
  return route === "/" ? prefix(language) : prefix(language) + route;
}

/** The id of a dashboard's hidden form with its licence (e-mail and code): on a dashboard the
 * language menu's buttons post it to another language's licence page, which answers with the
 * dashboard in that language. The code is kept in the page alone: no address, no storage. */
export const LICENCE_FORM = "shown-licence";

/** The switch rule: replace another language's prefix with the chosen one, or add it; English drops it. */
export function switchLanguage(path: string, to: Language): string {
  return localPath(stripLanguage(path), to);
}

/** Accept-Language for the API, per spec section 7. */
export const ACCEPT_LANGUAGE: Record<Language, string> = {
  en: "en-US",
  ru: "ru-RU",
  es: "es-ES",
  fr: "fr-FR",
  pt: "pt-BR",
};

/** The language as HTML (`lang`, `hreflang`) names it: the Portuguese is Brazilian. */
export const HTML_LANG: Record<Language, string> = { en: "en", ru: "ru", es: "es", fr: "fr", pt: "pt-BR" };

export const OG_LOCALE: Record<Language, string> = { en: "en_GB", ru: "ru_RU", es: "es_ES", fr: "fr_FR", pt: "pt_BR" };

/** Formatting locales: British English, like the company and its spelling ("licence"). */
export const LOCALE: Record<Language, string> = {
  en: "en-GB",
  ru: "ru-RU",
  es: "es-ES",
  fr: "fr-FR",
  pt: "pt-BR",
};
