import rosetta from "rosetta";
import { createContext, type ComponentChildren } from "preact";
import { useContext, useMemo } from "preact/hooks";
import type en from "./en";
import type enScreens from "./screens/en";
import type { Language } from "../lib/language";

type Shape<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends readonly string[] ? readonly string[] : Shape<T[K]>;
};

/** Every language has the keys of the English dictionary (English is the source of truth). The
 * first script carries the core; each lazily loaded screen (and the home page's later sections,
 * where the script draws them) brings the screens' part with it. */
export type CoreDictionary = Shape<typeof en>;
export type ScreenDictionary = Shape<typeof enScreens>;
export type Dictionary = CoreDictionary & ScreenDictionary;

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function makeTranslator(language: Language, dictionary: CoreDictionary): { t: Translate; list: (key: string) => string[] } {
  const i18n = rosetta<CoreDictionary>({ [language]: dictionary });
  i18n.locale(language);
  const t: Translate = (key, params) => {
    const text = i18n.t(key, params ?? {});
    if (typeof text !== "string" || text === "") {
      // A missing key is logged and shown as itself, so it is noticed rather than hidden.
      console.warn(`missing translation: ${language}.${key}`);
      return key;
    }
    return text;
  };
  const list = (key: string): string[] => {
    const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dictionary);
    if (!Array.isArray(value)) {
      console.warn(`missing translation: ${language}.${key}`);
      return [key];
    }
    return value as string[];
  };
  return { t, list };
}

export type I18n<D extends CoreDictionary = CoreDictionary> = { language: Language; t: Translate; list: (key: string) => string[]; dictionary: D };

export function makeI18n<D extends CoreDictionary>(language: Language, dictionary: D): I18n<D> {
  return { language, dictionary, ...makeTranslator(language, dictionary) };
}

export const I18nContext = createContext<I18n | null>(null);

/** Set only where the whole dictionary is at hand, so a screen cannot be rendered without its part. */
const ScreenI18nContext = createContext<I18n<Dictionary> | null>(null);

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (value === null) throw new Error("useI18n outside I18nContext");
  return value;
}

/** The whole dictionary, for what reads the screens' part directly (not through t). */
export function useScreenI18n(): I18n<Dictionary> {
  const value = useContext(ScreenI18nContext);
  if (value === null) throw new Error("useScreenI18n outside a screen: render it in ScreenI18n");
  return value;
}

/** Both contexts at once: what is inside translates every key, by t and by the dictionary alike. */
export function WholeI18n({ value, children }: { value: I18n<Dictionary>; children: ComponentChildren }) {
  return (
    <I18nContext.Provider value={value}>
      <ScreenI18nContext.Provider value={value}>{children}</ScreenI18nContext.Provider>
    </I18nContext.Provider>
  );
}

/** Around a screen not on the home page: the core the page started with, and the screens' part. */
export function ScreenI18n({ screens, children }: { screens: ScreenDictionary; children: ComponentChildren }) {
  const { language, dictionary } = useI18n();
  const value = useMemo(() => makeI18n(language, { ...dictionary, ...screens }), [language, dictionary, screens]);
  return <WholeI18n value={value}>{children}</WholeI18n>;
}
