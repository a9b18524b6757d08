import type { ComponentChildren, ComponentType } from "preact";
import { useMemo } from "preact/hooks";
import { Route, Router, Switch, useLocation } from "wouter";
import { Layout } from "./components/layout";
import { I18nContext, makeI18n, ScreenI18n, type CoreDictionary, type ScreenDictionary } from "./i18n/context";
import { languageFromPath, localPath, stripLanguage, type Language } from "./lib/language";
import { useOnNavigation } from "./lib/on-navigation";
import { pageOf } from "./lib/pages";
import { ServedContext, type ServedScreen } from "./lib/served";
import { lazy, Suspense } from "preact/compat";
import { Home, type DrawScreen } from "./routes/home";

import { pageMeta, type LanguageParts } from "./i18n/load";
import type { PageText } from "./content/types";

type WithText<P> = ComponentType<P & { text: PageText }>;

// Screens the home page does not show load with their own page.
const activationCode = () => import("./features/signup/activation");
const licenceCode = () => import("./features/licence/licence-check");
const statusCode = () => import("./features/status/server-status");
const aboutCode = () => import("./routes/about");
const legalCode = () => import("./routes/legal");
const supportCode = () => import("./features/support/support-screen");
const notFoundCode = () => import("./routes/not-found");
const ActivationScreen = lazy(() => activationCode().then((m) => ({ default: m.ActivationScreen })));
const LicenceCheck = lazy(() => licenceCode().then((m) => ({ default: m.LicenceCheck })));
const ServerStatusScreen = lazy(() => statusCode().then((m) => ({ default: m.ServerStatusScreen })));
const NotFound = lazy(() => notFoundCode().then((m) => ({ default: m.NotFound })));

/** Pages with long texts load, on their own, the page's code and the texts of its language only. */
function textPages(parts: LanguageParts) {
  const withText = <P extends object>(page: () => Promise<WithText<P>>) =>
    lazy(async () => {
      const [Page, text] = await Promise.all([page(), parts.text()]);
      return { default: (props: P) => <Page {...props} text={text} /> };
    });
  return {
    About: withText<object>(() => aboutCode().then((m) => m.About)),
    LegalPage: withText<{ document: "terms" | "privacy" | "cookie" }>(() => legalCode().then((m) => m.LegalPage)),
    SupportScreen: withText<object>(() => supportCode().then((m) => m.SupportScreen)),
  };
}

type Children = { children: ComponentChildren };

/** What the screens above say, around each of them. Prerendering has it at hand (and so renders
 * them as before, suspending only for their code); the browser loads its language's part with the
 * first screen it shows, as a chunk the page preloads (build.mjs: routeSources). */
function screenTexts(parts: LanguageParts, screens: ScreenDictionary | undefined): ComponentType<Children> {
  if (screens) return ({ children }) => <ScreenI18n screens={screens}>{children}</ScreenI18n>;
  return lazy(async () => {
    const loaded = await parts.screens();
    return { default: ({ children }: Children) => <ScreenI18n screens={loaded}>{children}</ScreenI18n> };
  });
}

/** The head of each page the script draws: its title and descriptions. The page the server sent
 * came with its own, so the first render leaves them (and loads nothing for them). */
function DocumentHead({ language, parts }: { language: Language; parts: LanguageParts }) {
  const [path] = useLocation();
  useOnNavigation(path, () => {
    if (languageFromPath(path) !== language) {
      // Each page ships only its own language: another language is a fresh page load.
      location.reload();
      return;
    }
    let current = true;
    pageMeta(parts, pageOf(stripLanguage(path))).then((meta) => {
      if (!current) return;
      document.title = meta.title;
      for (const selector of ['meta[name="description"]', 'meta[property="og:description"]', 'meta[name="twitter:description"]']) {
        document.querySelector(selector)?.setAttribute("content", meta.description);
      }
      for (const selector of ['meta[property="og:title"]', 'meta[name="twitter:title"]']) {
        document.querySelector(selector)?.setAttribute("content", meta.title);
      }
    }, () => undefined);
    return () => {
      current = false;
    };
  });
  return null;
}

/** `dictionary`: what the first script says (i18n/en.ts); `parts`: how to load the rest;
 * `screens`: the screens' part, when at hand (prerendering), else loaded with them. */
export function App({ language, dictionary, parts, screens, ssrPath, served = null }: { language: Language; dictionary: CoreDictionary; parts: LanguageParts; screens?: ScreenDictionary; ssrPath?: string; served?: ServedScreen | null }) {
  const i18n = useMemo(() => makeI18n(language, dictionary), [language, dictionary]);
  const { About, LegalPage, SupportScreen } = useMemo(() => textPages(parts), [parts]);
  const ScreenTexts = useMemo(() => screenTexts(parts, screens), [parts, screens]);
  const at = (route: string) => localPath(route, language);
  // A screen in its texts. Its code is asked for with the texts, not once they have come: a visitor
  // who follows a link to it waits for one round trip, not two (the lazy screen then finds it loaded).
  const screen: DrawScreen = (code, shown) => () => {
    code().catch(() => undefined);
    return <ScreenTexts>{shown()}</ScreenTexts>;
  };
  return (
    <I18nContext.Provider value={i18n}>
      <ServedContext.Provider value={served}>
      <Router ssrPath={ssrPath}>
        <DocumentHead language={language} parts={parts} />
        <Layout>
          <Suspense fallback={null}>
          <Switch>
            <Route path={at("/")}><Home screen={screen} /></Route>
            <Route path={at("/activation")}>{screen(activationCode, () => <ActivationScreen />)}</Route>
            <Route path={at("/license")}>{screen(licenceCode, () => <LicenceCheck />)}</Route>
            <Route path={at("/server-status")}>{screen(statusCode, () => <ServerStatusScreen />)}</Route>
            <Route path={at("/support")}>{screen(supportCode, () => <SupportScreen />)}</Route>
            <Route path={at("/about")}>{screen(aboutCode, () => <About />)}</Route>
            <Route path={at("/terms")}>{screen(legalCode, () => <LegalPage document="terms" />)}</Route>
            <Route path={at("/privacy")}>{screen(legalCode, () => <LegalPage document="privacy" />)}</Route>
            <Route path={at("/cookie")}>{screen(legalCode, () => <LegalPage document="cookie" />)}</Route>
            <Route>{screen(notFoundCode, () => <NotFound />)}</Route>
          </Switch>
          </Suspense>
        </Layout>
      </Router>
      </ServedContext.Provider>
    </I18nContext.Provider>
  );
}
