// Cards fade in as they scroll into view, once 15 % of them shows (the spec's thresholds run from
// 0.15 to 0.2). The stylesheet hides a .reveal element only under html.js and never for a visitor
// who prefers reduced motion, so without the script nothing is hidden. Plain DOM, not a
// component: the home page's sections arrive as the server's markup, which the script does not
// draw (server-markup.tsx).

const REVEAL_THRESHOLD = 0.15;

/** Reveals each .reveal element under `root` as it shows, now and as the page changes; returns
 * how to stop. */
export function revealOnScroll(root: Element): () => void {
  const all = () => root.querySelectorAll(".reveal:not(.visible)");
  if (typeof IntersectionObserver === "undefined") {
    all().forEach((element) => element.classList.add("visible"));
    return () => undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting && entry.intersectionRatio >= REVEAL_THRESHOLD) {
          entry.target.classList.add("visible");
          observer.unobserve(entry.target);
        }
      }
    },
    { threshold: REVEAL_THRESHOLD },
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
