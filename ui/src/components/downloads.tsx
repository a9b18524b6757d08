import { useI18n } from "../lib/i18n";
import { Icon } from "./icons";
import { androidIcon, appleIcon, downloadIcon, windowsIcon } from "./screen-icons";

// Spec section 3: where each platform's app comes from.
export const APP_DOWNLOADS = [
  { platform: "Windows", icon: windowsIcon, href: "https://openvpn.net/client/client-connect-vpn-for-windows/" },
  { platform: "macOS", icon: appleIcon, href: "https://openvpn.net/client-connect-vpn-for-mac-os/" },
  { platform: "Android", icon: androidIcon, href: "https://play.google.com/store/apps/details?id=net.openvpn.openvpn" },
  { platform: "iOS", icon: appleIcon, href: "https://apps.apple.com/app/openvpn-connect/id590379981" },
];

export function DownloadTiles() {
  return (
    <ul class="download-tiles">
      {APP_DOWNLOADS.map((app) => (
        <li key={app.platform}>
          <a class="tile" href={app.href} rel="noopener noreferrer" target="_blank">
            <Icon path={app.icon} size={28} />
            <span>{app.platform}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function ArchiveLink({ href }: { href: string }) {
  const { t } = useI18n();
  return (
    <div class="archive">
      <a class="button button-large" href={href} rel="noreferrer" download>
        <Icon path={downloadIcon} size={20} /> {t("activation.archive")}
      </a>
      <p class="muted small">{t("activation.archiveNote")}</p>
    </div>
  );
}
