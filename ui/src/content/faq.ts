// The thirteen FAQ items: what they are about, their colour and icon. Their words are per language
// (text/<language>.ts).

import type { FaqText } from "./types";

export type FaqItem = { id: string; colour: string; icon: string } & FaqText;

export const FAQ_ITEMS: { id: string; colour: string; icon: string }[] = [
  { id: "cost", colour: "green", icon: "gift" },
  { id: "code", colour: "blue", icon: "key" },
  { id: "connect", colour: "purple", icon: "plug" },
  { id: "archive", colour: "orange", icon: "archive" },
  { id: "devices", colour: "teal", icon: "devices" },
  { id: "protocols", colour: "indigo", icon: "shield" },
  { id: "renewal", colour: "green", icon: "refresh" },
  { id: "lost", colour: "red", icon: "search" },
  { id: "logs", colour: "blue", icon: "eye-off" },
  { id: "speed", colour: "orange", icon: "bolt" },
  { id: "apps", colour: "purple", icon: "download" },
  { id: "delete", colour: "red", icon: "trash" },
  { id: "languages", colour: "teal", icon: "globe" },
];

export function faqIn(texts: Record<string, FaqText>): FaqItem[] {
  return FAQ_ITEMS.map((item) => ({ ...item, ...texts[item.id] }));
}

export function filterFaq(items: FaqItem[], query: string): FaqItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return items;
  return items.filter((item) => item.question.toLocaleLowerCase().includes(needle) || item.answer.toLocaleLowerCase().includes(needle));
}
