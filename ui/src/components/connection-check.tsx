// "Am I protected?" (issue 16): the hub compares the visitor's address with its online servers'
// exit addresses, in memory. The server writes the answer into the status page it sends (with the
// answer's data beside it, `#vpnsite-check`), so the page answers without JavaScript and the script
// starts from the same answer; "Check again" reloads the page without the script, asks the API with it.
//
// The answers are exported for the build, which prerenders them with slots for the server
// (http/connection_answer.py, tied to this file by tests/integration/test_device_rows.py).
import { useEffect, useState } from "preact/hooks";
import type { ConnectionCheck as Answer } from "../lib/api";
import { checkConnection } from "../lib/screen-api";
import { useI18n, useScreenI18n } from "../lib/i18n";
import { localPath } from "../lib/language";
import { placeOf } from "../lib/places";
import { slot } from "../lib/served";
import { Icon, shieldIcon } from "./icons";

export const CONNECTION_CHECK_ID = "connection-check";

export type CheckState = { kind: "checking" } | { kind: "answered"; answer: Answer } | { kind: "failed" };

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
  if (state.kind === "checking") text = t("check.checking");
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
        <button type="submit" class="button button-ghost button-small" disabled={state.kind === "checking"}>
          {t("check.again")}
        </button>
      </form>
    </section>
  );
}

export function ConnectionCheck() {
  const [state, setState] = useState<CheckState>(() => {
    const served = servedAnswer();
    return served ? { kind: "answered", answer: served } : { kind: "checking" };
  });
  const check = async () => {
    setState({ kind: "checking" });
    try {
      setState({ kind: "answered", answer: await checkConnection() });
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
