import type { Dictionary } from "./context";

/** A server's country and city in the page's language: the dictionary's name for the country of its
 * flag, and its city's name where the dictionary translates that city; else the server's own (the
 * server's pages do the same: http/pages/slots.py, BuildPieces.place). */
export function placeOf(places: Dictionary["places"], country: string | null | undefined, name: string, city: string): { name: string; city: string } {
  const { countries, cities } = places;
  return {
    name: country && Object.hasOwn(countries, country) ? countries[country as keyof typeof countries] : name,
    city: Object.hasOwn(cities, city) ? cities[city as keyof typeof cities] : city,
  };
}
