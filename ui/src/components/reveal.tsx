import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

export const REVEAL_THRESHOLD = 0.15;

/** Fades its content in when it scrolls into view. Without JavaScript, or when the visitor prefers
 * reduced motion, nothing is ever hidden (the stylesheet only hides under html.js). */
export function Reveal({ children, class: className = "", as: Tag = "div", threshold = REVEAL_THRESHOLD }: { children: ComponentChildren; class?: string; as?: "div" | "section" | "li"; threshold?: number }) {
  const ref = useRef<HTMLElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return setVisible(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [threshold]);
  return (
    // @ts-expect-error: the ref fits any of the three tags
    <Tag ref={ref} class={`reveal ${visible ? "visible" : ""} ${className}`.trim()}>
      {children}
    </Tag>
  );
}
