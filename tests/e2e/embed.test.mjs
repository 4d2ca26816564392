// embed.html as a blog or course page uses it: inside an iframe on another
// page, one lesson (or share link) with its words and Back / Next, sized by
// the iframe; `&lang=ja` speaks Japanese; a bad `#lesson=` says so clearly.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, BASE_URL, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A host page holding `<iframe src=embed.html#hash>` of width x height;
 * the frame, once its app is ready, and the problems seen. */
async function host(hash, { width = 640, height = 420 } = {}) {
  const page = await browser.newPage({ viewport: { width: width + 80, height: height + 160 }, deviceScaleFactor: 1 });
  const problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  const hostUrl = new URL("blog-post.html", BASE_URL).href;
  await page.route(hostUrl, (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><title>a blog post</title><h1>Learners</h1>
      <iframe id="lesson" src="embed.html${hash}" width="${width}" height="${height}" style="border:1px solid #ccc"></iframe><p>after</p>`,
  }));
  await page.goto(hostUrl);
  const frame = page.frame({ url: /embed\.html/ });
  await frame.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  return { page, frame, problems };
}

test("a lesson in an iframe: it loads, Next plays and skips a step, Back goes back, no page errors", async () => {
  const { page, frame, problems } = await host("#lesson=10-promoting-a-learner");
  const l0 = await frame.evaluate(() => window.raftlab.lesson());
  assert.equal(l0.id, "10-promoting-a-learner");
  assert.equal(await frame.textContent("#embed-title"), l0.title);
  assert.equal(await frame.isVisible("#embed-error"), false);
  // Minimal chrome: no bar, no side panel.
  assert.equal(await frame.locator("header, aside, footer").count(), 0);
  await frame.click("#embed-next");
  await frame.evaluate(() => { if (window.raftlab.lesson().playing) document.querySelector("#embed-next").click(); });
  await frame.waitForFunction(() => !window.raftlab.lesson().playing, null, { timeout: 20000 });
  const l1 = await frame.evaluate(() => window.raftlab.lesson());
  assert.equal(l1.position, 1);
  assert.ok(l1.says.length > 0);
  assert.equal(await frame.textContent("#embed-says"), l1.says.join(""));
  assert.equal(await frame.textContent("#embed-count"), `1 / ${l1.steps}`);
  // The canvas fills what the words leave of the iframe.
  const c = await frame.locator("#cluster").boundingBox();
  assert.ok(c.width >= 600 && c.height >= 150, JSON.stringify(c));
  await page.screenshot({ path: path.join(SHOTS, "embed-640x420.png") });
  await frame.click("#embed-back");
  assert.equal((await frame.evaluate(() => window.raftlab.lesson())).position, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test("&lang=ja shows the embedded lesson in Japanese, at 480x360 and wide", async () => {
  for (const [width, height] of [[480, 360], [900, 480]]) {
    const { page, frame, problems } = await host("#lesson=10-promoting-a-learner&lang=ja", { width, height });
    assert.equal(await frame.evaluate(() => document.documentElement.lang), "ja");
    assert.match(await frame.textContent("#embed-kicker"), /レッスン/);
    assert.match(await frame.textContent("#embed-next"), /[\u3040-\u30ff\u4e00-\u9fff]/);
    // Everything inside the iframe: Next is on screen and clickable.
    const next = await frame.locator("#embed-next").boundingBox();
    const box = await page.locator("#lesson").boundingBox();
    assert.ok(next.y + next.height <= box.y + box.height && next.x + next.width <= box.x + box.width, JSON.stringify({ next, box }));
    await frame.click("#embed-next");
    await frame.waitForFunction(() => window.raftlab.lesson().position === 1, null, { timeout: 30000 });
    await page.screenshot({ path: path.join(SHOTS, `embed-ja-${width}x${height}.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("a bad #lesson= in embed.html says clearly what is wrong", async () => {
  const { page, frame, problems } = await host("#lesson=99-no-such-lesson");
  assert.equal(await frame.isVisible("#embed-error"), true);
  const msg = await frame.textContent("#embed-error");
  assert.match(msg, /cannot be shown/);
  assert.match(msg, /99-no-such-lesson/);
  assert.equal(await frame.isDisabled("#embed-next"), true);
  assert.deepEqual(problems, []);
  await page.close();
  const none = await host("");
  assert.match(await none.frame.textContent("#embed-error"), /embed\.html#lesson=/);
  await none.page.close();
});

test("a share link in embed.html opens that run, and Next steps it", async () => {
  const { page: p } = await host("#lesson=10-promoting-a-learner");
  await p.close();
  const main = await browser.newPage();
  await main.goto(BASE_URL);
  await main.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  await main.evaluate(() => { window.raftlab.pause(); window.raftlab.command("put a 1"); window.raftlab.command("wait 2s"); });
  const link = await main.evaluate(() => window.raftlab.share());
  const at = await main.evaluate(() => window.raftlab.status().time_ms);
  await main.close();
  const { page, frame, problems } = await host(link.slice(link.indexOf("#")));
  assert.equal(await frame.evaluate(() => window.raftlab.mode()), "link");
  assert.equal(await frame.evaluate(() => window.raftlab.app.timeMs()), at);
  await frame.click("#embed-next");
  assert.ok((await frame.evaluate(() => window.raftlab.app.timeMs())) > at);
  assert.deepEqual(problems, []);
  await page.close();
});
