import assert from "node:assert/strict";
import { test } from "node:test";
import { spawnSync } from "node:child_process";

// The script bundles the UI with esbuild, which cannot itself be bundled into a test: it runs as
// its own process, as `npm run locale-vectors -- --check` would.
test("tests/locale_vectors.json is what the UI's formatting writes (npm run locale-vectors)", () => {
  const run = spawnSync(process.execPath, ["scripts/locale-vectors.mjs", "--check"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
});
