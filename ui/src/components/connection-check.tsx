// "Am I protected?" (issue 16): the hub compares the visitor's address with its online servers'
// exit addresses, in memory — only when the visitor asks, as the privacy policy says. The button
// asks for the status page with ``?check`` (the form works without the script); the server then
// writes the answer into the page it sends (with the answer's data beside it, `#vpnsite-check`), and
// the script starts from the same answer; with the script, the button asks the API.
//
// The answers are exported for the build, which prerenders them with slots for the server
// (http/pages/connection_answer.py, tied to this file by tests/integration/test_device_rows.py).
import { useEffect, useState } from "preact/hooks";
import type { ConnectionCheck as Answer } from "../lib/api";
import { get } from "../lib/get";
import { useI18n, useScreenI18n } from "../i18n/context";
import { localPath } from "../lib/language";
import { placeOf } from "../i18n/places";
import { slot } from "../lib/served";
import { Icon, shieldIcon } from "./icons";

export const CONNECTION_CHECK_ID = "connection-check";
/** The status page's query that asks for the check (the button's form sends it). */
export const CHECK_QUERY = "check";

export type CheckState = { kind: "idle" } | { kind: "checking" } | { kind: "answered"; answer: Answer } | { kind: "failed" };

/** The answer the server wrote into the page for this visitor, taken once: coming back to the
 * status page later (without a reload) asks afresh. Null while prerendering. */
function servedAnswer(): Answer | null {
  const block = typeof document === "undefined" ? null : document.getElementById("vpnsite-check");
  const data = block?.textContent;
  block?.remove();
  try {
    return data ? (JSON.parse(data) as Answer) : null;
  } catch {
    return null;
  }
}

export function ConnectionCheckView({ state, onAgain }: { state: CheckState; onAgain?: () => void }) {
  const { language, t, dictionary } = useScreenI18n();
  let text: string;
  let tone = "pending";
  if (state.kind === "idle") text = t("check.ask");
  else if (state.kind === "checking") text = t("check.checking");
  else if (state.kind === "failed") text = t("check.failed");
  else if (state.answer.protected && state.answer.server) {
    const server = state.answer.server;
    text = t("check.protectedVia", { city: placeOf(dictionary.places, server.flag, server.name, server.location).city });
    tone = "protected";
  } else if (state.answer.protected) {
    text = t("check.protected");
    tone = "protected";
  } else {
    text = t("check.exposed");
    tone = "exposed";
  }
  const again = (event: Event) => {
    event.preventDefault();
    onAgain?.();
  };
  return (
    <section id={CONNECTION_CHECK_ID} class={`card connection-check check-${tone}`} aria-labelledby="connection-check-title">
      <Icon path={shieldIcon} size={28} />
      <div>
        <h2 id="connection-check-title">{t("check.title")}</h2>
        <p class="check-answer" role="status">{text}</p>
      </div>
      <form method="get" action={`${localPath("/server-status", language)}#${CONNECTION_CHECK_ID}`} onSubmit={again}>
        <input type="hidden" name={CHECK_QUERY} value="yes" />
        <button type="submit" class="button button-ghost button-small" disabled={state.kind === "checking"}>
          {state.kind === "idle" ? t("check.start") : t("check.again")}
        </button>
      </form>
    </section>
  );
}

export function ConnectionCheck() {
  const [state, setState] = useState<CheckState>(() => {
    const served = servedAnswer();
    if (served) return { kind: "answered", answer: served };
    // Come by a link that asks (the dashboard's "Am I protected?"), it checks at once.
    const asked = typeof location !== "undefined" && new URLSearchParams(location.search).has(CHECK_QUERY);
    return asked ? { kind: "checking" } : { kind: "idle" };
  });
  const check = async () => {
    setState({ kind: "checking" });
    try {
      setState({ kind: "answered", answer: await get("/api/connection-check") });
    } catch {
      setState({ kind: "failed" });
    }
  };
  useEffect(() => {
    if (state.kind === "checking") void check();
  }, []);
  // Prerendered, the place of the answer the server writes for each visitor.
  if (typeof document === "undefined") return <>{slot("RAW_CHECK")}</>;
  return <ConnectionCheckView state={state} onAgain={check} />;
}
