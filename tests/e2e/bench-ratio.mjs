// Page against native on `raftlab bench`'s standard workload, in one go:
// runs the workload natively (raftlab bench, the release binary in cargo's
// target directory) and in the page
// (release wasm, headless Chromium) two ways, alternating, three times each,
// and prints the medians and their ratios (page speed / native speed; 0.8
// wanted as a user drives it, 0.9 for the engine alone):
// - the page as a user drives it: the first line opened as a scenario, then
//   the others typed as console commands while paused, each awaited
//   (`commandDone`), the confirm a long run asks for taken at once; the
//   page draws, narrates and answers as it runs;
// - the engine alone: `new App(script)`, the timeline with its checkpoints
//   and narration run to its end in one call.
// Needs RAFTLAB_URL (a running `raftlab serve`) and the release binary.
// Prints figures; asserts nothing.
import { chromium } from "playwright-core";
import { openPaused, typeTimed } from "./browser.mjs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const url = process.env.RAFTLAB_URL ?? "http://127.0.0.1:8000/";
const root = fileURLToPath(new URL("../../", import.meta.url));
const SECONDS = 600;
const RATE = 100;
const ROUNDS = 3;

// src/cli/bench.rs's `workload(600, 100)`, line for line.
const script = [
  "cluster voters=1,2,3,4,5 seed=1",
  "wait-until leader",
  "wait 6s",
  "member add 6 --learner",
  "start 6",
  `load rate=${RATE}/s size=256B`,
  `wait ${SECONDS}s`,
  "load stop",
  "",
].join("\n");

const native = () => {
  const target = process.env.RAFTLAB_TARGET_DIR ?? `${root}target`;
  const out = execFileSync(`${target}/release/raftlab`,
    ["bench", "--seconds", String(SECONDS), "--rate", String(RATE)], { encoding: "utf8" });
  // "... 1234 message deliveries in 0.700 s wall time = ... (commit index N)"
  const m = out.match(/: (\d+) message deliveries in ([0-9.]+) s wall time.*\(commit index (\d+)\)/);
  if (!m) throw new Error(`raftlab bench printed something unexpected: ${out}`);
  return { deliveries: Number(m[1]), wallS: Number(m[2]), commit: Number(m[3]) };
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url);
await page.waitForFunction(() => window.raftlab !== undefined);
await page.evaluate(() => window.raftlab.pause());

// The page as a user drives it. The scenario's first line makes the run
// (a console "cluster" line adds a second cluster); the clock is paused so
// that only the typed commands move it.
const asUser = async () => {
  await openPaused(page, `${script.split("\n")[0]}\n`);
  const wallMs = await typeTimed(page, script.split("\n").slice(1).filter((l) => l));
  return { wallS: wallMs / 1000, simulatedMs: await page.evaluate(() => window.raftlab.status().time_ms) };
};

const inPage = () => page.evaluate(async (src) => {
  // The page's module, already initialised by the page itself.
  const { App } = await import("/pkg/raftlab.js");
  const start = performance.now();
  const app = new App(src);
  const wallS = (performance.now() - start) / 1000;
  const simulatedMs = app.timeMs();
  app.free();
  return { wallS, simulatedMs };
}, script);

const natives = [], pages = [], users = [];
let simulatedMs = 0, deliveries = 0;
for (let i = 0; i < ROUNDS; i++) {
  const n = native();
  natives.push(n.wallS);
  deliveries = n.deliveries;
  const p = await inPage();
  pages.push(p.wallS);
  simulatedMs = p.simulatedMs;
  const u = await asUser();
  users.push(u.wallS);
  if (Math.abs(u.simulatedMs - simulatedMs) > 1000) throw new Error(`the typed run ended at ${u.simulatedMs} ms, new App at ${simulatedMs} ms`);
}
await browser.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const n = median(natives), p = median(pages), u = median(users);
const simS = simulatedMs / 1000;
console.log(`standard workload (5 voters + 1 learner, ${RATE} writes/s, ${simS.toFixed(0)} simulated s, ${deliveries} deliveries), median of ${ROUNDS}:`);
console.log(`  native (raftlab bench):        ${n.toFixed(3)} s wall, ${(simS / n).toFixed(0)}x real time  [${natives.map((x) => x.toFixed(2)).join(", ")}]`);
console.log(`  the page, typed as a user:     ${u.toFixed(3)} s wall, ${(simS / u).toFixed(0)}x real time  [${users.map((x) => x.toFixed(2)).join(", ")}]`);
console.log(`  the engine alone (new App):    ${p.toFixed(3)} s wall, ${(simS / p).toFixed(0)}x real time  [${pages.map((x) => x.toFixed(2)).join(", ")}]`);
console.log(`figure: the page against native, typed as a user types it: ${u.toFixed(3)} s against ${n.toFixed(3)} s = page/native speed ${(n / u).toFixed(2)} (0.8 wanted)`);
console.log(`figure: the page against native, the engine alone (new App): ${p.toFixed(3)} s against ${n.toFixed(3)} s = page/native speed ${(n / p).toFixed(2)} (0.9 wanted)`);
