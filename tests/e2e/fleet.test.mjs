// Several clusters and a mirror process in the page: both rings and the
// mirror on the canvas, a mirror link cut and healed by clicking it, the
// key-history view, and lesson 17 played to its end.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, runCommands, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const scriptLink = (src) => `#script=${encodeURIComponent(src)}`;
const TWO = [
  "cluster voters=1,2,3 seed=1",
  "cluster voters=11,12,13 name=copy",
  "campaign 1",
  "campaign 11",
  "wait-until leader=1 within=2s",
  "wait-until leader=11 within=2s",
  "mirror start 9 from=1 to=11",
  "wait-until mirror 9=watching within=10s",
  "put k 1",
  "put k 2",
  "wait 1s",
].join("\n");

const fleet = (page) => page.evaluate(() => window.raftlab.clusters());

async function onCanvas(page, x, y) {
  const box = await page.locator("#cluster").boundingBox();
  return [box.x + x, box.y + y];
}

/** Opens the two-cluster run and waits until its script has run. */
async function openTwo(width, height, lang) {
  const opened = await openApp(browser, { width, height, hash: `${lang ? `?lang=${lang}` : ""}${scriptLink(TWO)}` });
  const { page } = opened;
  await page.waitForFunction(() => !window.raftlab.progress().running && window.raftlab.clusters().mirrors[0]?.state === "watching", null, { timeout: 30000 });
  await page.evaluate(() => window.raftlab.pause());
  return opened;
}

/** The point a fraction `t` of the way from mirror `m` to node `n`. */
async function mirrorLinkPoint(page, m, n, t) {
  const [pm, pn] = await page.evaluate(([m, n]) => [window.raftlab.nodePosition(m), window.raftlab.nodePosition(n)], [m, n]);
  return onCanvas(page, pm[0] + (pn[0] - pm[0]) * t, pm[1] + (pn[1] - pm[1]) * t);
}

test("two clusters stand side by side with the mirror between them", async () => {
  for (const [w, h] of [[1280, 800], [1024, 600]]) {
    const { page, problems } = await openTwo(w, h);
    const f = await fleet(page);
    assert.deepEqual(f.clusters.map((c) => c.name), ["main", "copy"]);
    const pos = await page.evaluate(() => [1, 2, 3, 11, 12, 13, 9].map((id) => window.raftlab.nodePosition(id)));
    for (const p of pos) assert.ok(p, "every node and the mirror has a spot");
    const [one, , , eleven, , , nine] = pos;
    assert.ok(pos.slice(0, 3).every((p) => p[0] < pos[3][0] - 2 * p[2]), "main's ring left of copy's");
    assert.ok(nine[0] > one[0] && nine[0] < eleven[0], "the mirror between the rings");
    // The mirror's square is painted (not the background).
    const painted = await page.evaluate(([x, y]) => {
      const c = document.getElementById("cluster");
      const k = c.width / c.getBoundingClientRect().width;
      return Array.from(c.getContext("2d").getImageData(Math.round((x - 10) * k), Math.round(y * k), 1, 1).data);
    }, nine);
    assert.notDeepEqual(painted.slice(0, 3), [0x0b, 0x11, 0x20]);
    // The quorum panel names both clusters and lists the mirror.
    const quorum = await page.textContent("#quorum");
    assert.match(quorum, /main/);
    assert.match(quorum, /copy/);
    assert.match(quorum, /mirror 9\s+1→11/);
    assert.match(quorum, /watching/);
    await page.screenshot({ path: path.join(SHOTS, `fleet-${w}x${h}.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("clicking a mirror link cuts it and clicking again heals it", async () => {
  const { page, problems } = await openTwo(1280, 800);
  await page.mouse.click(...(await mirrorLinkPoint(page, 9, 1, 0.5)));
  await page.waitForFunction(() => window.raftlab.clusters().mirrors[0].from_cut);
  const m = (await fleet(page)).mirrors[0];
  assert.equal(m.from_cut, "both");
  assert.equal(m.to_cut, null);
  assert.match(await page.evaluate(() => window.raftlab.history()), /^cut 9 1$/m);
  assert.match(await page.textContent("#quorum"), /link to 1 cut/);
  await page.screenshot({ path: path.join(SHOTS, "fleet-mirror-cut.png") });
  await page.mouse.click(...(await mirrorLinkPoint(page, 9, 1, 0.5)));
  await page.waitForFunction(() => !window.raftlab.clusters().mirrors[0].from_cut);
  assert.match(await page.evaluate(() => window.raftlab.history()), /^heal 9 1$/m);
  // The other link: to node 11.
  await page.mouse.click(...(await mirrorLinkPoint(page, 9, 11, 0.5)));
  await page.waitForFunction(() => window.raftlab.clusters().mirrors[0].to_cut);
  assert.equal((await fleet(page)).mirrors[0].from_cut, null);
  // Clicking the mirror itself changes nothing.
  const before = await page.evaluate(() => window.raftlab.history());
  const [x, y] = await page.evaluate(() => window.raftlab.nodePosition(9));
  await page.mouse.click(...(await onCanvas(page, x, y)));
  assert.equal(await page.evaluate(() => window.raftlab.history()), before);
  assert.equal(await page.isVisible("#popup"), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test("with two clusters the status line and the lesson panel's quorum box name each one", async () => {
  const { page, problems } = await openTwo(1280, 800);
  // The status line waits for the panels for several clusters (loaded on first use).
  await page.waitForFunction(() => /copy/.test(document.getElementById("status-state").textContent));
  assert.equal(await page.textContent("#status-state"), "main: 3 voters, 0 learners, leader 1; copy: 3 voters, 0 learners, leader 11");
  // Lesson 17 runs two clusters (from its first step): its quorum box has
  // a line for each, by name.
  await page.evaluate(() => window.raftlab.openLesson("17-learner-or-mirror-maker"));
  await page.evaluate(() => window.raftlab.next());
  const arith = () => page.locator("#lesson-quorum .arith").allTextContents();
  const lines = await arith();
  assert.equal(lines.length, 2, lines.join(" | "));
  assert.match(lines[0], /^main\s*voters 3\s*quorum 2\s*reachable 3 ≥ 2 ✓$/);
  assert.match(lines[1], /^copy\s*voters 3\s*quorum 2\s*reachable 3 ≥ 2 ✓$/);
  assert.match(await page.textContent("#lesson-quorum"), /main: Voters: 3 \(1, 2, 3\)/);
  assert.match(await page.textContent("#status-state"), /^main: 3 voters, 1 learners, leader 1; copy: 3 voters, 0 learners, leader 11$/);
  await page.screenshot({ path: path.join(SHOTS, "fleet-lesson-quorum.png") });
  // A lesson of one cluster: one line, no name.
  await page.evaluate(() => window.raftlab.openLesson("09-adding-a-learner"));
  assert.deepEqual((await arith()).map((a) => /^voters/.test(a.trim())), [true]);
  assert.match(await page.textContent("#status-state"), /^\d+ voters, \d+ learners, leader/);
  // In Japanese, by name too.
  await page.evaluate(() => window.raftlab.openLesson("17-learner-or-mirror-maker"));
  await page.evaluate(() => window.raftlab.setLanguage("ja"));
  await page.evaluate(() => window.raftlab.next());
  await page.waitForFunction(() => document.getElementById("status-state").textContent.startsWith("main："));
  assert.equal(await page.textContent("#status-state"), "main：投票メンバー3つ、学習者メンバー1つ、リーダー：ノード1。copy：投票メンバー3つ、学習者メンバーなし、リーダー：ノード11");
  assert.match((await arith())[1], /^copy\s*投票メンバー/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** The pixels of the link from mirror `m` to node `n` (between a sixth
 * and two fifths of the way, either side of its middle), by colour and
 * by side: `red` (cut) and `green` (a watching mirror's link), each
 * `[left, centre, right]` of the line between the centres, left seen
 * from `m` looking at `n`. */
async function linkLanes(page, m, n) {
  return page.evaluate(([pm, pn]) => {
    const c = document.getElementById("cluster");
    const k = c.width / c.getBoundingClientRect().width;
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    const len = Math.hypot(pn[0] - pm[0], pn[1] - pm[1]);
    const [ux, uy] = [(pn[0] - pm[0]) / len, (pn[1] - pm[1]) / len];
    const out = { red: [0, 0, 0], green: [0, 0, 0] };
    for (let a = len / 6; a <= len * 5 / 6; a += 0.5 / k) {
      if (Math.abs(a - len / 2) < len / 10) continue;
      for (let p = -6; p <= 6; p += 0.5 / k) {
        // Left of the direction m -> n: the lane of m -> n (canvas y points down).
        const x = pm[0] + ux * a - uy * p, y = pm[1] + uy * a + ux * p;
        const i = 4 * (Math.round(y * k) * d.width + Math.round(x * k));
        const [r, g, b] = [d.data[i], d.data[i + 1], d.data[i + 2]];
        const side = p > 1.5 ? 0 : p < -1.5 ? 2 : 1;
        if (r > 180 && g < 110 && b < 110) out.red[side]++;
        else if (g > 150 && r < 140 && b < 160) out.green[side]++;
      }
    }
    return out;
  }, await page.evaluate(([m, n]) => [window.raftlab.nodePosition(m), window.raftlab.nodePosition(n)], [m, n]));
}

test("a mirror link cut one way shows which way, as a cluster's link does", async () => {
  const { page, problems } = await openTwo(1280, 800);
  const fresh = await linkLanes(page, 9, 1);
  // 9 -> 1 only: two lanes, the mirror's red (cut), node 1's still green.
  await runCommands(page, ["cut 9->1"]);
  assert.equal((await fleet(page)).mirrors[0].from_cut, "out");
  await page.waitForFunction(() => /9→1 cut/.test(document.querySelector("#quorum").textContent));
  const out = await linkLanes(page, 9, 1);
  await page.screenshot({ path: path.join(SHOTS, "fleet-mirror-cut-one-way.png") });
  // 1 -> 9 only: the other way round.
  await runCommands(page, ["heal 9 1", "cut 1->9"]);
  assert.equal((await fleet(page)).mirrors[0].from_cut, "in");
  await page.waitForFunction(() => /1→9 cut/.test(document.querySelector("#quorum").textContent));
  const back = await linkLanes(page, 9, 1);
  // Both ways: one red line.
  await runCommands(page, ["cut 9 1"]);
  assert.equal((await fleet(page)).mirrors[0].from_cut, "both");
  await page.waitForFunction(() => /link to 1 cut/.test(document.querySelector("#quorum").textContent) && !/→1 cut/.test(document.querySelector("#quorum").textContent));
  const both = await linkLanes(page, 9, 1);
  const all = JSON.stringify({ fresh, out, back, both });
  assert.ok(fresh.green[1] > 10 && fresh.red.every((x) => x === 0), all);
  assert.ok(out.red[0] > 10 && out.red[2] === 0 && out.green[2] > 10 && out.green[0] === 0, all);
  assert.ok(back.red[2] > 10 && back.red[0] === 0 && back.green[0] > 10 && back.green[2] === 0, all);
  assert.ok(both.red[1] > 10 && both.red[0] + both.red[2] === 0 && both.green.every((x) => x === 0), all);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the key-history view lists a key's versions in each cluster", async () => {
  const { page, problems } = await openTwo(1280, 800);
  await page.click("#tab-keys");
  await page.fill("#key-history-form input", "k");
  await page.click("#key-history-form button");
  const heads = await page.locator("#key-history .kh-head").allTextContents();
  assert.equal(heads.length, 2);
  assert.match(heads[0], /^main · node \d+ · revision \d+$/);
  assert.match(heads[1], /^copy · node \d+ · revision \d+$/);
  const rows = await page.locator("#key-history .kh-cluster").evaluateAll((els) => els.map((el) =>
    Array.from(el.querySelectorAll("tr")).slice(1).map((tr) => Array.from(tr.cells).map((c) => c.textContent))));
  const hist = await page.evaluate(() => window.raftlab.keyHistory("k"));
  for (const [i, h] of hist.entries()) {
    assert.deepEqual(rows[i], h.versions.map((v) => [String(v.revision), String(v.version), v.value]));
    assert.deepEqual(h.versions.map((v) => v.value), ["1", "2"], h.cluster);
  }
  // A delete in the copy, then a key nobody wrote.
  await page.evaluate(() => window.raftlab.commandDone("delete k via=11"));
  await page.click("#key-history-form button");
  assert.match(await page.locator("#key-history .kh-cluster").nth(1).textContent(), /deleted/);
  await page.fill("#key-history-form input", "nothing");
  await page.click("#key-history-form button");
  assert.match(await page.textContent("#key-history"), /no version of nothing/);
  await page.screenshot({ path: path.join(SHOTS, "fleet-key-history.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("in Japanese the key-history view and the mirror speak Japanese", async () => {
  const { page, problems } = await openTwo(1280, 800, "ja");
  await page.click("#tab-keys");
  assert.equal(await page.textContent("#key-history-form button"), "キーの履歴");
  await page.fill("#key-history-form input", "k");
  await page.click("#key-history-form button");
  const text = await page.textContent("#key-history");
  assert.match(text, /main · ノード\d+ · リビジョン\d+/);
  assert.match(text, /リビジョン版値/);
  assert.match(await page.textContent("#quorum"), /ミラー9[\s\S]*ウォッチ中/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("lesson 17 is listed as a comparison and plays to its end", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 800 });
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  const id = "17-learner-or-mirror-maker";
  const entry = page.locator(`#lesson-list button[data-id="${id}"] .fig`);
  assert.match(await entry.textContent(), /^17 · comparison: a learner or the mirror maker$/);
  await page.click(`#lesson-list button[data-id="${id}"]`);
  await page.locator("#lesson").waitFor({ state: "visible" });
  for (let k = 1; k <= 20; k++) {
    const l = await page.evaluate(() => window.raftlab.lesson());
    if (l.finished) break;
    await page.click("#lesson-next");
    await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 60000 });
    const at = await page.evaluate(() => window.raftlab.lesson());
    assert.equal(at.on_path, true, `step ${k}`);
    assert.equal(await page.locator("#lesson-surprises").isVisible(), false, `nothing surprises at step ${k}`);
    const f = await fleet(page);
    assert.equal(f.clusters.length, 2, `step ${k}`);
    assert.ok(await page.evaluate(() => window.raftlab.nodePosition(11)), `copy drawn at step ${k}`);
    for (const m of f.mirrors) assert.ok(await page.evaluate((id) => window.raftlab.nodePosition(id), m.id), `mirror ${m.id} drawn at step ${k}`);
    if (k >= 2) assert.ok(f.mirrors.length >= 1, `step ${k}`);
    await page.screenshot({ path: path.join(SHOTS, `fleet-lesson17-${k}.png`) });
  }
  const l = await page.evaluate(() => window.raftlab.lesson());
  assert.equal(l.finished, true);
  assert.match(await page.textContent("#lesson-figure"), /comparison: a learner or the mirror maker/);
  const f = await fleet(page);
  assert.deepEqual(f.mirrors.map((m) => [m.id, m.state]), [[9, "failed"], [8, "watching"]]);
  // The key's history: the copy never saw 4 or 5; main's was compacted at 7.
  await page.click("#tab-keys");
  await page.fill("#key-history-form input", "k");
  await page.click("#key-history-form button");
  const values = await page.locator("#key-history .kh-cluster").evaluateAll((els) => els.map((el) =>
    Array.from(el.querySelectorAll("tr")).slice(1).map((tr) => tr.cells[2].textContent)));
  assert.deepEqual(values[1], ["1", "2", "3", "6", "7"]);
  assert.match(await page.locator("#key-history .kh-cluster").first().textContent(), /compacted at revision 7/);
  await page.screenshot({ path: path.join(SHOTS, "fleet-lesson17-history.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
