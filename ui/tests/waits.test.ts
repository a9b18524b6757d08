import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { LANGUAGES, LOCALE, type Language } from "../src/lib/language";

// A rate limit's wait, as the server writes it into its refusals (adapters/vpnsite_adapters/texts/waits.py),
// which both the script and the pages without it show: the vectors hold the server's rounding (the
// count and unit for a number of seconds) and the phrase, which must be what the browser's own
// Intl.RelativeTimeFormat writes for that time ahead (tests/unit/test_waits.py holds the server to
// the same vectors), the number held to its unit by a no-break space.
type Wait = { language: Language; seconds: number; count: number; unit: Intl.RelativeTimeFormatUnit; text: string };
const WAITS = (JSON.parse(readFileSync("../tests/locale_vectors.json", "utf8")) as { waits: Wait[] }).waits;

test("the server says a wait as Intl does, in every language", () => {
  assert.deepEqual([...new Set(WAITS.map((wait) => wait.language))].sort(), [...LANGUAGES].sort());
  for (const { language, seconds, count, unit, text } of WAITS) {
    const written = new Intl.RelativeTimeFormat(LOCALE[language]).format(count, unit).replace(/(\d) /, "$1\u00a0");
    assert.equal(text, written, `${language} ${seconds} s`);
  }
});

test("a wait never shows raw seconds above a minute", () => {
  for (const { seconds, unit } of WAITS) if (seconds >= 60) assert.notEqual(unit, "second", `${seconds} s`);
});
