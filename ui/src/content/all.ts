// Every language's long texts, for what runs at build time (prerender.tsx), not in the browser.
import type { Language } from "../lib/language";
import en from "./text/en";
import es from "./text/es";
import fr from "./text/fr";
import pt from "./text/pt";
import ru from "./text/ru";
import type { PageText } from "./types";

export const TEXTS: Record<Language, PageText> = { en, ru, es, fr, pt };
