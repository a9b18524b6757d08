// Builds the website: one bundle per language (a page ships only its own language), one
// stylesheet, and every route in every language prerendered to static HTML, plus a localized 404,
// sitemap.xml and robots.txt.
//
//   node build.mjs [--out DIR]    the site (default ../adapters/vpnsite_adapters/http/site)
//   node build.mjs --tests        the unit tests, compiled to dist-tests/

import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// The languages, as the server lists them: one bundle each.
import LIST from "../adapters/vpnsite_adapters/texts/languages.json" with { type: "json" };

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const ORIGIN = "https://__ORIGIN__";

const common = {
  bundle: true,
  jsx: "automatic",
  jsxImportSource: "preact",
  // wouter reaches useSyncExternalStore through React's shim, a CommonJS module that requires
  // "react": bundled as such, it drags in the whole of preact/compat. Preact's compat has the hook
  // itself, so the shim is compat too, imported as a module (and so only what is used of it).
  alias: { react: "preact/compat", "react-dom": "preact/compat", "use-sync-external-store/shim/index.js": "preact/compat" },
  logLevel: "warning",
  legalComments: "none",
  charset: "utf8",
};

async function buildTests() {
  const outdir = join(here, "dist-tests");
  rmSync(outdir, { recursive: true, force: true });
  const entries = readdirSync(join(here, "tests")).filter((name) => name.endsWith(".test.ts"));
  await build({ ...common, entryPoints: entries.map((name) => join(here, "tests", name)), outdir, platform: "node", format: "esm", outExtension: { ".js": ".mjs" } });
}

async function buildSite(out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "assets"), { recursive: true });

  const client = await build({
    ...common,
    entryPoints: Object.fromEntries(LIST.languages.map(({ code }) => [code, join(here, "src/entries", `${code}.tsx`)])),
    outdir: join(out, "assets"),
    // In the browser, rosetta's dlv is the module it also ships, not its CommonJS build, which
    // would bring esbuild's CommonJS helpers into the first script.
    alias: { ...common.alias, dlv: "dlv/dist/dlv.es.js" },
    entryNames: "app-[name]-[hash]",
    chunkNames: "chunk-[hash]",
    splitting: true,
    format: "esm",
    minify: true,
    target: ["es2020"],
    metafile: true,
    write: true,
  });
  const scripts = {};
  const outputs = client.metafile.outputs;
  const assetPath = (file) => "/" + relative(out, resolve(file)).replaceAll("\\", "/");
  // A module's static imports, transitively: what the browser would otherwise find one file at a time.
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const { path, kind } of outputs[file].imports) if (kind === "import-statement") closure(path, seen);
    return seen;
  };
  const outputOf = (source) => Object.keys(outputs).find((file) => outputs[file].entryPoint === source);
  for (const [file, meta] of Object.entries(outputs)) {
    const language = meta.entryPoint?.match(/entries\/(\w+)\.tsx$/)?.[1];
    if (language) scripts[language] = file;
  }
  // What a page loads before it hydrates: its language's entry and, for a screen not on the home
  // page, the screen's own chunk, its language's part of the dictionary for screens and, for some,
  // its language's long texts (app.tsx's lazy imports).
  const screen = (source) => (language) => [source, `src/i18n/screens/${language}.ts`];
  const withText = (source) => (language) => [...screen(source)(language), `src/content/text/${language}.ts`];
  const routeSources = {
    "/activation": screen("src/features/signup/activation.tsx"),
    "/license": screen("src/features/licence/licence-check.tsx"),
    "/server-status": screen("src/features/status/server-status.tsx"),
    "/support": withText("src/features/support/support-screen.tsx"),
    "/about": withText("src/routes/about.tsx"),
    "/terms": withText("src/routes/legal.tsx"),
    "/privacy": withText("src/routes/legal.tsx"),
    "/cookie": withText("src/routes/legal.tsx"),
    "/__missing__": screen("src/routes/not-found.tsx"),
  };
  const preloads = (route, language) => {
    const files = closure(scripts[language]);
    files.delete(scripts[language]);
    for (const source of routeSources[route]?.(language) ?? []) {
      const chunk = outputOf(source);
      if (!chunk) throw new Error(`no chunk for ${source}: update routeSources in build.mjs`);
      closure(chunk, files);
    }
    return [...files].map((file) => `<link rel="modulepreload" href="${assetPath(file)}">`).join("");
  };

  const css = await build({ entryPoints: [join(here, "src/styles.css")], bundle: true, minify: true, write: false, logLevel: "warning" });
  const cssText = css.outputFiles[0].text;

  const ssrFile = join(here, "dist-ssr", "prerender.mjs");
  await build({ ...common, entryPoints: [join(here, "src/prerender.tsx")], outfile: ssrFile, platform: "browser", format: "esm" });
  const ssr = await import(`${pathToFileURL(ssrFile).href}?${Date.now()}`);

  const alternates = (route) =>
    ssr.LANGUAGES.map((l) => `<link rel="alternate" hreflang="${ssr.HTML_LANG[l]}" href="${ORIGIN}${ssr.localPath(route, l)}">`).join("") +
    `<link rel="alternate" hreflang="x-default" href="${ORIGIN}${route}">`;

  // `served`: an answer to a form post, filled by the server; it ships no script (it is a result
  // to read, not an app) and is never indexed. An erasure link's page ("erasure") is personal: its
  // address is the link's own, so the page names no canonical address to share or index.
  const page = (route, language, path, body, meta, served = false) => {
    const url = `${ORIGIN}${path}`;
    const personal = meta === "erasure";
    const robots = served || ["/activation", "/license"].includes(route) || meta === "404" ? '<meta name="robots" content="noindex">' : "";
    const info = ssr.DICTIONARIES[language].meta[meta === "404" ? "notFound" : personal ? "erasure" : ssr.pageOf(route)];
    const escape = (s) => s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
    return `<!doctype html><html lang="${ssr.HTML_LANG[language]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escape(info.title)}</title><meta name="description" content="${escape(info.description)}">${robots}` +
      (meta === "404" || personal ? "" : `<link rel="canonical" href="${url}">${alternates(route)}`) +
      `<meta property="og:type" content="website"><meta property="og:site_name" content="vpnsite"><meta property="og:title" content="${escape(info.title)}">` +
      `<meta property="og:description" content="${escape(info.description)}">${personal ? "" : `<meta property="og:url" content="${url}">`}<meta property="og:locale" content="${ssr.OG_LOCALE[language]}">` +
      `<meta name="twitter:card" content="summary"><meta name="twitter:title" content="${escape(info.title)}"><meta name="twitter:description" content="${escape(info.description)}">` +
      ssr.operatorMeta() + `<meta name="theme-color" content="#2f5bea"><link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
      // The server writes its last user count and servers online here (and into the page's counts): the script starts from them.
      `<meta name="vpnsite-users" content="__SLOT_USER_COUNT__"><meta name="vpnsite-servers" content="__SLOT_SERVERS_ONLINE__">` +
      // On the home page, the fleet's uptime (tenths of a per cent; empty: not measured yet) and countries.
      (route === "/" ? `<meta name="vpnsite-uptime" content="__SLOT_UPTIME_PERMILLE__"><meta name="vpnsite-countries" content="__SLOT_COUNTRIES_COUNT__">` : "") +
      // And how many devices a licence connects at once, in words picked for its fleet (lib/served.tsx: servedText).
      `<meta name="vpnsite-devices" content="__SLOT_DEVICES__"><meta name="vpnsite-device_rule" content="__SLOT_DEVICE_RULE__">` +
      // And the operator's terms in words: the licence's term, how many users the free tier takes, in words and as a bare number (lib/served.tsx: servedText).
      `<meta name="vpnsite-term" content="__SLOT_TERM__"><meta name="vpnsite-free_users" content="__SLOT_FREE_USERS__"><meta name="vpnsite-free_count" content="__SLOT_FREE_COUNT__">` +
      // And who has access to the servers, as the operator's file says it (lib/served.tsx: servedText).
      `<meta name="vpnsite-server_access" content="__SLOT_SERVER_ACCESS__">` +
      // The About page carries the operator's facts it shows, as the script draws them (routes/about.tsx).
      (route === "/about" && !served ? `<script type="application/json" id="vpnsite-about">__SLOT_RAW_ABOUT_JSON__</script>` : "") +
      // The status page also carries the whole snapshot, so the script starts where the HTML is.
      // And the connection check's answer for the visitor the server sends it to.
      (route === "/server-status" && !served ? `<script type="application/json" id="vpnsite-status">__SLOT_RAW_STATUS_JSON__</script><script type="application/json" id="vpnsite-check">__SLOT_RAW_CHECK_JSON__</script>` : "") +
      // The stylesheet is small: inline, it costs no request before the first paint.
      `<style>${cssText}</style>` +
      // What only the script makes work (the FAQ's search) is hidden from a browser that runs none.
      `<noscript><style>.needs-script{display:none}</style></noscript>` +
      // No paint before the header and the page's content are parsed: a browser that yields while
      // parsing (a busy phone) would otherwise draw half a header, then move it (a layout shift).
      `<link rel="expect" href="#main" blocking="render">` +
      (served ? "" : `<script type="module" src="${assetPath(scripts[language])}"></script>${preloads(route, language)}`) +
      `</head><body><div id="app">${body}</div></body></html>`;
  };

  let pages = 0;
  const sitemap = [];
  for (const language of ssr.LANGUAGES) {
    for (const route of ssr.ROUTES) {
      const path = ssr.localPath(route, language);
      const file = join(out, "pages", path === "/" ? "" : path.slice(1), "index.html");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, page(route, language, path, await ssr.render(path, language), route));
      pages++;
    }
    const missing = ssr.localPath("/__missing__", language);
    const file = join(out, "pages", language === "en" ? "" : language, "404.html");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page("/__missing__", language, missing, await ssr.render(missing, language), "404"));
  }
  for (const language of ssr.LANGUAGES) {
    for (const { name, route, screen } of ssr.SERVED_SCREENS) {
      const path = ssr.localPath(route, language);
      const file = join(out, "forms", language, `${name}.html`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, page(route, language, path, await ssr.render(path, language, screen), route, true));
    }
  }
  // The pages of the licence e-mail's erasure link, answered by the server like the forms' screens.
  for (const language of ssr.LANGUAGES) {
    for (const { name, step } of ssr.ERASURE_SCREENS) {
      const file = join(out, "forms", language, `${name}.html`);
      writeFileSync(file, page("/erase", language, ssr.localPath("/erase", language), await ssr.renderErasure(language, step), "erasure", true));
    }
  }
  writeFileSync(join(out, "forms", "formats.json"), JSON.stringify(ssr.formats()));
  writeFileSync(join(out, "forms", "check.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.checkParts(l)]))));
  writeFileSync(join(out, "forms", "devices.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.deviceParts(l)]))));
  writeFileSync(join(out, "forms", "profiles.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.profileParts(l)]))));
  writeFileSync(join(out, "forms", "testimonials.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.testimonialParts(l)]))));
  writeFileSync(join(out, "forms", "status.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.statusParts(l)]))));
  writeFileSync(join(out, "forms", "footer.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.footerParts(l)]))));
  writeFileSync(join(out, "forms", "about.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.aboutParts(l)]))));
  writeFileSync(join(out, "forms", "locations.json"), JSON.stringify(Object.fromEntries(ssr.LANGUAGES.map((l) => [l, ssr.locationParts(l)]))));
  for (const route of ssr.ROUTES) {
    if (["/activation"].includes(route)) continue;
    const links = ssr.LANGUAGES.map((l) => `<xhtml:link rel="alternate" hreflang="${ssr.HTML_LANG[l]}" href="${ORIGIN}${ssr.localPath(route, l)}"/>`).join("");
    for (const language of ssr.LANGUAGES) sitemap.push(`<url><loc>${ORIGIN}${ssr.localPath(route, language)}</loc>${links}</url>`);
  }
  writeFileSync(join(out, "sitemap.xml"), `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${sitemap.join("")}</urlset>`);
  writeFileSync(join(out, "robots.txt"), `User-agent: *\nDisallow: /api/\nDisallow: /activation\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  writeFileSync(join(out, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#2f5bea"/><path d="M12 4 6 6.3v4.4c0 3.7 2.5 7.1 6 8.1 3.5-1 6-4.4 6-8.1V6.3z" fill="#fff"/></svg>`);
  writeFileSync(join(out, "slots.json"), JSON.stringify(slotManifest(out)));
  console.log(`built ${pages} pages and ${Object.keys(scripts).length} language bundles into ${out}`);
}

const SLOT = /__SLOT_([A-Z0-9]+(?:_[A-Z0-9]+)*)__/g;
const slotsIn = (text) => [...new Set([...text.matchAll(SLOT)].map((found) => found[1]))].sort();

/** The slots every prerendered piece leaves for the server (`RAW_` ones take markup): each page by
 * its file, and each string of a piece file (forms/*.json) by its language and its path in it.
 * The server holds them against the slots it fills when it starts (http/pages/slot_manifest.py). */
function slotManifest(out) {
  const files = (folder) => readdirSync(join(out, folder), { recursive: true }).map((name) => join(folder, name));
  const pages = {};
  for (const file of [...files("pages"), ...files("forms")].filter((name) => name.endsWith(".html"))) {
    const found = slotsIn(readFileSync(join(out, file), "utf8"));
    pages[`/${file}`] = found;
  }
  const pieces = {};
  const walk = (value, path, into) => {
    if (typeof value === "string") {
      const found = slotsIn(value);
      if (found.length) into[path.join("/")] = found;
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key], into);
    }
  };
  for (const name of readdirSync(join(out, "forms")).filter((name) => name.endsWith(".json"))) {
    const languages = JSON.parse(readFileSync(join(out, "forms", name), "utf8"));
    pieces[name] = Object.fromEntries(Object.entries(languages).map(([language, parts]) => {
      const into = {};
      walk(parts, [], into);
      return [language, into];
    }));
  }
  return { pages, pieces };
}

if (args.includes("--tests")) {
  await buildTests();
} else {
  const at = args.indexOf("--out");
  await buildSite(resolve(at >= 0 ? args[at + 1] : join(here, "..", "adapters", "vpnsite_adapters", "http", "site")));
}
