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

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** The src folder a path lies in ("lib", "features", …; "" at the root), or null outside src. */
function folderOf(path: string): string | null {
  const inside = relative(SRC, path);
  if (inside.startsWith("..")) return null;
  return inside.includes(sep) ? inside.split(sep)[0] : "";
}

/** Every import of a src file that lands in another folder of src, as "from → to: specifier". */
function crossings(folders: string[]): { from: string; to: string; line: string }[] {
  return folders.flatMap((folder) =>
    sourceFiles(join(SRC, folder)).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
        .filter(([, specifier]) => specifier.startsWith("."))
        .map(([, specifier]) => ({ from: folder, to: folderOf(resolve(dirname(file), specifier)), line: `${relative(SRC, file)} imports ${specifier}` }))
        .filter((crossing): crossing is { from: string; to: string; line: string } => crossing.to !== null && crossing.to !== folder),
    ),
  );
}

test("lib imports nothing of the site but lib: no dictionary, component, feature or page", () => {
  const out = crossings(["lib"]).map((crossing) => crossing.line);
  assert.deepEqual(out, [], "what needs the dictionaries or components belongs in src/i18n or src/components");
});

test("the shared folders import no feature, page, entry or the app", () => {
  const shared = ["lib", "components", "content", "i18n"];
  const upward = crossings(shared).filter((crossing) => !shared.includes(crossing.to)).map((crossing) => crossing.line);
  assert.deepEqual(upward, [], "imports flow shared → features → routes, never back");
});

test("a feature makes its own calls: lib knows how the API is called, not what is called", () => {
  // The one call every page makes (the footer's count of users) is the site's, so it is shared.
  const sharedCalls = new Set(["/api/user-count"]);
  const written = sourceFiles(join(SRC, "lib"))
    .filter((file) => !file.endsWith("api-types.ts"))
    .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/["'`](\/api\/[\w/-]+)/g)].map(([, path]) => `${relative(SRC, file)}: ${path}`))
    .filter((line) => !sharedCalls.has(line.split(": ")[1]));
  assert.deepEqual(written, [], "a call one feature makes belongs in that feature's api.ts");
});
