// The operator's terms in the texts of the site's pages (the FAQ, the terms of service, the about
// page): a module of its own, so the home page's first script, which says them through its
// dictionary (lib/served.tsx: terms), does not carry it.
import { terms } from "../lib/served";

/** ``text`` with each of the operator's terms (lib/served.tsx: terms) filled in where it names it:
 * {{term}}, {{freeUsers}}. */
export const withTerms = (text: string): string =>
  Object.entries(terms()).reduce((filled, [name, value]) => filled.replaceAll(`{{${name}}}`, value), text);
