// Writes dist/raftlab.html: the whole app in one file that works opened
// from disk (file://) with no server and no network. The page's style is
// inlined; app.js becomes an inline module, and every module it imports
// from www/ (at once, or with `import("./x.js")` when first used; the
// wasm-bindgen glue in pkg/ among them) a data: URL in the page's import
// map, each once, whichever modules import it: their local imports are
// made the map's names (`raftlab/www/i18n.js`). The wasm module's first
// part is inlined as base64 and handed to the glue's init through
// `globalThis.raftlabWasm` (served mode leaves it undefined and the glue
// fetches pkg/raftlab_bg.wasm), and its deferred part
// (pkg/raftlab_deferred.wasm) as base64 in `globalThis.raftlabWasmDeferred`,
// which the glue's loader reads (docs/page-module.md). The lessons'
// bundle (pkg/lessons.txt, which the served page fetches when a lesson is
// first asked for) is inlined as `globalThis.raftlabLessons`, and the
// Japanese narration's sentences (pkg/narration-ja.txt, fetched the first
// time the page speaks Japanese) as `globalThis.raftlabNarration.ja`.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// As served: "/" is www/, "/pkg/" is pkg/.
const read = (p) => readFileSync(path.join(root, p.replace(/^www\/pkg\//, "pkg/")), "utf8");
const dataUrl = (js) => `data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`;

// The import map's entries: a module's name, and its text as a data: URL.
const imports = {};

/** A module's text with its local imports (`from "./x.js"`, and
 * `import("./x.js")`: a language's words, the parts of the page loaded on
 * first use) made the import map's names, each imported module put in the
 * map (once). */
function mapImports(text, dir) {
  const name = (rel) => {
    const file = path.join(dir, rel);
    const key = `raftlab/${file}`;
    if (!(key in imports)) {
      imports[key] = null; // taken: a cycle ends here
      imports[key] = dataUrl(mapImports(read(file), path.dirname(file)));
    }
    return key;
  };
  return text
    .replace(/from\s+"\.\/([\w./-]+\.js)"/g, (_, rel) => `from "${name(rel)}"`)
    .replace(/import\("\.\/([\w./-]+\.js)"\)/g, (_, rel) => `import("${name(rel)}")`);
}

/** Text safe inside a <script> or <style> element. */
const safe = (s, tag) => s.replace(new RegExp(`</${tag}`, "gi"), `<\\/${tag}`);

let html = read("www/index.html");
const css = read("www/style.css");
const app = mapImports(read("www/app.js"), "www");
const wasm = readFileSync(path.join(root, "pkg/raftlab_bg.wasm")).toString("base64");
const deferred = readFileSync(path.join(root, "pkg/raftlab_deferred.wasm")).toString("base64");
const lessons = readFileSync(path.join(root, "pkg/lessons.txt"), "utf8");
const narration = { ja: readFileSync(path.join(root, "pkg/narration-ja.txt"), "utf8") };

const swap = (from, to) => {
  if (!html.includes(from)) throw new Error(`www/index.html no longer holds ${from}: update tools/dist.mjs`);
  html = html.replace(from, () => to);
};
swap('<link rel="stylesheet" href="style.css">', `<style>\n${safe(css, "style")}</style>`);
swap(
  '<script type="module" src="app.js"></script>',
  `<script>globalThis.raftlabWasm = { module_or_path: Uint8Array.from(atob("${wasm}"), (c) => c.charCodeAt(0)) };</script>\n` +
    `  <script>globalThis.raftlabWasmDeferred = "${deferred}";</script>\n` +
    `  <script>globalThis.raftlabLessons = ${safe(JSON.stringify(lessons), "script")};</script>\n` +
    `  <script>globalThis.raftlabNarration = ${safe(JSON.stringify(narration), "script")};</script>\n` +
    `  <script type="importmap">${safe(JSON.stringify({ imports }), "script")}</script>\n` +
    `  <script type="module">\n${safe(app, "script")}</script>`,
);

mkdirSync(path.join(root, "dist"), { recursive: true });
writeFileSync(path.join(root, "dist/raftlab.html"), html);
