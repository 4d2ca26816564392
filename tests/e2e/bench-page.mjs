// Measures the page as a browser loads and draws it: the bytes it loads,
// the time until the app is ready, and the time of one animation frame
// (advance the simulation, then draw) with 9 voters under load and hundreds
// of messages in flight. Prints figures; asserts nothing.
import { chromium } from "playwright-core";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

const url = process.env.RAFTLAB_URL ?? "http://127.0.0.1:8000/";
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
const loaded = [];
page.on("requestfinished", (r) => loaded.push(new URL(r.url()).pathname));

const script = "cluster voters=1,2,3,4,5,6,7,8,9 seed=1 bandwidth=2MB/s\n";
const t0 = Date.now();
await page.goto(`${url}#script=${encodeURIComponent(script)}`);
await page.waitForFunction(() => window.raftlab !== undefined);
const readyMs = Date.now() - t0;

const frame = await page.evaluate(() => {
  const r = window.raftlab;
  r.pause();
  r.command("wait-until leader");
  r.command("load rate=400/s size=512B");
  r.command("wait 5s");
  const app = r.app;
  const canvas = document.getElementById("cluster");
  const ctx = canvas.getContext("2d");
  const w = canvas.clientWidth, h = canvas.clientHeight, dpr = window.devicePixelRatio;
  const frames = 300;
  let inFlight = 0;
  const start = performance.now();
  for (let i = 0; i < frames; i++) {
    app.advance(16.7, 1);
    app.draw(ctx, w, h, dpr);
    inFlight += app.inFlight();
  }
  const ms = (performance.now() - start) / frames;
  return { ms, inFlight: Math.round(inFlight / frames) };
});
await browser.close();

// Every file the page loaded, as the server holds it: / is www/, /pkg/ is pkg/.
const root = new URL("../../", import.meta.url);
let raw = 0, gzipped = 0;
for (const path of new Set(loaded)) {
  const file = path.startsWith("/pkg/") ? `.${path}` : `www${path === "/" ? "/index.html" : path}`;
  const body = readFileSync(new URL(file, root));
  raw += body.length;
  gzipped += gzipSync(body, { level: 9 }).length;
}
const wasm = readFileSync(new URL("pkg/raftlab_bg.wasm", root));
console.log(`page load: ${new Set(loaded).size} files, ${raw} bytes (${gzipped} gzipped); the wasm module ${wasm.length} bytes (${gzipSync(wasm, { level: 9 }).length} gzipped); ready in ${readyMs} ms`);
console.log(`frame (advance 16.7 ms + draw, 9 voters, 400 writes/s, ${frame.inFlight} messages in flight, 1280x800 at 2x): ${frame.ms.toFixed(2)} ms`);
