import { hydrate } from "preact";
import { App } from "../app";
import { overServerPage } from "../components/server-markup";
import type { LanguageParts } from "../i18n/load";
import type { CoreDictionary } from "../i18n/context";
import type { Language } from "../lib/language";

/** Every language's entry: the page's language, the first script's texts in it, and how to load
 * the rest of them. */
export function start(language: Language, dictionary: CoreDictionary, parts: LanguageParts): void {
  document.documentElement.classList.add("js");
  forgetEarlierEntries();
  overServerPage(() => hydrate(<App language={language} dictionary={dictionary} parts={parts} />, document.getElementById("app") as HTMLElement));
}

/** What earlier versions of the site left in the browser (issue 28): the tab's last activation,
 * code included, and a mark per sign-up form that never expired ("created" and its signature). */
function forgetEarlierEntries(): void {
  try {
    sessionStorage.removeItem("vpnsite:last-activation");
    for (const key of Object.keys(localStorage)) if (key.startsWith("created")) localStorage.removeItem(key);
  } catch {
    // A browser that refuses storage holds none of it.
  }
}
