import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, openApp, SHOTS } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("the page loads the wasm module and draws the cluster without errors", async () => {
  const { page, problems } = await openApp(browser);
  const status = await page.textContent("#status");
  assert.match(status, /3 voters/);
  // The canvas is no longer blank where node 1 sits.
  const painted = await page.evaluate(() => {
    const c = document.getElementById("cluster");
    const d = c.getContext("2d").getImageData(c.width / 2 - 30, c.height / 2 - 0.35 * Math.min(c.width, c.height), 1, 1).data;
    return Array.from(d);
  });
  assert.notDeepEqual(painted, [0, 0, 0, 0]);
  await page.screenshot({ path: path.join(SHOTS, "page.png") });
  assert.deepEqual(problems, []);
});
