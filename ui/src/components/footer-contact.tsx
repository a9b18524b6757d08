// The footer's contact column: the operator's social links (VPNSITE_SOCIAL_LINKS) when it has set
// any, under "Follow us", else only "Contact"; its e-mail (VPNSITE_OPERATOR_EMAIL) always, by name;
// and where the site's source code is published (the operator's facts: source_code, VPNSITE_OPERATOR_FACTS).
// The build prerenders it in pieces (prerender.tsx: footerParts) that the server puts together
// into every page it sends (http/pages/footer_contact.py); the script keeps that markup as it is
// (layout.tsx), so the first script carries neither this code nor the links.
import type { ComponentChildren } from "preact";
import { useI18n } from "../i18n/context";
import { Icon, mailIcon, sendIcon, xIcon } from "./icons";

/** A link to one of the operator's accounts: a network the footer has an icon for (the server's
 * social_links.KNOWN_NETWORKS), or a link shown by its label. */
export type SocialLink = { kind: "x" | "telegram" | "link"; label: string; url: string };

const SOCIAL_ICONS = { x: xIcon, telegram: sendIcon };

/** One of the operator's accounts: a known network's icon, or a link by its label. */
export function SocialAnchor({ link }: { link: SocialLink }) {
  const { t } = useI18n();
  if (link.kind === "link") return <a class="social-label" href={link.url} rel="me noopener noreferrer">{link.label}</a>;
  return <a href={link.url} rel="me noopener noreferrer" aria-label={t(`footer.${link.kind}`)}><Icon path={SOCIAL_ICONS[link.kind]} /></a>;
}

/** Where the site's source code is published. */
export function SourceLink({ url }: { url: string }) {
  const { t } = useI18n();
  return <a class="social-label" href={url} rel="noopener noreferrer">{t("footer.source")}</a>;
}

export function FooterContact({ following, email, source, children }: { following: boolean; email: string; source: ComponentChildren; children: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <>
      <h2 class="footer-title">{following ? t("footer.follow") : t("footer.contact")}</h2>
      <div class="social">
        {children}
        <a class="social-label" href={`mailto:${email}`}><Icon path={mailIcon} /> {t("footer.mail")}</a>
        {source}
      </div>
    </>
  );
}
