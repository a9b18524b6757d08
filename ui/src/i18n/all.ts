// Every language's whole dictionary, for what runs at build time (prerender.tsx, the unit tests),
// not in the browser.
import type { Dictionary } from "../lib/i18n";
import type { Language } from "../lib/language";
import en from "./en";
import es from "./es";
import fr from "./fr";
import pt from "./pt";
import ru from "./ru";
import enScreens from "./screens/en";
import esScreens from "./screens/es";
import frScreens from "./screens/fr";
import ptScreens from "./screens/pt";
import ruScreens from "./screens/ru";

export const DICTIONARIES: Record<Language, Dictionary> = {
  en: { ...en, ...enScreens },
  ru: { ...ru, ...ruScreens },
  es: { ...es, ...esScreens },
  fr: { ...fr, ...frScreens },
  pt: { ...pt, ...ptScreens },
};
