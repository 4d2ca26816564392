// What the page loads, as the server holds it: every file a browser fetched
// while opening the app (/ is www/index.html, /pkg/ is pkg/, the rest
// www/), each with its size and its size gzipped at level 9. Used by
// bench-page.mjs, which prints it against the budget.
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

// The page's budget: everything it loads, gzipped.
export const BUDGET_BYTES = 250_000;

const root = new URL("../../", import.meta.url);

// `paths`: the URL paths the page loaded.
export function pageSize(paths) {
  const files = [...new Set(paths)].sort().map((path) => {
    const file = path.startsWith("/pkg/") ? `.${path}` : `www${path === "/" ? "/index.html" : path}`;
    const body = readFileSync(new URL(file, root));
    return { path, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length };
  });
  return {
    files,
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    gzipped: files.reduce((s, f) => s + f.gzipped, 0),
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
