// What the page loads, as the server holds it: every file a browser fetched
// while opening the app (/ is www/index.html, /pkg/ is pkg/, the rest
// www/), each with its size and its size gzipped at level 9. Used by
// bench-page.mjs, which prints it against the budget.
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

// The page's budget: everything it loads before it is usable, gzipped.
export const BUDGET_BYTES = 250_000;

// Until the page is back under its budget, a ceiling it must not grow past:
// its first load after the fifth round of cuts and the merge after it
// (317.6 KB gzipped, docs/crates.md), and 1 KB for work in flight. Lower
// it as cuts land; at 250 KB it is the budget.
export const CEILING_BYTES = 318_600;

// What the page loads only later, counted in the total, not in the first
// load. ASKED: only when first asked for: the lessons' scripts
// (www/view.js's lessonsReady), and the page's Japanese words (i18n.js's
// loadLanguage; a page that opens in Japanese loads them at once).
// PREFETCHED: the code of the parts used now and then (www/app.js's "parts
// loaded on first use": the lessons' drawing, the panels for several
// clusters, the modes dialog, Share, Export and Import), fetched once the
// page is idle so that a first click does not wait.
export const ASKED = new Set(["/pkg/lessons.txt", "/i18n-ja.js"]);
export const PREFETCHED = new Set(["/lesson-panel.js", "/clusters.js", "/modes.js", "/files.js"]);
export const LAZY = new Set([...ASKED, ...PREFETCHED]);

const root = new URL("../../", import.meta.url);

// `paths`: the URL paths the page loaded.
export function pageSize(paths) {
  const files = [...new Set(paths)].sort().map((path) => {
    const file = path.startsWith("/pkg/") ? `.${path}` : `www${path === "/" ? "/index.html" : path}`;
    const body = readFileSync(new URL(file, root));
    return { path, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
  const sum = (fs, k) => fs.reduce((s, f) => s + f[k], 0);
  const first = files.filter((f) => !LAZY.has(f.path));
  return {
    files,
    // Everything loaded.
    bytes: sum(files, "bytes"),
    gzipped: sum(files, "gzipped"),
    // Before the page is usable.
    first: { files: first, bytes: sum(first, "bytes"), gzipped: sum(first, "gzipped") },
  };
}

// Records the same-origin paths `page` loads from now on.
export function recordLoads(page) {
  const loaded = [];
  page.on("requestfinished", (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith("http")) loaded.push(u.pathname);
  });
  return loaded;
}
