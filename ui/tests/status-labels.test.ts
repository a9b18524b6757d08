// The status page's and the social proof's labels as a visitor reads them, in every language.
import assert from "node:assert/strict";
import { test } from "node:test";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { DICTIONARIES } from "../src/i18n/all";
import { rankText, RANKS, serviceText } from "../src/features/status/server-status";
import { FEW_USERS, loadPercent } from "../src/lib/format";
import { makeTranslator } from "../src/i18n/context";
import type { Language } from "../src/lib/language";
import { COUNTED_USERS, countedUsers, type CountedUsers } from "../src/i18n/counted-users";

const text = (language: Language, name: CountedUsers, count: number) =>
  renderToString(h("p", null, countedUsers(name, count, language, DICTIONARIES[language]) as never)).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

test("loads are percentages as each language writes them", () => {
  assert.equal(loadPercent("89%", "en"), "89%");
  assert.equal(loadPercent("89%", "fr"), "89\u00a0%");
  assert.equal(loadPercent("89%", "ru"), "89\u00a0%");
  assert.equal(loadPercent("0%", "pt"), "0%");
});

test("ranks and system services read as words in every language, never raw values", () => {
  for (const [language, dictionary] of Object.entries(DICTIONARIES)) {
    const { t } = makeTranslator(language as Language, dictionary);
    const labels = RANKS.map((rank) => rankText(rank, t));
    assert.equal(new Set(labels).size, RANKS.length, language);
    for (const label of labels) assert.doesNotMatch(label, /_|^status\./, language);
    assert.notEqual(serviceText("online", t), serviceText("offline", t));
    assert.equal(serviceText("not_configured", t), dictionary.status.notConfigured);
  }
  const { t } = makeTranslator("ru", DICTIONARIES.ru);
  assert.equal(rankText("medium", t), "Средняя");
  assert.equal(serviceText("online", t), "Работает");
  assert.equal(rankText("bogus", t), "—");
});

test("below the threshold every count says the service is new, never a small number", () => {
  for (const language of Object.keys(DICTIONARIES) as Language[]) {
    for (const name of Object.keys(COUNTED_USERS) as CountedUsers[]) {
      const few = COUNTED_USERS[name](DICTIONARIES[language]).few.replace(/\s+/g, " ");
      for (const count of [0, 1, FEW_USERS - 1]) {
        assert.equal(text(language, name, count), few, `${language} ${name} ${count}`);
        assert.doesNotMatch(text(language, name, count), /\d/);
      }
      assert.match(text(language, name, FEW_USERS), /100/, `${language} ${name}`);
    }
  }
  assert.equal(text("en", "FOOTER_USERS", 0), "New: be among the first users");
  assert.equal(text("ru", "USERS", 99), "Мы только открылись");
  assert.equal(text("en", "JOIN_USERS", 101), "Join 101 users today");
  assert.equal(text("ru", "JOIN_USERS", 101), "Присоединяйтесь к 101 пользователю");
  assert.equal(text("fr", "FOOTER_USERS", 100), "100 utilisateurs");
});

test("above a million a count carries both forms, the stylesheet picks one by width", () => {
  const html = renderToString(h("p", null, countedUsers("FOOTER_USERS", 1_234_567, "en", DICTIONARIES.en) as never));
  assert.equal(html, '<p><span class="count-full">1,234,567 users</span><span class="count-short">1.2m users</span></p>');
  assert.equal(text("en", "USERS", 1_000_000), "1,000,000");
});
