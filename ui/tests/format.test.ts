import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { DICTIONARIES } from "../src/i18n/all";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { formatCount, formatDate, formatMoment, formatPercent, freeTierProgress, loadLevel, parseDay, plural, progressWidth, rankColour, shortCount, zoneName } from "../src/lib/format";
import { LANGUAGES, type Language } from "../src/lib/language";
import { countedUsers, type CountedUsers } from "../src/i18n/counted-users";

const { en, fr, ru } = DICTIONARIES;
// What the website writes, shared with the server's Python formatting (tests/unit/test_locale_formatting.py).
type Vectors = {
  numbers: { language: Language; value: number; text: string }[];
  dates: { language: Language; day: string; text: string }[];
  plurals: { language: Language; count: number; category: string }[];
  days: { language: Language; count: number; text: string }[];
  short: { language: Language; value: number; text: string }[];
  moments: { language: Language; seconds: number; text: string }[];
  users: { language: Language; count: number; full: string; short: string }[];
};
const VECTORS = JSON.parse(readFileSync("../tests/locale_vectors.json", "utf8")) as Vectors;

test("counts use the language's separators", () => {
  assert.equal(formatCount(1285, "en"), "1,285");
  assert.equal(formatCount(1285, "es").replace(/\s/g, " "), "1285");
  assert.equal(formatCount(1234567, "pt"), "1.234.567");
  assert.match(formatCount(1234567, "ru"), /^1\s234\s567$/);
  assert.match(formatCount(1234567, "fr"), /^1\s234\s567$/);
});

test("a count's short form is the language's: abbreviated in English and Russian, a word in the others", () => {
  assert.equal(shortCount(1_234_567, "en"), "1.2m");
  assert.equal(shortCount(1_234_567, "ru"), "1,2\u00a0млн");
  assert.equal(shortCount(1_234_567, "es"), "1,2 millones");
  assert.equal(shortCount(1_000_001, "es"), "1 millón");
  assert.equal(shortCount(1_234_567, "fr"), "1,2 million");
  assert.equal(shortCount(2_000_000, "fr"), "2 millions");
  assert.equal(shortCount(1_234_567, "pt"), "1,2 milhão");
  assert.equal(shortCount(999_950_000, "en"), "1bn");
});

/** A text counting users as a visitor reads it: [the full form, the short form]. */
function bothForms(name: CountedUsers, count: number, language: Language): [string, string] {
  const html = renderToString(h("p", null, countedUsers(name, count, language, DICTIONARIES[language]) as never));
  const form = (kind: string) => new RegExp(`<span class="count-${kind}">([^<]*)</span>`).exec(html)?.[1] ?? "";
  return [form("full"), form("short")];
}

test("above a million the short count takes the words a million takes, at every magnitude", () => {
  for (const { language, count, full, short } of VECTORS.users) {
    assert.deepEqual(bothForms("FOOTER_USERS", count, language), [full, short], `${language} ${count}`);
  }
  assert.deepEqual(bothForms("JOIN_USERS", 1_000_001, "ru"), ["Присоединяйтесь к 1\u00a0000\u00a0001 пользователю", "Присоединяйтесь к 1\u00a0млн пользователей"]);
  assert.deepEqual(bothForms("JOIN_USERS", 1_234_567, "es"), ["Únete hoy a 1.234.567 usuarios", "Únete hoy a 1,2 millones de usuarios"]);
  assert.equal(bothForms("JOIN_USERS", 1_234_567, "fr")[1], "Rejoignez 1,2 million d’utilisateurs dès aujourd’hui");
  assert.equal(bothForms("JOIN_USERS", 1_234_567, "pt")[1], "Junte-se hoje a 1,2 milhão de usuários");
});

test("every count from a million to a billion reads right in its short form (a sample of 2,000)", () => {
  // The noun after a number of millions, whatever the number's own digits pick. Partial: a language
  // just added fails here by name, not as a compile error that stops every test.
  const after: Partial<Record<Language, RegExp>> = { en: /^[\d.]+(m|bn) users$/, ru: /^[\d,]+\u00a0(млн|млрд) пользователей$/, es: /^[\d,]+ (millón|millones|mil millones) de usuarios$/, fr: /^[\d,]+ (million|millions|milliard) d’utilisateurs$/, pt: /^[\d,]+ (milhão|milhões|bilhão) de usuários$/ };
  let seed = 20_270_301;
  const counts = [1_000_001, 1_999_999, 2_000_000, 999_999_999, 1_000_000_000, ...Array.from({ length: 2_000 }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return 1_000_001 + Math.floor((seed / 2 ** 31) * 999_000_000);
  })];
  for (const language of LANGUAGES) {
    const words = after[language];
    assert.ok(words, `${language}: write the words of a million and a billion in this test's \`after\``);
    for (const count of counts) {
      const [full, short] = bothForms("FOOTER_USERS", count, language);
      assert.match(short, words, `${language} ${count}`);
      assert.equal(full, plural(count, DICTIONARIES[language].footer.users, language), `${language} ${count}`);
      const number = Number(short.replace(/^([\d.,]+).*$/, "$1").replace(",", "."));
      const unit = /bn|млрд|mil millones|milliard|bilhão/.test(short) ? 1e9 : 1e6;
      assert.ok(Math.abs(number * unit - count) <= 0.05 * unit, `${language} ${count} ${short}`);
      if (language === "fr" || language === "pt") assert.equal(/millions|milhões/.test(short), unit === 1e6 && number >= 2, short);
      if (language === "es" && unit === 1e6) assert.equal(/millón/.test(short), number === 1, short);
    }
  }
});

test("a moment names the zone it is written in: UTC on the server, the visitor's own here", () => {
  const march = Date.UTC(2027, 2, 1, 14, 5) / 1000;
  assert.equal(formatMoment(march, "fr", 0), "1er mars 2027, 14:05 UTC");
  assert.equal(formatMoment(march, "fr", -60), "1er mars 2027, 15:05 UTC+1");
  assert.equal(formatMoment(march, "es", 180), "1 de marzo de 2027, 11:05 UTC-3");
  assert.equal(formatMoment(march, "en", -330), "1 March 2027, 19:35 UTC+5:30");
  assert.equal(formatMoment(Date.UTC(2027, 1, 28, 23, 30) / 1000, "fr", -60), "1er mars 2027, 00:30 UTC+1");
  assert.deepEqual([0, -60, 60, -345, 570].map(zoneName), ["UTC", "UTC+1", "UTC-1", "UTC+5:45", "UTC-9:30"]);
  assert.match(formatMoment(march, "ru"), /^1 марта 2027\u00a0г\., \d\d:\d\d UTC([+-]\d{1,2}(:\d\d)?)?$/u);
});

test("French writes the first of a month 1er, and no other day", () => {
  assert.equal(formatDate(parseDay("2027-03-01"), "fr"), "1er mars 2027");
  assert.equal(formatDate(parseDay("2027-03-11"), "fr"), "11 mars 2027");
  assert.equal(formatDate(parseDay("2027-03-21"), "fr"), "21 mars 2027");
  assert.equal(formatDate(parseDay("2027-03-01"), "en"), "1 March 2027");
});

test("free-tier progress is a percentage with three decimals below 10,000 users and one from there", () => {
  const cap = 1_000_000;
  assert.equal(freeTierProgress(0, cap, "en"), "0.000%");
  assert.equal(freeTierProgress(1285, cap, "en"), "0.129%");
  assert.equal(freeTierProgress(9_999, cap, "en"), "1.000%");
  assert.equal(freeTierProgress(10_000, cap, "en"), "1.0%");
  assert.equal(freeTierProgress(456_789, cap, "en"), "45.7%");
  assert.equal(freeTierProgress(456_789, cap, "ru"), "45,7\u00a0%");
  assert.equal(freeTierProgress(456_789, cap, "fr"), "45,7\u00a0%");
  assert.equal(progressWidth(2_000_000, cap), 100);
});

test("free-tier progress is toward the operator's cap, and a tier of none is full", () => {
  assert.equal(freeTierProgress(1285, 5000, "en"), "25.700%");
  assert.equal(progressWidth(2500, 5000), 50);
  assert.equal(progressWidth(1, 0), 100);
});

test("the uptime is written as each language writes a percentage", () => {
  assert.equal(formatPercent(0.999, "en", 1), "99.9%");
  assert.equal(formatPercent(0.999, "ru", 1), "99,9\u00a0%");
  assert.equal(formatPercent(0.999, "fr", 1), "99,9\u00a0%");
  assert.equal(formatPercent(0.999, "es", 1), "99,9\u00a0%");
  assert.equal(formatPercent(0.999, "pt", 1), "99,9%");
});

test("numbers, dates and plural categories match the server's shared vectors", () => {
  for (const { language, value, text } of VECTORS.numbers) assert.equal(formatCount(value, language), text);
  for (const { language, day, text } of VECTORS.dates) assert.equal(formatDate(parseDay(day), language), text);
  const echo = { zero: "zero", one: "one", two: "two", few: "few", many: "many", other: "other" };
  for (const { language, count, category } of VECTORS.plurals) assert.equal(plural(count, echo, language), category, `${language} ${count}`);
  for (const { language, count, text } of VECTORS.days) assert.equal(plural(count, DICTIONARIES[language].activation.days, language), text);
  for (const { language, value, text } of VECTORS.short) assert.equal(shortCount(value, language), text, `${language} ${value}`);
  for (const { language, seconds, text } of VECTORS.moments) assert.equal(formatMoment(seconds, language, 0), text);
});

test("every count in the dictionaries goes through plural rules", () => {
  assert.equal(plural(1, ru.footer.users, "ru"), "1 пользователь");
  assert.equal(plural(21, ru.status.ctaTitle, "ru"), "Присоединяйтесь к 21 пользователю");
  assert.equal(plural(25, ru.status.ctaTitle, "ru"), "Присоединяйтесь к 25 пользователям");
  assert.equal(plural(1, fr.footer.users, "fr"), "1 utilisateur");
  assert.equal(plural(1_000_000, fr.footer.users, "fr"), "1\u202f000\u202f000 d’utilisateurs");
  assert.equal(plural(1, en.footer.users, "en"), "1 user");
  for (const dictionary of Object.values(DICTIONARIES)) {
    assert.ok(!dictionary.licence.renew.includes("{{days}} "), "the days are counted by activation.days");
  }
});

test("load and rank colours follow the thresholds", () => {
  assert.deepEqual(["0%", "29%", "30%", "69%", "70%", "100%"].map(loadLevel), ["low", "low", "medium", "medium", "high", "high"]);
  assert.deepEqual(["very_high", "high", "medium", "low", "bogus"].map(rankColour), ["deep", "mid", "pale", "plain", "plain"]);
});

test("plurals follow the language's rules (Russian one/few/many)", () => {
  const ru = { one: "{n} день", few: "{n} дня", many: "{n} дней", other: "{n} дня" };
  assert.deepEqual([1, 2, 5, 21, 90].map((n) => plural(n, ru, "ru")), ["1 день", "2 дня", "5 дней", "21 день", "90 дней"]);
  assert.equal(plural(1, { one: "{n} day", other: "{n} days" }, "en"), "1 day");
  assert.equal(plural(90, { one: "{n} day", other: "{n} days" }, "en"), "90 days");
});
