import type { PageText } from "../content/types";
import type { ScreenDictionary } from "./context";
import type { PageKey } from "../lib/pages";

/** What a page loads of its language after the first script, each part a chunk of its own: the
 * screens' part of the dictionary, and the long texts (about, legal, FAQ). Each language's entry
 * names its own (entries/en.tsx), so a page's first script points at no other language's chunks;
 * prerendering has every language at hand (i18n/all.ts, content/all.ts). */
export type LanguageParts = { screens: () => Promise<ScreenDictionary>; text: () => Promise<PageText> };

/** A page's title and description, for a page the script draws: they are in the screens' part,
 * loaded with every page the script draws (the home page's later sections included). */
export async function pageMeta(parts: LanguageParts, page: PageKey): Promise<{ title: string; description: string }> {
  return (await parts.screens()).meta[page];
}
