import type { Language } from "../lib/language";
import type { PageText } from "./types";

// Each import named in full: a computed one would make esbuild add a look-up helper to the first script.
const TEXTS: Record<Language, () => Promise<{ default: PageText }>> = {
  en: () => import("./text/en"),
  ru: () => import("./text/ru"),
  es: () => import("./text/es"),
  fr: () => import("./text/fr"),
  pt: () => import("./text/pt"),
};

/** The long texts of one language, as a chunk of its own. */
export async function loadText(language: Language): Promise<PageText> {
  return (await TEXTS[language]()).default;
}
