// Writes dist/raftlab.html: the whole app in one file that works opened
// from disk (file://) with no server and no network. The page's style is
// inlined; app.js and every module it imports from www/ become one inline
// module whose imports are data: URLs (the wasm-bindgen glue in pkg/
// among them); the wasm module is inlined as base64 and handed to the
// glue's init through `globalThis.raftlabWasm` (served mode leaves it
// undefined and the glue fetches pkg/raftlab_bg.wasm). The lessons'
// bundle (pkg/lessons.txt, which the served page fetches when a lesson is
// first asked for) is inlined as `globalThis.raftlabLessons`.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// As served: "/" is www/, "/pkg/" is pkg/.
const read = (p) => readFileSync(path.join(root, p.replace(/^www\/pkg\//, "pkg/")), "utf8");
const dataUrl = (js) => `data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`;

/** A module's text with its local imports (`from "./x.js"`, `import("./x.js")`) made data: URLs, recursively. */
function inlineImports(text, dir) {
  const inline = (rel) => {
    const file = path.join(dir, rel);
    return dataUrl(inlineImports(read(file), path.dirname(file)));
  };
  return text
    .replace(/from\s+"\.\/([\w./-]+\.js)"/g, (_, rel) => `from "${inline(rel)}"`)
    // A language's words, loaded when the page first speaks it (i18n.js).
    .replace(/import\("\.\/([\w./-]+\.js)"\)/g, (_, rel) => `import("${inline(rel)}")`);
}

/** Text safe inside a <script> or <style> element. */
const safe = (s, tag) => s.replace(new RegExp(`</${tag}`, "gi"), `<\\/${tag}`);

let html = read("www/index.html");
const css = read("www/style.css");
const app = inlineImports(read("www/app.js"), "www");
const wasm = readFileSync(path.join(root, "pkg/raftlab_bg.wasm")).toString("base64");
const lessons = readFileSync(path.join(root, "pkg/lessons.txt"), "utf8");

const swap = (from, to) => {
  if (!html.includes(from)) throw new Error(`www/index.html no longer holds ${from}: update tools/dist.mjs`);
  html = html.replace(from, () => to);
};
swap('<link rel="stylesheet" href="style.css">', `<style>\n${safe(css, "style")}</style>`);
swap(
  '<script type="module" src="app.js"></script>',
  `<script>globalThis.raftlabWasm = { module_or_path: Uint8Array.from(atob("${wasm}"), (c) => c.charCodeAt(0)) };</script>\n` +
    `  <script>globalThis.raftlabLessons = ${safe(JSON.stringify(lessons), "script")};</script>\n` +
    `  <script type="module">\n${safe(app, "script")}</script>`,
);

mkdirSync(path.join(root, "dist"), { recursive: true });
writeFileSync(path.join(root, "dist/raftlab.html"), html);
