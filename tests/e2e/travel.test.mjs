// Time travel and sharing, driven like a student would: the timeline under
// the cluster (keyboard and mouse), acting in the past, share links opened in
// a new page, tampered links refused, and how fast a long run can be scrubbed.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, runCommands, SHOTS, BASE_URL } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.evaluate(() => window.raftlab.status());
const timeline = (page) => page.evaluate(() => window.raftlab.timeline());
const commands = runCommands;

const RUN = ["wait-until leader", "put greeting hello", "wait 2s", "crash 2", "wait 1500ms", "put after crash", "wait 1s"];

test("a share link opens the same run at the same moment in a new page", async () => {
  const { page, problems } = await openApp(browser);
  await commands(page, RUN);
  // Share a moment in the past, not only the live edge.
  const end = (await timeline(page)).end_ms;
  const at = await page.evaluate((t) => window.raftlab.seek(t), end - 1700);
  assert.equal(at, end - 1700);
  const link = await page.evaluate(() => window.raftlab.share());
  assert.ok(link.startsWith(`${new URL(BASE_URL).origin}/#v1.`), link);
  const sent = await status(page);
  const sentTimeline = await timeline(page);

  const { page: other, problems: otherProblems } = await openApp(browser, { hash: link.slice(link.indexOf("#")) });
  const got = await status(other);
  assert.equal(got.time_ms, at);
  assert.deepEqual(got, sent, "the same status, field for field");
  const gotTimeline = await timeline(other);
  assert.equal(gotTimeline.end_ms, sentTimeline.end_ms);
  assert.equal(gotTimeline.live, false);
  // The idle time before the first command is a plain `wait` in the link.
  const acts = (tl) => tl.entries.map((e) => e.text).filter((x) => !x.startsWith("wait "));
  assert.deepEqual(acts(gotTimeline), acts(sentTimeline));
  assert.equal(await other.textContent("#play"), "Play", "a shared run opens paused at its moment");
  assert.match(await other.textContent("#log"), /shared run, opened at t = /);
  await other.screenshot({ path: path.join(SHOTS, "shared-link-opened.png") });
  // The Share button says what it did (clipboard or a field to copy from).
  await page.click("#share");
  await page.waitForFunction(() => /link to this run/.test(document.getElementById("log").textContent));
  assert.deepEqual(problems, []);
  assert.deepEqual(otherProblems, []);
  await other.close();
  await page.close();
});

test("open(link) in place: a good link replaces the run; a tampered one is refused and nothing changes", async () => {
  const { page, problems } = await openApp(browser);
  await commands(page, RUN);
  const link = await page.evaluate(() => window.raftlab.share());
  await commands(page, ["member add 4 --learner", "wait 2s"]);
  const before = await status(page);
  const history = await page.evaluate(() => window.raftlab.history());

  // One character of the payload changed: the checksum catches it.
  const i = link.length - 7;
  const tampered = link.slice(0, i) + (link[i] === "A" ? "B" : "A") + link.slice(i + 1);
  const refused = await page.evaluate((l) => window.raftlab.open(l), tampered);
  assert.equal(refused.ok, false);
  assert.match(refused.error, /damaged or was edited/);
  for (const bad of ["#v1.", "#v9.AAAA", "#hello", "#v1.$$$$"]) {
    const r = await page.evaluate((l) => window.raftlab.open(l), bad);
    assert.equal(r.ok, false, bad);
    assert.ok(r.error.length > 10, r.error);
  }
  assert.deepEqual(await status(page), before, "the app is exactly as it was");
  assert.equal(await page.evaluate(() => window.raftlab.history()), history);
  const log = await page.textContent("#log");
  assert.match(log, /The link was refused: the link is damaged or was edited/);
  assert.match(log, /format v9/);
  await page.waitForSelector("#toast.err");
  await page.screenshot({ path: path.join(SHOTS, "tampered-link-refused.png") });

  // The good link opens in place, where it was taken.
  const ok = await page.evaluate((l) => window.raftlab.open(l), link);
  assert.deepEqual(ok, { ok: true });
  const s = await status(page);
  assert.deepEqual(s.learners, [], "the run as it was when shared, without the learner");
  assert.deepEqual(problems, [], "refusals are messages, not console errors");
  await page.close();
});

test("a page opened with a tampered link says so and starts a fresh cluster", async () => {
  const { page: p0 } = await openApp(browser);
  await commands(p0, RUN);
  const link = await p0.evaluate(() => window.raftlab.share());
  await p0.close();
  const hash = link.slice(link.indexOf("#"));
  const cut = hash.slice(0, hash.length - 3);
  const { page, problems } = await openApp(browser, { hash: cut });
  assert.match(await page.textContent("#log"), /link in this page's address was refused/);
  assert.deepEqual((await status(page)).voters, [1, 2, 3]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the timeline: scrub back by keyboard and mouse, step back, act in the past, return to the branch left", async () => {
  const { page, problems } = await openApp(browser);
  await commands(page, ["wait-until leader", "wait 3s", "crash 1", "wait 3s"]);
  const end = (await status(page)).time_ms;
  const tl = await timeline(page);
  assert.equal(tl.live, true);
  assert.ok(tl.entries.some((e) => e.text === "crash 1"));
  assert.ok(tl.leaders.length >= 2, "two elections are marked");

  // Keyboard: Home goes to the start, End back to the live edge.
  await page.focus("#scrub");
  await page.keyboard.press("Home");
  await page.waitForFunction(() => window.raftlab.status().time_ms === 0);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => window.raftlab.status().time_ms > 0);
  await page.keyboard.press("End");
  await page.waitForFunction((e) => window.raftlab.status().time_ms === e, end);

  // Mouse: a click a quarter of the way along lands near a quarter of the run.
  const box = await page.locator("#scrub").boundingBox();
  await page.mouse.click(box.x + 7 + (box.width - 14) * 0.25, box.y + box.height / 2);
  await page.waitForFunction((e) => window.raftlab.status().time_ms < e, end);
  const quarter = (await status(page)).time_ms;
  assert.ok(Math.abs(quarter - end / 4) < end / 20, `${quarter} is near ${end / 4}`);
  assert.ok(await page.locator("#timeline.past").isVisible());
  assert.match(await page.textContent("#scrub-time"), / of /);

  // Drag: from there to three quarters.
  await page.mouse.move(box.x + 7 + (box.width - 14) * 0.25, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 7 + (box.width - 14) * 0.75, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction((q) => window.raftlab.status().time_ms > q, quarter);
  const three = (await status(page)).time_ms;
  assert.ok(Math.abs(three - (end * 3) / 4) < end / 20, `${three} is near ${(end * 3) / 4}`);

  // Step back one event, and forward again to the next one.
  await page.click("#back");
  const stepped = (await status(page)).time_ms;
  assert.ok(stepped < three);
  await page.click("#step");
  assert.ok((await status(page)).time_ms > stepped);
  await page.click("#back");
  await page.screenshot({ path: path.join(SHOTS, "timeline-past.png") });

  // Seeking back then forward reproduces the same status.
  const here = (await status(page)).time_ms;
  const same = await status(page);
  await page.evaluate(() => window.raftlab.seek(0));
  await page.evaluate((t) => window.raftlab.seek(t), here);
  assert.deepEqual(await status(page), same);

  // Act in the past: a new branch, the old one kept in the list.
  await page.evaluate((t) => window.raftlab.seek(t), 1500);
  await page.click("#put-one");
  const branched = await timeline(page);
  assert.equal(branched.branches.length, 2);
  assert.equal(branched.live, true);
  assert.ok(!branched.entries.some((e) => e.text === "crash 1"), "the new branch does not hold the future it left");
  assert.ok(await page.locator("#branch-box").isVisible());
  assert.match(await page.textContent("#log"), /branch 2 starts here/);
  await page.screenshot({ path: path.join(SHOTS, "timeline-branch.png") });

  // Back to the branch left, where it was left.
  await page.selectOption("#branch", "1");
  const back = await timeline(page);
  assert.equal(back.branch, 1);
  assert.ok(back.entries.some((e) => e.text === "crash 1"));
  assert.equal(back.now_ms, 1500);
  // Live: to its end.
  // Live: to its end (a seek, which may take a few frames).
  await page.click("#live");
  await page.waitForFunction((e) => window.raftlab.status().time_ms === e, end);
  assert.deepEqual(problems, []);
  await page.close();
});

test("seeking in 10 simulated minutes under 50 writes/s is instant", async (t) => {
  const { page, problems } = await openApp(browser);
  const built = await page.evaluate(async () => {
    window.raftlab.pause();
    const t0 = performance.now();
    // A long wait runs on in slices: its result when it ends.
    for (const c of ["wait-until leader", "load rate=50/s", "wait 600s"]) await window.raftlab.commandDone(c);
    return performance.now() - t0;
  });
  const commit = await page.evaluate(() => window.raftlab.status().nodes[0].commit);
  assert.ok(commit > 25_000, `the load committed ${commit} entries`);
  const m = await page.evaluate(() => {
    const app = window.raftlab.app;
    const end = app.timeline().end_ms;
    // A fixed pseudo-random sequence of moments.
    let x = 12345;
    const rnd = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
    const seek = [], withDraw = [];
    for (let i = 0; i < 40; i++) {
      const target = Math.floor(rnd() * end);
      let t0 = performance.now();
      app.seek(target);
      seek.push(performance.now() - t0);
      t0 = performance.now();
      window.raftlab.seek(Math.floor(rnd() * end));
      withDraw.push(performance.now() - t0);
    }
    const stats = (a) => { a.sort((p, q) => p - q); return { median: a[a.length >> 1], p90: a[Math.floor(a.length * 0.9)], max: a[a.length - 1] }; };
    return { end, seek: stats(seek), withDraw: stats(withDraw) };
  });
  const f = (s) => `median ${s.median.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms, worst ${s.max.toFixed(1)} ms`;
  t.diagnostic(`10 simulated minutes at 50 writes/s built in ${(built / 1000).toFixed(1)} s in the page`);
  t.diagnostic(`seek to 40 random moments: ${f(m.seek)}`);
  t.diagnostic(`seek + panels + redraw: ${f(m.withDraw)}`);
  assert.ok(m.end >= 600_000);
  assert.ok(m.seek.median < 50, `median seek ${m.seek.median} ms (target: under 50)`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the timeline's tip names the moment and the command under the pointer", async () => {
  const { page, problems } = await openApp(browser);
  await commands(page, RUN);
  const tl = await timeline(page);
  const crash = tl.entries.find((e) => e.text === "crash 2");
  assert.ok(crash, JSON.stringify(tl.entries));
  // Over the crash's tick (the track's ends are 7 px in from the scrubber's).
  const box = await page.locator("#scrub").boundingBox();
  const x = box.x + 7 + (box.width - 14) * (crash.at_ms / tl.end_ms);
  // The tip's code comes when the page is idle: the pointer moves until it shows.
  for (let i = 0; i < 50 && !(await page.locator("#scrub-tip").isVisible()); i++) {
    await page.mouse.move(x, box.y + box.height / 2 + (i % 2));
    await page.waitForTimeout(100);
  }
  assert.match(await page.textContent("#scrub-tip"), /^t = \d+\.\d+ s · .*crash 2/);
  await page.mouse.move(box.x + box.width / 2, box.y - 60);
  assert.equal(await page.locator("#scrub-tip").isVisible(), false);
  assert.deepEqual(problems, []);
  await page.close();
});
