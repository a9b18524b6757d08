import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { DICTIONARIES } from "../src/i18n/all";
import { formatCount, formatDate, formatPercent, freeTierProgress, loadLevel, parseDay, plural, progressWidth, rankColour, shortCount } from "../src/lib/format";
import type { Language } from "../src/lib/language";

const { en, fr, ru } = DICTIONARIES;
// What Intl writes, shared with the server's Python formatting (tests/unit/test_locale_formatting.py).
type Vectors = {
  numbers: { language: Language; value: number; text: string }[];
  dates: { language: Language; day: string; text: string }[];
  plurals: { language: Language; count: number; category: string }[];
  days: { language: Language; count: number; text: string }[];
};
const VECTORS = JSON.parse(readFileSync("../tests/locale_vectors.json", "utf8")) as Vectors;

test("counts use the language's separators", () => {
  assert.equal(formatCount(1285, "en"), "1,285");
  assert.equal(formatCount(1285, "es").replace(/\s/g, " "), "1285");
  assert.equal(formatCount(1234567, "pt"), "1.234.567");
  assert.match(formatCount(1234567, "ru"), /^1\s234\s567$/);
  assert.match(formatCount(1234567, "fr"), /^1\s234\s567$/);
});

test("a count's short form is the language's", () => {
  assert.equal(shortCount(1_234_567, "en"), "1.2m");
  assert.equal(shortCount(1_234_567, "ru"), "1,2\u00a0млн");
  assert.equal(shortCount(1_234_567, "pt"), "1,2\u00a0mi");
});

test("free-tier progress is a percentage with three decimals below 10,000 users and one from there", () => {
  assert.equal(freeTierProgress(0, "en"), "0.000%");
  assert.equal(freeTierProgress(1285, "en"), "0.129%");
  assert.equal(freeTierProgress(9_999, "en"), "1.000%");
  assert.equal(freeTierProgress(10_000, "en"), "1.0%");
  assert.equal(freeTierProgress(456_789, "en"), "45.7%");
  assert.equal(freeTierProgress(456_789, "ru"), "45,7\u00a0%");
  assert.equal(freeTierProgress(456_789, "fr"), "45,7\u00a0%");
  assert.equal(progressWidth(2_000_000), 100);
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
  assert.deepEqual(["very_high", "high", "medium", "low"].map(rankColour), ["green", "blue", "yellow", "grey"]);
});

test("plurals follow the language's rules (Russian one/few/many)", () => {
  const ru = { one: "{n} день", few: "{n} дня", many: "{n} дней", other: "{n} дня" };
  assert.deepEqual([1, 2, 5, 21, 90].map((n) => plural(n, ru, "ru")), ["1 день", "2 дня", "5 дней", "21 день", "90 дней"]);
  assert.equal(plural(1, { one: "{n} day", other: "{n} days" }, "en"), "1 day");
  assert.equal(plural(90, { one: "{n} day", other: "{n} days" }, "en"), "90 days");
});
