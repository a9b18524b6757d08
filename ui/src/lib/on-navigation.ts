import { useEffect, useRef } from "preact/hooks";

/** Runs `effect` (which may return its clean-up) each time the address changes, but not for the
 * page the visitor arrived on: the server sent that one as it should be, with its own title, and
 * the visitor may have scrolled it before the script ran. */
export function useOnNavigation(path: string, effect: () => void | (() => void)): void {
  const arrived = useRef(true);
  useEffect(() => {
    if (arrived.current) {
      arrived.current = false;
      return;
    }
    return effect();
  }, [path]);
}
