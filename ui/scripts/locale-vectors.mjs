// Writes tests/locale_vectors.json: what the website's own formatting (src/lib/format.ts, run by
// Node's Intl) writes for the same inputs in every language of the list, so that adding a language
// is a run of this script, not vectors typed by hand. The server's Python and the UI's tests are
// both held to the file.
//
//   node scripts/locale-vectors.mjs            writes ../tests/locale_vectors.json
//   node scripts/locale-vectors.mjs --check    exits 1, naming the entries that differ, if the file is not what it would write

import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ui = join(dirname(fileURLToPath(import.meta.url)), "..");
const FILE = join(ui, "..", "tests", "locale_vectors.json");
const LIST = join(ui, "..", "adapters", "vpnsite_adapters", "texts", "languages.json");

// The inputs, the same for every language. Plural counts include fractions, which take other
// categories than whole numbers in several languages; short counts span 10^6 to 10^16 and the
// roundings at each magnitude's edge.
const NUMBERS = [0, 7, 999, 1000, 1285, 9999, 10000, 123456, 1000000, 1234567];
const DAYS_OF_YEAR = ["2027-02-13", "2026-01-01", "2026-12-31", "2027-03-01"];
const PLURALS = [0, 1, 2, 3, 5, 11, 12, 14, 21, 22, 25, 90, 101, 111, 1000, 1000000, 2000000, 0.5, 1.2, 1.5, 1.9, 2.5, 21.5, 123.5, 999.9];
const DAY_COUNTS = [1, 2, 5, 21, 90, 1000];
const SHORT = [
  1000001, 1049999, 1050000, 1200000, 1234567, 1950000, 1999999, 2000000, 2500000, 5000000, 9960000, 10000000, 21000000, 21500000, 123456789,
  999949999, 999950000, 1000000000, 1234567890, 2000000000, 12345678901, 999950000000, 1500000000000, 2000000000000, 1000000000000000, 10000000000000000,
];
const MOMENTS = [1803909900, 1795503900];
const USERS = [1000001, 1200000, 2000000, 21000000, 1000000000];
// A wait's count and unit are the server's rounding (texts/waits.py: wait_in_units), which the UI
// does not do: they are inputs here, and tests/unit/test_waits.py holds the server to them.
const WAITS = [
  [1, 1, "second"], [2, 2, "second"], [5, 5, "second"], [21, 21, "second"], [22, 22, "second"], [45, 45, "second"], [59, 59, "second"],
  [60, 1, "minute"], [61, 2, "minute"], [121, 3, "minute"], [300, 5, "minute"], [589, 10, "minute"], [1260, 21, "minute"], [1320, 22, "minute"], [3540, 59, "minute"],
  [3541, 1, "hour"], [3600, 1, "hour"], [3601, 2, "hour"], [7200, 2, "hour"], [18000, 5, "hour"], [75600, 21, "hour"], [79200, 22, "hour"],
  [86399, 1, "day"], [86400, 1, "day"], [86401, 2, "day"], [432000, 5, "day"],
];

/** The UI's formatting code and dictionaries, bundled into memory and imported. */
async function loadUi() {
  const { outputFiles } = await build({
    stdin: {
      contents: `export * from "./src/lib/format"; export { LOCALE } from "./src/lib/language"; export { DICTIONARIES } from "./src/i18n/all";`,
      resolveDir: ui,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "warning",
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString("base64")}`);
}

/** The file's whole text, as this script would write it. */
async function localeVectors() {
  const { formatCount, formatDate, formatMoment, millionsText, parseDay, plural, pluralForm, shortCount, LOCALE, DICTIONARIES } = await loadUi();
  const languages = JSON.parse(readFileSync(LIST, "utf8")).languages.map(({ code }) => code);
  // Each plural category names itself, so the form picked is the category.
  const echo = { zero: "zero", one: "one", two: "two", few: "few", many: "many", other: "other" };
  const each = (inputs, entry) => languages.flatMap((language) => inputs.map((input) => ({ language, ...entry(input, language) })));
  const vectors = {
    numbers: each(NUMBERS, (value, language) => ({ value, text: formatCount(value, language) })),
    dates: each(DAYS_OF_YEAR, (day, language) => ({ day, text: formatDate(parseDay(day), language) })),
    plurals: each(PLURALS, (count, language) => ({ count, category: pluralForm(count, echo, language) })),
    days: each(DAY_COUNTS, (count, language) => ({ count, text: plural(count, DICTIONARIES[language].activation.days, language) })),
    short: each(SHORT, (value, language) => ({ value, text: shortCount(value, language) })),
    moments: each(MOMENTS, (seconds, language) => ({ seconds, text: formatMoment(seconds, language, 0) })),
    // The footer's count of users above a million, as countedUsers writes its two forms.
    users: each(USERS, (count, language) => {
      const forms = DICTIONARIES[language].footer.users;
      return { count, full: plural(count, forms, language), short: millionsText(count, forms, language) };
    }),
    // The server writes a wait as Intl does, with its number held to its unit by a no-break space.
    waits: each(WAITS, ([seconds, count, unit], language) => ({
      seconds,
      count,
      unit,
      text: new Intl.RelativeTimeFormat(LOCALE[language]).format(count, unit).replace(/(\d) /, "$1\u00a0"),
    })),
  };
  return JSON.stringify(vectors, null, 1) + "\n";
}

/** The entries of one text that the other lacks, kind by kind, one line each. */
function missing(from, other) {
  const [a, b] = [JSON.parse(from), JSON.parse(other)];
  return Object.entries(a).flatMap(([kind, entries]) => {
    const there = new Set((b[kind] ?? []).map((entry) => JSON.stringify(entry)));
    return entries.map((entry) => JSON.stringify(entry)).filter((line) => !there.has(line)).map((line) => `  ${kind}: ${line}`);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = await localeVectors();
  if (!process.argv.includes("--check")) {
    writeFileSync(FILE, written);
  } else {
    const committed = readFileSync(FILE, "utf8");
    if (committed !== written) {
      const lines = [...missing(written, committed).map((line) => `script writes${line}`), ...missing(committed, written).map((line) => `file has    ${line}`)];
      console.error(`tests/locale_vectors.json is not what \`npm run locale-vectors\` writes:\n${lines.join("\n") || "  the same entries, in another order or layout"}`);
      process.exit(1);
    }
  }
}
