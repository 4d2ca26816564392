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
