import type { CoreDictionary, ScreenDictionary } from "../lib/i18n";
import type { PageKey } from "../lib/pages";
import type { Language } from "../lib/language";

// Each import named in full: a computed one would make esbuild add a look-up helper to the first script.
const SCREENS: Record<Language, () => Promise<{ default: ScreenDictionary }>> = {
  en: () => import("./screens/en"),
  ru: () => import("./screens/ru"),
  es: () => import("./screens/es"),
  fr: () => import("./screens/fr"),
  pt: () => import("./screens/pt"),
};

/** The screens' part of one language's dictionary, as a chunk of its own. */
export async function loadScreens(language: Language): Promise<ScreenDictionary> {
  return (await SCREENS[language]()).default;
}

/** A page's title and description: the core has those of the pages in the first script, the
 * screens' part (loaded with their screens, so at hand by then) the others'. */
export async function pageMeta(language: Language, core: CoreDictionary, page: PageKey): Promise<{ title: string; description: string }> {
  if (page === "home") return core.meta.home;
  return (await loadScreens(language)).meta[page];
}
