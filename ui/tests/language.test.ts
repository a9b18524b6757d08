import assert from "node:assert/strict";
import { test } from "node:test";
import { TEXTS } from "../src/content/all";
import { DICTIONARIES } from "../src/i18n/all";
import { LANGUAGES, languageFromPath, localPath, stripLanguage, switchLanguage } from "../src/lib/language";

test("the language comes from the first path segment", () => {
  assert.equal(languageFromPath("/"), "en");
  assert.equal(languageFromPath("/ru"), "ru");
  assert.equal(languageFromPath("/ru/license"), "ru");
  assert.equal(languageFromPath("/pt/server-status"), "pt");
  assert.equal(languageFromPath("/russia"), "en");
  assert.equal(languageFromPath("/license/ru"), "en");
  assert.equal(languageFromPath("/de"), "en");
});

test("a switch replaces another prefix, adds one, or drops it for English", () => {
  assert.equal(switchLanguage("/license", "ru"), "/ru/license");
  assert.equal(switchLanguage("/es/license", "fr"), "/fr/license");
  assert.equal(switchLanguage("/es/license", "en"), "/license");
  assert.equal(switchLanguage("/", "pt"), "/pt");
  assert.equal(switchLanguage("/pt", "en"), "/");
  assert.equal(switchLanguage("/ru/server-status", "ru"), "/ru/server-status");
  // The activation page says the tab has an activation to show: bare, the server sends home.
  assert.equal(switchLanguage("/ru/activation", "en"), "/activation?kept");
  assert.equal(switchLanguage("/activation", "es"), "/es/activation?kept");
});

test("routes and prefixes compose both ways", () => {
  assert.equal(localPath("/", "en"), "/");
  assert.equal(localPath("/", "es"), "/es");
  assert.equal(stripLanguage("/fr"), "/");
  assert.equal(stripLanguage("/fr/about"), "/about");
  assert.equal(stripLanguage("/about"), "/about");
});

test("the site has texts in every listed language, and in no other", () => {
  const listed = [...LANGUAGES].sort();
  assert.deepEqual(Object.keys(DICTIONARIES).sort(), listed);
  assert.deepEqual(Object.keys(TEXTS).sort(), listed);
});
