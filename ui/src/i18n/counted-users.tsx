// The texts that count users, in every language: the words for a new service below FEW_USERS,
// else the language's plural form, and above a million both the full and the short count.
import type { ComponentChildren } from "preact";
import { FEW_USERS, millionsText, plural, SHORT_COUNT_FROM, type PluralForms } from "../lib/format";
import type { Language } from "../lib/language";
import { slot } from "../lib/served";
import type { CoreDictionary, Dictionary } from "./context";

/** Both forms of a text with a large count, each whole ("1 234 567 пользователей", "1,2 млн
 * пользователей"): the stylesheet shows the short one on phones, so the page the server sends and
 * the page the script draws are the same at every width. */
export function CountForms({ full, short }: { full: string; short: string }) {
  return (
    <>
      <span class="count-full">{full}</span>
      <span class="count-short">{short}</span>
    </>
  );
}

/** What is said instead of a small count: true, and the same length at every count below it. */
export function FewUsers({ text }: { text: string }) {
  return <span class="proof-new">{text}</span>;
}

/** The part of the dictionary each text counting users needs: the home page and the layout have
 * only the core, which the first script carries. */
type CountedDictionary = { USERS: CoreDictionary; FOOTER_USERS: CoreDictionary; JOIN_USERS: Dictionary };
export type CountedUsers = keyof CountedDictionary;

/** The texts that count users, by the marker the server writes each at: their plural forms and
 * what they say below FEW_USERS. The build exports both (prerender.tsx: formats), and the server
 * picks with the same threshold and plural rules. */
export const COUNTED_USERS: { [N in CountedUsers]: (dictionary: CountedDictionary[N]) => { forms: PluralForms; few: string } } = {
  USERS: (dictionary) => ({ forms: { other: "{n}" }, few: dictionary.proof.launched }),
  FOOTER_USERS: (dictionary) => ({ forms: dictionary.footer.users, few: dictionary.proof.first }),
  JOIN_USERS: (dictionary) => ({ forms: dictionary.status.ctaTitle, few: dictionary.proof.join }),
};

/** A text counting users: the server's marker while prerendering, the words for a new service
 * below FEW_USERS, else the language's plural form with the count; above a million, both texts:
 * the full count in the form its number picks, the short count in the text's ``millions`` form. */
export function countedUsers<N extends CountedUsers>(name: N, count: number | null, language: Language, dictionary: CountedDictionary[N]): ComponentChildren {
  if (count === null) return slot(`RAW_${name}`);
  const { forms, few } = COUNTED_USERS[name](dictionary);
  if (count < FEW_USERS) return <FewUsers text={few} />;
  if (count <= SHORT_COUNT_FROM) return plural(count, forms, language);
  return <CountForms full={plural(count, forms, language)} short={millionsText(count, forms, language)} />;
}
