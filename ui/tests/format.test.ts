import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCount, freeTierProgress, loadLevel, plural, progressWidth, rankColour } from "../src/lib/format";

test("counts use the language's separators", () => {
  assert.equal(formatCount(1285, "en", false), "1,285");
  assert.equal(formatCount(1285, "es", false).replace(/\s/g, " "), "1285");
  assert.equal(formatCount(1234567, "pt", false), "1.234.567");
  assert.match(formatCount(1234567, "ru", false), /^1\s234\s567$/);
  assert.match(formatCount(1234567, "fr", false), /^1\s234\s567$/);
});

test("phones show a compact count only above a million", () => {
  assert.equal(formatCount(1_200_000, "en", true), "1.2M");
  assert.equal(formatCount(999_999, "en", true), "999,999");
  assert.equal(formatCount(1_000_000, "en", true), "1,000,000");
});

test("free-tier progress has three decimals below 10,000 users and one from there", () => {
  assert.equal(freeTierProgress(1285, "en"), "0.129");
  assert.equal(freeTierProgress(9_999, "en"), "1.000");
  assert.equal(freeTierProgress(10_000, "en"), "1.0");
  assert.equal(freeTierProgress(456_789, "en"), "45.7");
  assert.equal(freeTierProgress(456_789, "ru"), "45,7");
  assert.equal(progressWidth(2_000_000), 100);
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
