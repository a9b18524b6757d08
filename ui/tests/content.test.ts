import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { MINIMUM_START, OPTIMAL, PLATFORM_COSTS } from "../src/content/about";
import { FAQ, filterFaq } from "../src/content/faq";
import { pickTestimonials, TESTIMONIALS } from "../src/content/testimonials";
import { codeProblem, luhnCheckDigit } from "../src/lib/check-digit";
import en from "../src/i18n/en";
import es from "../src/i18n/es";
import fr from "../src/i18n/fr";
import pt from "../src/i18n/pt";
import ru from "../src/i18n/ru";

test("the check digit agrees with the Python rule on every shared vector", () => {
  const vectors = JSON.parse(readFileSync("../tests/check_digit_vectors.json", "utf8")) as { code: string; valid: boolean }[];
  assert.ok(vectors.length > 30);
  for (const { code, valid } of vectors) {
    const wellFormed = /^[0-9]{20}$/.test(code) && luhnCheckDigit(code.slice(0, -1)) === code.slice(-1);
    assert.equal(wellFormed, valid, code);
  }
  assert.equal(codeProblem("1234 5678"), "code_format");
});

test("the FAQ has 13 items and filters question and answer without regard to case", () => {
  assert.equal(FAQ.length, 13);
  assert.deepEqual(filterFaq(FAQ, "WIREGUARD").map((item) => item.id), ["protocols"]);
  assert.ok(filterFaq(FAQ, "activation code").length >= 2);
  assert.equal(filterFaq(FAQ, "zzzz").length, 0);
  assert.equal(filterFaq(FAQ, "  ").length, 13);
});

test("three of eight testimonials, all rated 5, none repeated", () => {
  assert.equal(TESTIMONIALS.length, 8);
  assert.ok(TESTIMONIALS.every((t) => t.rating === 5));
  const picked = pickTestimonials(() => 0.42);
  assert.equal(picked.length, 3);
  assert.equal(new Set(picked.map((t) => t.id)).size, 3);
});

test("the about page's figures add up", () => {
  assert.equal(PLATFORM_COSTS.reduce((sum, row) => sum + row.cost, 0), MINIMUM_START.apps);
  assert.equal(MINIMUM_START.apps + MINIMUM_START.advertising, 60_000);
  assert.equal(OPTIMAL.apps + OPTIMAL.advertising + OPTIMAL.serversEur, 268_000);
});

function keys(node: unknown, prefix = ""): string[] {
  if (typeof node === "string") return [prefix];
  if (Array.isArray(node)) return [`${prefix}[${node.length}]`];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}

function leaves(node: unknown): string[] {
  if (typeof node === "string") return [node];
  if (Array.isArray(node)) return node as string[];
  return Object.values(node as Record<string, unknown>).flatMap(leaves);
}

test("every language has every key of the English dictionary, with the same placeholders, none empty", () => {
  const english = keys(en).sort();
  const placeholders = (text: string) => (text.match(/\{\{?\w+\}\}?/g) ?? []).sort().join(",");
  const englishLeaves = new Map(english.map((key) => [key, key]));
  for (const [name, dictionary] of Object.entries({ ru, es, fr, pt })) {
    assert.deepEqual(keys(dictionary).sort(), english, name);
    assert.ok(leaves(dictionary).every((text) => text.trim() !== ""), `${name} has an empty text`);
    const pairs = leaves(en).map((text, i) => [text, leaves(dictionary)[i]]);
    for (const [source, translated] of pairs) assert.equal(placeholders(translated), placeholders(source), `${name}: ${translated}`);
  }
  assert.ok(englishLeaves.size > 100);
});
