import rosetta from "rosetta";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type en from "../i18n/en";
import type { Language } from "./language";

type Shape<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends readonly string[] ? readonly string[] : Shape<T[K]>;
};

/** Every language has the keys of the English dictionary (English is the source of truth). */
export type Dictionary = Shape<typeof en>;

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function makeTranslator(language: Language, dictionary: Dictionary): { t: Translate; list: (key: string) => string[] } {
  const i18n = rosetta<Dictionary>({ [language]: dictionary });
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

export type I18n = { language: Language; t: Translate; list: (key: string) => string[]; dictionary: Dictionary };

export const I18nContext = createContext<I18n | null>(null);

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (value === null) throw new Error("useI18n outside I18nContext");
  return value;
}
