import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// Imports flow one way: shared (lib, components, content, i18n) → features → routes. What two
// features share lives in the shared folders, so no feature imports another.
const FEATURES = fileURLToPath(new URL("../src/features", import.meta.url));
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a path lies in, or null outside src/features. */
function featureOf(path: string): string | null {
  const inside = relative(FEATURES, path);
  return inside.startsWith("..") || inside === "" ? null : inside.split(sep)[0];
}

test("no feature imports another feature", () => {
  const files = sourceFiles(FEATURES);
  assert.ok(files.length >= 4, `found only ${files.length} source files under ${FEATURES}`);
  const crossings: string[] = [];
  for (const file of files) {
    const own = featureOf(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (!specifier.startsWith(".")) continue;
      const target = featureOf(resolve(dirname(file), specifier));
      if (target !== null && target !== own) crossings.push(`${relative(FEATURES, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(crossings, [], "move what features share into src/components or src/lib");
});
