// The one-file build: dist/raftlab.html opened from disk, with the network
// off, runs the cluster, a lesson, and the parts of the page loaded on
// first use. `make dist` (and `make test`) write it.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launch, SHOTS } from "./browser.mjs";

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/raftlab.html");

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("dist/raftlab.html works from file:// with no network", async () => {
  assert.ok(existsSync(DIST), `${DIST} is missing: run make dist`);
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 800 } });
  const requests = [];
  // Anything but the file itself and inline data is refused, and noted.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") || url.startsWith("data:")) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  await page.goto(pathToFileURL(DIST).href);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  // The cluster starts and elects a leader.
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  // A lesson opens and runs to its end.
  const lessons = await page.evaluate(() => window.raftlab.lessons());
  assert.ok(lessons.length > 0);
  const opened = await page.evaluate((id) => window.raftlab.openLesson(id), lessons[0].id);
  assert.equal(opened.id, lessons[0].id);
  let step;
  for (let k = 0; k < 50; k++) {
    step = await page.evaluate(() => window.raftlab.next());
    if (step.finished) break;
  }
  assert.equal(step.finished, true);
  assert.deepEqual(step.surprises, []);
  assert.ok((await page.textContent("#lesson-says")).length > 0);
  await page.screenshot({ path: path.join(SHOTS, "dist-file.png") });
  // The parts loaded on first use are in the file too: the modes dialog
  // opens and starts a run, the Share button gives a link.
  await page.evaluate(() => window.raftlab.leaveLesson());
  await page.click("#modes-button");
  await page.locator("#modes-box").waitFor({ state: "visible" });
  await page.check("#mode-learner");
  await page.click("#modes-apply");
  await page.locator("#modes-box").waitFor({ state: "hidden" });
  assert.equal((await page.evaluate(() => window.raftlab.modes())).new_members, "learner");
  await page.click("#share");
  await page.waitForFunction(() => /link to this run/.test(document.getElementById("log").textContent));
  // Japanese, its sentences inlined too: the run's narration speaks it.
  assert.equal(await page.evaluate(() => window.raftlab.setLanguage("ja")), "ja");
  await page.evaluate(() => window.raftlab.command("crash 2"));
  await page.waitForFunction(() => document.getElementById("log").textContent.includes("ノード2がクラッシュしました"));
  assert.deepEqual(requests, []);
  assert.deepEqual(problems, []);
  await context.close();
});
