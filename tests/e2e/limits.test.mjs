// The page never freezes or dies: hostile and huge links and console
// commands run in slices, the page drawing (a frame at least every 100 ms,
// measured here with requestAnimationFrame) and answering throughout; the
// progress moves; Cancel leaves a usable run; a big run asks first; the
// memory budget stops a run with a message.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, SHOTS, BASE_URL, openPaused, typeTimed } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const HEAVY = "cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\nload rate=10000/s size=1MB\nwait 3600s\nwait 3600s\nwait 3600s\n";
const scriptLink = (src) => `#script=${encodeURIComponent(src)}`;

/** A page that records every animation frame's time from its first script
 * on, and every error. */
async function open(hash) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  page.on("crash", () => problems.push("crash"));
  await page.addInitScript(() => {
    window.__frames = [];
    const f = (ts) => { window.__frames.push(ts); requestAnimationFrame(f); };
    requestAnimationFrame(f);
    // The browser's own account of each long frame (Chromium's
    // long-animation-frame entries): which scripts ran in it, and how
    // long. A failure names them, so a stall of the page's own work is
    // told from a stall of the machine.
    window.__long = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          window.__long.push({
            at: Math.round(e.startTime), ms: Math.round(e.duration),
            scripts: e.scripts.map((x) => `${x.invoker || x.invokerType} ${Math.round(x.duration)} ms`),
          });
        }
      }).observe({ type: "long-animation-frame" });
    } catch { /* a browser without the entry type: failures say less */ }
  });
  const t0 = Date.now();
  await page.goto(BASE_URL + hash, { waitUntil: "commit" });
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 30000, polling: 50 });
  return { page, problems, readyMs: Date.now() - t0 };
}

/** The gaps between frames from now on, over `ms`: the longest, the 95th
 * percentile, how many frames, and the long frames the browser saw. */
async function longestGap(page, ms) {
  return page.evaluate(async (ms) => {
    const from = window.__frames.length;
    const longFrom = window.__long.length;
    await new Promise((r) => setTimeout(r, ms));
    const f = window.__frames.slice(from - 1);
    const gaps = f.slice(1).map((x, i) => x - f[i]).sort((a, b) => a - b);
    const long = window.__long.slice(longFrom).filter((e) => e.ms >= 100);
    return { gap: gaps.at(-1) ?? Infinity, second: gaps.at(-2) ?? Infinity, p95: gaps[Math.floor(gaps.length * 0.95)] ?? Infinity, frames: gaps.length, long };
  }, ms);
}

/** The frames over `ms`, against the page's bounds at this machine's speed
 * (measured just before and just after: the slower of the two holds for
 * the window between). (Frames come on a 60 Hz beat: six of them are
 * 100.02 ms.) Every gap but one within six frames; that one within twelve:
 * late in the heavy run one frame of about 117 ms comes, outside the run's
 * own slices (its slowest is a few ms then). */
async function watchFrames(page, ms, label) {
  const before = await slowness(page);
  const w = await longestGap(page, ms);
  const k = Math.max(before, await slowness(page));
  const ok = w.p95 <= 101 * k && w.second <= 101 * k && w.gap <= 201 * k;
  const stats = await page.evaluate(() => window.raftlab.runStats());
  const why = `${label}: frame gaps up to ${w.gap.toFixed(0)} ms (the next ${w.second.toFixed(0)} ms), 95% within ${w.p95.toFixed(0)} ms, machine factor ${k.toFixed(2)} (${JSON.stringify(stats)}; long frames ${JSON.stringify(w.long)})`;
  return { ...w, k, ok, why };
}

/** The frames keep up in a window watched, or else in the one after it. A
 * page whose own work stalls fails both; one stall of the machine fails
 * neither: a CI run once saw a frame of 233 ms while the run's slowest
 * slice was 7 ms, the machine's speed measured the same before and after. */
async function framesKeepUp(page, ms, label) {
  const first = await watchFrames(page, ms, label);
  if (first.ok) return first;
  const again = await watchFrames(page, ms, label);
  assert.ok(again.ok, `${first.why}; watched again: ${again.why}`);
  return again;
}

/** While a run goes on, the quorum panel names the leader the run has. */
async function quorumPanelFollows(page) {
  await page.waitForFunction(() => {
    const leader = window.raftlab.status().leader;
    const row = document.querySelector("#quorum .row")?.textContent ?? "";
    return window.raftlab.progress().running && leader != null && row.endsWith(String(leader));
  }, null, { timeout: 20000, polling: 100 });
}

/** How much slower this browser is now than the development machine's,
 * where the bounds below were set (1 there): a fixed piece of script and
 * canvas work, timed in the page after a warm-up. Frame and answer bounds
 * are scaled by it, so a slower machine (a loaded CI runner, software
 * rendering) is held to the same standard relative to its speed. It is
 * measured again at each use: a machine's load changes within a run. */
const REFERENCE_MS = 25;
async function slowness(page) {
  const ms = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 1280;
    c.height = 800;
    const g = c.getContext("2d");
    const runs = [];
    for (let r = 0; r < 8; r++) {
      const t0 = performance.now();
      let x = 0;
      for (let i = 0; i < 2_000_000; i++) x += Math.sqrt(i ^ r);
      for (let i = 0; i < 3000; i++) { g.beginPath(); g.arc((i * 37) % 1280, (i * 91) % 800, 6, 0, 6.283); g.fill(); }
      g.getImageData(0, 0, 1, 1);
      runs.push(performance.now() - t0 + (x < 0 ? 1 : 0));
    }
    // The first run warms up; the median of the rest.
    return runs.slice(1).sort((a, b) => a - b)[3];
  });
  const slow = Math.max(1, ms / REFERENCE_MS);
  console.log(`# this browser: ${ms.toFixed(1)} ms for the reference work, bounds scaled by ${slow.toFixed(2)}`);
  return slow;
}

/** How long the page takes to answer a call. */
async function answerMs(page) {
  const t0 = Date.now();
  await page.evaluate(() => window.raftlab.progress());
  return Date.now() - t0;
}

const progress = (page) => page.evaluate(() => window.raftlab.progress());
const logText = (page) => page.textContent("#log");

/** The run goes on while the page draws and answers; the progress moves. */
async function runsResponsively(page, label) {
  const a = await progress(page);
  assert.ok(a.running, `${label}: running ${JSON.stringify(a)}`);
  const { frames, k } = await framesKeepUp(page, 2500, label);
  assert.ok(frames > 20 / k, `${label}: ${frames} frames in 2.5 s`);
  const b = await progress(page);
  assert.ok(b.done_ms > a.done_ms || b.commands_done > a.commands_done, `${label}: no progress ${JSON.stringify([a, b])}`);
  assert.ok(b.total_ms >= b.done_ms);
  // A run that ended meanwhile hides its bar rightly: the script must be
  // long enough to outlast the frames watched on a fast machine.
  assert.ok(b.running, `${label}: the run ended while it was watched ${JSON.stringify(b)}`);
  assert.ok((await answerMs(page)) < 300 * k, `${label}: the page answers slowly`);
  assert.equal(await page.isVisible("#run-box"), true, `${label}: the progress bar shows`);
  return b;
}

/** Cancel leaves a usable run: the log says so and a command works. */
async function cancelLeavesAUsableRun(page, label) {
  assert.equal(await page.evaluate(() => window.raftlab.cancel()), true, label);
  const p = await progress(page);
  assert.equal(p.running, false, `${label}: ${JSON.stringify(p)}`);
  assert.equal(await page.isVisible("#run-box"), false);
  assert.match(await logText(page), /cancelled at line \d+/, label);
  assert.equal(await page.evaluate(() => window.raftlab.cancel()), false, "nothing left to cancel");
  const r = await page.evaluate(() => window.raftlab.commandDone("put after cancel"));
  assert.equal(r.ok, true, `${label}: ${JSON.stringify(r)}`);
  const got = await page.evaluate(() => window.raftlab.commandDone("get after"));
  assert.equal(got.value, "cancel", `${label}: ${JSON.stringify(got)}`);
}

test("the heavy link: asks, runs in slices, the page draws and answers, Cancel leaves a usable run", async () => {
  const { page, problems, readyMs } = await open(scriptLink(HEAVY));
  assert.ok(readyMs < 5000 * (await slowness(page)), `window.raftlab after ${readyMs} ms`);
  // It asks first, with what it runs and a countdown.
  const asking = await progress(page);
  assert.equal(asking.confirming, true, JSON.stringify(asking));
  assert.equal(asking.running, true);
  assert.equal(await page.isVisible("#confirm-box"), true);
  const words = await page.textContent("#confirm-text");
  assert.match(words, /15 nodes for 3\.0 h of simulated time under a load of 10000 writes a second of 1 MB each: 4 commands/);
  assert.match(words, /about [\d.]+ h/, words);
  assert.match(await page.textContent("#confirm-run"), /Run now \(\d\)/);
  await page.screenshot({ path: path.join(SHOTS, "limits-confirm.png") });
  // The countdown runs it.
  await page.waitForFunction(() => window.raftlab.progress().done_ms > 0, null, { timeout: 30000 });
  assert.equal(await page.isVisible("#confirm-box"), false);
  // The first election takes the writes queued meanwhile in one engine step
  // (about 140 ms here, once); the frames are measured after it.
  await page.waitForFunction(() => window.raftlab.progress().done_ms > 1500, null, { timeout: 30000 });
  await runsResponsively(page, "heavy");
  // Later, with a hundred megabytes and more counted, counting memory
  // (at each checkpoint and for the budget) still fits between frames.
  await page.waitForFunction(() => window.raftlab.progress().done_ms > 5000, null, { timeout: 60000 });
  await runsResponsively(page, "heavy, later");
  // The quorum panel follows the run: the leader elected during it is
  // there while it goes on (the link opened with none).
  await quorumPanelFollows(page);
  // Anything but Cancel is refused, and the log says why.
  const refused = await page.evaluate(() => window.raftlab.command("crash 1"));
  assert.equal(refused.error, "running");
  assert.match(await logText(page), /a run is in progress/);
  await page.screenshot({ path: path.join(SHOTS, "limits-progress.png") });
  await cancelLeavesAUsableRun(page, "heavy");
  // The run ends with `load rate=...`, the last command that finished.
  const history = await page.evaluate(() => window.raftlab.history());
  assert.match(history, /^cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\nload rate=10000\/s size=1MB\n/);
  assert.doesNotMatch(history, /wait 3600s/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a 100,000-line script link runs in slices and cancels", async () => {
  const lines = ["cluster voters=1,2,3"];
  // Ten simulated seconds a wait: the whole script takes minutes of the
  // page's time (a second a wait ran it in about 5 s after the results
  // went into shared chunks), so it is still running when it is watched.
  for (let i = 0; i < 50_000; i++) lines.push(`put k${i % 10} v`, "wait 10s");
  const { page, problems, readyMs } = await open(scriptLink(lines.join("\n")));
  assert.ok(readyMs < 5000 * (await slowness(page)), `window.raftlab after ${readyMs} ms`);
  const asking = await progress(page);
  assert.equal(asking.confirming, true, JSON.stringify(asking));
  assert.equal(asking.commands_total, 100_000);
  await page.evaluate(() => window.raftlab.runNow());
  await page.waitForFunction(() => window.raftlab.progress().commands_done > 10, null, { timeout: 30000 });
  const p = await runsResponsively(page, "100k lines");
  assert.equal(p.commands_total, 100_000);
  await cancelLeavesAUsableRun(page, "100k lines");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a huge console wait runs in slices; a long one ends with its result; a small link runs at once", async () => {
  const { page, problems } = await open(scriptLink("cluster voters=1,2,3,4,5\nwait-until leader\nput a 1\n"));
  // A small run runs at once, no confirm (within the frames after the page
  // answers: the run is queued and runs from the animation frames).
  await page.waitForFunction(() => !window.raftlab.progress().running, null, { timeout: 30000 });
  const done = await progress(page);
  assert.equal(done.running, false, JSON.stringify(done));
  assert.equal(done.confirming, false, JSON.stringify(done));
  assert.equal(await page.isVisible("#confirm-box"), false);
  // The welcome does not speak of the default cluster's three voters.
  const log = await page.textContent("#log");
  assert.match(log, /the run the address's script describes/);
  assert.doesNotMatch(log, /three voters/);
  await page.evaluate(() => window.raftlab.pause());
  // Under a load, an hour takes the page minutes.
  assert.equal((await page.evaluate(() => window.raftlab.command("load rate=1000/s"))).ok, true);
  const before = (await page.evaluate(() => window.raftlab.status())).time_ms;
  const r = await page.evaluate(() => window.raftlab.command("wait 3600s"));
  assert.equal(r.running, true, JSON.stringify(r));
  await runsResponsively(page, "console wait");
  await cancelLeavesAUsableRun(page, "console wait");
  assert.ok((await page.evaluate(() => window.raftlab.status())).time_ms < before + 1000);
  // A long wait that ends: its result reaches the log, the clock is there.
  assert.equal((await page.evaluate(() => window.raftlab.command("load stop"))).ok, true);
  const w = await page.evaluate(() => window.raftlab.command("wait 300s"));
  await page.evaluate(() => window.raftlab.idle());
  const s = await page.evaluate(() => window.raftlab.status());
  assert.ok(s.time_ms >= before + 300_000, `${JSON.stringify(w)} ${s.time_ms}`);
  assert.match(await logText(page), /wait 300s/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Don't run leaves the cluster at its start; the memory budget stops a run with a message", async () => {
  const { page, problems } = await open(scriptLink(HEAVY));
  assert.equal((await progress(page)).confirming, true);
  await page.evaluate(() => window.raftlab.pause());
  await page.click("#confirm-skip");
  const p = await progress(page);
  assert.equal(p.running, false, JSON.stringify(p));
  assert.equal((await page.evaluate(() => window.raftlab.status())).time_ms, 0);
  assert.match(await logText(page), /was not run/);
  assert.equal((await page.evaluate(() => window.raftlab.command("wait 1s"))).ok, true);
  // The same run under a small budget stops by itself, with a message.
  await page.evaluate(() => window.raftlab.setMemoryBudget(48 << 20));
  assert.equal((await page.evaluate(() => window.raftlab.command("load rate=10000/s size=1MB"))).ok, true);
  const w = await page.evaluate(() => window.raftlab.command("wait 3600s"));
  assert.equal(w.running, true, JSON.stringify(w));
  await page.waitForFunction(() => window.raftlab.progress().done_ms > 1500, null, { timeout: 30000 });
  // As in runsResponsively (the budget's stop, which frees the run it rolls
  // back from in one slice, may fall in the window watched).
  await framesKeepUp(page, 1500, "under a budget");
  await page.waitForFunction(() => !window.raftlab.progress().running, null, { timeout: 60000 });
  const log = await logText(page);
  assert.match(log, /stopped at line \d+ \(`wait 3600s`\), t=[\d.]+s: the run would hold more than its memory budget of 48\.0 MB/);
  const m = await page.evaluate(() => window.raftlab.memory());
  assert.equal(m.budget_bytes, 48 << 20);
  // Usable: back under no limit, the load stops and time runs.
  await page.evaluate(() => window.raftlab.setMemoryBudget(null));
  assert.equal((await page.evaluate(() => window.raftlab.command("load stop"))).ok, true);
  assert.equal((await page.evaluate(() => window.raftlab.command("wait 1s"))).ok, true);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a long console run gets most of the page's time: typed, it takes little longer than the engine alone", async () => {
  const { page, problems } = await open("");
  await page.evaluate(async () => { await window.raftlab.idle(); window.raftlab.pause(); });
  const first = "cluster voters=1,2,3,4,5 seed=3";
  const typed = ["load rate=100/s size=256B", "wait 300s", "load stop"];
  // Alternately, three times each: the typed run (the page draws, narrates
  // and answers throughout) and the same script in one call of the module.
  const times = { typed: [], engine: [] };
  for (let i = 0; i < 3; i++) {
    await openPaused(page, `${first}\n`);
    times.typed.push(await typeTimed(page, typed));
    times.engine.push(await page.evaluate(async (src) => {
      const { App } = await import("/pkg/raftlab.js");
      const start = performance.now();
      new App(src).free();
      return performance.now() - start;
    }, [first, ...typed, ""].join("\n")));
  }
  const typedMs = Math.min(...times.typed), engineMs = Math.min(...times.engine);
  // Tied to animation frames (a slice a frame, the page repainting its bar
  // each frame) the typed run took about three times as long; in tasks it
  // takes about 1.2 times, and a busy CI machine has given 1.9 (the best of
  // two each: typed 1259 and 1318 ms, alone 964 and 672).
  assert.ok(typedMs < 2.2 * engineMs, `typed ${typedMs.toFixed(0)} ms, the engine alone ${engineMs.toFixed(0)} ms: ${JSON.stringify(times)}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a run waits while the page is hidden and goes on when it is shown again", async () => {
  const { page, problems } = await open("");
  await page.evaluate(async () => { await window.raftlab.idle(); window.raftlab.pause(); });
  const setHidden = (hidden) => page.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
  await page.evaluate(() => window.raftlab.command("load rate=100/s size=64B"));
  // Long enough (about a second of the page's time) to be going on when hidden,
  // short enough to be run without the confirm.
  const done = page.evaluate(() => window.raftlab.commandDone("wait 400s"));
  await page.waitForFunction(() => window.raftlab.progress().done_ms > 0, null, { timeout: 20000 });
  await setHidden(true);
  await page.waitForTimeout(100); // the task on its way, if any, sees it
  const at = await page.evaluate(() => window.raftlab.progress());
  await page.waitForTimeout(600);
  const later = await page.evaluate(() => window.raftlab.progress());
  assert.ok(at.running && later.running, JSON.stringify({ at, later }));
  assert.equal(later.done_ms, at.done_ms, "no work while hidden");
  await setHidden(false);
  const r = await done;
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.evaluate(() => window.raftlab.progress().running), false);
  assert.deepEqual(problems, []);
  await page.close();
});
