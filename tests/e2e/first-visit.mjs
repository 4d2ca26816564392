// What a first visit runs of the page's module, for `make split-profile`
// (tools/split-profile.sh): the page at RAFTLAB_URL serves a module whose
// every function tells `globalThis.raftlabRan` its number as it starts.
// Prints the numbers of those that ran, one a line, over two visits: one in
// English and one in Japanese (the language a browser set to Japanese opens
// in), each from the address with nothing after it, ready, then playing for
// ten seconds (two simulated seconds of the default run: the page is ready
// within its first tenth of one).
import { BASE_URL, launch } from "./browser.mjs";

const browser = await launch();
const ran = new Set();
const problems = [];
for (const locale of ["en-US", "ja-JP"]) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`${locale}: ${e.message}`));
  await page.goto(BASE_URL);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 30000 });
  await page.waitForTimeout(10000);
  for (const n of await page.evaluate(() => [...(globalThis.raftlabRan ?? [])])) ran.add(n);
  await context.close();
}
await browser.close();
if (problems.length > 0 || ran.size === 0) {
  console.error(problems.length > 0 ? problems.join("\n") : "no function ran: is the module at RAFTLAB_URL instrumented?");
  process.exit(1);
}
console.log([...ran].sort((a, b) => a - b).join("\n"));
