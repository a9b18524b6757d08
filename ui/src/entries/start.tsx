import { hydrate } from "preact";
import { App } from "../app";
import type { CoreDictionary } from "../lib/i18n";
import type { Language } from "../lib/language";

/** Every language's entry: the page's language and the layout's and home page's texts in it. */
export function start(language: Language, dictionary: CoreDictionary): void {
  document.documentElement.classList.add("js");
  hydrate(<App language={language} dictionary={dictionary} />, document.getElementById("app") as HTMLElement);
}
