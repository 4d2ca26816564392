// Clicks, taps, keys and console lines at random (a seeded sequence, the
// same each run): whatever a reader does in whatever order, the page shows
// no error, dies nowhere, and still runs a command afterwards with Raft's
// invariants holding. What each click does is the other tests' business.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, PHONES, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Good and bad lines alike: refusals, typos, a long wait that asks first.
const LINES = [
  "wait 1s", "put a 1", "member add 7 --learner", "start 7", "member promote 7", "crash 1", "start 1",
  "cut 1 2", "heal", "load rate=50/s", "load stop", "wait-until leader", "partition 1 | 2,3",
  "etcdctl member list", "member remove 2", "campaign 3", "transfer-leader 2", "hold 1->2",
  "release 1->2", "deliver-next", "drop 1->2", "putt", "wait 2m", "help", "expect leader=9", "get a",
  "compaction 2", "watch a", "mirror start", "status", "wait 30s", "wait 3600s",
];
const KEYS = [" ", "ArrowRight", "ArrowLeft", "?", "Escape", "p", "Tab", "Enter", "+", "-", "0", "/"];

async function monkey(page, seed, steps) {
  let s = seed >>> 0;
  const rnd = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const done = [];
  for (let i = 0; i < steps; i++) {
    const r = rnd();
    if (r < 0.4) {
      // Any control on screen but the two that open the system's file
      // dialogs (Import's picker, Export's download).
      const controls = await page.$$eval("button, select, input[type=checkbox], input[type=range]", (els) => els.map((e) => {
        const b = e.getBoundingClientRect();
        const shown = b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== "hidden" && !e.disabled
          && !e.closest("[hidden]") && e.id !== "import" && e.id !== "export";
        return shown ? [e.id || e.textContent.trim().slice(0, 20), b.x + b.width / 2, b.y + b.height / 2] : null;
      }).filter(Boolean));
      if (controls.length) {
        const [name, x, y] = pick(controls);
        done.push(`click ${name}`);
        await page.mouse.click(x, y);
      }
    } else if (r < 0.6) {
      const bb = await page.locator("#cluster").boundingBox();
      if (bb) {
        const [x, y] = [bb.x + rnd() * bb.width, bb.y + rnd() * bb.height];
        done.push(`canvas ${x | 0},${y | 0}`);
        await page.mouse.click(x, y);
      }
    } else if (r < 0.75) {
      const k = pick(KEYS);
      done.push(`key ${k}`);
      await page.keyboard.press(k);
    } else if (r < 0.92) {
      const line = pick(LINES);
      if (await page.locator("#console").isVisible()) {
        done.push(`type ${line}`);
        await page.fill("#console", line);
        await page.press("#console", "Enter");
      }
    } else {
      const bb = await page.locator("#scrub").boundingBox();
      if (bb && bb.width > 0) {
        const x = bb.x + rnd() * bb.width;
        done.push(`scrub ${x | 0}`);
        await page.mouse.click(x, bb.y + bb.height / 2);
      }
    }
    await page.waitForTimeout(rnd() < 0.2 ? 300 : 30);
  }
  return done;
}

for (const [name, options, seed] of [
  ["a laptop, in English", { width: 1280, height: 800 }, 3],
  ["a phone, in Japanese", { device: PHONES.iphone, hash: "?lang=ja" }, 6],
]) {
  test(`${name}: 150 random clicks, taps, keys and console lines show no error, and the page still runs`, async () => {
    const { page, problems } = await openApp(browser, options);
    const done = await monkey(page, seed, 150);
    await page.screenshot({ path: path.join(SHOTS, `monkey-${seed}.png`) });
    assert.deepEqual(problems, [], done.slice(-15).join(" | "));
    // Whatever is open, the page still answers: a long run cancelled, out
    // of a lesson and any dialog, at the timeline's end, a command runs.
    await page.keyboard.press("Escape");
    const r = await page.evaluate(async () => {
      window.raftlab.cancel();
      await window.raftlab.idle();
      if (window.raftlab.lesson()) window.raftlab.leaveLesson();
      window.raftlab.goLive();
      window.raftlab.pause();
      const r = window.raftlab.command("wait 1s");
      if (r.running) await window.raftlab.idle();
      return { ok: r.ok, violations: window.raftlab.status().violations };
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.violations, []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
