// The page on a phone, as a student holding one uses it: Playwright's
// mobile emulation (touch on, a mobile viewport) at an iPhone's size
// (390x844) and an Android phone's (412x915). The main paths: the first
// view, a node's actions and a link cut by a tap, the menu, the timeline
// dragged and the canvas pinched with fingers, and a lesson walked with
// Next, in English and in Japanese. At every step: no sideways scroll, the
// lesson's Next on screen and at least 44 px, and no serious or critical
// accessibility violation (axe-core). Screenshots of the phone layout go
// to target/screenshots/.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, PHONES, axeViolations, SHOTS, BASE_URL } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.evaluate(() => window.raftlab.status());
const lesson = (page) => page.evaluate(() => window.raftlab.lesson());

/** What a phone's screen shows now: the page wider than the screen (a
 * sideways scroll), the canvas's box, and the lesson's Next's. */
const screen = (page) => page.evaluate(() => {
  const box = (id) => {
    const el = document.getElementById(id);
    if (!el?.checkVisibility()) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, right: r.right, bottom: r.bottom };
  };
  return {
    sideways: document.documentElement.scrollWidth > innerWidth || document.body.scrollWidth > innerWidth,
    width: innerWidth, height: innerHeight, canvas: box("cluster"), next: box("lesson-next"),
  };
});

/** The screen has no sideways scroll; in a lesson, Next is on it, whole,
 * at least 44x44 px. */
async function fits(page, what) {
  const s = await screen(page);
  assert.equal(s.sideways, false, `${what}: the page scrolls sideways`);
  if (await lesson(page)) {
    const n = s.next;
    assert.ok(n, `${what}: Next is not shown`);
    assert.ok(n.x >= 0 && n.y >= 0 && n.right <= s.width && n.bottom <= s.height, `${what}: Next off the screen ${JSON.stringify(n)}`);
    assert.ok(n.width >= 44 && n.height >= 44, `${what}: Next is ${n.width}x${n.height}`);
  }
  return s;
}

/** A finger's tap on the canvas at its point (x, y) (CSS pixels). */
async function tapCanvas(page, [x, y]) {
  const box = await page.locator("#cluster").boundingBox();
  await page.touchscreen.tap(box.x + x, box.y + y);
}

/** Next as a thumb presses it: it plays the step; tapped again while it
 * plays, the step skips to its pause. */
async function next(page) {
  await page.locator("#lesson-next").tap();
  if ((await lesson(page)).playing) {
    await page.evaluate(() => window.raftlab.lesson().playing && document.getElementById("lesson-next").click());
  }
  await page.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
}

/** A finger's drag (Chromium's touch events, through the DevTools
 * protocol): from `from` to `to`, page coordinates, in `steps` moves. */
async function drag(page, fingers) {
  const cdp = await page.context().newCDPSession(page);
  const at = (k) => fingers.map(([from, to], id) => ({ x: from[0] + (to[0] - from[0]) * k, y: from[1] + (to[1] - from[1]) * k, id }));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
  for (let i = 1; i <= 8; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(i / 8) });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

for (const [phone, device] of Object.entries(PHONES)) {
  const { width } = device.viewport;

  test(`${phone} ${width}x${device.viewport.height}: the first view fits the screen, and a tap opens a node's actions and cuts a link`, async () => {
    const { page, problems } = await openApp(browser, { device });
    await page.waitForFunction(() => window.raftlab.status().time_ms > 0);
    const s = await fits(page, "the first view");
    // The canvas takes the screen's width, at the top.
    assert.ok(s.canvas.width >= 340 && s.canvas.width >= width - 2, JSON.stringify(s.canvas));
    assert.ok(s.canvas.height >= 300, JSON.stringify(s.canvas));
    // The legend is folded behind its button; the toolbar is in the menu.
    assert.equal(await page.locator("#legend").isVisible(), false);
    assert.equal(await page.locator("#isolate-leader").isVisible(), false);
    assert.deepEqual(await axeViolations(page, { touch: true }), [], "the first view");
    await page.screenshot({ path: path.join(SHOTS, `phone-${phone}.png`) });

    await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait-until leader"); });
    // A tap on node 2: its actions, in a sheet on the screen, each a
    // finger's size.
    await tapCanvas(page, await page.evaluate(() => window.raftlab.nodePosition(2)));
    await page.locator("#popup").waitFor({ state: "visible" });
    assert.match(await page.textContent("#popup-title"), /node 2/);
    const sheet = await page.locator("#popup").boundingBox();
    assert.ok(sheet.x >= 0 && sheet.x + sheet.width <= width && sheet.y + sheet.height <= device.viewport.height, JSON.stringify(sheet));
    const crash = await page.locator('#popup button[data-act="crash"]').boundingBox();
    assert.ok(crash.height >= 44 && crash.width >= 44, JSON.stringify(crash));
    await fits(page, "a node's actions");
    assert.deepEqual(await axeViolations(page, { touch: true }), [], "a node's actions open");
    await page.screenshot({ path: path.join(SHOTS, `phone-${phone}-node.png`) });
    await page.locator('#popup button[data-act="crash"]').tap();
    assert.equal((await status(page)).nodes.find((n) => n.id === 2).running, false, "node 2 crashed");
    await page.locator("#popup-close").tap();
    assert.equal(await page.locator("#popup").isVisible(), false);

    // A tap on the link 1-3 (a thin line: a finger's width near it is
    // enough) shows its actions, each a finger's size; cut cuts it.
    // (A message's dot there would take the tap: the point is one clear
    // of every dot.)
    const [a, b, dots] = await page.evaluate(() => [window.raftlab.nodePosition(1), window.raftlab.nodePosition(3), window.raftlab.messageDots()]);
    const clear = [0.5, 0.4, 0.6, 0.35, 0.65].map((f) => [a[0] + (b[0] - a[0]) * f + 6, a[1] + (b[1] - a[1]) * f + 6])
      .find(([x, y]) => dots.every((d) => Math.hypot(d.x - x, d.y - y) > 24));
    await tapCanvas(page, clear);
    await page.locator("#hand").waitFor({ state: "visible" });
    const cutButton = await page.locator('#hand button[data-act="cut"]').boundingBox();
    assert.ok(cutButton.height >= 44 && cutButton.width >= 44, JSON.stringify(cutButton));
    assert.deepEqual(await axeViolations(page, { touch: true }), [], "a link's actions open");
    await page.locator('#hand button[data-act="cut"]').tap();
    assert.deepEqual(await page.evaluate(() => [window.raftlab.app.isCut(1, 3), window.raftlab.app.isCut(3, 1)]), [true, true]);
    assert.match(await page.evaluate(() => window.raftlab.history()), /crash 2\n(wait \S+\n)?cut 1 3\n/);
    // The status line (the canvas's text alternative) says what the tap did.
    assert.match(await page.textContent("#status-change"), /cut 1 3: .*ok/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${phone}: the menu holds the toolbar's actions, the timeline drags with a finger, two fingers zoom`, async () => {
    const { page, problems } = await openApp(browser, { device });
    await page.evaluate(() => { window.raftlab.setSpeed(8); });
    await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
    await page.evaluate(() => { window.raftlab.pause(); window.raftlab.command("wait 2s"); });
    await page.locator("#menu-button").tap();
    await page.locator("#menu").waitFor({ state: "visible" });
    assert.equal(await page.getAttribute("#menu-button", "aria-expanded"), "true");
    await fits(page, "the menu");
    assert.deepEqual(await axeViolations(page, { touch: true }), [], "the menu open");
    await page.screenshot({ path: path.join(SHOTS, `phone-${phone}-menu.png`) });
    // Each action says what it does beside it (a finger has no hover).
    assert.match(await page.locator("#isolate-leader + .menu-tip").textContent(), /isolate the leader/);
    // The help too, a button as the others are with its words on its row;
    // the welcome sends the reader there (no ? key on a phone).
    assert.match(await page.locator("#help-button + .menu-tip").textContent(), /Help and keyboard shortcuts/);
    const [help, helpTip] = [await page.locator("#help-button").boundingBox(), await page.locator("#help-button + .menu-tip").boundingBox()];
    assert.ok(helpTip.x > help.x + help.width && helpTip.y < help.y + help.height, `${JSON.stringify(help)} ${JSON.stringify(helpTip)}`);
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.getElementById("help-button")).borderTopColor), "rgba(0, 0, 0, 0)");
    assert.match(await page.textContent("#log li"), /Tap a node, a link or a message.* Open the help from the menu \(☰\), or the Lessons\.$/);
    await page.locator("#isolate-leader").tap();
    assert.equal(await page.locator("#menu").isVisible(), false, "an action picked closes the menu");
    assert.match(await page.evaluate(() => window.raftlab.history()), /isolate \d/);

    // The timeline's thumb, dragged to the left with a finger: the past.
    await page.evaluate(() => window.raftlab.command("wait 2s"));
    const end = (await page.evaluate(() => window.raftlab.timeline())).end_ms;
    const strip = await page.locator("#scrub").boundingBox();
    const y = strip.y + strip.height / 2;
    await drag(page, [[[strip.x + strip.width - 10, y], [strip.x + strip.width * 0.3, y]]]);
    await page.waitForFunction(() => !window.raftlab.timeline().live, null, { timeout: 10000 });
    const tl = await page.evaluate(() => window.raftlab.timeline());
    assert.ok(tl.now_ms < end * 0.6, `dragged to ${tl.now_ms} of ${end}`);
    await page.evaluate(() => window.raftlab.goLive());

    // Two fingers apart on the canvas zoom it; the zoom's buttons take it back.
    const c = await page.locator("#cluster").boundingBox();
    const [cx, cy] = [c.x + c.width / 2, c.y + c.height / 2];
    await drag(page, [[[cx - 30, cy], [cx - 110, cy]], [[cx + 30, cy], [cx + 110, cy]]]);
    const zoomed = await page.evaluate(() => window.raftlab.view());
    assert.ok(zoomed.scale > 2, JSON.stringify(zoomed));
    await fits(page, "zoomed");
    await page.screenshot({ path: path.join(SHOTS, `phone-${phone}-zoomed.png`) });
    await page.locator("#zoom-out").tap();
    assert.ok(Math.abs((await page.evaluate(() => window.raftlab.view())).scale - zoomed.scale / 1.5) < 1e-9);
    await page.locator("#zoom-reset").tap();
    assert.equal((await page.evaluate(() => window.raftlab.view())).scale, 1);
    // Three nodes, the whole cluster shown: the zoom's buttons give their
    // room back (pinching still zooms).
    assert.equal(await page.locator("#zoom-in").isVisible(), false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const lang of ["en", "ja"]) {
    test(`${phone} in ${lang}: a lesson walked with Next, Next always on screen; the lessons dialog`, async () => {
      const query = lang === "ja" ? "?lang=ja" : "";
      const { page, problems } = await openApp(browser, { device, hash: `${query}#lesson=10-promoting-a-learner` });
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      // The lesson's panel is the tab shown, its Back and Next in the bar
      // at the bottom of the screen.
      assert.equal(await page.getAttribute("#tab-lesson", "aria-selected"), "true");
      assert.equal(await page.locator("#lesson-title").isVisible(), true);
      const bar = await page.locator("#lesson-bar").boundingBox();
      assert.ok(bar.y + bar.height >= device.viewport.height - 1, `the bar at the bottom: ${JSON.stringify(bar)}`);
      await fits(page, "the lesson's start");
      assert.deepEqual(await axeViolations(page, { touch: true }), [], "the lesson's start");
      let steps = 0;
      while (!(await lesson(page)).finished) {
        await next(page);
        steps++;
        const l = await lesson(page);
        assert.equal(l.position, steps);
        await fits(page, `step ${steps}`);
        // The status line says the step's words.
        assert.ok((await page.textContent("#status-change")).includes(l.says[0].slice(0, 20)), `step ${steps}'s words on the status line`);
        if (steps === 2) {
          assert.deepEqual(await axeViolations(page, { touch: true }), [], `step ${steps}`);
          await page.screenshot({ path: path.join(SHOTS, `phone-${phone}-lesson-${lang}.png`) });
        }
        assert.ok(steps < 20);
      }
      assert.equal(steps, 5);
      assert.deepEqual((await status(page)).voters, [1, 2, 3, 4], "the learner was promoted");
      // Back goes back a step.
      await page.locator("#lesson-back").tap();
      assert.equal((await lesson(page)).position, 4);
      // A dialog open: the lessons, each a finger's size.
      await page.locator("#lessons-button").tap();
      await page.locator("#lesson-list button").first().waitFor({ state: "visible" });
      await fits(page, "the lessons dialog");
      assert.deepEqual(await axeViolations(page, { touch: true }), [], "the lessons dialog");
      await page.screenshot({ path: path.join(SHOTS, `phone-${phone}-lessons-${lang}.png`) });
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}

test("a phone's top bar shows each button's words whole, in English and in Japanese, playing and paused", async () => {
  const small = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
  for (const [name, device] of [...Object.entries(PHONES), ["360 px", small]]) {
    for (const query of ["", "?lang=ja"]) {
      const { page, problems } = await openApp(browser, { device, hash: query });
      for (const state of ["playing", "paused"]) {
        if (state === "paused") await page.evaluate(() => window.raftlab.pause());
        const cut = await page.evaluate(() => [...document.querySelectorAll("header.bar button")]
          .filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth + 0.5)
          .map((b) => `${b.id} "${b.textContent}" needs ${b.scrollWidth} px of ${b.clientWidth}`));
        assert.deepEqual(cut, [], `${name} ${query || "(English)"}, ${state}`);
      }
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
});

test("a phone: a long lesson's step dots scroll sideways, the current one in view, a fade where more hide", async () => {
  // Lesson 14 has 7 steps: with the start's dot and Japanese's longer
  // "leave lesson", the dots are wider than an iPhone's strip.
  const { page, problems } = await openApp(browser, { device: PHONES.iphone, hash: "?lang=ja#lesson=14-automatic-promotion" });
  const dots = () => page.evaluate(() => {
    const ol = document.getElementById("lesson-dots");
    const o = ol.getBoundingClientRect();
    const d = ol.querySelector('[aria-current="step"]').getBoundingClientRect();
    return { overflow: ol.scrollWidth > ol.clientWidth, inView: d.left >= o.left - 0.5 && d.right <= o.right + 0.5,
      classes: [...ol.classList].filter((c) => c.startsWith("more-")).sort() };
  });
  const start = await dots();
  assert.equal(start.overflow, true, "the dots are wider than the strip (else this test shows nothing)");
  assert.deepEqual(start, { overflow: true, inView: true, classes: ["more-after"] });
  // Walked with Next (which does not touch the row) to the last step: the
  // row scrolled along.
  const steps = (await lesson(page)).steps;
  for (let k = 1; k <= steps; k++) {
    await next(page);
    const d = await dots();
    assert.ok(d.inView, `step ${k}: the current dot in view ${JSON.stringify(d)}`);
  }
  assert.deepEqual(await dots(), { overflow: true, inView: true, classes: ["more-before"] });
  // And back with Back to the start.
  for (let k = steps - 1; k >= 0; k--) {
    await page.locator("#lesson-back").tap();
    await page.waitForFunction((n) => window.raftlab.lesson().position === n, k);
    assert.ok((await dots()).inView, `back at step ${k}`);
  }
  assert.deepEqual(await dots(), { overflow: true, inView: true, classes: ["more-after"] });
  await page.screenshot({ path: path.join(SHOTS, "phone-lesson-dots-ja.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a tablet (768x1024, and on its side 1024x768): the canvas the width, one panel under it, Next on screen; a 1366 px tablet on its side: beside the panel", async () => {
  for (const [w, h] of [[768, 1024], [1024, 768], [1366, 1024]]) {
    const device = { viewport: { width: w, height: h }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
    const { page, problems } = await openApp(browser, { device, hash: "#lesson=10-promoting-a-learner" });
    await next(page);
    const s = await fits(page, `${w}x${h}`);
    if (w <= 1100) {
      assert.ok(s.canvas.width >= w - 2, JSON.stringify(s.canvas));
      // One panel at a time, chosen by tabs, under the canvas.
      assert.equal(await page.locator("#tab-lesson").isVisible(), true, `${w}x${h}: the tabs`);
    } else assert.ok(s.canvas.width >= w * 0.55 && s.canvas.height >= h * 0.6, JSON.stringify(s.canvas));
    assert.deepEqual(await axeViolations(page, { touch: true }), [], `${w}x${h}`);
    await page.screenshot({ path: path.join(SHOTS, `tablet-${w}x${h}-lesson.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("two clusters and a mirror on a phone: both rings on the canvas, the quorum tab names each", async () => {
  const script = ["cluster voters=1,2,3 seed=1", "cluster voters=11,12,13 name=copy", "campaign 1", "campaign 11",
    "wait-until leader=1 within=2s", "wait-until leader=11 within=2s", "mirror start 9 from=1 to=11",
    "wait-until mirror 9=watching within=10s", "put k 1", "wait 1s"].join("\n");
  const { page, problems } = await openApp(browser, { device: PHONES.iphone, hash: `#script=${encodeURIComponent(script)}` });
  await page.waitForFunction(() => !window.raftlab.progress().running && window.raftlab.clusters().mirrors[0]?.state === "watching", null, { timeout: 30000 });
  await page.evaluate(() => window.raftlab.pause());
  // Each cluster's nodes stand on the canvas, the mirror between them.
  for (const id of [1, 2, 3, 11, 12, 13]) {
    const [x, y] = await page.evaluate((n) => window.raftlab.nodePosition(n), id);
    assert.ok(x > 0 && x < 390 && y > 0, `node ${id} at ${x}, ${y}`);
  }
  await page.locator("#tab-quorum").tap();
  await page.waitForFunction(() => /copy/.test(document.getElementById("quorum").textContent), null, { timeout: 10000 });
  await fits(page, "two clusters");
  assert.deepEqual(await axeViolations(page, { touch: true }), [], "two clusters, the quorum tab");
  await page.screenshot({ path: path.join(SHOTS, "phone-iphone-two-clusters.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a window narrowed and widened again: each part goes to the layout's place and back, the lesson and the run untouched", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 800, hash: "#lesson=10-promoting-a-learner" });
  await page.evaluate(() => window.raftlab.next());
  const places = () => page.evaluate(() => ({
    strip: document.getElementById("lesson-strip").parentElement.className,
    controls: document.querySelector(".lesson-controls").parentElement.id,
    tools: document.querySelector("nav.tools").parentElement.tagName,
    safety: document.getElementById("safety").parentElement.tagName,
    tab: document.getElementById("details").dataset.tab,
    help: document.getElementById("help-button").parentElement.tagName,
  }));
  const wide = await places();
  assert.deepEqual(wide, { strip: "stage-col", controls: "lesson", tools: "BODY", safety: "FOOTER", tab: "tab-log", help: "HEADER" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.documentElement.classList.contains("compact"));
  assert.deepEqual(await places(), { strip: "panel lesson", controls: "lesson-bar", tools: "DIV", safety: "HEADER", tab: "tab-log", help: "DIV" });
  await page.locator("#tab-lesson").click();
  await fits(page, "narrowed");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => !document.documentElement.classList.contains("compact"));
  // The lesson's tab is the compact layout's: the wide one shows its data tab.
  assert.deepEqual(await places(), wide);
  assert.equal(await page.locator("#log").isVisible(), true);
  assert.equal((await lesson(page)).position, 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test("presenter mode and the embedded frame on a phone: no sideways scroll, Next on screen and a finger's size", async () => {
  const device = PHONES.iphone;
  const { page, problems } = await openApp(browser, { device, hash: "?present#lesson=10-promoting-a-learner" });
  assert.equal(await page.evaluate(() => window.raftlab.presenting()), true);
  await next(page);
  const s = await fits(page, "presenter mode");
  assert.ok(s.canvas.width >= 340, JSON.stringify(s.canvas));
  assert.equal(await page.locator("#lesson-says").isVisible(), true);
  assert.deepEqual(await axeViolations(page, { touch: true }), [], "presenter mode");
  await page.screenshot({ path: path.join(SHOTS, "phone-present.png") });
  assert.deepEqual(problems, []);
  await page.close();

  for (const [w, h] of [[320, 480], [390, 844]]) {
    const frame = await browser.newPage({ ...device, viewport: { width: w, height: h } });
    const errors = [];
    frame.on("pageerror", (e) => errors.push(e.message));
    await frame.goto(new URL("embed.html#lesson=10-promoting-a-learner&lang=ja", BASE_URL).href);
    await frame.waitForFunction(() => window.raftlab?.lesson() != null, null, { timeout: 20000 });
    await frame.locator("#embed-next").tap();
    await frame.waitForFunction(() => window.raftlab.lesson().position === 1, null, { timeout: 30000 });
    const e = await frame.evaluate(() => {
      const r = document.getElementById("embed-next").getBoundingClientRect();
      return { sideways: document.documentElement.scrollWidth > innerWidth, r: { x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom } };
    });
    assert.equal(e.sideways, false, `embed ${w}x${h}`);
    assert.ok(e.r.w >= 44 && e.r.h >= 44 && e.r.right <= w && e.r.bottom <= h, `embed ${w}x${h}: ${JSON.stringify(e.r)}`);
    assert.deepEqual(await axeViolations(frame, { touch: true }), [], `embed ${w}x${h}`);
    if (w === 390) await frame.screenshot({ path: path.join(SHOTS, "phone-embed-ja.png") });
    assert.deepEqual(errors, []);
    await frame.close();
  }
});

test("no sideways scroll at any width from 320 px, in the sandbox and in a lesson in Japanese", async () => {
  for (const [w, h] of [[320, 640], [360, 740], [430, 932]]) {
    const device = { viewport: { width: w, height: h }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
    for (const hash of ["", "?lang=ja#lesson=10-promoting-a-learner"]) {
      const { page, problems } = await openApp(browser, { device, hash });
      if (hash) await next(page);
      await fits(page, `${w}x${h} ${hash}`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
});
