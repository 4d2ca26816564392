// A hand on single messages, on the canvas: a click on a message dot shows
// what it carries and drops it (and the share link's script has the drop);
// a link's popup holds it (its messages queued at the receiver's side),
// releases one, then all; the next-message button delivers one message;
// the keyboard reaches a dot; axe-core finds nothing with the popups open,
// in English and Japanese; a finger's size on a phone.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, runCommands, axeViolations, PHONES, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A cluster led by node 1 whose messages to node 2 have waited 350 ms:
 * held dots stand still at node 2's side, in send order. */
const HELD = ["campaign 1", "wait-until leader=1", "wait 1s", "hold 1->2", "put x 1", "wait 350ms"];

/** Page coordinates of the dots drawn now ([{id, from, to, x, y, held}]). */
async function dots(page) {
  const box = await page.locator("#cluster").boundingBox();
  const list = await page.evaluate(() => window.raftlab.messageDots());
  return list.map((d) => ({ ...d, px: box.x + d.x, py: box.y + d.y }));
}

const held = (page, from, to) => page.evaluate(([f, t]) => window.raftlab.status().messages
  .filter((m) => m.from === f && m.to === t && m.held).length, [from, to]);

/** The held count of a link once it is `n` (a click's command runs in the
 * page's next frame, which a loaded machine may be slow to give). */
async function heldBecomes(page, from, to, n) {
  await page.waitForFunction(([f, t, k]) => window.raftlab.status().messages
    .filter((m) => m.from === f && m.to === t && m.held).length === k, [from, to, n], { timeout: 10000 })
    .catch(() => {});
  return held(page, from, to);
}

test("a click on a message dot shows what it carries; Drop drops it, and the share link's script has the drop", async () => {
  const { page, problems } = await openApp(browser);
  await runCommands(page, HELD);
  // Paused, so that no heartbeat joins the held ones between two counts.
  await page.evaluate(() => window.raftlab.pause());
  const list = (await dots(page)).filter((d) => d.held && d.from === 1 && d.to === 2);
  assert.ok(list.length >= 3, `held dots: ${list.length}`);
  const before = await held(page, 1, 2);
  const dot = list[1];
  await page.mouse.click(dot.px, dot.py);
  await page.locator("#hand").waitFor({ state: "visible" });
  // What it carries: its kind from 1 to 2, term, index, entries, commit.
  assert.match(await page.textContent("#hand-title"), /^Msg(App|Heartbeat) from 1 to 2$/);
  const info = await page.textContent("#hand-info");
  for (const word of ["term 2", "index", "entries", "commit", "held at node 2's side"]) assert.ok(info.includes(word), info);
  // Held already: Drop, and no Hold this link.
  assert.equal(await page.locator('#hand button[data-act="drop"]').isVisible(), true);
  assert.equal(await page.locator('#hand button[data-act="hold"]').isVisible(), false);
  await page.screenshot({ path: path.join(SHOTS, "message-popup.png") });
  await page.locator('#hand button[data-act="drop"]').click();
  assert.equal(await heldBecomes(page, 1, 2, before - 1), before - 1, "one message dropped");
  assert.match(await page.textContent("#hand-info"), /no longer on its way/);
  const script = await page.evaluate(() => window.raftlab.history());
  const drop = script.split("\n").find((l) => l.startsWith("drop 1->2"));
  assert.ok(drop, script);
  assert.match(drop, /^drop 1->2 (id=\d+|kind=\S+ count=1)$/);
  // The share link holds the whole run: opened in a new page, its script
  // has the drop, and the run is the same.
  const link = await page.evaluate(() => window.raftlab.share());
  const { page: other, problems: otherProblems } = await openApp(browser, { hash: link.slice(link.indexOf("#")) });
  await other.evaluate(() => window.raftlab.idle());
  const replayed = await other.evaluate(() => window.raftlab.history());
  assert.ok(replayed.split("\n").includes(drop), replayed);
  assert.equal(await held(other, 1, 2), before - 1);
  assert.deepEqual(otherProblems, []);
  await other.close();
  assert.deepEqual(problems, []);
  await page.close();
});

test("a link's popup holds it, its messages queued at the receiver's side; release one, then all", async () => {
  const { page, problems } = await openApp(browser);
  await runCommands(page, ["campaign 1", "wait-until leader=1", "wait 1s"]);
  // Paused: the commands alone move the clock, so no heartbeat joins the
  // held ones between two counts (a loaded machine's frames are slow).
  await page.evaluate(() => window.raftlab.pause());
  const [a, b] = await page.evaluate(() => [window.raftlab.nodePosition(1), window.raftlab.nodePosition(3)]);
  const box = await page.locator("#cluster").boundingBox();
  await page.mouse.click(box.x + (a[0] + b[0]) / 2, box.y + (a[1] + b[1]) / 2);
  await page.locator("#hand").waitFor({ state: "visible" });
  assert.match(await page.textContent("#hand-title"), /link 1 – 3/);
  await page.locator('#hand button[data-act="hold"]').click();
  await runCommands(page, ["wait 300ms"]);
  const waiting = await held(page, 1, 3);
  assert.ok(waiting >= 2, `held: ${waiting}`);
  assert.match(await page.textContent("#hand-info"), new RegExp(`1→3: held, ${waiting} waiting`));
  // Drawn queued at node 3's side: each held dot nearer node 3 than node 1.
  const near = (await dots(page)).filter((d) => d.held && d.from === 1 && d.to === 3);
  assert.equal(near.length, waiting);
  for (const d of near) assert.ok(Math.hypot(d.x - b[0], d.y - b[1]) < Math.hypot(d.x - a[0], d.y - a[1]), JSON.stringify(d));
  await page.screenshot({ path: path.join(SHOTS, "link-held.png") });
  // One message released: the earliest held on the link, either way (a
  // reply from 3 to 1 on its way when the link was held is held too, and
  // the answer to the one released is held in its turn).
  const heldIds = () => page.evaluate(() => window.raftlab.status().messages
    .filter((m) => m.held && [1, 3].includes(m.from) && [1, 3].includes(m.to)).map((m) => m.id));
  const before = await heldIds();
  await page.locator('#hand button[data-act="release_one"]').click();
  await page.waitForFunction((ids) => window.raftlab.status().messages
    .filter((m) => m.held && ids.includes(m.id)).length === ids.length - 1, before, { timeout: 10000 })
    .catch(() => {});
  const after = await heldIds();
  assert.equal(before.filter((id) => !after.includes(id)).length, 1, `held before ${before}, after ${after}`);
  await page.locator('#hand button[data-act="release_all"]').click();
  assert.equal(await heldBecomes(page, 1, 3, 0), 0);
  assert.equal(await held(page, 3, 1), 0);
  assert.equal(await page.evaluate(() => window.raftlab.app.linkHand(1, 3).directions.some((d) => d.held)), false);
  const script = await page.evaluate(() => window.raftlab.history());
  // Release all names the directions still held: both, or the one left
  // when the first release emptied the other (whose hold then ended).
  assert.match(script, /hold 1 3\n(wait \S+\n)?release (1->3|3->1) count=1\n(wait \S+\n)?release (1 3|1->3|3->1)\n/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the next-message button delivers the earliest message alone, at its arrival", async () => {
  const { page, problems } = await openApp(browser);
  await runCommands(page, ["campaign 1", "wait-until leader=1", "put x 1 nowait"]);
  const first = await page.evaluate(() => window.raftlab.status().messages
    .filter((m) => !m.held).sort((p, q) => p.arrives_ms - q.arrives_ms || p.id - q.id)[0]);
  assert.ok(first, "something on its way");
  assert.equal(await page.locator("#step-message").isDisabled(), false);
  await page.click("#step-message");
  const s = await page.evaluate(() => window.raftlab.status());
  assert.equal(s.time_ms, first.arrives_ms, "the clock moved to its arrival");
  assert.equal(s.messages.some((m) => m.id === first.id && m.from === first.from), false, "delivered");
  assert.match(await page.evaluate(() => window.raftlab.history()), /\ndeliver-next\n/);
  // With every message held, there is nothing to deliver: the button is off.
  await runCommands(page, ["hold 1 2", "hold 1 3"]);
  await page.waitForFunction(() => document.getElementById("step-message").disabled);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the keyboard picks a message dot after the nodes and links; Enter shows it; axe-core finds nothing, in English and Japanese", async () => {
  for (const lang of ["en", "ja"]) {
    const { page, problems } = await openApp(browser, { hash: lang === "ja" ? "?lang=ja" : "" });
    await runCommands(page, HELD);
    await page.focus("#cluster");
    // 3 nodes and 3 links, then the dots.
    for (let k = 0; k < 7; k++) await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent("#status-change"), lang === "en" ? /^Msg\w+ from \d+ to \d+: Enter shows/ : /ノード\d+からノード\d+へのMsg\w+/);
    await page.keyboard.press("Enter");
    await page.locator("#hand").waitFor({ state: "visible" });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.act), "drop");
    assert.deepEqual(await axeViolations(page), [], `a message's popup (${lang})`);
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => document.activeElement.id), "cluster");
    // A link's popup.
    const [a, b] = await page.evaluate(() => [window.raftlab.nodePosition(1), window.raftlab.nodePosition(3)]);
    const box = await page.locator("#cluster").boundingBox();
    await page.mouse.click(box.x + (a[0] + b[0]) / 2, box.y + (a[1] + b[1]) / 2);
    await page.locator("#hand").waitFor({ state: "visible" });
    assert.deepEqual(await axeViolations(page), [], `a link's popup (${lang})`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("on a phone a tap on a dot shows it, its buttons a finger's size", async () => {
  const { page, problems } = await openApp(browser, { device: PHONES.iphone });
  await runCommands(page, HELD);
  const dot = (await dots(page)).find((d) => d.held);
  await page.touchscreen.tap(dot.px, dot.py);
  await page.locator("#hand").waitFor({ state: "visible" });
  const drop = await page.locator('#hand button[data-act="drop"]').boundingBox();
  assert.ok(drop.width >= 44 && drop.height >= 44, JSON.stringify(drop));
  assert.deepEqual(await axeViolations(page, { touch: true }), [], "a message's popup on a phone");
  await page.locator('#hand button[data-act="drop"]').tap();
  assert.match(await page.evaluate(() => window.raftlab.history()), /\ndrop 1->2 /);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > innerWidth), false);
  await page.screenshot({ path: path.join(SHOTS, "phone-message-popup.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
