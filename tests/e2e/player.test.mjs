// The lesson player as a student uses it: Next plays a step (the clock
// moves while the canvas animates), a second Next skips to the pause, Back
// and Restart mid-step leave a consistent lesson, the lesson ends with no
// failed check, and the log folds a node's repeated campaigns into one line
// with the whole trace one click away.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const lesson = (page) => page.evaluate(() => window.raftlab.lesson());

/** What a frame shows: the lesson, the clock and the leader's send queue
 * (the app's status, without the history's verdict the console computes). */
const look = (page) => page.evaluate(() => {
  const s = window.raftlab.app.status();
  const leader = s.nodes.find((n) => n.id === s.leader);
  return { l: window.raftlab.lesson(), t: s.time_ms, queued: leader?.queued_bytes ?? 0, history: window.raftlab.history() };
});

async function pickLesson(page, id) {
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  await page.click(`#lesson-list button[data-id="${id}"]`);
  await page.locator("#lesson").waitFor({ state: "visible" });
}

test("lesson 01: Next plays each step with the clock moving, a second Next skips to the pause, the end has no failed check", async () => {
  const { page, problems } = await openApp(browser);
  await pickLesson(page, "01-new-member-overloads-leader");
  let moving = 0, skipped = 0, shotMid = false, queuePause = null;
  for (let guard = 0; !(await lesson(page)).finished; guard++) {
    assert.ok(guard < 30, "the lesson ends");
    const start = await lesson(page);
    assert.equal(start.playing, false);
    await page.click("#lesson-next");
    // Watch the step for up to 2.5 s of wall time.
    const times = new Set();
    const until = Date.now() + 2500;
    let now = await look(page);
    while (now.l.playing && Date.now() < until) {
      times.add(now.t);
      if (!shotMid && now.queued > 1_000_000) {
        await page.screenshot({ path: path.join(SHOTS, "lesson-01-mid-step.png") });
        shotMid = true;
      }
      await page.waitForTimeout(40);
      now = await look(page);
    }
    if (now.l.playing) {
      assert.ok(times.size >= 4, `the clock moves while the step plays: ${[...times]}`);
      assert.equal((await page.textContent("#lesson-next")).trim(), "Skip ▸▸");
      moving += 1;
      // Looked at and clicked in one go: a step ending meanwhile must not
      // let this click start the next one.
      if (await page.evaluate(() => window.raftlab.lesson().playing && (document.getElementById("lesson-next").click(), true))) skipped += 1;
    } else if (times.size >= 4) {
      moving += 1;
    }
    const at = await look(page);
    assert.equal(at.l.playing, false);
    assert.equal(at.l.position, start.position + 1, "one step per Next, skipped or played");
    assert.equal(at.l.failed_checks, 0, `step ${at.l.position}: ${await page.textContent("#lesson-surprises")}`);
    assert.equal(await page.locator("#lesson-surprises").isVisible(), false);
    await page.waitForTimeout(120);
    assert.equal((await look(page)).t, at.t, "the clock stands still at the pause");
    // The lessons may stop during the catch-up (`wait-until queued>=...`):
    // that pause shows the leader's queue holding over a megabyte.
    if (queuePause == null && /wait-until queued/.test(at.history)) {
      queuePause = at.queued;
      assert.ok(at.queued > 1_000_000, `the leader's queue at the catch-up pause: ${at.queued} bytes`);
      await page.screenshot({ path: path.join(SHOTS, "lesson-01-queue-pause.png") });
    }
  }
  assert.ok(moving >= 1 && skipped >= 1, `steps seen moving: ${moving}, skipped: ${skipped}`);
  assert.ok(shotMid, "the leader's queue held over 1 MB while a step played");
  const end = await lesson(page);
  assert.equal(end.failed_checks, 0);
  assert.equal(end.finished, true);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Back, Restart and a step dot while a step plays leave the lesson at a pause, consistent", async () => {
  const { page, problems } = await openApp(browser);
  await pickLesson(page, "01-new-member-overloads-leader");
  await page.evaluate(() => window.raftlab.setSpeed(0.05));
  // Step 1 at once, then step 2 (a long wait) plays.
  await page.click("#lesson-next");
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
  const one = await look(page);
  await page.click("#lesson-next");
  await page.waitForFunction((t) => window.raftlab.app.status().time_ms > t, one.t);
  assert.equal((await lesson(page)).playing, true);
  await page.click("#lesson-back");
  const back = await look(page);
  assert.equal(back.l.playing, false);
  assert.equal(back.l.position, 1, "back to the pause the step started from");
  assert.equal(back.t, one.t);
  assert.equal(back.history, one.history);
  await page.waitForTimeout(150);
  assert.equal((await look(page)).t, one.t, "nothing plays on");

  await page.click("#lesson-next");
  await page.waitForFunction((t) => window.raftlab.app.status().time_ms > t, one.t);
  await page.click("#lesson-restart");
  assert.deepEqual(((l) => [l.position, l.playing])(await lesson(page)), [0, false]);
  assert.equal((await look(page)).t, 0);

  // A dot mid-step, then a console command mid-step (it ends the step first).
  await page.click("#lesson-next");
  await page.click("#lesson-dots li:nth-child(3) button");
  const two = await look(page);
  assert.deepEqual([two.l.position, two.l.playing], [2, false]);
  await page.click("#lesson-next");
  await page.evaluate(() => window.raftlab.command("get after-the-join"));
  const after = await lesson(page);
  assert.deepEqual([after.position, after.playing, after.on_path], [3, false, false]);
  await page.click("#lesson-rejoin");
  assert.equal((await lesson(page)).on_path, true);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a node's repeated campaigns fold into one line of the lesson log, the trace one click away", async () => {
  const { page, problems } = await openApp(browser);
  await pickLesson(page, "05-four-voters-split-2-2");
  await page.evaluate(() => window.raftlab.setSpeed(8));
  for (let guard = 0; guard < 20 && !(await lesson(page)).finished; guard++) {
    await page.click("#lesson-next");
    await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 30000 });
  }
  const folds = page.locator("#log li details");
  assert.ok(await folds.count() >= 1, "campaigns fold");
  const summaries = await folds.locator("summary").allTextContents();
  const campaign = summaries.findIndex((s) => /asked for (pre-)?votes \d+ times/.test(s));
  assert.ok(campaign >= 0, summaries.join("\n"));
  const folded = folds.nth(campaign);
  const summary = summaries[campaign];
  const times = Number(summary.match(/asked for (?:pre-)?votes (\d+) times/)[1]);
  assert.ok(times >= 2, summary);
  assert.match(summary, /granted by|refused: /);
  assert.equal(await folded.locator("ol.trace").isVisible(), false);
  await folded.locator("summary").click();
  assert.equal(await folded.locator("ol.trace").isVisible(), true);
  const trace = await folded.locator("ol.trace li").allTextContents();
  assert.ok(trace.length > times, "the trace holds each campaign and each answer");
  assert.ok(trace.some((l) => /(granted its|rejected the) (pre-)?vote/.test(l)), trace.join("\n"));
  await folded.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "lesson-folded-trace.png") });
  assert.equal((await lesson(page)).failed_checks, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test("every lesson, walked with Next (each step skipped to its pause), ends with no failed check", async () => {
  const { page, problems } = await openApp(browser);
  const ids = await page.evaluate(async () => (await window.raftlab.lessons()).map((l) => l.id));
  assert.ok(ids.length >= 20, `${ids}`);
  for (const id of ids) {
    await pickLesson(page, id);
    for (let guard = 0; !(await lesson(page)).finished; guard++) {
      assert.ok(guard < 40, `${id} ends`);
      await page.click("#lesson-next");
      // Skip a step still playing, in the same breath as looking at it.
      await page.evaluate(() => window.raftlab.lesson().playing && document.getElementById("lesson-next").click());
      await page.waitForFunction(() => !window.raftlab.lesson().playing);
    }
    const l = await lesson(page);
    assert.ok(l.position >= 3 && l.position === l.steps, `${id} walked to its end: ${l.position} of ${l.steps}`);
    assert.equal(l.failed_checks, 0, `${id}: ${l.failed_checks} failed checks`);
    await page.click("#lesson-leave");
  }
  assert.deepEqual(problems, []);
  await page.close();
});
