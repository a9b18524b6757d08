// The operator's terms in the texts of the site's pages (the FAQ, the terms of service, the about
// page): a module of its own, so the home page's first script, which says them through its
// dictionary (lib/served.tsx: terms), does not carry it.
import { servedText } from "../lib/served";

/** ``text`` with {{term}} and {{freeUsers}} filled in. */
export const withTerms = (text: string): string => text.replaceAll("{{term}}", servedText("term")).replaceAll("{{freeUsers}}", servedText("free_users"));
