// Parts of a page the first script does not carry. The home page's later sections say much and do
// nothing: the page the server sends has them, so the script that takes the page over leaves them
// as they are, and loads their code and texts only to draw the home page itself (after a link).
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

let takingOver = false;

/** Runs the script's first render over the page the server sent (entries/start.tsx). */
export function overServerPage(render: () => void): void {
  takingOver = true;
  try {
    render();
  } finally {
    takingOver = false;
  }
}

/** Over the page the server sent, the element keeps the server's markup: hydrating leaves an
 * element given inner HTML as it is, and the same (empty) inner HTML changes nothing on later
 * renders. Anywhere else, `children` draws it (prerendering included). */
export function ServerMarkup({ as: Tag, class: className, children }: { as: "section" | "ul" | "div"; class: string; children: () => ComponentChildren }) {
  const [kept] = useState(takingOver);
  return kept ? <Tag class={className} dangerouslySetInnerHTML={{ __html: "" }} /> : <Tag class={className}>{children()}</Tag>;
}
