// Lessons, files and the safety indicator, driven through the page: the
// lesson picker, Next to the end, a detour and the way back, Export and
// Import of a .scenario file, and the indicator that stays green.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFile } from "node:fs/promises";
import { launch, openApp, runCommands, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.evaluate(() => window.raftlab.status());
const lesson = (page) => page.evaluate(() => window.raftlab.lesson());

/** Next as a student in a hurry presses it: it plays the step; pressed
 * again while it plays, the step skips to its pause (looked at and clicked
 * in one go, so that a step ending meanwhile does not start the next). */
async function next(page) {
  await page.click("#lesson-next");
  await page.evaluate(() => window.raftlab.lesson().playing && document.getElementById("lesson-next").click());
  assert.equal((await lesson(page)).playing, false);
}

async function pickLesson(page, id) {
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  await page.click(`#lesson-list button[data-id="${id}"]`);
  await page.locator("#lesson").waitFor({ state: "visible" });
}

test("a lesson about a proposal names it, in the list and in its heading", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 800 });
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  const entry = page.locator('#lesson-list button[data-id="15-standby-failover"] .fig');
  assert.match(await entry.textContent(), /^15 · proposal: standby for failover$/);
  await page.click('#lesson-list button[data-id="15-standby-failover"]');
  await page.locator("#lesson").waitFor({ state: "visible" });
  assert.match(await page.textContent("#lesson-figure"), /^Lesson 15 · proposal: standby for failover$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the lessons of Raft's own story (figure 8, the election restriction, a learner's vote) walked to the end in the page: every check holds", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 800 });
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  const entry = page.locator('#lesson-list button[data-id="19-the-election-restriction"] .fig');
  assert.match(await entry.textContent(), /^19 · Raft: the election restriction$/);
  await page.keyboard.press("Escape");
  const ids = ["18-figure-8-an-old-entry-overwritten", "18b-figure-8-the-leaders-own-entry-commits-it",
    "19-the-election-restriction", "20-a-learner-votes"];
  for (const id of ids) {
    const opened = await page.evaluate((l) => window.raftlab.openLesson(l), id);
    assert.equal(opened.id, id);
    let steps = 0;
    while (!(await lesson(page)).finished) {
      const step = await page.evaluate(() => window.raftlab.next());
      steps += 1;
      assert.ok(steps <= 12, `${id} ends`);
      assert.deepEqual(step.surprises, [], `${id} step ${steps}`);
      const l = await lesson(page);
      assert.equal(l.on_path, true, `${id} step ${steps}`);
      assert.equal(l.failed_checks, 0, `${id} step ${steps}`);
      assert.ok(l.says.length > 0, `${id} step ${steps} narrates`);
    }
    assert.equal((await status(page)).violations.length, 0, id);
    await page.screenshot({ path: path.join(SHOTS, `lesson-${id.slice(0, 3)}-end.png`) });
  }
  assert.match(await page.textContent("#lesson-figure"), /Lesson 20 · Raft: a learner's vote/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a lesson whose checks all held on real etcd says so in its heading, from the real-etcd suite's file", async () => {
  const checked = await readFile(new URL("../../lessons/checked-against-etcd.txt", import.meta.url), "utf8");
  const line = checked.split("\n").find((l) => l.startsWith("09-adding-a-learner "));
  const { page, problems } = await openApp(browser, { width: 1280, height: 800 });
  await pickLesson(page, "09-adding-a-learner");
  const heading = await page.textContent("#lesson-figure");
  if (line) {
    const releases = line.split(" ").slice(1);
    assert.ok(heading.endsWith(` · checked against etcd ${releases.join(" and ")}`), heading);
  } else {
    assert.doesNotMatch(heading, /checked against/);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [width, height] of [[1280, 800], [1024, 600]]) {
  test(`lesson 10 at ${width}x${height}: Next to the end promotes the learner; the clock waits between steps`, async () => {
    const { page, problems } = await openApp(browser, { width, height });
    await pickLesson(page, "10-promoting-a-learner");
    assert.match(await page.textContent("#lesson-title"), /Promoting a learner/);
    assert.match(await page.textContent("#lesson-figure"), /Lesson 10 · figures 11, 12/);
    assert.equal(await page.locator("#timeline").isVisible(), false, "a lesson has its own strip, not the timeline");
    assert.equal((await status(page)).time_ms, 0);
    await page.waitForTimeout(300);
    assert.equal((await status(page)).time_ms, 0, "the clock does not run on its own in a lesson");
    if (width === 1280) await page.screenshot({ path: path.join(SHOTS, "lesson-start.png") });

    let steps = 0;
    while (!(await lesson(page)).finished) {
      await next(page);
      steps += 1;
      assert.ok(steps <= 10, "the lesson ends");
      const l = await lesson(page);
      assert.equal(l.position, steps);
      assert.equal(l.on_path, true);
      assert.ok(l.says.length > 0, "each step narrates");
      assert.equal(await page.locator("#lesson-surprises").isVisible(), false, "on the lesson's path nothing surprises");
      const t = (await status(page)).time_ms;
      await page.waitForTimeout(150);
      assert.equal((await status(page)).time_ms, t, "paused at each pause");
      if (steps === 3) await page.screenshot({ path: path.join(SHOTS, `lesson-10-step3-${width}.png`) });
    }
    const l = await lesson(page);
    assert.equal(l.finished, true);
    assert.equal(steps, l.steps);
    assert.deepEqual((await status(page)).voters, [1, 2, 3, 4]);
    assert.deepEqual((await status(page)).learners, []);
    assert.match(await page.textContent("#lesson-says"), /never promotes a learner by itself/);
    assert.match(await page.textContent("#lesson-quorum"), /voters 4/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth || document.documentElement.scrollHeight > innerHeight);
    assert.equal(overflow, false);
    await page.screenshot({ path: path.join(SHOTS, `lesson-10-end-${width}.png`) });
    assert.equal((await page.textContent("#lesson-next")).trim(), "Next lesson ▸");

    // Back one step, then Restart.
    await page.click("#lesson-back");
    assert.equal((await lesson(page)).position, steps - 1);
    await page.click("#lesson-restart");
    assert.equal((await lesson(page)).position, 0);
    assert.equal((await status(page)).time_ms, 0);

    // Jump to the end with the last step dot: Next now leads on to the
    // following lesson.
    await page.click("#lesson-dots li:last-child button");
    assert.equal((await lesson(page)).finished, true);
    await page.click("#lesson-next");
    const following = await lesson(page);
    assert.equal(following.id, "10b-the-ninety-percent-line");
    assert.equal(following.position, 0);
    assert.match(await page.textContent("#lesson-title"), /The 90% line/);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("in a lesson the reader may experiment, then return to the lesson; leaving it restores the sandbox", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); window.raftlab.command("put mine yes"); });
  const sandbox = await status(page);
  await pickLesson(page, "03-isolated-leader-steps-down");
  await next(page);
  const onPath = await status(page);
  assert.equal(await page.locator("#lesson-off").isVisible(), false);

  // A click of one's own leaves the path (and says so), the lesson waits.
  await page.click("#heal-all");
  await page.evaluate(() => window.raftlab.command("crash 1"));
  assert.equal(await page.locator("#lesson-off").isVisible(), true);
  assert.equal((await lesson(page)).on_path, false);
  await page.screenshot({ path: path.join(SHOTS, "lesson-off-path.png") });
  await page.click("#lesson-rejoin");
  assert.equal((await lesson(page)).on_path, true);
  assert.deepEqual(await status(page), onPath, "back exactly where the lesson was");

  // Playing the clock leaves the path too, and the page says so.
  await page.click("#play");
  await page.waitForFunction((t) => window.raftlab.status().time_ms > t, onPath.time_ms);
  await page.click("#play");
  assert.equal((await lesson(page)).on_path, false);
  assert.match(await page.textContent("#log"), /leaves the lesson's path/);

  await page.click("#lesson-leave");
  assert.equal(await lesson(page), null);
  assert.ok(await page.locator("#timeline").isVisible());
  assert.deepEqual(await status(page), sandbox, "the sandbox run, as it was left");
  assert.deepEqual(problems, []);
  await page.close();
});

test("Export downloads the run; Import (and a malformed file) through the file picker", async () => {
  const { page, problems } = await openApp(browser);
  await runCommands(page, ["wait-until leader", "put a 1", "wait 1s", "member add 4 --learner"]);
  const sent = await status(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  assert.equal(download.suggestedFilename(), "raftlab-run.scenario");
  const file = path.join(SHOTS, "..", "raftlab-run.scenario");
  await download.saveAs(file);
  const text = await readFile(file, "utf8");
  assert.match(text, /^# raftlab run, exported at t=/);
  assert.match(text, /member add 4 --learner/);

  await page.click("#reset");
  assert.deepEqual((await status(page)).learners, []);
  const before = await status(page);
  // A malformed file: refused, nothing changes.
  await page.setInputFiles("#import-file", { name: "bad.scenario", mimeType: "text/plain", buffer: Buffer.from("cluster voters=1,2,3\nmembr add 4\n") });
  await page.waitForFunction(() => /bad.scenario was refused/.test(document.getElementById("log").textContent));
  assert.match(await page.textContent("#log"), /does not parse/);
  assert.equal((await status(page)).time_ms, before.time_ms);
  // Bytes that are not text: said as such, nothing changes.
  await page.setInputFiles("#import-file", { name: "photo.scenario", mimeType: "application/octet-stream", buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]) });
  await page.waitForFunction(() => /photo.scenario is not a text file/.test(document.getElementById("log").textContent));
  assert.match(await page.textContent("#log"), /The file was refused: photo\.scenario is not a text file \(a \.scenario file is UTF-8 text\)/);
  assert.equal((await status(page)).time_ms, before.time_ms);
  // The exported file opens the same run at the same moment.
  await page.setInputFiles("#import-file", file);
  await page.waitForFunction(() => /raftlab-run.scenario opened/.test(document.getElementById("log").textContent));
  assert.deepEqual(await status(page), sent);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the safety indicator is green in a normal run and lists what is checked", async () => {
  const { page, problems } = await openApp(browser);
  await runCommands(page, ["wait-until leader", "load rate=50/s", "wait 3s", "partition 1 | 2,3", "wait 3s", "heal", "wait 3s"]);
  assert.deepEqual((await status(page)).violations, []);
  const safety = page.locator("#safety");
  assert.match(await safety.getAttribute("class"), /\bok\b/);
  assert.equal((await page.textContent("#safety .safety-button")).trim(), "✓Raft safety: all invariants hold");
  await page.click("#safety .safety-button");
  assert.ok(await page.locator("#safety .safety-list").isVisible());
  assert.match(await page.textContent("#safety .safety-list"), /No violation.*election safety/);
  assert.equal(await page.getAttribute("#safety .safety-button", "aria-expanded"), "true");
  await page.screenshot({ path: path.join(SHOTS, "safety-open.png") });
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#safety .safety-list").isVisible(), false);
  assert.deepEqual(problems, []);
  await page.close();
});
