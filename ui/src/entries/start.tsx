import { hydrate } from "preact";
import { App } from "../app";
import { overServerPage } from "../components/server-markup";
import type { CoreDictionary } from "../lib/i18n";
import type { Language } from "../lib/language";

/** Every language's entry: the page's language and the first script's texts in it. */
export function start(language: Language, dictionary: CoreDictionary): void {
  document.documentElement.classList.add("js");
  overServerPage(() => hydrate(<App language={language} dictionary={dictionary} />, document.getElementById("app") as HTMLElement));
}
