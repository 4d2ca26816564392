// The page's load size: everything a browser fetches to open the app and a
// lesson, gzipped, is at most 250 KB (the budget README states).
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, BASE_URL } from "./browser.mjs";
import { pageSize, recordLoads, BUDGET_BYTES } from "./page-size.mjs";

test("the page loads at most 250 KB gzipped, lessons included", async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const loaded = recordLoads(page);
    await page.goto(BASE_URL);
    await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
    // A lesson opened, in case its text is ever fetched rather than built in.
    const first = await page.evaluate(() => window.raftlab.lessons()[0].id);
    await page.evaluate((id) => window.raftlab.openLesson(id), first);
    await page.waitForLoadState("networkidle");
    const size = pageSize(loaded);
    assert.ok(size.files.some((f) => f.path.endsWith(".wasm")), `the module was not among the loads: ${loaded}`);
    const list = size.files.map((f) => `${f.path} ${f.gzipped}`).join(", ");
    assert.ok(size.gzipped <= BUDGET_BYTES,
      `the page loads ${size.gzipped} bytes gzipped, over the budget of ${BUDGET_BYTES}: ${list}`);
  } finally {
    await browser.close();
  }
});
