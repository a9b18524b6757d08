import { useEffect, useState } from "preact/hooks";
import { Icon } from "../../components/icons";
import { checkIcon, copyIcon } from "../../components/screen-icons";
import { useI18n } from "../../i18n/context";
import { GroupedCode } from "../../components/grouped-code";

export const COPIED_FOR_MS = 2000;

/** The code shown in groups; the copy button copies the digits alone. */
export function CopyCode({ groups }: { groups: string[] }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(groups.join(""));
    } catch {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById("activation-code") as Node);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      document.execCommand("copy");
    }
    setCopied(true);
  };
  return (
    <div class="code-box">
      <GroupedCode id="activation-code" groups={groups} />
      <button type="button" class="button button-small" onClick={copy} aria-live="polite">
        <Icon path={copied ? checkIcon : copyIcon} size={16} /> {copied ? t("activation.copied") : t("activation.copy")}
      </button>
    </div>
  );
}
