import type { Dictionary } from "./i18n";

/** A server's name and city in the page's language: the dictionary's for a country it knows, else
 * the server's own (the server's pages do the same: http/slots.py, BuildPieces.place). */
export function placeOf(locations: Dictionary["locations"], country: string | null | undefined, name: string, city: string): { name: string; city: string } {
  const known = country ? locations[country as keyof Dictionary["locations"]] : undefined;
  return known ? { name: known.name, city: known.city } : { name, city };
}
