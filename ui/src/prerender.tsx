// Rendered in Node at build time: every route in every language becomes a static page.
import type { ComponentChildren } from "preact";
import { renderToString, renderToStringAsync } from "preact-render-to-string";
import { DeviceListing, DeviceRow, DevicesSection, deviceRowView, DISCONNECT_ALL, HeldOutListing, HeldOutRow, heldOutView, inUseText, NoDevices } from "./components/devices";
import { ConnectionCheckView } from "./components/connection-check";
import { Flag } from "./components/flag";
import { OneTapSetup, OpenProfile, ProfileLink, ProfileRow, ProfileSection, WireguardLink } from "./components/one-tap-setup";
import { LiveStatus, LoadValue, RANKS, rankText, ResponseTime, serviceText, statusText, StatusBlock, SYSTEM_NAMES, SystemRow, VpnRow } from "./features/status/server-status";
import type { AboutFacts, ConnectionCheck, DeviceList, ProfileServer, ServerStatus } from "./lib/api";
import { CostRow, FactItem, FactParagraph, factBlocks, InvestmentFacts, PhaseCard } from "./routes/about";
import { makeI18n, makeTranslator, WholeI18n } from "./i18n/context";
import { App } from "./app";
import { Router } from "wouter";
import { Layout } from "./components/layout";
import { ERASURE_SCREENS, ErasureScreen, erasurePath } from "./features/erasure/erasure-screen";
import { FleetLocations, LocationCard, LocationsBlock, NoLocations, PickedTestimonials, Star, TestimonialCard, TestimonialsBlock } from "./routes/home-sections";
import type { Testimonials } from "./content/testimonials";
import { DICTIONARIES } from "./i18n/all";
import { TEXTS } from "./content/all";
import { HTML_LANG, LANGUAGES, LOCALE, OG_LOCALE, localPath, type Language } from "./lib/language";
import { OPERATOR_PLACEHOLDERS, operatorMeta } from "./lib/operator";
import { FooterContact, SocialAnchor, SourceLink, type SocialLink } from "./components/footer-contact";
import { ROUTES, pageOf } from "./lib/pages";
import { FEW_USERS, formatCount, formatDate, formatMoment, formatPercent, loadLevel, parseDay, plural, rankColour, SHORT_COUNT_FROM, shortCount, type PluralForms } from "./lib/format";
import { COUNTED_USERS, CountForms, countedUsers, FewUsers, type CountedUsers } from "./i18n/counted-users";
import { SERVED_SCREENS, ServedContext, slot, type ErasureStep, type ServedScreen } from "./lib/served";

export { DICTIONARIES, ERASURE_SCREENS, HTML_LANG, LANGUAGES, OG_LOCALE, ROUTES, SERVED_SCREENS, localPath, operatorMeta, pageOf };

export function render(path: string, language: Language, served: ServedScreen | null = null): Promise<string> {
  // preact/compat's useSyncExternalStore reads the client snapshot even on the server, so wouter
  // looks at location.pathname: give it the page being rendered.
  (globalThis as { location?: unknown }).location = { pathname: path, search: "", hash: "" };
  // The whole dictionary is at hand: the screens render without loading their part.
  const dictionary = DICTIONARIES[language];
  const parts = { screens: async () => dictionary, text: async () => TEXTS[language] };
  return renderToStringAsync(<App language={language} dictionary={dictionary} parts={parts} screens={dictionary} ssrPath={path} served={served} />) as Promise<string>;
}

/** A page of the licence e-mail's erasure link, in the site's layout, at the link's own path (its
 * token a slot). Not a route of the app: only the server sends it, and the first script carries
 * nothing for it. */
export function renderErasure(language: Language, step: ErasureStep): Promise<string> {
  const path = localPath(erasurePath(), language);
  (globalThis as { location?: unknown }).location = { pathname: path, search: "", hash: "" };
  const served: ServedScreen = { kind: "erasure", step };
  return renderToStringAsync(
    <WholeI18n value={makeI18n(language, DICTIONARIES[language])}>
      <ServedContext.Provider value={served}>
        <Router ssrPath={path}>
          <Layout>
            <ErasureScreen step={step} />
          </Layout>
        </Router>
      </ServedContext.Provider>
    </WholeI18n>,
  ) as Promise<string>;
}

/** What the server needs to write counted texts as the script does, per language: the plural
 * forms of "{n} days"; for every text that counts users (by its marker) its plural forms (with
 * the ``millions`` form beside a short count) and its words for a new service, below the shared
 * threshold; the markup of a large count's two texts. Numbers, short counts, dates and the plural
 * rules are the server's own, held to the script's by tests/locale_vectors.json and
 * tests/integration/test_status_page.py. */
export function formats() {
  return Object.fromEntries(
    LANGUAGES.map((language) => {
      const dictionary = DICTIONARIES[language];
      const counted = Object.entries(COUNTED_USERS).map(([name, texts]) => {
        const { forms, few } = texts(dictionary);
        return [name, { forms, few: inLanguage(language, <FewUsers text={few} />) }];
      });
      return [
        language,
        {
          days: dictionary.activation.days,
          users: dictionary.footer.users,
          few_users: FEW_USERS,
          short_from: SHORT_COUNT_FROM,
          counted_users: Object.fromEntries(counted),
          count_forms: inLanguage(language, <CountForms full={slot("FULL")} short={slot("SHORT")} />),
          // The home page's uptime: a percentage with one decimal, or what is said before it is measured.
          percent: percentPattern(language),
          decimal: decimalSeparator(language),
          uptime_none: inLanguage(language, <FewUsers text={dictionary.home.uptimeNone} />),
        },
      ];
    }),
  );
}

/** A percentage with {n} for its number ("{n}%", "{n} %"). */
function percentPattern(language: Language): string {
  return formatPercent(0.5, language, 1).replace(new Intl.NumberFormat(LOCALE[language], { minimumFractionDigits: 1 }).format(50), "{n}");
}

function decimalSeparator(language: Language): string {
  return new Intl.NumberFormat(LOCALE[language]).formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".";
}

function inLanguage(language: Language, element: ComponentChildren): string {
  return renderToString(<WholeI18n value={makeI18n(language, DICTIONARIES[language])}>{element}</WholeI18n>);
}

/** Each known country's flag and the one for every other country, its label a slot: the pieces
 * the server draws a server's flag from (http/pages/slots.py: BuildPieces.flag). */
function flagPieces(language: Language): Record<string, string> {
  return Object.fromEntries(
    [...Object.keys(DICTIONARIES[language].places.countries), "other"].map((country) => [country, inLanguage(language, <Flag country={country} label={slot("NAME")} />)]),
  );
}

/** The footer's contact column in pieces, per language, for the server to put together from the
 * operator's social links (http/pages/footer_contact.py): the column with links ("Follow us", the links
 * a raw slot) and without ("Contact"), each kind of link, its address and label slots, and the
 * link to the source code (its place in the column a raw slot). */
export function footerParts(language: Language) {
  const email = OPERATOR_PLACEHOLDERS.email;
  const kinds: SocialLink["kind"][] = ["x", "telegram", "link"];
  return {
    following: inLanguage(language, <FooterContact following email={email} source={slot("RAW_SOURCE")}>{slot("RAW_LINKS")}</FooterContact>),
    contact: inLanguage(language, <FooterContact following={false} email={email} source={slot("RAW_SOURCE")}>{null}</FooterContact>),
    source: inLanguage(language, <SourceLink url={slot("URL")} />),
    links: Object.fromEntries(kinds.map((kind) => [kind, inLanguage(language, <SocialAnchor link={{ kind, label: slot("LABEL"), url: slot("URL") }} />)])),
  };
}

/** The footer's contact column as the script draws it for these links: what the server's must equal. */
export function renderFooterContact(links: SocialLink[], language: Language, source = ""): string {
  return inLanguage(
    language,
    <FooterContact following={links.length > 0} email={OPERATOR_PLACEHOLDERS.email} source={source && <SourceLink url={source} />}>
      {links.map((link) => <SocialAnchor key={link.url} link={link} />)}
    </FooterContact>,
  );
}

/** The status page's live block in pieces, per language, for the server to put together from its
 * snapshot (http/pages/status_page.py): markup with slots, and the texts and tables it needs. */
export function statusParts(language: Language) {
  const { t } = makeTranslator(language, DICTIONARIES[language]);
  const row = { name: slot("NAME"), status: slot("STATUS"), statusText: slot("STATUS_TEXT") };
  const users = { users: slot("RAW_USERS"), progress: slot("PROGRESS"), progressNow: slot("PROGRESS_NOW"), progressWidth: slot("PROGRESS_WIDTH"), cap: slot("CAP"), freeUsers: slot("FREE_USERS") };
  const block = (demo: boolean, few: boolean) =>
    inLanguage(language, <StatusBlock demo={demo} updated={slot("UPDATED")} users={few ? { ...users, progress: null } : users} vpnRows={slot("RAW_VPN_ROWS")} systemRows={slot("RAW_SYSTEM_ROWS")} />);
  return {
    markup: {
      block: block(false, false),
      block_demo: block(true, false),
      // Below FEW_USERS (formats.json: few_users): no share of the free tier.
      block_few: block(false, true),
      block_few_demo: block(true, true),
      vpn_row: inLanguage(language, <VpnRow view={{ ...row, flag: slot("RAW_FLAG"), city: slot("CITY"), ping: slot("PING"), load: slot("RAW_LOAD"), rank: slot("RANK"), rankText: slot("RANK_TEXT") }} />),
      system_row: inLanguage(language, <SystemRow view={{ ...row, ping: slot("RAW_RESPONSE") }} />),
      response: inLanguage(language, <ResponseTime ping={slot("PING")} />),
      load: inLanguage(language, <LoadValue load={slot("LOAD")} level={slot("LEVEL")} />),
      flags: flagPieces(language),
    },
    places: DICTIONARIES[language].places,
    status: { online: statusText("online", t), offline: statusText("offline", t), other: statusText("other", t) },
    service: { online: serviceText("online", t), offline: serviceText("offline", t), other: serviceText("other", t) },
    ping: t("status.ms", { ms: "{ms}" }),
    no_value: "—",
    system_names: { ...Object.fromEntries(Object.entries(SYSTEM_NAMES).map(([id, key]) => [id, t(key)])), other: t("status.billing") },
    load_levels: Array.from({ length: 101 }, (_, percent) => loadLevel(`${percent}%`)),
    rank_colours: { ...Object.fromEntries(RANKS.map((rank) => [rank, rankColour(rank)])), other: rankColour("") },
    ranks: { ...Object.fromEntries(RANKS.map((rank) => [rank, rankText(rank, t)])), other: rankText("", t) },
    decimal: decimalSeparator(language),
    percent: percentPattern(language),
  };
}

/** A count, a date, "{n} days" and every text counting users (by marker) as the script writes
 * them: what the server's formats must equal. */
export function formatSamples(count: number, day: string, language: Language): [string, string, string, Record<string, string>] {
  const forms = DICTIONARIES[language].activation.days as PluralForms;
  const counted = Object.fromEntries(
    (Object.keys(COUNTED_USERS) as CountedUsers[]).map((name) => [name, inLanguage(language, countedUsers(name, count, language, DICTIONARIES[language]))]),
  );
  return [formatCount(count, language), formatDate(parseDay(day), language), plural(count, forms, language), counted];
}

/** A count's short form and a moment in UTC as the script writes them: what the server's
 * format_short and format_moment must equal. */
export function shortAndMoment(count: number, seconds: number, language: Language): [string, string] {
  return [shortCount(count, language), formatMoment(seconds, language, 0)];
}

/** The plural category Intl picks for each count: what the server's plural rules must pick. */
export function pluralCategories(counts: number[], language: Language): string[] {
  const rules = new Intl.PluralRules(LOCALE[language]);
  return counts.map((count) => rules.select(count));
}

/** The live block for a snapshot as the script draws it: what the server's must equal. */
export function renderStatusBlock(data: ServerStatus, language: Language): string {
  return inLanguage(language, <LiveStatus data={data} offset={0} />);
}

/** The one-tap setup list in pieces, per language, for the screens the server answers form posts
 * with (http/pages/profile_rows.py): markup with slots, the flags, the places and the load colours. */
export function profileParts(language: Language) {
  const city = slot("CITY");
  const row = { id: slot("ID"), recommended: false, flag: slot("RAW_FLAG"), name: slot("NAME"), city, load: slot("LOAD"), level: slot("LEVEL"), links: slot("RAW_LINKS"), open: slot("RAW_OPEN") };
  return {
    markup: {
      section: inLanguage(language, <ProfileSection rows={slot("RAW_ROWS")} />),
      row: inLanguage(language, <ProfileRow view={row} />),
      row_recommended: inLanguage(language, <ProfileRow view={{ ...row, recommended: true }} />),
      link: inLanguage(language, <ProfileLink url={slot("URL")} protocol={slot("PROTOCOL")} city={city} />),
      wireguard: inLanguage(language, <WireguardLink url={slot("URL")} city={city} />),
      open: inLanguage(language, <OpenProfile importUrl={slot("IMPORT_URL")} qrUrl={slot("QR_URL")} city={city} primary={false} />),
      open_recommended: inLanguage(language, <OpenProfile importUrl={slot("IMPORT_URL")} qrUrl={slot("QR_URL")} city={city} primary />),
      flags: flagPieces(language),
    },
    places: DICTIONARIES[language].places,
    load_levels: Array.from({ length: 101 }, (_, percent) => loadLevel(`${percent}%`)),
    percent: percentPattern(language),
    decimal: decimalSeparator(language),
  };
}

/** The one-tap setup list as the script draws it: what the server's must equal. */
export function renderProfiles(profiles: ProfileServer[], language: Language): string {
  return inLanguage(language, <OneTapSetup profiles={profiles} />);
}

/** The device list in pieces, per language, for the licence page the server answers without
 * JavaScript (http/pages/device_rows.py): markup with slots, the texts it counts and formats with, the
 * flags and the places. */
export function deviceParts(language: Language) {
  const dictionary = DICTIONARIES[language];
  const { t } = makeTranslator(language, dictionary);
  const credentials = { email: slot("EMAIL"), code: slot("CODE") };
  return {
    markup: {
      section: inLanguage(language, <DevicesSection count={slot("COUNT")} rule={slot("RULE")} listing={slot("RAW_LISTING")} credentials={credentials} busy={false} />),
      listing: inLanguage(language, <DeviceListing rows={slot("RAW_ROWS")} credentials={credentials} busy={false} />),
      none: inLanguage(language, <NoDevices />),
      row: inLanguage(language, <DeviceRow view={{ session: slot("SESSION"), flag: slot("RAW_FLAG"), city: slot("CITY"), detail: slot("DETAIL") }} credentials={credentials} busy={false} />),
      held_out_listing: inLanguage(language, <HeldOutListing rows={slot("RAW_ROWS")} />),
      held_out_row: inLanguage(language, <HeldOutRow view={{ server: slot("SERVER"), flag: slot("RAW_FLAG"), city: slot("CITY") }} credentials={credentials} busy={false} />),
      flags: flagPieces(language),
      no_flag: inLanguage(language, <span aria-hidden="true" />),
    },
    places: dictionary.places,
    in_use: dictionary.devices.inUse,
    // How many devices a licence connects at once (http/pages/device_rows.py: limit_texts): as many as
    // the fleet has servers when it has fewer than the limit ("rule_fleet"), else the limit.
    at_once: dictionary.devices.atOnce,
    rule_fleet: dictionary.devices.ruleFleet,
    rule_limit: dictionary.devices.ruleLimit,
    since: t("devices.since", { time: "{time}" }),
    disconnect_all: DISCONNECT_ALL,
  };
}

/** A device list as the script draws it, each device's "since" given as the server wrote it:
 * what the server's must equal. */
export function renderDevices(list: DeviceList, since: Record<string, string>, credentials: { email: string; code: string }, language: Language, rule = ""): string {
  const dictionary = DICTIONARIES[language];
  const { t } = makeTranslator(language, dictionary);
  const listing = list.devices.length
    ? <DeviceListing credentials={credentials} busy={false} rows={list.devices.map((device) => (
        <DeviceRow key={device.session} credentials={credentials} busy={false} view={deviceRowView(device, since[device.session] ?? "", t, dictionary)} />
      ))} />
    : <NoDevices />;
  const heldOut = list.held_out.length
    ? <HeldOutListing rows={list.held_out.map((device) => (
        <HeldOutRow key={device.server.id} credentials={credentials} busy={false} view={heldOutView(device, dictionary)} />
      ))} />
    : null;
  const count = inUseText(list.in_use, list.limit, dictionary.devices.inUse, language);
  return inLanguage(language, <DevicesSection count={count} rule={rule} listing={<>{listing}{heldOut}</>} credentials={credentials} busy={false} />);
}

/** The connection check's answers, per language, for the status page the server fills for each
 * visitor (http/pages/connection_answer.py): markup (the city of a server as a slot) and the places. */
export function checkParts(language: Language) {
  const answered = (answer: ConnectionCheck) => inLanguage(language, <ConnectionCheckView state={{ kind: "answered", answer }} />);
  return {
    markup: {
      protected_via: answered({ protected: true, server: { id: "", name: "", flag: "", location: slot("CITY") } }),
      exposed: answered({ protected: false, server: null }),
      // Before the visitor asks: nothing is compared.
      idle: inLanguage(language, <ConnectionCheckView state={{ kind: "idle" }} />),
    },
    places: DICTIONARIES[language].places,
  };
}

/** The connection check as the script draws an answer: what the server's must equal. */
export function renderConnectionCheck(answer: ConnectionCheck, language: Language): string {
  return inLanguage(language, <ConnectionCheckView state={{ kind: "answered", answer }} />);
}

/** How many testimonials a page shows (when there are that many). */
const SHOWN_TESTIMONIALS = 3;

/** The testimonials block in pieces, per language, for the home page the server sends
 * (http/pages/testimonials.py): with and without the examples' note, the cards a raw slot; a card, its
 * texts slots and its stars a raw slot; one star; and how many a page shows. */
export function testimonialParts(language: Language) {
  const item = { name: slot("NAME"), about: slot("ABOUT"), text: slot("TEXT"), initials: slot("INITIALS"), stars: slot("STARS_LABEL") };
  return {
    shown: SHOWN_TESTIMONIALS,
    block: inLanguage(language, <TestimonialsBlock examples={false} cards={slot("RAW_CARDS")} />),
    block_examples: inLanguage(language, <TestimonialsBlock examples cards={slot("RAW_CARDS")} />),
    card: inLanguage(language, <TestimonialCard item={item} stars={slot("RAW_STARS")} />),
    star: inLanguage(language, <Star />),
  };
}

/** The block as the script draws a pick: what the server's must equal. */
export function renderTestimonials(picked: Testimonials, language: Language): string {
  return inLanguage(language, <PickedTestimonials picked={picked} />);
}

/** The home page's locations section in pieces, per language, for the server to fill from the
 * fleet (http/pages/fleet_locations.py): the heading (a slot) and the cards (a raw slot); a card, its
 * flag a raw slot; what is said while no server is listed; the flags, the places, and the
 * heading's plural forms. */
export function locationParts(language: Language) {
  const dictionary = DICTIONARIES[language];
  return {
    markup: {
      block: inLanguage(language, <LocationsBlock title={slot("TITLE")} cards={slot("RAW_CARDS")} />),
      card: inLanguage(language, <LocationCard flag={slot("RAW_FLAG")} name={slot("NAME")} cities={slot("CITIES")} />),
      none: inLanguage(language, <NoLocations />),
      flags: flagPieces(language),
    },
    places: dictionary.places,
    title: dictionary.sections.locationsTitle,
  };
}

/** The section as the script draws it for the servers of a status snapshot: what the server's
 * must equal. */
export function renderLocations(servers: ServerStatus["vpn_servers"], language: Language): string {
  return inLanguage(language, <FleetLocations servers={servers} />);
}

/** An amount in a currency as Intl writes it in the language, {n} for its number ("US${n}",
 * "{n} $"): the server writes the number (formatting.py: format_number) into it. */
function moneyPattern(language: Language, currency: string): string {
  const written = new Intl.NumberFormat(LOCALE[language], { style: "currency", currency, maximumFractionDigits: 0 }).format(1_234_567);
  return written.replace(new Intl.NumberFormat(LOCALE[language]).format(1_234_567), "{n}");
}

/** The About page's facts in pieces, per language, for the server to put together from the
 * operator's file (http/pages/about_facts.py): a list item and a paragraph (their text a slot), the
 * investment section's body, a cost row and a roadmap card; a card's heading; the money formats. */
export function aboutParts(language: Language) {
  const about = TEXTS[language].about;
  return {
    markup: {
      item: inLanguage(language, <FactItem text={slot("TEXT")} />),
      paragraph: inLanguage(language, <FactParagraph text={slot("TEXT")} />),
      investment: inLanguage(language, <InvestmentFacts about={about} notice={slot("NOTICE")} paragraphs={slot("RAW_PARAGRAPHS")} rows={slot("RAW_ROWS")} total={slot("TOTAL")} />),
      row: inLanguage(language, <CostRow label={slot("LABEL")} cost={slot("COST")} />),
      phase: inLanguage(language, <PhaseCard heading={slot("HEADING")} items={slot("RAW_ITEMS")} note={slot("NOTE")} />),
    },
    phase: about.phase,
    money: Object.fromEntries(["USD", "EUR", "GBP"].map((currency) => [currency, moneyPattern(language, currency)])),
  };
}

/** The facts' blocks as the script draws them, joined: what the server's must equal. */
export function renderAboutFacts(facts: AboutFacts, language: Language): string {
  const blocks = factBlocks(facts, TEXTS[language].about);
  return [inLanguage(language, <>{blocks.ready}</>), inLanguage(language, blocks.investment), inLanguage(language, <>{blocks.roadmap}</>)].join("\n");
}
