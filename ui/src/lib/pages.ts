// The nine routes (spec section 2); their titles and descriptions live in each language's dictionary.

export const ROUTES = ["/", "/activation", "/support", "/about", "/terms", "/privacy", "/cookie", "/license", "/server-status"] as const;
export type Route = (typeof ROUTES)[number];

export type PageKey = "home" | "activation" | "support" | "about" | "terms" | "privacy" | "cookie" | "license" | "status" | "notFound";

export const PAGE_OF: Record<Route, PageKey> = {
  "/": "home",
  "/activation": "activation",
  "/support": "support",
  "/about": "about",
  "/terms": "terms",
  "/privacy": "privacy",
  "/cookie": "cookie",
  "/license": "license",
  "/server-status": "status",
};

export function pageOf(route: string): PageKey {
  return (PAGE_OF as Record<string, PageKey>)[route] ?? "notFound";
}
