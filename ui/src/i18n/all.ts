// Every language's whole dictionary, for what runs at build time (prerender.tsx, the unit tests),
// not in the browser. Its keys are the site's languages (lib/language.ts: Language).
import type { Language } from "../lib/language";
import type { Dictionary } from "./context";
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

export const DICTIONARIES = {
  en: { ...en, ...enScreens },
  ru: { ...ru, ...ruScreens },
  es: { ...es, ...esScreens },
  fr: { ...fr, ...frScreens },
  pt: { ...pt, ...ptScreens },
} satisfies Record<Language, Dictionary>;
