// The thirteen FAQ items: what they are about, their colour and icon (its path). Their words are
// per language (text/<language>.ts).

import { globeIcon, shieldIcon } from "../components/icons";
import { archiveIcon, boltIcon, devicesIcon, downloadIcon, eyeOffIcon, giftIcon, keyIcon, plugIcon, refreshIcon, searchIcon, trashIcon } from "../components/screen-icons";
import { withTerms } from "./terms";
import type { FaqText } from "./types";

export type FaqItem = { id: string; colour: string; icon: string } & FaqText;

export const FAQ_ITEMS: { id: string; colour: string; icon: string }[] = [
  { id: "cost", colour: "green", icon: giftIcon },
  { id: "code", colour: "blue", icon: keyIcon },
  { id: "connect", colour: "purple", icon: plugIcon },
  { id: "archive", colour: "orange", icon: archiveIcon },
  { id: "devices", colour: "teal", icon: devicesIcon },
  { id: "protocols", colour: "indigo", icon: shieldIcon },
  { id: "renewal", colour: "green", icon: refreshIcon },
  { id: "lost", colour: "red", icon: searchIcon },
  { id: "logs", colour: "blue", icon: eyeOffIcon },
  { id: "speed", colour: "orange", icon: boltIcon },
  { id: "apps", colour: "purple", icon: downloadIcon },
  { id: "delete", colour: "red", icon: trashIcon },
  { id: "languages", colour: "teal", icon: globeIcon },
];

/** The items in a language; ``{{rule}}`` in an answer is how many devices connect at once, in the
 * words the server picked for its fleet (lib/served.tsx: servedText), and the operator's terms are
 * filled in (withTerms). */
export function faqIn(texts: Record<string, FaqText>, rule: string): FaqItem[] {
  return FAQ_ITEMS.map((item) => {
    const { question, answer } = texts[item.id];
    return { ...item, question: withTerms(question), answer: withTerms(answer.replace("{{rule}}", rule)) };
  });
}

export function filterFaq(items: FaqItem[], query: string): FaqItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return items;
  return items.filter((item) => item.question.toLocaleLowerCase().includes(needle) || item.answer.toLocaleLowerCase().includes(needle));
}
