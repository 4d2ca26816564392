// Accessibility, as a screen reader's or a keyboard's user meets the page:
// no serious or critical violation axe-core finds on the first view, in a
// lesson, with a dialog open and in Japanese; every action of the canvas
// from the keyboard alone; a status line that says what changed, politely
// and not frame by frame; and less motion when the reader asks for it.
// (tests/e2e/mobile.test.mjs runs axe-core on the phone layout too.)
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { launch, openApp, axeViolations } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const lesson = (page) => page.evaluate(() => window.raftlab.lesson());

for (const [width, height] of [[1280, 800], [1024, 600]]) {
  test(`axe-core at ${width}x${height}: the first view, a lesson, each dialog, the node's actions, in English and in Japanese`, async () => {
    for (const lang of ["en", "ja"]) {
      const query = lang === "ja" ? "?lang=ja" : "";
      const { page, problems } = await openApp(browser, { width, height, hash: query });
      const where = (what) => `${what} (${lang}, ${width}x${height})`;
      assert.deepEqual(await axeViolations(page), [], where("the first view"));
      await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
      // The node's actions.
      const [x, y] = await page.evaluate(() => window.raftlab.nodePosition(1));
      const box = await page.locator("#cluster").boundingBox();
      await page.mouse.click(box.x + x, box.y + y);
      await page.locator("#popup").waitFor({ state: "visible" });
      assert.deepEqual(await axeViolations(page), [], where("a node's actions"));
      await page.keyboard.press("Escape");
      // Each dialog (Share's shows only when the clipboard cannot be had).
      for (const [button, dialog] of [["#lessons-button", "#lessons"], ["#help-button", "#help"], ["#modes-button", "#modes-box"]]) {
        await page.click(button);
        await page.locator(dialog).waitFor({ state: "visible" });
        // Its part's words are in (a part loaded on first use fills it).
        await page.waitForFunction((d) => document.querySelector(`${d} h2`)?.textContent.trim(), dialog);
        assert.deepEqual(await axeViolations(page), [], where(dialog));
        await page.keyboard.press("Escape");
        assert.equal(await page.locator(dialog).isVisible(), false);
      }
      // A lesson, two steps in.
      await page.evaluate(() => window.raftlab.openLesson("10-promoting-a-learner"));
      for (let k = 0; k < 2; k++) await page.evaluate(() => window.raftlab.next());
      assert.equal((await lesson(page)).position, 2);
      assert.deepEqual(await axeViolations(page), [], where("a lesson"));
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
}

test("the keyboard alone: Tab to the canvas, the arrows pick a node or a link, Enter acts, Escape comes back", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
  // Tab goes through the page to the canvas.
  await page.locator("body").click({ position: { x: 2, y: 2 } });
  let tabs = 0;
  while (!(await page.evaluate(() => document.activeElement?.id === "cluster"))) {
    await page.keyboard.press("Tab");
    assert.ok(++tabs < 60, "Tab never reached the canvas");
  }
  // The first arrow picks node 1: highlighted, and said on the status line.
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#status-change"), /^node 1, voter, (leader|follower): Enter shows its actions/);
  assert.equal(await page.evaluate(() => window.raftlab.status().time_ms > 0), true);
  const t0 = await page.evaluate(() => window.raftlab.status().time_ms);
  // An arrow on the canvas picks; it does not step the run.
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#status-change"), /^node 2/);
  assert.equal(await page.evaluate(() => window.raftlab.status().time_ms), t0);
  // Enter: node 2's actions, the focus on the first of them; Escape: back.
  await page.keyboard.press("Enter");
  await page.locator("#popup").waitFor({ state: "visible" });
  assert.match(await page.textContent("#popup-title"), /node 2/);
  assert.equal(await page.evaluate(() => document.activeElement.closest("#popup") != null), true);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#popup").isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), "cluster");
  // Past the nodes, the links: Enter shows the actions of the one picked,
  // the focus on the first (cut, before hold); Enter cuts, and the next
  // heals.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#status-change"), /^the link between 1 and 2: Enter shows its actions/);
  await page.keyboard.press("Enter");
  await page.locator("#hand").waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => document.activeElement.dataset.act), "cut");
  await page.keyboard.press("Enter");
  assert.deepEqual(await page.evaluate(() => [window.raftlab.app.isCut(1, 2), window.raftlab.app.isCut(2, 1)]), [true, true]);
  assert.match(await page.textContent("#status-change"), /cut 1 2/);
  // The cut button gave way to heal, which has the focus now.
  assert.equal(await page.evaluate(() => document.activeElement.dataset.act), "heal");
  await page.keyboard.press("Enter");
  assert.deepEqual(await page.evaluate(() => [window.raftlab.app.isCut(1, 2), window.raftlab.app.isCut(2, 1)]), [false, false]);
  // Escape: back to the canvas, the link still picked.
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#hand").isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), "cluster");
  // Shift and Enter: one direction only, at once.
  await page.keyboard.press("Shift+Enter");
  assert.deepEqual(await page.evaluate(() => [window.raftlab.app.isCut(1, 2), window.raftlab.app.isCut(2, 1)]), [true, false]);
  // + and - zoom, 0 shows the whole cluster.
  await page.keyboard.press("+");
  assert.equal((await page.evaluate(() => window.raftlab.view())).scale, 1.5);
  await page.keyboard.press("0");
  assert.equal((await page.evaluate(() => window.raftlab.view())).scale, 1);
  assert.match(await page.evaluate(() => window.raftlab.history()), /cut 1 2\n(wait \S+\n)?heal 1 2\n(wait \S+\n)?cut 1->2\n/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the compact layout's menu from the keyboard: Enter opens it with the focus inside, Escape closes it and comes back", async () => {
  const { page, problems } = await openApp(browser, { width: 390, height: 844 });
  await page.focus("#menu-button");
  await page.keyboard.press("Enter");
  await page.locator("#menu").waitFor({ state: "visible" });
  assert.equal(await page.evaluate(() => document.getElementById("menu").contains(document.activeElement)), true);
  await page.keyboard.press("Escape");
  assert.equal(await page.locator("#menu").isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), "menu-button");
  // The tabs: the arrows go from one to the next (the quorum's, then the events').
  await page.focus("#tab-log");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-quorum");
  assert.equal(await page.locator("#quorum").isVisible(), true);
  assert.equal(await page.locator("#log").isVisible(), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the status line says what changed, politely, and not frame by frame", async () => {
  const { page, problems } = await openApp(browser);
  assert.equal(await page.getAttribute("#status", "aria-live"), "polite");
  assert.equal(await page.getAttribute("#cluster", "aria-describedby"), "status");
  // The event log is no live region: under load it says hundreds of lines a second.
  assert.equal(await page.evaluate(() => document.getElementById("log").closest("[aria-live]:not([aria-live=off])")), null);
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  await page.evaluate(() => window.raftlab.setSpeed(1));
  // Two seconds of a running clock with a steady leader: the frames come
  // and go, the panels are brought up to date many times, and the status
  // line is written at most once (nothing it says changed).
  const writes = await page.evaluate(() => new Promise((resolve) => {
    let n = 0;
    const seen = new MutationObserver((m) => { n += m.length; });
    seen.observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
    setTimeout(() => { seen.disconnect(); resolve(n); }, 2000);
  }));
  assert.ok(writes <= 2, `the status line was written ${writes} times in 2 s`);
  // A command: the status line says it and what it did.
  await page.evaluate(() => window.raftlab.pause());
  await page.click("#split-22");
  assert.match(await page.textContent("#status-change"), /^› partition .*:/);
  // A lesson's step: its words.
  await page.evaluate(() => window.raftlab.openLesson("10-promoting-a-learner"));
  await page.evaluate(() => window.raftlab.next());
  const l = await lesson(page);
  assert.equal(await page.textContent("#status-change"), `Step 1 of ${l.steps}: ${l.says.join(" ")} ·`);
  assert.match(await page.textContent("#status-state"), /^3 voters, 0 learners, leader 1$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("less motion asked for: messages drawn still, no pulsing step, and the lesson still plays", async () => {
  const { page, problems } = await openApp(browser, { reducedMotion: "reduce", hash: "#lesson=10-promoting-a-learner" });
  // What the page asks of the canvas, seen at the app's door.
  const still = await page.evaluate(() => {
    const proto = Object.getPrototypeOf(window.raftlab.app);
    const set = proto.setStillMessages;
    let asked = null;
    proto.setStillMessages = function (on) { asked = on; return set.call(this, on); };
    window.raftlab.zoomBy(1); // draws
    return asked;
  });
  assert.equal(still, true);
  await page.click("#lesson-next");
  assert.equal((await lesson(page)).playing, true, "Next plays the step");
  const pulse = await page.evaluate(() => getComputedStyle(document.querySelector(".lesson-dots button.playing") ?? document.body).animationName);
  assert.equal(pulse, "none");
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 30000 });
  assert.equal((await lesson(page)).position, 1);
  assert.deepEqual(problems, []);
  await page.close();
  // Without the wish: messages glide.
  const { page: moving } = await openApp(browser);
  const glide = await moving.evaluate(() => {
    const proto = Object.getPrototypeOf(window.raftlab.app);
    const set = proto.setStillMessages;
    let asked = null;
    proto.setStillMessages = function (on) { asked = on; return set.call(this, on); };
    window.raftlab.zoomBy(1); // draws
    return asked;
  });
  assert.equal(glide, false);
  await moving.close();
});
