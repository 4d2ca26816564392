// The page's weight as a browser loads it: what it loads before it is usable
// stays within the 250 KB budget gzipped, the lessons and the Japanese words
// come only when first asked for, and the parts loaded on first use and the
// module's deferred part come once the page is idle, unasked.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE_URL, launch } from "./browser.mjs";
import { pageSize, recordLoads, BUDGET_BYTES, ASKED, PARTS, PREFETCHED, DEFERRED_MODULE } from "./page-size.mjs";

let browser;
// A request's "finished" event may come a moment after the page used it.
async function until(cond, what, tries = 100) {
  for (let i = 0; i < tries && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(cond(), what);
}
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("the page's first load stays within its budget, and the lessons and the deferred module come later", async () => {
  const page = await browser.newPage();
  const loaded = recordLoads(page);
  let moduleSent = null; // the module's answer, as it crossed the network
  page.on("requestfinished", async (r) => {
    if (new URL(r.url()).pathname !== "/pkg/raftlab_bg.wasm") return;
    const response = await r.response();
    moduleSent = {
      encoding: await response.headerValue("content-encoding"),
      bytes: (await r.sizes()).responseBodySize,
    };
  });
  await page.goto(BASE_URL);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  // No function of the module's deferred part ran before the page fetched
  // it ahead (tools/split/deferred.txt names only what a first visit does
  // not run: make split-profile writes it again when this fails).
  assert.notEqual(
    await page.evaluate(() => window.raftlab.deferred()),
    "when first called",
    "a function of the module's deferred part ran before the page was ready, so the part was part of the first load: run make split-profile (docs/page-module.md)",
  );
  await page.evaluate(() => window.raftlab.idle());
  await until(() => loaded.includes("/pkg/raftlab_bg.wasm"), `the module among ${loaded.join(" ")}`);
  // What loaded before the page was usable: the files not loaded later
  // (the prefetched parts may have come by now; they are not counted).
  const { first } = await pageSize(loaded, BASE_URL);
  const names = first.files.map((f) => f.path);
  for (const lazy of ASKED) assert.ok(!names.includes(lazy), `${lazy} loaded before it was asked for`);
  // The parts loaded on first use come without a click, once the page is idle.
  // (The page asks within 2 s; a busy machine may take longer to fetch them.)
  for (const part of PREFETCHED) await until(() => loaded.includes(part), `${part} among ${loaded.join(" ")}`, 300);
  assert.ok(!loaded.some((p) => ASKED.has(p)), `the prefetch fetched no more than its parts: ${loaded.join(" ")}`);
  // The server sends the page gzipped, so what is counted is what the
  // browser receives, or a little more: the server's compressor (miniz's
  // best) and Node's (zlib's level 9) differ by a percent or two, the
  // server's mostly the smaller. The count must not fall short of what is
  // sent, and a count far above it would be counting something else.
  await until(() => moduleSent !== null, "the module's answer");
  assert.equal(moduleSent.encoding, "gzip");
  const counted = first.files.find((f) => f.path === "/pkg/raftlab_bg.wasm").gzipped;
  assert.ok(
    moduleSent.bytes <= counted * 1.01 && moduleSent.bytes >= counted * 0.95,
    `sent ${moduleSent.bytes} bytes, counted ${counted}`,
  );
  assert.ok(
    first.gzipped <= BUDGET_BYTES,
    `the page's first load is ${first.gzipped} bytes gzipped, over its budget of ${BUDGET_BYTES}: ${first.files.map((f) => `${f.path} ${f.gzipped}`).join(", ")}`,
  );
  // The deferred part came ahead, once, and the page runs on it.
  await page.waitForFunction(() => window.raftlab.deferred() === "ahead", null, { timeout: 15000 });
  assert.equal(loaded.filter((p) => p === DEFERRED_MODULE).length, 1, loaded.join(" "));
  // The lesson list fetches them, once.
  const lessons = await page.evaluate(() => window.raftlab.lessons());
  assert.ok(lessons.length >= 20, `${lessons.length} lessons`);
  await until(() => loaded.includes("/pkg/lessons.txt"), `the lessons among ${loaded.join(" ")}`);
  await page.evaluate(() => window.raftlab.lessons());
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(loaded.filter((p) => p === "/pkg/lessons.txt").length, 1, loaded.join(" "));
  // Switching to Japanese fetches the page's Japanese words, then speaks them.
  assert.equal(await page.evaluate(() => window.raftlab.setLanguage("ja")), "ja");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "ja");
  assert.equal(await page.textContent("#lessons-button"), "レッスン");
  await until(() => loaded.includes("/i18n-ja.js"), `the Japanese words among ${loaded.join(" ")}`);
  await until(() => loaded.includes("/pkg/narration-ja.txt"), `the Japanese sentences among ${loaded.join(" ")}`);
  await page.close();
});

test("a function of the module's deferred part that runs before the part came fetches it at once, and only then", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const loaded = recordLoads(page);
  // A script that does not parse: the parser's error path is not run on a
  // first visit, so saying what is wrong needs the deferred part at once.
  await page.goto(`${BASE_URL}#script=${encodeURIComponent("cluster voters=1,2,3\nbogus 1\n")}`);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => window.raftlab.deferred()), "when first called");
  await page.waitForFunction(() => /bogus/.test(document.getElementById("log").textContent), null, { timeout: 5000 });
  await page.evaluate(() => window.raftlab.idle());
  await new Promise((r) => setTimeout(r, 2500)); // past the idle prefetch
  await until(() => loaded.includes(DEFERRED_MODULE), `the deferred part among ${loaded.join(" ")}`);
  assert.equal(loaded.filter((p) => p === DEFERRED_MODULE).length, 1, loaded.join(" "));
  // The page goes on: a write is taken and committed.
  const r = await page.evaluate(() => window.raftlab.command("put k v"));
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a deferred part that cannot be fetched when a function of it is called is said in the log, with what to do", async () => {
  const page = await browser.newPage();
  await page.route("**/pkg/raftlab_deferred.wasm", (r) => r.fulfill({ status: 503, body: "down" }));
  await page.goto(`${BASE_URL}#script=${encodeURIComponent("cluster voters=1,2,3\nbogus 1\n")}`);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  await page.waitForFunction(() => /could not be fetched/.test(document.getElementById("log").textContent), null, { timeout: 5000 });
  const log = await page.textContent("#log");
  assert.match(log, /raftlab_deferred\.wasm\) could not be fetched \(503 Service Unavailable\): reload the page/);
  assert.equal(await page.evaluate(() => window.raftlab.deferred()), null);
  await page.close();
});

test("app.js reaches each part loaded on first use through its one helper, and fetches each ahead", () => {
  const src = readFileSync(new URL("../../www/app.js", import.meta.url), "utf8");
  // Every dynamic import in app.js is a part: `NAME = part(() => import("./FILE"))`.
  const imports = [...src.matchAll(/import\("\.\/([\w.-]+\.js)"\)/g)].map((m) => m[1]);
  const parts = [...src.matchAll(/const (\w+) = part\(\(\) => import\("\.\/([\w.-]+\.js)"\)\);/g)];
  assert.deepEqual(parts.map((m) => m[2]).sort(), imports.sort(), "an import outside part()");
  // They are the parts page-size.mjs counts as fetched ahead, and the idle prefetch asks for each.
  assert.deepEqual(new Set(imports.map((f) => `/${f}`)), PARTS);
  const prefetch = src.match(/for \(const load of \[([^\]]*)\]\) load\(\)/)?.[1].split(/,\s*/);
  assert.deepEqual(prefetch?.sort(), parts.map((m) => m[1]).sort());
  // No part is kept in a variable of its own beside its helper.
  assert.doesNotMatch(src, /import\([^)]*\)\.then\(/);
});
