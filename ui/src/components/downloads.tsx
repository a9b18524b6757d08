import type { ComponentChildren } from "preact";
import { useI18n } from "../i18n/context";
import { slot, useServed } from "../lib/served";
import { Icon } from "./icons";
import { androidIcon, appleIcon, downloadIcon, windowsIcon } from "./screen-icons";

// Spec section 3: where each platform's app comes from.
export const APP_DOWNLOADS = [
  { platform: "Windows", icon: windowsIcon, href: "https://openvpn.net/client/client-connect-vpn-for-windows/" },
  { platform: "macOS", icon: appleIcon, href: "https://openvpn.net/client-connect-vpn-for-mac-os/" },
  { platform: "Android", icon: androidIcon, href: "https://play.google.com/store/apps/details?id=net.openvpn.openvpn" },
  { platform: "iOS", icon: appleIcon, href: "https://apps.apple.com/app/openvpn-connect/id590379981" },
];

/** Which phone a browser says it runs on ("ios", "android", or "" for anything else); the server
 * reads the same from the form post it answers (http/pages/forms.py: phone_of). */
export function phoneOf(userAgent: string): string {
  return /iPhone|iPad|iPod/.test(userAgent) ? "ios" : /Android/.test(userAgent) ? "android" : "";
}

/** The apps, each saying whose it is (the site links to another company's app). At the phone width the phones' apps come first, the visitor's own phone's first of
 * all (styles.css: data-phone); on a computer, the order of the spec. */
export function DownloadTiles() {
  const { t } = useI18n();
  const served = useServed() !== null;
  return (
    <ul class="download-tiles" data-phone={served ? slot("PHONE") : phoneOf(navigator.userAgent)}>
      {APP_DOWNLOADS.map((app) => (
        <li key={app.platform} class={`app-${app.platform.toLowerCase()}`}>
          <a class="tile" href={app.href} rel="noopener noreferrer" target="_blank">
            <Icon path={app.icon} size={28} />
            <span>{app.platform}</span>
            <span class="tile-maker">{t("activation.appBy")}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function ArchiveLink({ href, phone }: { href: string; phone?: boolean }) {
  const { t } = useI18n();
  return (
    <div class={phone ? "archive phone-only" : "archive desktop-only"}>
      <a class={phone ? "button button-secondary" : "button button-large"} href={href} rel="noreferrer" download>
        <Icon path={downloadIcon} size={20} /> {t("activation.archive")}
      </a>
      <p class="muted small">{t("activation.archiveNote")}</p>
    </div>
  );
}

/** The archive of every profile around the setup list: on a computer before it, as the main
 * button; on a phone, where a ZIP file is of little use, after it and secondary. */
export function WithArchive({ href, children }: { href: string | null; children: ComponentChildren }) {
  return (
    <>
      {href && <ArchiveLink href={href} />}
      {children}
      {href && <ArchiveLink href={href} phone />}
    </>
  );
}
