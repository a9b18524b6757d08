import { useI18n } from "../../i18n/context";

export function SetupGuide() {
  const { t, list } = useI18n();
  return (
    <div class="guide">
      <h2>{t("activation.guideTitle")}</h2>
      <div class="guide-columns">
        {(["desktop", "mobile"] as const).map((kind) => (
          <div class="card" key={kind}>
            <h3>{t(`activation.${kind}`)}</h3>
            <ol class="steps">
              {list(kind === "desktop" ? "activation.stepsDesktop" : "activation.stepsMobile").map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </div>
        ))}
      </div>
    </div>
  );
}
