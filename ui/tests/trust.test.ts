// What a deployment must not claim (issue 30): the footer names the operator's contacts, not ours;
// the status page's colours agree with its values and it gives no small count away.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { h, type ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { DICTIONARIES } from "../src/i18n/all";
import { FooterContact, SocialAnchor, SourceLink, type SocialLink } from "../src/components/footer-contact";
import { LiveStatus, RANKS } from "../src/features/status/server-status";
import type { ServerStatus } from "../src/lib/api";
import { FEW_USERS, plural, RANK_TONES, rankColour } from "../src/lib/format";
import { makeI18n, WholeI18n } from "../src/i18n/context";
import { LANGUAGES, type Language } from "../src/lib/language";

const render = (language: Language, node: ComponentChildren) => renderToString(h(WholeI18n, { value: makeI18n(language, DICTIONARIES[language]), children: node }));

/** Each rule of the stylesheet: its selectors and the colours it paints with. */
function paints(): { selectors: string[]; colours: string[] }[] {
  const css = readFileSync("src/styles.css", "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selectors, body]) => ({
    selectors: selectors.split(",").map((selector) => selector.trim()),
    colours: [...body.matchAll(/#[0-9a-f]{3,8}\b|var\(--[\w-]+\)|rgba?\([^)]*\)/gi)].map(([colour]) => colour.toLowerCase()),
  }));
}

test("popularity is never drawn in the colours that say good or bad, so a badge cannot contradict a load", () => {
  const rules = paints();
  const of = (pattern: RegExp) => new Set(rules.filter((rule) => rule.selectors.some((s) => pattern.test(s))).flatMap((rule) => rule.colours));
  // Health: the load's levels and the status dots and pills.
  const health = of(/^\.(load-(low|medium|high)|dot\.(online|offline)|pill-\w+)$/);
  assert.ok(health.has("var(--danger)") && health.has("var(--warning)") && health.size >= 4, [...health].join(" "));
  for (const tone of RANK_TONES) {
    const colours = of(new RegExp(`^\\.rank-${tone}$`));
    assert.ok(colours.size > 0, `.rank-${tone} is drawn`);
    for (const colour of colours) assert.ok(!health.has(colour), `.rank-${tone} paints with ${colour}, a colour of health`);
  }
  // One tone a rank, deeper the more popular: the scale reads in one direction.
  assert.deepEqual(RANKS.map(rankColour), [...RANK_TONES]);
});

const server = (id: string, load: string, rank: string) => ({
  id, name: id, flag: "nl", location: "Amsterdam", status: "online" as const, ping: 12, load, sessions: 3, rank: rank as "high", popularity: rank, popularity_ru: rank, popularity_by_language: { en: rank, ru: rank },
});
const snapshot = (users: number): ServerStatus => ({
  vpn_servers: [server("a", "80%", "very_high"), server("b", "10%", "low")],
  system_servers: [{ id: "activation-server", location: "Hub", status: "online", ping: 1, load: "5%" }],
  summary: { vpn_servers_count: 2, vpn_servers_online: 2, system_servers_count: 1, user_count: users, free_tier_cap: 1_000_000, demo: false, updated_at: 0 },
});

test("below the threshold of the counts, the status page shows no share of the free tier", () => {
  for (const language of LANGUAGES) {
    for (const users of [0, 1, FEW_USERS - 1]) {
      const html = render(language, h(LiveStatus, { data: snapshot(users) }));
      // The users' card (the line above it says when the figures were measured).
      assert.match(render(language, h(LiveStatus, { data: snapshot(users), offset: 0 })), /<p class="small muted status-updated">[^<]*1970[^<]*, 00:00 UTC<\/p>/, language);
      const card = html.slice(html.indexOf('<div class="card users-card">'), html.indexOf("<h2>"));
      const size = DICTIONARIES[language].home.badge.replace("{{freeUsers}}", plural(1_000_000, DICTIONARIES[language].footer.users, language));
      assert.ok(card.includes(size), `${language} ${users}: the free tier's size, not a share of it`);
      assert.doesNotMatch(card.replace(size, ""), /progressbar|%|\d/, `${language} ${users}`);
    }
    const counted = render(language, h(LiveStatus, { data: snapshot(FEW_USERS) }));
    assert.match(counted, /role="progressbar"/, language);
  }
  assert.match(render("en", h(LiveStatus, { data: snapshot(FEW_USERS) })), /0\.010% of the free tier \(1,000,000 users\)/);
});

const LINKS: SocialLink[] = [
  { kind: "x", label: "x", url: "https://x.com/examplevpn" },
  { kind: "telegram", label: "telegram", url: "https://t.me/examplevpn" },
  { kind: "link", label: "Mastodon", url: "https://mastodon.social/@examplevpn" },
];

test("the footer's contact column: the operator's accounts under 'Follow us', or only its e-mail", () => {
  const column = (links: SocialLink[], language: Language = "en", source: string | null = null) =>
    render(language, h(FooterContact, { following: links.length > 0, email: "hello@operator.example", source: source && h(SourceLink, { url: source }), children: links.map((link) => h(SocialAnchor, { link })) }));
  const following = column(LINKS);
  assert.match(following, /<h2 class="footer-title">Follow us<\/h2>/);
  assert.deepEqual([...following.matchAll(/href="([^"]+)"/g)].map(([, href]) => href), [...LINKS.map((link) => link.url), "mailto:hello@operator.example"]);
  assert.match(following, /aria-label="vpnsite on X"/);
  assert.match(following, /class="social-label">Mastodon<\/a>/);
  const alone = column([]);
  assert.match(alone, /<h2 class="footer-title">Contact<\/h2>/);
  assert.deepEqual([...alone.matchAll(/href="([^"]+)"/g)].map(([, href]) => href), ["mailto:hello@operator.example"]);
  assert.match(column([], "ru"), /Контакты/);
  // The e-mail by name, not a lone envelope; the source code where the operator publishes it.
  assert.match(alone, /<a href="mailto:hello@operator.example" class="social-label"><svg[^]*<\/svg> E-mail support<\/a>/);
  const withSource = column([], "fr", "https://code.example/vpnsite");
  assert.match(withSource, /<a href="https:\/\/code.example\/vpnsite" rel="noopener noreferrer" class="social-label">Code source<\/a>/);
  for (const html of [following, alone]) assert.doesNotMatch(html, /vpnsite\.example|x\.com\/vpnsite|t\.me\/vpnsite/);
});
