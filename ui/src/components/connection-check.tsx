// "Am I protected?" (issue 16): the hub compares the visitor's address with its online servers'
// exit addresses, in memory. The answer is per visitor, so it is asked for after the page loads;
// a page without the script says the check needs it (html:not(.js) in styles.css).
import { useEffect, useState } from "preact/hooks";
import { checkConnection, type ConnectionCheck as Answer } from "../lib/api";
import { useI18n } from "../lib/i18n";
import { Icon } from "./icons";

export const CONNECTION_CHECK_ID = "connection-check";

type State = { kind: "checking" } | { kind: "answered"; answer: Answer } | { kind: "failed" };

export function ConnectionCheck() {
  const { t, dictionary } = useI18n();
  const [state, setState] = useState<State>({ kind: "checking" });
  const check = async () => {
    setState({ kind: "checking" });
    try {
      setState({ kind: "answered", answer: await checkConnection() });
    } catch {
      setState({ kind: "failed" });
    }
  };
  useEffect(() => {
    void check();
  }, []);

  let text: string;
  let tone = "pending";
  if (state.kind === "checking") text = t("check.checking");
  else if (state.kind === "failed") text = t("check.failed");
  else if (state.answer.protected && state.answer.server) {
    const server = state.answer.server;
    const place = dictionary.locations[server.flag as keyof typeof dictionary.locations];
    text = t("check.protectedVia", { city: place?.city ?? server.location });
    tone = "protected";
  } else if (state.answer.protected) {
    text = t("check.protected");
    tone = "protected";
  } else {
    text = t("check.exposed");
    tone = "exposed";
  }
  return (
    <section id={CONNECTION_CHECK_ID} class={`card connection-check check-${tone}`} aria-labelledby="connection-check-title">
      <Icon name="shield" size={28} />
      <div>
        <h2 id="connection-check-title">{t("check.title")}</h2>
        <p class="check-answer" role="status">{text}</p>
        <p class="check-needs-script muted small">{t("check.needsScript")}</p>
      </div>
      <button type="button" class="button button-ghost button-small" onClick={check} disabled={state.kind === "checking"}>
        {t("check.again")}
      </button>
    </section>
  );
}
