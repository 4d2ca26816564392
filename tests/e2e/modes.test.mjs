// The design document's learner modes in the page: the modes control starts
// a fresh run whose cluster line carries them, the add-member buttons add
// standby and read-only learners, and the canvas draws each kind, the
// auto-promote line and failover's countdown.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.evaluate(() => window.raftlab.status());
const history = (page) => page.evaluate(() => window.raftlab.history());
const run = (page, text) => page.evaluate((t) => window.raftlab.command(t), text);
const logText = (page) => page.locator("#log").innerText();

test("the modes control starts a fresh run whose cluster line carries the modes", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  assert.equal(await page.getAttribute("#modes-button", "aria-pressed"), "false");
  await page.click("#modes-button");
  await page.locator("#modes-box").waitFor({ state: "visible" });
  // The failover choice shows its words whole, whichever is chosen (the
  // select is as wide as its longest option: 24 px for its arrow and padding).
  for (const lang of ["ja", "en"]) {
    assert.equal(await page.evaluate((l) => window.raftlab.setLanguage(l), lang), lang);
    const cut = await page.evaluate(() => {
      const s = document.querySelector("#mode-failover");
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = getComputedStyle(s).font;
      return [...s.options].filter((o) => ctx.measureText(o.text).width + 24 > s.getBoundingClientRect().width).map((o) => o.text);
    });
    assert.deepEqual(cut, [], `${lang}: options cut short`);
  }
  // The form shows the run's modes: all off.
  assert.equal(await page.isChecked("#mode-learner"), false);
  assert.equal(await page.isChecked("#mode-auto"), false);
  await page.check("#mode-learner");
  await page.check("#mode-auto");
  await page.fill("#mode-auto-pct", "80");
  await page.fill("#mode-after", "5");
  await page.selectOption("#mode-failover", "grow");
  await page.fill("#mode-max-learners", "3");
  // seed=1 is the default, so the canonical line leaves it out.
  const line = "cluster voters=1,2,3 max-learners=3 bandwidth=1MB/s new-members=learner auto-promote=80% failover-after=5s failover=grow";
  assert.equal(await page.textContent("#modes-line"), line);
  await page.screenshot({ path: path.join(SHOTS, "modes-control.png") });
  // A bad value: a clear message, and nothing can be started.
  await page.fill("#mode-auto-pct", "0");
  assert.equal(await page.textContent("#modes-error"), "error: auto-promote takes a whole percentage from 1% to 100%");
  assert.equal(await page.isDisabled("#modes-apply"), true);
  await page.fill("#mode-after", "0.2");
  await page.fill("#mode-auto-pct", "80");
  assert.match(await page.textContent("#modes-error"), /failover-after must be from 1s \(the election timeout\) to 600s/);
  await page.fill("#mode-after", "5");
  assert.equal(await page.isHidden("#modes-error"), true);
  await page.click("#modes-apply");
  await page.locator("#modes-box").waitFor({ state: "hidden" });
  // The new run's first line is the canonical cluster line.
  assert.equal((await history(page)).split("\n")[0], line);
  const modes = await page.evaluate(() => window.raftlab.modes());
  assert.deepEqual(modes, { new_members: "learner", auto_promote: 80, failover_after_ms: 5000, failover: "grow", max_learners: 3 });
  assert.equal(await page.getAttribute("#modes-button", "aria-pressed"), "true");
  assert.equal(await page.textContent("#quorum .modes-on"), "learners first · auto-promote 80% · failover 5 s, grow · 3 learners at most");
  // With learners by default, the voter button asks for a voter.
  await run(page, "wait 6s");
  await page.click("#add-voter");
  assert.match(await history(page), /\nmember add 4 --voter\n$/);
  assert.deepEqual((await status(page)).voters, [1, 2, 3, 4]);
  // Reset keeps the run's modes, on the seed in the bar.
  await page.fill("#seed", "9");
  await page.click("#reset");
  assert.equal((await history(page)).split("\n")[0], line.replace("voters=1,2,3", "voters=1,2,3 seed=9"));
  // A form the page cannot send is refused with the same words.
  const refused = await page.evaluate(() => window.raftlab.applyModes({ new_members: "everyone", auto_promote: null, failover_after_ms: 10000, failover: "replace", max_learners: 1 }));
  assert.equal(refused.ok, false);
  assert.match(refused.error, /learner or voter/);
  assert.equal((await history(page)).split("\n")[0], line.replace("voters=1,2,3", "voters=1,2,3 seed=9"), "nothing changed");
  assert.deepEqual(problems, []);
  await page.close();
});

test("standby and read-only learners are added from the buttons and drawn by kind", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  const r = await page.evaluate(() => window.raftlab.applyModes({ new_members: "voter", auto_promote: 80, failover_after_ms: 10000, failover: "replace", max_learners: 4 }));
  assert.equal(r.ok, true, r.error);
  await page.evaluate(() => window.raftlab.pause());
  await run(page, "wait 6s");
  await page.click("#add-standby");
  await page.click("#add-read-weak");
  await page.click("#add-read-strong");
  await page.click("#add-learner");
  assert.match(await history(page), /member add 4 --learner --standby\n(wait \S+\n)?member add 5 --learner --read-only=weak\n(wait \S+\n)?member add 6 --learner --read-only=strong\n(wait \S+\n)?member add 7 --learner\n$/);
  const s = await status(page);
  assert.deepEqual(s.learners, [4, 5, 6, 7]);
  const kind = (id) => { const n = s.nodes.find((m) => m.id === id); return [n.standby, n.read_only]; };
  assert.deepEqual([4, 5, 6, 7].map(kind), [[true, null], [false, "weak"], [false, "strong"], [false, null]]);
  // The learners run and catch up; 7 is promoted by the leader at 80%.
  for (const id of [4, 5, 6]) await run(page, `start ${id}`);
  await run(page, "wait 3s");
  const nodes = await page.evaluate(() => window.raftlab.app.nodes());
  const four = nodes.find((n) => n.id === 4);
  assert.equal(four.catch_up.promote_at, 0.9);
  assert.equal(nodes.find((n) => n.id === 5).catch_up.promote_at, null, "a read-only learner is never promoted");
  assert.equal(nodes.find((n) => n.id === 7).catch_up.promote_at, 0.8);
  assert.equal(nodes.find((n) => n.id === 7).catch_up.auto, true);
  // The popup names the kind; promoting a read-only learner is refused, in words.
  const [x, y] = await page.evaluate(() => window.raftlab.nodePosition(5));
  const box = await page.locator("#cluster").boundingBox();
  await page.mouse.click(box.x + x, box.y + y);
  await page.locator("#popup").waitFor({ state: "visible" });
  assert.equal(await page.textContent("#popup-title"), "node 5 · read-only learner (weak)");
  await page.screenshot({ path: path.join(SHOTS, "learner-kinds.png") });
  await page.locator('#popup button[data-act="promote"]').click();
  assert.match(await logText(page), /› member promote 5\n.*✗ error member-read-only: member 5 is a read-only learner \(weak\)/);
  assert.deepEqual((await status(page)).learners, [4, 5, 6, 7]);
  // One learner too many: etcd's refusal, in the log.
  await page.click("#add-read-weak");
  assert.match(await logText(page), /too-many-learners/);
  // The canvas paints each badge where its node is, in its kind's colour:
  // sampled on a ring inside the badge, clear of its glyph (a link or a
  // label may cross one sample, not all).
  const painted = await page.evaluate(() => {
    const c = document.getElementById("cluster");
    const k = c.width / c.getBoundingClientRect().width;
    const g = c.getContext("2d");
    return [4, 5, 6].map((id) => {
      const [x, y, r] = window.raftlab.nodePosition(id);
      const rb = Math.max(r * 0.42, 6.5);
      const [bx, by] = [x + r * 0.8, y - r * 0.8];
      return [-60, -120, 150, 30, 210].map((deg) => {
        const a = (deg * Math.PI) / 180;
        const d = g.getImageData(Math.round((bx + Math.cos(a) * rb * 0.78) * k), Math.round((by + Math.sin(a) * rb * 0.78) * k), 1, 1).data;
        return Array.from(d.slice(0, 3));
      });
    });
  });
  const badges = [[0xc4, 0xb5, 0xfd], [0xfb, 0x71, 0x85], [0x2d, 0xd4, 0xbf]];
  const which = (p) => badges.findIndex((b) => b.every((v, i) => Math.abs(v - p[i]) < 16));
  const kinds = painted.map((samples) => {
    const hits = samples.map(which).filter((i) => i >= 0);
    return hits.length >= 3 && hits.every((i) => i === hits[0]) ? hits[0] : -1;
  });
  assert.deepEqual(kinds, [0, 1, 2], JSON.stringify(painted));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a silent voter counts down to failover; the standby replaces it", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.applyModes({ new_members: "learner", auto_promote: 90, failover_after_ms: 6000, failover: "replace", max_learners: 2 }));
  await page.evaluate(() => window.raftlab.pause());
  await run(page, "wait-until leader");
  await run(page, "wait 6s");
  await page.click("#add-standby");
  await run(page, "start 4");
  await page.click("#add-learner");
  await run(page, "wait 2s");
  const leader = (await status(page)).leader;
  const victim = [1, 2, 3].find((id) => id !== leader);
  await run(page, `crash ${victim}`);
  await run(page, "wait 3s");
  const v = (await page.evaluate(() => window.raftlab.app.nodes())).find((n) => n.id === victim);
  assert.ok(v.failover, "the countdown runs on the silent voter");
  assert.equal(v.failover.after_ms, 6000);
  assert.ok(v.failover.left_ms > 0 && v.failover.left_ms < 4000, JSON.stringify(v.failover));
  await page.screenshot({ path: path.join(SHOTS, "failover-countdown.png") });
  await run(page, "wait 5s");
  const s = await status(page);
  assert.ok(s.voters.includes(4) && !s.voters.includes(victim), JSON.stringify(s.voters));
  assert.match(await logText(page), /fails over/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the history view flags a stale read from a weak read-only learner", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  await run(page, "wait-until leader");
  await run(page, "wait 6s");
  await page.click("#add-read-weak");
  await run(page, "start 4");
  await run(page, "put k v1");
  await run(page, "wait-until all-applied");
  // Before: one write, linearizable.
  let v = await page.evaluate(() => window.raftlab.showHistory());
  assert.equal(v.ok, true);
  assert.match(await page.textContent("#history-verdict"), /^✓ Linearizable: one order of the 1 operation on 1 key/);
  const leader = (await status(page)).leader;
  await run(page, `cut ${leader}->4`);
  await run(page, "put k v2");
  // The weak read through node 4, from its popup: answered at once, stale.
  const [x, y] = await page.evaluate(() => window.raftlab.nodePosition(4));
  const box = await page.locator("#cluster").boundingBox();
  await page.mouse.click(box.x + x, box.y + y);
  await page.locator("#popup").waitFor({ state: "visible" });
  await page.fill('#popup-put input[name="key"]', "k");
  await page.locator('#popup button[data-act="get"]').click();
  assert.match(await logText(page), /› get k via=4[\s\S]*?✓ ok: value "v1"/);
  await page.click("#popup-close");
  await page.click("#tab-history");
  await page.locator("#history-canvas").waitFor({ state: "visible" });
  const verdict = await page.textContent("#history-verdict");
  assert.match(verdict, /^✗ Not linearizable: a stale read\. On key k, the get sent (at|right after)/);
  assert.match(verdict, /"v1"/);
  assert.match(verdict, /"v2"/);
  assert.equal(await page.getAttribute("#history-verdict", "class"), "history-verdict bad");
  assert.match(await page.textContent("#history-note"), /3 of 3 operations/);
  const s = await page.evaluate(() => window.raftlab.status());
  assert.equal(s.linearizability.ok, false);
  assert.equal(s.linearizability.anomaly.key, "k");
  // The anomaly's bars are painted red on the history's canvas.
  const red = await page.evaluate(() => {
    const c = document.getElementById("history-canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 130 && d[i + 2] < 130) n++;
    return n;
  });
  await page.screenshot({ path: path.join(SHOTS, "history-stale-read.png") });
  await page.locator("#details").screenshot({ path: path.join(SHOTS, "history-stale-read-panel.png") });
  assert.ok(red > 200, `red pixels: ${red}`);
  assert.deepEqual(problems, []);
  await page.close();
});
