// Presenter mode, as a speaker uses it: `?present` or `p` fills the screen
// with the canvas and the lesson step in large type, the side panels gone;
// a clicker's Page Down / Page Up (and the arrows) drive Next and Back;
// Escape leaves. Screenshots at 1920x1080 and 1280x720 mid-lesson.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const lesson = (page) => page.evaluate(() => window.raftlab.lesson());
const shown = (page, sel) => page.locator(sel).isVisible();

/** Presses `key` and waits for the lesson step to end at its pause. */
async function press(page, key) {
  await page.keyboard.press(key);
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
}

/** A clicker's forward key twice: plays the next step, then skips to its
 * pause (the second press sent in the page only while the step plays, so a
 * short step ending meanwhile does not start the one after). */
async function forward(page, key) {
  await page.keyboard.press(key);
  await page.evaluate((key) => {
    if (window.raftlab.lesson().playing) document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
  }, key);
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
}

test("p enters presenter mode: panels hidden, Page Down / Page Up and the arrows drive the lesson, Escape leaves", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 720, hash: "#lesson=10-promoting-a-learner" });
  assert.equal((await lesson(page))?.id, "10-promoting-a-learner");
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("p");
  assert.equal(await page.evaluate(() => window.raftlab.presenting()), true);
  for (const sel of ["header.bar", "nav.tools", "footer", "#timeline", "#lesson-strip", ".quorum-panel", "section.tabs"]) {
    assert.equal(await shown(page, sel), false, `${sel} is hidden in presenter mode`);
  }
  assert.equal(await shown(page, "#cluster"), true);
  assert.equal(await shown(page, "#lesson-says"), true);
  // Large type: the narration at least 20px, the canvas most of the screen.
  const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector("#lesson-says")).fontSize));
  assert.ok(size >= 20, `narration at ${size}px`);
  const canvas = await page.locator("#cluster").boundingBox();
  assert.ok(canvas.width >= 1280 * 0.55 && canvas.height >= 720 * 0.95, JSON.stringify(canvas));
  // A hint of the next step for the speaker, before the first step.
  assert.equal(await shown(page, "#lesson-hint"), true);
  const hint = await page.textContent("#lesson-hint-text");
  assert.ok(hint.length > 10, hint);

  // Page Down plays a step (a second press skips to its pause); the arrows too.
  await page.keyboard.press("PageDown");
  assert.equal((await lesson(page)).playing, true, "Page Down plays the step");
  await page.evaluate(() => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "PageDown", bubbles: true })));
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
  assert.equal((await lesson(page)).position, 1);
  // The step's narration is what the hint announced (its placeholders aside).
  const says = (await lesson(page)).says.join(" ");
  const words = hint.split("…")[0].trim().slice(0, 12);
  assert.ok(says.startsWith(words), `${says} / ${hint}`);
  await forward(page, "ArrowRight");
  assert.equal((await lesson(page)).position, 2);
  await page.screenshot({ path: path.join(SHOTS, "present-1280x720.png") });
  await press(page, "PageUp");
  assert.equal((await lesson(page)).position, 1);
  await press(page, "ArrowLeft");
  assert.equal((await lesson(page)).position, 0);

  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => window.raftlab.presenting()), false);
  assert.equal(await shown(page, "header.bar"), true);
  assert.equal(await shown(page, ".tabs"), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test("?present at 1920x1080 mid-lesson, and the sandbox in presenter mode is the canvas alone", async () => {
  const { page, problems } = await openApp(browser, { width: 1920, height: 1080, hash: "?present#lesson=10-promoting-a-learner" });
  assert.equal(await page.evaluate(() => window.raftlab.presenting()), true);
  await page.locator("#lesson-next").focus();
  for (let k = 0; k < 3; k++) {
    await forward(page, "PageDown");
  }
  assert.equal((await lesson(page)).position, 3);
  await page.screenshot({ path: path.join(SHOTS, "present-1920x1080.png") });
  const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector("#lesson-says")).fontSize));
  assert.ok(size >= 30, `narration at ${size}px on 1920 wide`);
  // The exit button leaves too; back in, leaving the lesson leaves the canvas alone.
  await page.click("#present-exit");
  assert.equal(await page.evaluate(() => window.raftlab.presenting()), false);
  await page.click("#lesson-leave");
  await page.evaluate(() => window.raftlab.present(true));
  assert.equal(await shown(page, "aside"), false);
  const canvas = await page.locator("#cluster").boundingBox();
  assert.ok(canvas.width >= 1900 && canvas.height >= 1050, JSON.stringify(canvas));
  // In the sandbox the arrows and Page Down step the run.
  await page.evaluate(() => window.raftlab.pause());
  const t0 = await page.evaluate(() => window.raftlab.status().time_ms);
  await page.keyboard.press("PageDown");
  assert.ok((await page.evaluate(() => window.raftlab.status().time_ms)) > t0);
  await page.screenshot({ path: path.join(SHOTS, "present-sandbox-1920x1080.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
