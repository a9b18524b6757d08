import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/context";
import { HTML_LANG, LANGUAGE_NAMES, LANGUAGES, LICENCE_FORM, localPath, stripLanguage, switchLanguage, type Language } from "../lib/language";
import { usePolling } from "../lib/poll";
import { FOOTER_POLL_MS, fetchUserCount } from "../lib/user-count";
import { countedUsers } from "../i18n/counted-users";
import { servedUserCount, useServed } from "../lib/served";
import { useOnNavigation } from "../lib/on-navigation";
import { FOOTER_CONTACT_MARKER, operator } from "../lib/operator";
import { revealOnScroll } from "./reveal";
import { Icon, chevronIcon, globeIcon, menuIcon, shieldIcon } from "./icons";

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

/** Closes a <details> menu on Escape (focus back on its summary), on a click outside it and when
 * the focus leaves it (a Tab past its last item). */
function useClosingMenu(): { ref: { current: HTMLDetailsElement | null }; close: () => void } {
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (ref.current) ref.current.open = false;
  };
  useEffect(() => {
    const onOutside = (event: Event) => {
      if (ref.current?.open && !ref.current.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && ref.current?.open) {
        close();
        ref.current.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
  return { ref, close };
}

// The menus are <details> of plain links, so they open and navigate without JavaScript. On a
// dashboard (the server's, or the script's: looked for as the menu opens) each language is a
// button that posts the dashboard's licence form (LICENCE_FORM) to that language's licence page,
// which answers with the dashboard in the language.
function LanguageMenu() {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const { ref } = useClosingMenu();
  const [onDashboard, setOnDashboard] = useState(false);
  const posts = useServed()?.kind === "licence" || onDashboard;
  return (
    <details class="language-menu" ref={ref} onToggle={() => setOnDashboard(document.getElementById(LICENCE_FORM) !== null)}>
      <summary class="language-button">
        <Icon path={globeIcon} size={18} /> <span class="visually-hidden">{t("nav.language")} </span>
        <abbr title={LANGUAGE_NAMES[language]}>{language.toUpperCase()}</abbr> <Icon path={chevronIcon} size={16} />
      </summary>
      <ul class="language-list">
        {LANGUAGES.map((option) => (
          <li key={option}>
            {posts ? (
              <button form={LICENCE_FORM} formAction={localPath("/license", option)} lang={HTML_LANG[option]} aria-current={option === language ? "true" : undefined}>
                {LANGUAGE_NAMES[option]}
              </button>
            ) : (
              <a lang={HTML_LANG[option]} hrefLang={HTML_LANG[option]} href={switchLanguage(path, option)} aria-current={option === language ? "true" : undefined}>
                {LANGUAGE_NAMES[option]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </details>
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

/** The licence page's link, marked as the page the visitor is on there. */
function LoginLink({ class: className, onClick }: { class: string; onClick?: () => void }) {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const here = stripLanguage(path) === "/license";
  return (
    <Link href={localPath("/license", language)} class={here ? `${className} active` : className} aria-current={here ? "page" : undefined} onClick={onClick}>
      {t("nav.login")}
    </Link>
  );
}

function MobileMenu() {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const { ref, close } = useClosingMenu();
  useEffect(close, [path]);
  return (
    <details class="mobile-menu" ref={ref}>
      <summary class="menu-button" aria-controls="mobile-nav">
        <span class="visually-hidden">{t("nav.menu")}</span>
        <Icon path={menuIcon} />
      </summary>
      <nav id="mobile-nav" class="mobile-nav" aria-label={t("nav.menu")}>
        <NavLinks onNavigate={close} />
        <LoginLink class="button" onClick={close} />
      </nav>
    </details>
  );
}

function Header() {
  const { language, t } = useI18n();
  return (
    <header class="site-header">
      <a class="skip-link" href="#main">{t("nav.skip")}</a>
      <div class="container header-row">
        <Link href={localPath("/", language)} class="brand" aria-label="vpnsite">
          <span class="brand-mark"><Icon path={shieldIcon} size={20} /></span> vpnsite
        </Link>
        <nav class="desktop-nav" aria-label={t("nav.menu")}>
          <NavLinks />
        </nav>
        <div class="header-actions">
          <LanguageMenu />
          <LoginLink class="button button-small login" />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}

function FooterLinks({ links }: { links: [string, string][] }) {
  const { language, t } = useI18n();
  return (
    <ul class="footer-links">
      {links.map(([route, key]) => (
        <li key={route}><Link href={localPath(route, language)}>{t(key)}</Link></li>
      ))}
    </ul>
  );
}

function Footer() {
  const { language, t, dictionary } = useI18n();
  const { data, loaded } = usePolling(fetchUserCount, FOOTER_POLL_MS);
  const [served] = useState(servedUserCount);
  const count = data?.user_count ?? served;
  const healthy = !loaded || data !== null;
  const who = operator();
  return (
    <footer class="site-footer">
      <div class="container footer-grid">
        <div>
          <div class="brand"><span class="brand-mark"><Icon path={shieldIcon} size={20} /></span> vpnsite</div>
          <p class="muted">{t("footer.tagline")}</p>
          <Link href={localPath("/server-status", language)} class="user-badge">
            <span class="dot online" aria-hidden="true" />
            {countedUsers("FOOTER_USERS", count, language, dictionary)}
          </Link>
          <p class={healthy ? "operational" : "operational down"}>
            <span class={healthy ? "dot online" : "dot offline"} aria-hidden="true" /> {healthy ? t("footer.operational") : t("footer.unavailable")}
          </p>
        </div>
        <div>
          <h2 class="footer-title">{t("footer.quick")}</h2>
          <FooterLinks links={[...NAV, ["/license", "nav.login"]]} />
        </div>
        <div>
          <h2 class="footer-title">{t("footer.legal")}</h2>
          <FooterLinks links={[["/terms", "footer.terms"], ["/privacy", "footer.privacy"], ["/cookie", "footer.cookie"]]} />
        </div>
        {/* The operator's contacts: the server writes them into every page it sends
            (components/footer-contact.tsx), and the script, which takes every page over from the
            server, keeps them as they are: hydrating leaves an element given inner HTML alone, and
            the same empty inner HTML changes nothing on later renders. */}
        {typeof document === "undefined" ? <div>{FOOTER_CONTACT_MARKER}</div> : <div dangerouslySetInnerHTML={{ __html: "" }} />}
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

/** Whether any of the page's forms, testimonials, closing call or its footer shows in the viewport (re-read on each route, and
 * as the page changes: a screen that loads after the address changed brings its forms later). */
function useFormsOrFooterInView(path: string): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const showing = new Set<Element>();
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) showing.add(entry.target);
        else showing.delete(entry.target);
      }
      setInView(showing.size > 0);
    });
    // Observing an element twice is harmless: each change just observes whatever is there now.
    const watch = () => document.querySelectorAll("main form, .testimonials, .closing, .site-footer").forEach((element) => observer.observe(element));
    watch();
    const main = document.getElementById("main");
    const changes = new MutationObserver(watch);
    if (main) changes.observe(main, { childList: true, subtree: true });
    return () => {
      changes.disconnect();
      observer.disconnect();
    };
  }, [path]);
  return inView;
}

/** A link to the home page's form, followed there: the form comes into view with the focus. */
export function goToSignup(event: MouseEvent) {
  event.preventDefault();
  document.getElementById("signup")?.scrollIntoView({ behavior: "smooth", block: "center" });
  document.getElementById("signup-email")?.focus({ preventScroll: true });
}

// The bar would cover a form's buttons, the testimonials' words, the closing call and the footer's
// last lines: it stays away while they show.
function FloatingButton() {
  const { language, t } = useI18n();
  const [path] = useLocation();
  const y = useScrollY();
  const covering = useFormsOrFooterInView(path);
  if (y <= SCROLL_THRESHOLD || covering) return null;
  const onHome = stripLanguage(path) === "/";
  const goToForm = (event: MouseEvent) => {
    if (onHome) goToSignup(event);
  };
  return (
    <a class="floating-cta button" href={`${localPath("/", language)}#signup`} onClick={goToForm}>
      <Icon path={shieldIcon} size={18} /> {t("cta.floating")}
    </a>
  );
}

export function Layout({ children }: { children: ComponentChildren }) {
  const [path] = useLocation();
  // A new screen starts at its top. The page the visitor came in on is left where they are:
  // hydrating must not throw them back.
  useOnNavigation(path, () => {
    if (!location.hash) window.scrollTo({ top: 0, behavior: "instant" });
  });
  useEffect(() => revealOnScroll(document.getElementById("main") as HTMLElement), []);
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
