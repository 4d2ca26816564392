// etcdctl in the console: an operator's own commands, recorded as the
// scenario commands they stand for.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { launch, openApp } from "./browser.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("etcdctl member add --learner adds a learner, shown as etcdctl prints it", async () => {
  const { page, problems } = await openApp(browser);
  await page.evaluate(() => window.raftlab.pause());
  // etcd refuses member changes until the peers have been connected for 5s.
  // Each command awaited to its end: on a busy machine one may go on in
  // slices after its first stretch.
  await page.evaluate(() => window.raftlab.commandDone("wait 6s"));
  const r = await page.evaluate(() => window.raftlab.commandDone("etcdctl member add n4 --peer-urls=http://n4:2380 --learner"));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.command, "member add 4 --learner --peer-url=http://n4:2380");
  assert.match(r.etcdctl[0], /^Member [0-9a-f ]{16} added as learner to cluster [0-9a-f ]{16}$/);
  const s = await page.evaluate(() => window.raftlab.status());
  assert.deepEqual(s.learners, [4]);
  assert.match(await page.evaluate(() => window.raftlab.history()), /member add 4 --learner --peer-url=http:\/\/n4:2380\n$/);
  const log = await page.textContent("#log");
  assert.ok(log.includes(r.etcdctl[0]), log);
  assert.ok(log.includes("ETCD_NAME=\"n4\""), log);
  // The list names the learner by its hex id, unstarted until its process runs.
  const list = await page.evaluate(() => window.raftlab.commandDone("etcdctl member list"));
  assert.ok(list.etcdctl.some((row) => /^[0-9a-f]+, unstarted, , http:\/\/n4:2380, , true$/.test(row)), list.etcdctl.join("\n"));
  // A command raftlab does not model changes nothing and says so.
  const refused = await page.evaluate(() => window.raftlab.commandDone("etcdctl watch k"));
  assert.equal(refused.ok, false);
  assert.match(refused.detail, /does not model "etcdctl watch"/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("etcdctl member list -w table draws etcdctl's table, its columns lined up", async () => {
  const { page, problems } = await openApp(browser, { width: 1280, height: 800 });
  await page.evaluate(() => window.raftlab.pause());
  await page.evaluate(() => window.raftlab.commandDone("wait 6s"));
  await page.evaluate(() => window.raftlab.commandDone("etcdctl member add n4 --peer-urls=http://n4:2380 --learner"));
  // Typed into the console, as a user types it.
  await page.fill("#console", "etcdctl member list -w table");
  await page.press("#console", "Enter");
  await page.waitForFunction(() => document.querySelector("#log li.table") !== null);
  const table = await page.$eval("#log li.table", (li) => ({
    text: li.textContent,
    whiteSpace: getComputedStyle(li).whiteSpace,
    font: getComputedStyle(li).fontFamily,
    tabIndex: li.tabIndex,
    scrolls: li.scrollWidth > li.clientWidth,
  }));
  const lines = table.text.split("\n");
  // The border, the header, the border, four members, the border: every
  // line as wide as the others, the columns' bars in the same places.
  assert.equal(lines.length, 8, table.text);
  assert.ok(lines.every((l) => l.length === lines[0].length), table.text);
  assert.match(lines[1], /^\| +ID +\| +STATUS +\| NAME \| +PEER ADDRS +\| +CLIENT ADDRS +\| IS LEARNER \|$/);
  assert.match(lines[6], /^\| [0-9a-f]+ \| unstarted \| +\| http:\/\/n4:2380 \| +\| +true \|$/);
  const bars = (l) => [...l].flatMap((c, i) => (c === "|" || c === "+" ? [i] : []));
  for (const l of lines.slice(1)) assert.deepEqual(bars(l), bars(lines[0]), l);
  assert.equal(table.whiteSpace, "pre");
  assert.match(table.font, /mono/i);
  // Wider than the panel: it scrolls sideways, and takes the focus to.
  assert.equal(table.scrolls, true);
  assert.equal(table.tabIndex, 0);
  // A command etcdctl's table printer has no table for runs, then says so.
  const put = await page.evaluate(() => window.raftlab.commandDone("etcdctl put k v -w table"));
  assert.deepEqual(put.etcdctl, ["Error: table not supported as output format"]);
  const get = await page.evaluate(() => window.raftlab.commandDone("etcdctl get k"));
  assert.deepEqual(get.etcdctl, ["k", "v"]);
  // A printer etcdctl does not have changes nothing.
  const before = await page.evaluate(() => window.raftlab.history());
  const bad = await page.evaluate(() => window.raftlab.commandDone("etcdctl put k w -w tabel"));
  assert.equal(bad.ok, false);
  assert.match(bad.detail, /unsupported output format/);
  assert.equal(await page.evaluate(() => window.raftlab.history()), before);
  assert.deepEqual(problems, []);
  await page.close();
});
