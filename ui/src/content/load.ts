import type { Language } from "../lib/language";
import type { PageText } from "./types";

/** The long texts of one language, as a chunk of its own. */
export async function loadText(language: Language): Promise<PageText> {
  const module = (await import(`./text/${language}.ts`)) as { default: PageText };
  return module.default;
}
