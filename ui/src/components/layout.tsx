import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Link, useLocation } from "wouter";
import { useI18n } from "../lib/i18n";
import { HTML_LANG, LANGUAGES, localPath, stripLanguage, switchLanguage, type Language } from "../lib/language";
import { formatCount, PHONE_MAX_WIDTH, plural } from "../lib/format";
import { useNarrow, usePolling } from "../lib/poll";
import { FOOTER_DEFAULT_COUNT, FOOTER_POLL_MS, fetchUserCount } from "../lib/user-count";
import { operator } from "../lib/operator";
import { Icon } from "./icons";

const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español", ru: "Русский", fr: "Français", pt: "Português (Brasil)" };
const NAV: [string, string][] = [
  ["/", "nav.home"],
  ["/server-status", "nav.status"],
  ["/support", "nav.support"],
  ["/about", "nav.about"],
];
export const SCROLL_THRESHOLD = 300;

function useScrollY(): number {
  const [y, setY] = useState(0);
  useEffect(() => {
    const onScroll = () => setY(window.scrollY);
    onScroll();
    addEventListener("scroll", onScroll, { passive: true });
    return () => removeEventListener("scroll", onScroll);
  }, []);
  return y;
}

function ScrollProgress() {
  const y = useScrollY();
  const [height, setHeight] = useState(1);
  useEffect(() => setHeight(Math.max(1, document.documentElement.scrollHeight - innerHeight)), [y]);
  return <div class="scroll-progress" style={{ transform: `scaleX(${Math.min(1, y / height)})` }} aria-hidden="true" />;
}

function LanguageMenu() {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const [open, setOpen] = useState(false);
  return (
    <div class="language-menu" onKeyDown={(event) => event.key === "Escape" && setOpen(false)}>
      <button type="button" class="language-button" aria-expanded={open} aria-haspopup="true" onClick={() => setOpen(!open)}>
        <Icon name="globe" size={18} /> <span class="visually-hidden">{t("nav.language")}: </span>
        <abbr title={LANGUAGE_NAMES[language]}>{language.toUpperCase()}</abbr> <Icon name="chevron" size={16} />
      </button>
      {open && (
        <ul class="language-list" role="menu">
          {LANGUAGES.map((option) => (
            <li role="none" key={option}>
              <a role="menuitem" lang={HTML_LANG[option]} hrefLang={HTML_LANG[option]} href={switchLanguage(path, option)} aria-current={option === language ? "true" : undefined}>
                {LANGUAGE_NAMES[option]}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const here = stripLanguage(path);
  return (
    <>
      {NAV.map(([route, key]) => (
        <Link key={route} href={localPath(route, language)} class={here === route ? "nav-link active" : "nav-link"} aria-current={here === route ? "page" : undefined} onClick={onNavigate}>
          {t(key)}
        </Link>
      ))}
    </>
  );
}

function Header() {
  const { language, t } = useI18n();
  const [open, setOpen] = useState(false);
  const [path] = useLocation();
  useEffect(() => setOpen(false), [path]);
  return (
    <header class="site-header">
      <a class="skip-link" href="#main">{t("nav.skip")}</a>
      <div class="container header-row">
        <Link href={localPath("/", language)} class="brand" aria-label="vpnsite">
          <span class="brand-mark"><Icon name="shield" size={20} /></span> vpnsite
        </Link>
        <nav class="desktop-nav" aria-label={t("nav.menu")}>
          <NavLinks />
        </nav>
        <div class="header-actions">
          <LanguageMenu />
          <Link href={localPath("/license", language)} class="button button-small login">{t("nav.login")}</Link>
          <button type="button" class="menu-button" aria-expanded={open} aria-controls="mobile-nav" aria-label={open ? t("nav.close") : t("nav.menu")} onClick={() => setOpen(!open)}>
            <Icon name={open ? "close" : "menu"} />
          </button>
        </div>
      </div>
      {open && (
        <nav id="mobile-nav" class="mobile-nav" aria-label={t("nav.menu")}>
          <NavLinks onNavigate={() => setOpen(false)} />
          <Link href={localPath("/license", language)} class="button" onClick={() => setOpen(false)}>{t("nav.login")}</Link>
        </nav>
      )}
    </header>
  );
}

function Footer() {
  const { language, t, dictionary } = useI18n();
  const phone = useNarrow(PHONE_MAX_WIDTH);
  const { data, loaded } = usePolling(fetchUserCount, FOOTER_POLL_MS);
  const count = data?.user_count ?? FOOTER_DEFAULT_COUNT;
  const healthy = !loaded || data !== null;
  const who = operator();
  return (
    <footer class="site-footer">
      <div class="container footer-grid">
        <div>
          <div class="brand"><span class="brand-mark"><Icon name="shield" size={20} /></span> vpnsite</div>
          <p class="muted">{t("footer.tagline")}</p>
          <Link href={localPath("/server-status", language)} class="user-badge">
            <span class="dot online" aria-hidden="true" />
            {loaded ? plural(count, dictionary.footer.users, language, formatCount(count, language, phone)) : t("footer.loading")}
          </Link>
          <p class={healthy ? "operational" : "operational down"}>
            <span class={healthy ? "dot online" : "dot offline"} aria-hidden="true" /> {healthy ? t("footer.operational") : t("footer.unavailable")}
          </p>
        </div>
        <div>
          <h2 class="footer-title">{t("footer.quick")}</h2>
          <ul class="footer-links">
            <li><Link href={localPath("/", language)}>{t("nav.home")}</Link></li>
            <li><Link href={localPath("/server-status", language)}>{t("nav.status")}</Link></li>
            <li><Link href={localPath("/support", language)}>{t("nav.support")}</Link></li>
            <li><Link href={localPath("/about", language)}>{t("nav.about")}</Link></li>
            <li><Link href={localPath("/license", language)}>{t("nav.login")}</Link></li>
          </ul>
        </div>
        <div>
          <h2 class="footer-title">{t("footer.legal")}</h2>
          <ul class="footer-links">
            <li><Link href={localPath("/terms", language)}>{t("footer.terms")}</Link></li>
            <li><Link href={localPath("/privacy", language)}>{t("footer.privacy")}</Link></li>
            <li><Link href={localPath("/cookie", language)}>{t("footer.cookie")}</Link></li>
          </ul>
        </div>
        <div>
          <h2 class="footer-title">{t("footer.follow")}</h2>
          <div class="social">
            <a href="https://x.com/vpnsite" rel="noopener noreferrer" aria-label={t("footer.x")}><Icon name="x" /></a>
            <a href="https://t.me/vpnsite" rel="noopener noreferrer" aria-label={t("footer.telegram")}><Icon name="send" /></a>
            <a href="mailto:support@vpnsite.example" aria-label={t("footer.mail")}><Icon name="mail" /></a>
          </div>
        </div>
      </div>
      <div class="container copyright">
        <p>{t("footer.rights", { year: new Date().getFullYear(), name: who.name })}</p>
        <p class="operator">
          {t("footer.company", { name: who.name, number: who.number, address: who.address })}{" "}
          <a href={`mailto:${who.email}`}>{who.email}</a>
        </p>
      </div>
    </footer>
  );
}

function FloatingButton() {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const y = useScrollY();
  if (y <= SCROLL_THRESHOLD) return null;
  const onHome = stripLanguage(path) === "/";
  const goToForm = (event: MouseEvent) => {
    if (!onHome) return;
    event.preventDefault();
    document.getElementById("signup")?.scrollIntoView({ behavior: "smooth", block: "center" });
    document.getElementById("signup-email")?.focus({ preventScroll: true });
  };
  return (
    <a class="floating-cta button" href={`${localPath("/", language)}#signup`} onClick={goToForm}>
      <Icon name="shield" size={18} /> {t("cta.floating")}
    </a>
  );
}

export function Layout({ children }: { children: ComponentChildren }) {
  const [path] = useLocation();
  useEffect(() => {
    if (!location.hash) window.scrollTo({ top: 0, behavior: "instant" });
  }, [path]);
  return (
    <>
      <ScrollProgress />
      <Header />
      <main id="main" tabIndex={-1}>{children}</main>
      <Footer />
      <FloatingButton />
    </>
  );
}
