// The page, driven like a student would: buttons, clicks on the canvas, the
// console and the keyboard. Every check reads the app's state through
// window.raftlab.status(), the same object as the runner's report.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.evaluate(() => window.raftlab.status());

/** Page coordinates of a point of the canvas given in its CSS pixels. */
async function onCanvas(page, x, y) {
  const box = await page.locator("#cluster").boundingBox();
  return [box.x + x, box.y + y];
}

async function clickNode(page, id) {
  const [x, y] = await page.evaluate((n) => window.raftlab.nodePosition(n), id);
  await page.mouse.click(...(await onCanvas(page, x, y)));
  await page.locator("#popup").waitFor({ state: "visible" });
}

/** A point on the link a-b, a fraction `t` of the way from a. */
async function linkPoint(page, a, b, t) {
  const [pa, pb] = await page.evaluate(([a, b]) => [window.raftlab.nodePosition(a), window.raftlab.nodePosition(b)], [a, b]);
  return onCanvas(page, pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t);
}

async function popupButton(page, act) {
  await page.locator(`#popup button[data-act="${act}"]`).click();
}

test("the page loads, draws the cluster and plays without errors", async () => {
  const { page, problems } = await openApp(browser);
  await page.waitForFunction(() => window.raftlab.status().time_ms > 0);
  assert.match(await page.textContent("#status"), /3 voters/);
  const s = await status(page);
  assert.deepEqual(s.voters, [1, 2, 3]);
  // The canvas is painted where node 1 is, not left blank.
  const painted = await page.evaluate(() => {
    const c = document.getElementById("cluster");
    const [x, y, r] = window.raftlab.nodePosition(1);
    const k = c.width / c.getBoundingClientRect().width;
    return Array.from(c.getContext("2d").getImageData(Math.round((x - r * 0.6) * k), Math.round(y * k), 1, 1).data);
  });
  assert.notDeepEqual(painted.slice(0, 3), [0x0b, 0x11, 0x20]);
  await page.screenshot({ path: path.join(SHOTS, "page.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a new member still talking to its peers is 'joining': its popup stops it, and start begins again", async () => {
  const { page, problems } = await openApp(browser);
  // No leader left: node 4's process asks node 3 whether a downgrade is
  // enabled, which node 3 cannot confirm for 7 s.
  await page.evaluate(async () => {
    for (const c of ["wait 6s", "member add 4 --learner", "wait 1s", "crash 1", "crash 2", "start 4"]) {
      const r = window.raftlab.command(c);
      if (r.running) await window.raftlab.idle();
    }
  });
  await page.waitForFunction(() => window.raftlab.nodePosition(4) != null);
  await clickNode(page, 4);
  const info = () => page.textContent("#popup-info");
  assert.match(await info(), /^joining · /);
  assert.equal(await page.locator('#popup button[data-act="start"]').isVisible(), false);
  await popupButton(page, "crash");
  await page.waitForFunction(() => /^not started · /.test(document.getElementById("popup-info").textContent));
  assert.equal(await page.locator('#popup button[data-act="crash"]').isVisible(), false);
  await popupButton(page, "start");
  await page.waitForFunction(() => /^joining · /.test(document.getElementById("popup-info").textContent));
  // In Japanese too.
  await page.selectOption("#lang", "ja");
  await page.waitForFunction(() => /^参加中 · /.test(document.getElementById("popup-info").textContent));
  await page.selectOption("#lang", "en");
  assert.match(await page.evaluate(() => window.raftlab.history()), /start 4\n(wait \S+\n)?crash 4\n(wait \S+\n)?start 4\n/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("add a learner, start it, let it catch up, promote it: it becomes a voter", async () => {
  const { page, problems } = await openApp(browser);
  // etcd refuses member changes until the peers have been connected for 5s.
  await page.evaluate(() => window.raftlab.command("wait 6s"));
  await page.click("#add-learner");
  assert.deepEqual((await status(page)).learners, [4]);
  await clickNode(page, 4);
  await page.screenshot({ path: path.join(SHOTS, "learner-popup.png") });
  await popupButton(page, "start");
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => {
    const s = window.raftlab.status();
    const leader = s.nodes.find((n) => n.id === s.leader);
    const p = s.progress.find((q) => q.id === 4);
    return leader && p && p.match === leader.last_index;
  }, null, { timeout: 20000 });
  await page.screenshot({ path: path.join(SHOTS, "learner-caught-up.png") });
  if (!(await page.locator("#popup").isVisible())) await clickNode(page, 4);
  await popupButton(page, "promote");
  const s = await status(page);
  assert.deepEqual(s.voters, [1, 2, 3, 4]);
  assert.deepEqual(s.learners, []);
  const script = await page.evaluate(() => window.raftlab.history());
  assert.match(script, /member add 4 --learner\n(wait \S+\n)?start 4\n/);
  assert.match(script, /member promote 4/);
  await page.screenshot({ path: path.join(SHOTS, "learner-promoted.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a click on a link opens its actions, which cut and heal it; shift-click cuts one direction", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  const cutBoth = () => page.evaluate(() => [window.raftlab.app.isCut(1, 2), window.raftlab.app.isCut(2, 1)]);
  await page.mouse.click(...(await linkPoint(page, 1, 2, 0.5)));
  await page.locator("#hand").waitFor({ state: "visible" });
  assert.match(await page.textContent("#hand-title"), /link 1 – 2/);
  await page.locator('#hand button[data-act="cut"]').click();
  assert.deepEqual(await cutBoth(), [true, true]);
  await page.screenshot({ path: path.join(SHOTS, "link-cut.png") });
  await page.locator('#hand button[data-act="heal"]').click();
  assert.deepEqual(await cutBoth(), [false, false]);
  await page.locator("#hand-close").click();
  // Shift-click near node 2: only 2 -> 1 is cut.
  await page.keyboard.down("Shift");
  await page.mouse.click(...(await linkPoint(page, 1, 2, 0.75)));
  await page.keyboard.up("Shift");
  assert.deepEqual(await cutBoth(), [false, true]);
  const script = await page.evaluate(() => window.raftlab.history());
  assert.match(script, /cut 1 2\n(wait \S+\n)?heal 1 2\n(wait \S+\n)?cut 2->1\n/);
  await page.screenshot({ path: path.join(SHOTS, "link-one-way.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("the console runs commands, fast-forwards, reports errors and keeps a history", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  const input = page.locator("#console");
  await input.fill("wait-until leader");
  await input.press("Enter");
  await input.fill("put greeting hello");
  await input.press("Enter");
  const before = (await status(page)).time_ms;
  await input.fill("wait 2s");
  await input.press("Enter");
  assert.equal((await status(page)).time_ms, before + 2000);
  await input.fill("membr add 4");
  await input.press("Enter");
  const log = await page.textContent("#log");
  assert.match(log, /› put greeting hello/);
  assert.match(log, /does not parse/);
  await page.click("#tab-keys");
  assert.match(await page.textContent("#keys"), /greeting\s*hello/);
  // Up arrow brings back the last command.
  await input.press("ArrowUp");
  assert.equal(await input.inputValue(), "membr add 4");
  await input.press("ArrowUp");
  assert.equal(await input.inputValue(), "wait 2s");
  // A read shows its value in the log; the history of reads and writes is
  // linearizable, and every node counts its Raft messages.
  await input.fill("get greeting");
  await input.press("Enter");
  assert.match(await page.textContent("#log"), /ok: value "hello"/);
  const s = await status(page);
  assert.equal(s.linearizability.ok, true);
  assert.equal(s.linearizability.operations, 2);
  assert.ok(s.nodes.every((n) => n.msgs_in > 0 && n.msgs_out > 0));
  assert.equal((await page.evaluate(() => window.raftlab.command("expect value=hello"))).ok, true);
  // window.raftlab.command returns the result object of the report.
  const r = await page.evaluate(() => window.raftlab.command("transfer-leader 9"));
  assert.equal(r.ok, false);
  assert.equal(r.error, "bad-leader-transferee");
  await page.screenshot({ path: path.join(SHOTS, "console.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("keyboard: space pauses (time stops), right arrow steps, ? shows help", async () => {
  const { page, problems } = await openApp(browser);
  await page.waitForFunction(() => window.raftlab.status().time_ms > 0);
  await page.keyboard.press(" ");
  const t0 = (await status(page)).time_ms;
  await page.waitForTimeout(300);
  assert.equal((await status(page)).time_ms, t0, "paused: simulated time stands still");
  await page.keyboard.press("ArrowRight");
  assert.ok((await status(page)).time_ms > t0, "a step moves to the next event");
  await page.keyboard.press("?");
  assert.ok(await page.locator("#help").isVisible());
  // It opens at its top, its title in sight, the focus on its × beside
  // the title; the close at its foot closes it too.
  await page.waitForFunction(() => document.querySelector("#help h3").textContent !== "", null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.activeElement.id), "help-x");
  assert.equal(await page.getAttribute("#help-x", "aria-label"), "Close");
  assert.equal(await page.evaluate(() => document.querySelector("#help .help-card").scrollTop), 0, "the help opens at its top");
  await page.click("#help-close");
  assert.ok(!(await page.locator("#help").isVisible()));
  await page.keyboard.press("?");
  await page.screenshot({ path: path.join(SHOTS, "help.png") });
  await page.keyboard.press("Escape");
  assert.ok(!(await page.locator("#help").isVisible()));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a small screen: partition presets and the quorum panel", async () => {
  const { page, problems } = await openApp(browser, { width: 1024, height: 600 });
  // The top bar keeps to one line whether the button says Play or Pause.
  const barHeight = () => page.evaluate(() => document.querySelector("header.bar").getBoundingClientRect().height);
  await page.evaluate(() => window.raftlab.play());
  const playing = await barHeight();
  await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
  assert.equal(await barHeight(), playing);
  assert.ok(playing < 48, `the top bar wrapped: ${playing}px high`);
  await page.click("#isolate-leader");
  assert.match(await page.textContent("#quorum"), /reaches only 1 of 3 voters/);
  await page.evaluate(() => window.raftlab.command("wait 3s"));
  await page.screenshot({ path: path.join(SHOTS, "isolated-leader-1024.png") });
  await page.click("#heal-all");
  await page.evaluate(() => window.raftlab.command("wait-until leader"));
  await page.click("#split-22");
  const script = await page.evaluate(() => window.raftlab.history());
  assert.match(script, /partition \d \| \d,\d/);
  // Nothing may overflow the window.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth || document.documentElement.scrollHeight > innerHeight);
  assert.equal(overflow, false);
  await page.screenshot({ path: path.join(SHOTS, "split-1024.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("repeated events fold into one line of the log, and one click shows each of them", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
  await page.click("#isolate-leader");
  await page.evaluate(() => window.raftlab.command("wait 10s"));
  // The cut-off leader campaigns again and again: one line says how often.
  const folded = page.locator("#log li details", { hasText: /asked for pre-votes \d+ times/ }).first();
  await folded.waitFor({ state: "attached" });
  const summary = await folded.locator("summary").textContent();
  // Nobody answers a cut-off node: the line is its campaigns alone.
  assert.match(summary, /asked for pre-votes \d+ times \(latest for term \d+\)$/);
  const count = Number(summary.match(/asked for pre-votes (\d+) times/)[1]);
  assert.ok(count >= 3, summary);
  assert.equal(await folded.locator("ol.trace li").count(), count);
  assert.equal(await folded.locator("ol.trace").isVisible(), false);
  await folded.locator("summary").click();
  assert.equal(await folded.locator("ol.trace").isVisible(), true);
  await page.screenshot({ path: path.join(SHOTS, "log-folded.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("help typed in the console opens the help and changes nothing of the run; a typo is answered with the command meant, etcdctl's command with the scenario's", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
  const before = [await status(page), await page.evaluate(() => window.raftlab.history())];
  await page.fill("#console", "help");
  await page.press("#console", "Enter");
  assert.ok(await page.locator("#help").isVisible(), "the help opens");
  await page.keyboard.press("Escape");
  assert.deepEqual([await status(page), await page.evaluate(() => window.raftlab.history())], before);
  await page.fill("#console", "putt a 1");
  await page.press("#console", "Enter");
  assert.match(await page.textContent("#log"), /unknown command "putt"; did you mean "put"\?/);
  // etcdctl's command without "etcdctl": the scenario command it stands for.
  await page.fill("#console", "del a");
  await page.press("#console", "Enter");
  assert.match(await page.textContent("#log"), /etcdctl's "del KEY" is "delete KEY" in a scenario/);
  assert.deepEqual([await status(page), await page.evaluate(() => window.raftlab.history())], before);
  assert.deepEqual(problems, []);
  await page.close();
});

test("an address's script that does not parse: the log says why, and the welcome speaks of the default cluster it leaves", async () => {
  const { page, problems } = await openApp(browser, { hash: `#script=${encodeURIComponent("garbage\n")}` });
  await page.waitForFunction(() => document.querySelectorAll("#log > li").length >= 2, null, { timeout: 20000 });
  const lines = await page.$$eval("#log > li", (lis) => lis.map((li) => li.textContent));
  assert.match(lines[0], /^error: .*expected the cluster line first/);
  assert.match(lines[1], /^Welcome\. The three voters are waiting.* Click a node, a link or a message.* Press \? for help, or open the Lessons\.$/);
  assert.ok(!lines.some((l) => l.includes("the address's script describes")), lines.join("\n"));
  assert.equal((await status(page)).voters.length, 3);
  assert.deepEqual(problems, []);
  await page.close();
});

test("an address's script with a command etcd refuses: the run opens, and the log says which command failed and why", async () => {
  const script = ["cluster voters=1,2,3 seed=1", "campaign 1", "wait-until leader=1 within=2s",
    "member add 4 --learner", "put k 1", "wait 1s"].join("\n");
  const { page, problems } = await openApp(browser, { hash: `#script=${encodeURIComponent(script)}` });
  const lines = await page.$$eval("#log > li", (lis) => lis.map((li) => li.textContent));
  const failed = lines.filter((l) => l.includes("✗"));
  assert.equal(failed.length, 1, lines.join("\n"));
  assert.match(failed[0], /member add 4 --learner: error unhealthy: .*etcdserver: unhealthy cluster/);
  // The rest of the script ran.
  const s = await status(page);
  assert.deepEqual([s.voters, s.learners, s.time_ms >= 1000], [[1, 2, 3], [], true]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a long value without a space wraps in the keys tab and the key-history view, inside the side panel", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  await page.evaluate(() => { window.raftlab.pause(); return window.raftlab.commandDone(`put k ${"v".repeat(2000)}`); });
  await page.click("#tab-keys");
  await page.fill("#key-history-form input", "k");
  await page.press("#key-history-form input", "Enter");
  await page.waitForFunction(() => document.querySelector("#key-history table") != null, null, { timeout: 20000 });
  const widths = await page.evaluate(() => {
    const box = document.querySelector("#keys-box").getBoundingClientRect();
    return ["#keys table", "#key-history table"].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return { s, right: r.right, boxRight: box.right };
    });
  });
  for (const w of widths) assert.ok(w.right <= w.boxRight + 1, `${w.s} ends at ${w.right}, past the panel's ${w.boxRight}`);
  await page.screenshot({ path: path.join(SHOTS, "keys-long-value.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
