import { useEffect, useRef, useState } from "preact/hooks";

/**
 * Calls ``load`` now and every ``period`` ms while the tab is visible; pauses while it is hidden
 * and loads at once when it comes back. A failure is only logged and the previous data stays.
 */
export function usePolling<T>(load: () => Promise<T | null>, period: number): { data: T | null; loaded: boolean } {
  const [data, setData] = useState<T | null>(null);
  const [loaded, setLoaded] = useState(false);
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      clearTimeout(timer);
      if (document.hidden) return;
      try {
        const value = await loader.current();
        if (!stopped && value !== null) setData(value);
      } catch (error) {
        console.warn("polling failed", error);
      } finally {
        if (!stopped) {
          setLoaded(true);
          timer = setTimeout(tick, period);
        }
      }
    };
    const onVisibility = () => {
      if (!document.hidden) void tick();
      else clearTimeout(timer);
    };
    document.addEventListener("visibilitychange", onVisibility);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [period]);

  return { data, loaded };
}
