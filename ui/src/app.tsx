import type { ComponentType } from "preact";
import { useEffect, useMemo } from "preact/hooks";
import { Route, Router, Switch, useLocation } from "wouter";
import { Layout } from "./components/layout";
import { I18nContext, makeTranslator, type Dictionary } from "./lib/i18n";
import { HTML_LANG, languageFromPath, localPath, stripLanguage, type Language } from "./lib/language";
import { pageOf } from "./lib/pages";
import { ServedContext, type ServedScreen } from "./lib/served";
import { lazy, Suspense } from "preact/compat";
import { Home } from "./routes/home";
import { NotFound } from "./routes/not-found";

import { loadText } from "./content/load";
import type { PageText } from "./content/types";

type WithText<P> = ComponentType<P & { text: PageText }>;

// Screens the home page does not show load with their own page.
const ActivationScreen = lazy(() => import("./features/signup/activation").then((m) => ({ default: m.ActivationScreen })));
const LicenceCheck = lazy(() => import("./features/licence/licence-check").then((m) => ({ default: m.LicenceCheck })));
const ServerStatusScreen = lazy(() => import("./features/status/server-status").then((m) => ({ default: m.ServerStatusScreen })));

/** Pages with long texts load, on their own, the page's code and the texts of its language only. */
function textPages(language: Language) {
  const withText = <P extends object>(page: () => Promise<WithText<P>>) =>
    lazy(async () => {
      const [Page, text] = await Promise.all([page(), loadText(language)]);
      return { default: (props: P) => <Page {...props} text={text} /> };
    });
  return {
    About: withText<object>(() => import("./routes/about").then((m) => m.About)),
    LegalPage: withText<{ document: "terms" | "privacy" | "cookie" }>(() => import("./routes/legal").then((m) => m.LegalPage)),
    SupportScreen: withText<object>(() => import("./features/support/support-screen").then((m) => m.SupportScreen)),
  };
}

function DocumentHead({ language, dictionary }: { language: Language; dictionary: Dictionary }) {
  const [path] = useLocation();
  useEffect(() => {
    if (languageFromPath(path) !== language) {
      // Each page ships only its own language: another language is a fresh page load.
      location.reload();
      return;
    }
    const meta = dictionary.meta[pageOf(stripLanguage(path))];
    document.title = meta.title;
    document.documentElement.lang = HTML_LANG[language];
    for (const selector of ['meta[name="description"]', 'meta[property="og:description"]', 'meta[name="twitter:description"]']) {
      document.querySelector(selector)?.setAttribute("content", meta.description);
    }
    for (const selector of ['meta[property="og:title"]', 'meta[name="twitter:title"]']) {
      document.querySelector(selector)?.setAttribute("content", meta.title);
    }
  }, [path, language, dictionary]);
  return null;
}

export function App({ language, dictionary, ssrPath, served = null }: { language: Language; dictionary: Dictionary; ssrPath?: string; served?: ServedScreen | null }) {
  const { t, list } = makeTranslator(language, dictionary);
  const { About, LegalPage, SupportScreen } = useMemo(() => textPages(language), [language]);
  const at = (route: string) => localPath(route, language);
  return (
    <I18nContext.Provider value={{ language, t, list, dictionary }}>
      <ServedContext.Provider value={served}>
      <Router ssrPath={ssrPath}>
        <DocumentHead language={language} dictionary={dictionary} />
        <Layout>
          <Suspense fallback={null}>
          <Switch>
            <Route path={at("/")} component={Home} />
            <Route path={at("/activation")} component={ActivationScreen} />
            <Route path={at("/license")} component={LicenceCheck} />
            <Route path={at("/server-status")} component={ServerStatusScreen} />
            <Route path={at("/support")} component={SupportScreen} />
            <Route path={at("/about")} component={About} />
            <Route path={at("/terms")}>{() => <LegalPage document="terms" />}</Route>
            <Route path={at("/privacy")}>{() => <LegalPage document="privacy" />}</Route>
            <Route path={at("/cookie")}>{() => <LegalPage document="cookie" />}</Route>
            <Route component={NotFound} />
          </Switch>
          </Suspense>
        </Layout>
      </Router>
      </ServedContext.Provider>
    </I18nContext.Provider>
  );
}
