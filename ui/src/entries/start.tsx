import { hydrate } from "preact";
import { App } from "../app";
import { overServerPage } from "../components/server-markup";
import type { LanguageParts } from "../i18n/load";
import type { CoreDictionary } from "../lib/i18n";
import type { Language } from "../lib/language";

/** Every language's entry: the page's language, the first script's texts in it, and how to load
 * the rest of them. */
export function start(language: Language, dictionary: CoreDictionary, parts: LanguageParts): void {
  document.documentElement.classList.add("js");
  overServerPage(() => hydrate(<App language={language} dictionary={dictionary} parts={parts} />, document.getElementById("app") as HTMLElement));
}
