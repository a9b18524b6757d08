import type { ScreenDictionary } from "../lib/i18n";
import type { Language } from "../lib/language";

/** The screens' part of one language's dictionary, as a chunk of its own. */
export async function loadScreens(language: Language): Promise<ScreenDictionary> {
  const module = (await import(`./screens/${language}.ts`)) as { default: ScreenDictionary };
  return module.default;
}
