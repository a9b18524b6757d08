// Cards fade in as they scroll into view (spec: thresholds 0.15 to 0.2). The stylesheet hides a
// .reveal element only under html.js and never for a visitor who prefers reduced motion, so
// without the script nothing is hidden. Plain DOM, not a component: the home page's sections
// arrive as the server's markup, which the script does not draw (server-markup.tsx).

export const REVEAL_THRESHOLD = 0.15;

/** Reveals each .reveal element under `root` as it shows, now and as the page changes; returns
 * how to stop. An element's data-threshold, if any, is the share of it that must show. */
export function revealOnScroll(root: Element): () => void {
  const all = () => root.querySelectorAll(".reveal:not(.visible)");
  if (typeof IntersectionObserver === "undefined") {
    all().forEach((element) => element.classList.add("visible"));
    return () => undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const element = entry.target as HTMLElement;
        if (entry.isIntersecting && entry.intersectionRatio >= Number(element.dataset.threshold ?? REVEAL_THRESHOLD)) {
          element.classList.add("visible");
          observer.unobserve(element);
        }
      }
    },
    { threshold: [REVEAL_THRESHOLD, 0.2] },
  );
  const watch = () => all().forEach((element) => observer.observe(element));
  watch();
  const changes = new MutationObserver(watch);
  changes.observe(root, { childList: true, subtree: true });
  return () => {
    changes.disconnect();
    observer.disconnect();
  };
}
