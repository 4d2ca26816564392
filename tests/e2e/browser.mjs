// Shared set-up for the end-to-end tests: Debian's Chromium, headless,
// driven by playwright-core against the page `make test` serves.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const BASE_URL = process.env.RAFTLAB_URL ?? "http://127.0.0.1:8000/";
// Screenshots land beside the build output, for people to look at.
// Screenshots go into cargo's target directory (tools/test.sh names the
// folder; tools/lib.sh target_dir exports where cargo builds), ./target
// when run by hand.
export const SHOTS = process.env.RAFTLAB_SCREENSHOTS ?? path.resolve(
  process.env.RAFTLAB_TARGET_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../target"),
  "screenshots");
mkdirSync(SHOTS, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Two phones as Playwright's mobile emulation makes them (touch on, a
 * mobile viewport): an iPhone's size and an Android phone's. */
export const PHONES = {
  iphone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  android: { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true },
};

/// Opens the app and collects every console error and page error, and every
/// request to another host (the app must work offline). `device`: the
/// context's options instead of a plain window of width x height (PHONES).
export async function openApp(browser, { width = 1280, height = 800, hash = "", device = null, reducedMotion = null } = {}) {
  const page = await browser.newPage(device ?? { viewport: { width, height }, deviceScaleFactor: 1 });
  if (reducedMotion) await page.emulateMedia({ reducedMotion });
  const problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  const origin = new URL(BASE_URL).origin;
  page.on("request", (req) => {
    if (!req.url().startsWith(origin) && !req.url().startsWith("data:")) problems.push(`request: ${req.url()}`);
  });
  await page.goto(BASE_URL + hash);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  // A lesson's script comes with the lessons file, fetched when first
  // asked for: a `#lesson=` address opens its lesson a moment later.
  if (hash.includes("#lesson=")) {
    await page.waitForFunction(() => window.raftlab.lesson() != null, null, { timeout: 20000 });
  }
  // A link's run (or a `#script=`) runs in slices after the page answers: on
  // a slow machine it is not over yet. Tests read the run once it is (or
  // once the address was refused). A big run waiting for its confirm is
  // left to the test.
  if (/#(v\d+\.|script=)/.test(hash)) {
    await page.waitForFunction(() => { const p = window.raftlab.progress(); return p.confirming || !p.running; }, null, { timeout: 30000 });
  }
  return { page, problems };
}

/** Pauses the clock and runs console commands one after another: a command
 * that outlasts its first slice (a slow machine) runs on in the page's
 * frames, and the next waits for it, as a reader typing would. */
export function runCommands(page, list) {
  return page.evaluate(async (l) => {
    window.raftlab.pause();
    for (const c of l) {
      const r = window.raftlab.command(c);
      if (r.running) await window.raftlab.idle();
    }
  }, list);
}

/** Opens `script` as a user's file would (a run in slices when long),
 * waits for it to end, then pauses the clock: only what is typed next
 * moves it. */
export function openPaused(page, script) {
  return page.evaluate(async (src) => {
    await window.raftlab.importScenario(src);
    await window.raftlab.idle();
    window.raftlab.pause();
  }, script);
}

/** Types console commands one after another as a user who wants them run:
 * each awaited to its end (`commandDone`), the confirm a long run asks for
 * taken at once, a refused command an error. The wall time they took, in
 * milliseconds. */
export function typeTimed(page, lines) {
  return page.evaluate(async (ls) => {
    const start = performance.now();
    for (const line of ls) {
      const done = window.raftlab.commandDone(line);
      if (window.raftlab.progress().confirming) document.getElementById("confirm-run").click();
      const r = await done;
      if (r.ok === false) throw new Error(`${line}: ${JSON.stringify(r)}`);
    }
    return performance.now() - start;
  }, lines);
}

// axe-core, the accessibility engine (tests/e2e/package.json), injected
// into the page under test.
const AXE = readFileSync(new URL("./node_modules/axe-core/axe.min.js", import.meta.url), "utf8");

/** The serious and critical accessibility violations axe-core finds in the
 * page as it is now (its default rules: WCAG A and AA, and its best
 * practices; `touch`: WCAG 2.2's target size too, for a touch screen),
 * each as "impact id: what (where)". */
export async function axeViolations(page, { touch = false } = {}) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async (touch) => {
    const rules = touch ? { "target-size": { enabled: true } } : {};
    const r = await window.axe.run(document, { resultTypes: ["violations"], rules });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")})`);
  }, touch);
}
