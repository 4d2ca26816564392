import { launch, openApp, PHONES } from "./browser.mjs";
const browser = await launch();
const shots = "/work/scratch/shots";
async function type(page, line) {
  const input = page.locator("#console");
  await input.fill(line);
  await input.press("Enter");
  await page.waitForTimeout(400);
}
for (const [name, opts] of [["laptop", { width: 1366, height: 768 }], ["phone", { device: PHONES.iphone }]]) {
  const { page, problems } = await openApp(browser, opts);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${shots}/w-${name}-0.png` });
  if (name === "laptop") {
    for (const l of ["etcdctl member add n4 --peer-urls=http://n4:2380 --learner", "start 4", "wait 3s", "etcdctl member list -w table", "etcdctl member promote 4", "etcdctl endpoint status --cluster -w table", "etcdctl put a b", "etcdctl get a --consistency=s --endpoints=n4:2379"]) await type(page, l);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `${shots}/w-${name}-1.png` });
    const log = await page.evaluate(() => document.querySelector("#console-log, #log, .console-log")?.innerText?.slice(0, 2500));
    console.log(log);
  }
  console.log(name, problems);
  await page.close();
}
await browser.close();
