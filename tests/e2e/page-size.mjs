// What the page loads, as the server sends it (the scripts and style sheets
// without their comments): every file a browser fetched while opening the
// app, each with its size and its size gzipped at level 9. Used by
// bench-page.mjs, which prints it against the budget.
import { gzipSync } from "node:zlib";

// The page's budget: everything it loads before it is usable, gzipped.
export const BUDGET_BYTES = 250_000;

// What the page loads only later, counted in the total, not in the first
// load. ASKED: only when first asked for: the lessons' scripts
// (www/view.js's lessonsReady), and the page's Japanese words and the
// run's Japanese sentences (i18n.js's loadLanguage; a page that opens in
// Japanese loads them at once).
// PARTS: the code of the parts used now and then (www/app.js's "parts
// loaded on first use": the lessons' drawing, the panels for several
// clusters, the modes dialog, Share, Export and Import, the help's words,
// the node popup, a message's and a link's popups, the history view, the branch list and the timeline's tip),
// and DEFERRED_MODULE, the functions of the wasm module a first visit does
// not run (docs/page-module.md): PREFETCHED, fetched once the page is idle
// so that a first click does not wait.
export const ASKED = new Set(["/pkg/lessons.txt", "/i18n-ja.js", "/pkg/narration-ja.txt"]);
export const PARTS = new Set(["/lesson-panel.js", "/clusters.js", "/modes.js", "/files.js", "/help.js", "/popup.js", "/hand.js", "/history.js", "/travel.js"]);
export const DEFERRED_MODULE = "/pkg/raftlab_deferred.wasm";
export const PREFETCHED = new Set([...PARTS, DEFERRED_MODULE]);
export const LAZY = new Set([...ASKED, ...PREFETCHED]);

// `paths`: the URL paths the page loaded from the server at `base`; each is
// asked for again, its body measured.
export async function pageSize(paths, base) {
  const files = await Promise.all([...new Set(paths)].sort().map(async (path) => {
    const r = await fetch(new URL(path, base));
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    const body = Buffer.from(await r.arrayBuffer());
    return { path, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  }));
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
