// Two languages: the page in 日本語 with ?lang=ja (its buttons, panels,
// help and event log), switched to English and back without reloading the
// run; and no page string without both languages.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { launch, openApp, SHOTS, BASE_URL } from "./browser.mjs";
import { PARTS } from "./page-size.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Words a Japanese reader still reads in Latin letters: raftlab's and
 * etcd's names, commands as typed, Raft's own terms, units. */
const KEEP = new Set(("raftlab raft etcd etcdctl member add list learner put get crash cut wait url urls id ids " +
  "match next probe replicate snapshot read index msgapp esc space scenario log bytes shift get http https " +
  "fig page up down home end ctrl enter tab deliver").split(" "));

/** The page's own words outside the log, the keys and the script: visible
 * text, titles, labels and placeholders. */
const chrome = (page) => page.evaluate(() => {
  const out = [];
  const skip = (el) => el.closest("#log, #script, #keys, #scrub-tip, #branch, #lesson-list, #lesson-says, #lesson-title, #lesson-quorum, #lang");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || skip(n.parentElement) || n.parentElement.closest("[hidden]") && !n.parentElement.closest("#help, #lessons")) continue;
    out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (skip(el)) continue;
    for (const a of ["title", "aria-label", "placeholder"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out;
});

const english = (texts) => texts.filter((s) => {
  // Commands in the console's placeholder and tooltips are typed as they are.
  const words = s.replace(/member add N[^·)]*|--[\w-]+|`[^`]*`|\.scenario/g, "").match(/[A-Za-z]{3,}/g) ?? [];
  return words.some((w) => !KEEP.has(w.toLowerCase()));
});

test("every page string has both languages and every binding finds its element", async () => {
  const { page, problems } = await openApp(browser);
  // The embedded lesson's own words (embed.js brings them; the page never loads it).
  const embed = readFileSync(new URL("../../www/embed.js", import.meta.url), "utf8");
  const embedKeys = [...embed.match(/\naddWords\(\{\n([\s\S]*?)\n\}\);/)[1].matchAll(/^ {2}"([^"]+)": "/gm)].map((m) => m[1]);
  assert.ok(embedKeys.length >= 4, embedKeys.join(" "));
  const missing = await page.evaluate(async ([parts, embedKeys]) => {
    const { STRINGS, PAGE, loadLanguage } = await import("./i18n.js");
    // The parts loaded on first use bring their English words.
    await Promise.all(parts.map((p) => import(`.${p}`)));
    await loadLanguage("ja");
    const en = [...Object.keys(STRINGS.en), ...embedKeys], ja = Object.keys(STRINGS.ja);
    return {
      onlyEn: en.filter((k) => !(k in STRINGS.ja)),
      onlyJa: ja.filter((k) => !en.includes(k)),
      unbound: PAGE.filter(([sel, , key]) => !document.querySelector(sel) || !(key in STRINGS.en)).map(([sel, , key]) => `${sel} ${key}`),
      untranslated: ja.filter((k) => STRINGS.ja[k] === STRINGS.en[k] && !/^(put|act\.get|learner\.tip|legend\.readindex|stepMessage)$/.test(k)),
    };
  }, [[...PARTS], embedKeys]);
  assert.deepEqual(missing, { onlyEn: [], onlyJa: [], unbound: [], untranslated: [] });
  assert.deepEqual(problems, []);
  await page.close();
});

test("?lang=ja shows the page in Japanese, and switching languages keeps the run", async () => {
  const { page, problems } = await openApp(browser, { hash: "?lang=ja" });
  assert.equal(await page.evaluate(() => document.documentElement.lang), "ja");
  assert.equal(await page.textContent("#lessons-button"), "レッスン");
  assert.equal(await page.textContent("#quorum-h"), "クォーラム");
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  await page.evaluate(() => window.raftlab.command("etcdctl member list"));
  await page.waitForFunction(() => document.querySelector("#log").textContent.includes("リーダーになりました"));
  assert.match(await page.textContent("#quorum .verdict"), /クォーラム/);
  assert.match(await page.textContent("#safety"), /安全性/);
  const left = english(await chrome(page));
  assert.deepEqual(left, [], "English left on the Japanese page");
  // A console line that does not parse, and a number out of range: why,
  // in Japanese, from the parser's structured error.
  await page.evaluate(() => window.raftlab.command("pt a b"));
  await page.waitForFunction(() => document.querySelector("#log").textContent.includes("未知のコマンド"));
  assert.match(await page.textContent("#log"), /エラー：「pt a b」の1行目1文字目を解釈できません：未知のコマンド「pt」です/);
  await page.evaluate(() => window.raftlab.command("crash 16"));
  assert.match(await page.textContent("#log"), /ノードID 16は範囲外です（ノードIDは1〜15）/);
  await page.evaluate(() => window.raftlab.pause());
  await page.click("#help-button");
  await page.screenshot({ path: path.join(SHOTS, "ja-help.png") });
  await page.keyboard.press("Escape");
  await page.screenshot({ path: path.join(SHOTS, "ja-page.png") });
  // To English and back: the same run goes on.
  const before = await page.evaluate(() => ({ t: window.raftlab.status().time_ms, h: window.raftlab.history() }));
  await page.selectOption("#lang", "en");
  assert.equal(await page.textContent("#lessons-button"), "Lessons");
  assert.match(await page.textContent("#quorum .verdict"), /quorum/);
  const after = await page.evaluate(() => ({ t: window.raftlab.status().time_ms, h: window.raftlab.history() }));
  assert.deepEqual(after, before);
  assert.equal(await page.evaluate(() => localStorage.getItem("raftlab.lang")), "en");
  await page.evaluate(() => window.raftlab.command("crash 1"));
  assert.match(await page.textContent("#log"), /node 1 crashed/);
  await page.selectOption("#lang", "ja");
  await page.evaluate(() => window.raftlab.command("start 1"));
  assert.match(await page.textContent("#log"), /ノード1が起動しました/);
  assert.equal(await page.evaluate(() => window.raftlab.history()), before.h + "crash 1\nstart 1\n");
  assert.deepEqual(problems, []);
  await page.close();
});

test("?lang=ja: a refused member command says why in Japanese, quoting only etcd's own text", async () => {
  const { page, problems } = await openApp(browser, { hash: "?lang=ja" });
  await page.evaluate(() => window.raftlab.setSpeed(8));
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  // Node 2 is a voter: promoting it is refused (not caught up yet, or
  // not a learner), by the server's structured refusal.
  await page.evaluate(() => window.raftlab.command("member promote 2"));
  const refused = /エラー：(learner-not-ready|member-not-learner)（/;
  await page.waitForFunction((re) => [...document.querySelectorAll("#log li")]
    .some((li) => new RegExp(re).test(li.textContent)), refused.source, { timeout: 20000 });
  const line = await page.evaluate((re) => [...document.querySelectorAll("#log li")]
    .map((li) => li.textContent).find((t) => new RegExp(re).test(t)), refused.source);
  assert.match(line, /学習者メンバー/);
  // What stays in Latin letters: the command, the code, Raft's "match" and
  // etcd's own text, quoted at the end; never an English sentence.
  const left = line.replace(/(etcdserver|membership): .*$/, "").replace(/member promote 2|learner-not-ready|member-not-learner/g, "");
  assert.doesNotMatch(left, /[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}/, line);
  assert.doesNotMatch(line, /learner 2 match|can only promote a learner member which/, line);
  assert.deepEqual(problems, []);
  await page.close();
});

test("?lang=ja without its sentences: the page opens in English and says why; Japanese later works", async () => {
  // The run's Japanese sentences come with the page's Japanese words, the
  // first time the page speaks Japanese: here the first fetch fails.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
  let refused = 0;
  await page.route("**/pkg/narration-ja.txt", (route) => (refused++ === 0 ? route.fulfill({ status: 503, body: "" }) : route.continue()));
  await page.goto(BASE_URL + "?lang=ja");
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  assert.equal(await page.textContent("#lessons-button"), "Lessons");
  await page.waitForFunction(() => document.querySelector("#log").textContent.includes("narration-ja.txt: HTTP 503"));
  await page.evaluate(() => window.raftlab.command("crash 1"));
  assert.match(await page.textContent("#log"), /node 1 crashed/);
  // Asked again, it comes: Japanese from then on.
  assert.equal(await page.evaluate(() => window.raftlab.setLanguage("ja")), "ja");
  await page.evaluate(() => window.raftlab.command("start 1"));
  assert.match(await page.textContent("#log"), /ノード1が起動しました/);
  assert.equal(refused, 2);
  assert.deepEqual(problems, []);
  await page.close();
});

test("?lang=ja: a damaged link in the address is refused in Japanese", async () => {
  const { page, problems } = await openApp(browser, { hash: "?lang=ja#v1.ab$" });
  await page.waitForFunction(() => document.querySelector("#log").textContent.includes("拒否されました"));
  const log = await page.textContent("#log");
  assert.match(log, /リンクのペイロードがbase64urlではありません：3文字目に'\$'があります/);
  assert.doesNotMatch(log, /not base64url/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the language is remembered, and the browser's language is the default", async () => {
  const context = await browser.newContext({ locale: "ja-JP", viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(process.env.RAFTLAB_URL ?? "http://127.0.0.1:8000/");
  await page.waitForFunction(() => window.raftlab !== undefined);
  assert.equal(await page.evaluate(() => window.raftlab.language()), "ja");
  await page.evaluate(() => window.raftlab.setLanguage("en"));
  await page.reload();
  await page.waitForFunction(() => window.raftlab !== undefined);
  assert.equal(await page.evaluate(() => window.raftlab.language()), "en");
  assert.equal(await page.textContent("#step"), "Step");
  await context.close();
});

for (const width of [1280, 1024]) {
  test(`the Japanese page keeps its top bar and its actions on one row each at ${width} px`, async () => {
    const { page, problems } = await openApp(browser, { width, height: 800, hash: "?lang=ja" });
    assert.equal(await page.evaluate(() => document.documentElement.lang), "ja");
    // Rows by the buttons' vertical centres: a Japanese font may sit a
    // button a pixel or two off its neighbours; a wrapped row is a whole
    // button height lower.
    // Measured once the page's fonts are in (a button laid out in a
    // fallback font for a moment may wrap its row until they are).
    await page.evaluate(() => document.fonts.ready);
    const countRows = () => ["header.bar", ".tools"].map((s) => {
      const centres = [...document.querySelector(s).querySelectorAll("button")]
        .filter((b) => b.offsetParent !== null)
        .map((b) => { const r = b.getBoundingClientRect(); return (r.top + r.bottom) / 2; })
        .sort((a, b) => a - b);
      return centres.filter((c, i) => i === 0 || c - centres[i - 1] > 10).length;
    });
    const rows = await page.evaluate(countRows);
    assert.deepEqual(rows, [1, 1], "one row of buttons in the top bar and in the actions");
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("lesson 01 with ?lang=ja: list, title and narration in Japanese, then English without reloading", async () => {
  const { page, problems } = await openApp(browser, { hash: "?lang=ja" });
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  const listed = await page.textContent('#lesson-list button[data-id="01-new-member-overloads-leader"]');
  assert.match(listed, /新しいメンバーがリーダーに過負荷をかける/);
  await page.click('#lesson-list button[data-id="01-new-member-overloads-leader"]');
  await page.locator("#lesson").waitFor({ state: "visible" });
  assert.equal(await page.textContent("#lesson-title"), "新しいメンバーがリーダーに過負荷をかける");
  await page.click("#lesson-next");
  await page.waitForFunction(() => !window.raftlab.lesson().playing && window.raftlab.lesson().position === 1, null, { timeout: 20000 });
  const ja = await page.textContent("#lesson-says");
  assert.match(ja, /^図1。投票メンバーは3つです。ノード1が任期2のリーダーです。書き込みは、そのうち2つが受け取るとコミットされます。/, "the narration, its placeholders filled in");
  assert.match(await page.textContent("#log"), /図1。投票メンバーは3つです/);
  await page.screenshot({ path: path.join(SHOTS, "ja-lesson-01.png") });
  const before = await page.evaluate(() => ({ t: window.raftlab.status().time_ms, h: window.raftlab.history() }));
  // To English mid-lesson: the same step, its words re-rendered.
  await page.selectOption("#lang", "en");
  await page.waitForFunction(() => document.querySelector("#lesson-says").textContent.startsWith("Figure 1."));
  assert.match(await page.textContent("#lesson-says"), /^Figure 1\. Three voters\. Node 1 leads term 2;/);
  assert.equal(await page.textContent("#lesson-title"), "A new member overloads the leader");
  assert.doesNotMatch(await page.textContent("#lesson-says"), JAPANESE);
  const after = await page.evaluate(() => ({ t: window.raftlab.status().time_ms, h: window.raftlab.history() }));
  assert.deepEqual(after, before, "switching languages leaves the run alone");
  // And the next step speaks English.
  await page.click("#lesson-next");
  await page.waitForFunction(() => !window.raftlab.lesson().playing && window.raftlab.lesson().position === 2, null, { timeout: 60000 });
  assert.match(await page.textContent("#lesson-says"), /^The cluster gets data/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("every English word is said: each key is named in www/ outside the tables, or under a prefix a template fills", () => {
  const www = new URL("../../www/", import.meta.url);
  const files = readdirSync(www).filter((f) => /\.(js|html)$/.test(f) && f !== "i18n-ja.js");
  const sources = files.map((f) => readFileSync(new URL(f, www), "utf8"));
  // The tables: i18n.js's English and the parts' addWords({...}).
  const tables = [];
  for (const src of sources) {
    const en = src.match(/\n {2}en: \{\n([\s\S]*?)\n {2}\},\n\};/);
    if (en) tables.push(en[1]);
    for (const m of src.matchAll(/\naddWords\(\{\n([\s\S]*?)\n\}(?:, [^\n]*)?\);/g)) tables.push(m[1]);
  }
  const keys = tables.flatMap((tb) => [...tb.matchAll(/(?:^|[\s,])"([^"]+)": "/g)].map((m) => m[1]));
  assert.ok(keys.length > 300, `${keys.length} keys`);
  let rest = sources.join("\n");
  for (const tb of tables) rest = rest.replace(tb, "");
  // `role.${code}`, `legend.${k}`: every key under such a prefix may be said.
  const prefixes = [...rest.matchAll(/`([\w-]+)\.\$\{/g)].map((m) => `${m[1]}.`);
  const unsaid = keys.filter((k) => !rest.includes(`"${k}"`) && !prefixes.some((p) => k.startsWith(p)));
  assert.deepEqual(unsaid, []);
});

test("a part's words: the help opened before its words came fills when they come; the dialogs follow a switch of language", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on("pageerror", (err) => problems.push(err.message));
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route("**/help.js", async (route) => { await held; await route.continue(); });
  await page.goto(BASE_URL);
  await page.waitForFunction(() => window.raftlab !== undefined, null, { timeout: 20000 });
  await page.keyboard.press("?");
  assert.ok(await page.locator("#help").isVisible(), "the help opens at once");
  assert.equal(await page.textContent("#help h3"), "");
  release();
  await page.waitForFunction(() => document.querySelector("#help h3").textContent === "Shapes", null, { timeout: 20000 });
  assert.match(await page.textContent("#help dl"), /presenter mode/);
  await page.keyboard.press("Escape");
  // Every part here: the dialogs' words follow the language both ways.
  // (The lessons' list brings lesson-panel.js; the others come when the page is idle.)
  await page.evaluate(() => window.raftlab.lessons());
  const words = () => page.evaluate(() => ["#help h3", "#modes-h", "#share-h", ".lessons-intro"].map((s) => document.querySelector(s).textContent.slice(0, 20)));
  await page.waitForFunction(() => document.querySelector("#modes-h").textContent === "Learner modes"
    && document.querySelector("#share-h").textContent === "Share this run"
    && document.querySelector(".lessons-intro").textContent.startsWith("Each lesson"), null, { timeout: 20000 });
  const en = await words();
  assert.equal(await page.evaluate(() => window.raftlab.setLanguage("ja")), "ja");
  const ja = await words();
  for (let i = 0; i < en.length; i++) assert.ok(JAPANESE.test(ja[i]) && ja[i] !== en[i], `${en[i]} / ${ja[i]}`);
  assert.equal(await page.evaluate(() => window.raftlab.setLanguage("en")), "en");
  assert.deepEqual(await words(), en);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the English words index.html shows while the module loads are i18n.js's, so nothing changes when the page starts", async () => {
  const { page, problems } = await openApp(browser);
  const differ = await page.evaluate(async () => {
    const { PAGE, STRINGS } = await import("./i18n.js");
    const html = await (await fetch("./index.html")).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const out = [];
    for (const [selector, what, key] of PAGE) {
      for (const el of doc.querySelectorAll(selector)) {
        let shown;
        if (what === "text") shown = el.textContent;
        else if (what === "html") shown = el.innerHTML;
        else if (what === "tail") shown = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()).pop()?.textContent;
        else if (what === "lead") shown = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())?.textContent;
        else shown = el.getAttribute(what);
        // Empty in index.html: filled when the page starts, before it is seen.
        if (shown && shown.trim() && shown.trim() !== STRINGS.en[key].trim()) out.push(`${selector} ${what}: ${JSON.stringify(shown)} against ${JSON.stringify(STRINGS.en[key])}`);
      }
    }
    return out;
  });
  assert.deepEqual(differ, []);
  assert.deepEqual(problems, []);
  await page.close();
});

/** What a Japanese reader may read in Latin letters in a line: a command
 * or word quoted in 「」, etcd's own error texts (etcdserver: ..., and the
 * membership and raft texts it applies, Go's network and context errors it prints), the console's list of commands,
 * Raft message names, codes. Left: raftlab's own words. */
const latinLeft = (text) => text
  .replace(/^› .*$/, "") // the command as typed
  .replace(/「[^」]*」/g, "「」")
  .replace(/(Error: )?(etcdserver|membership|raft|rpc error): [^（）。]*/g, "")
  .replace(/\b(listen|dial) (tcp|udp) [^（）。]*/g, "") // Go's own text, as etcd prints it
  .replace(/\bcontext (deadline exceeded|canceled)/g, "") // Go's, as etcd's client returns it
  .replace(/使えるコマンドは：.*$/, "")
  .replace(/\bMsg\w+/g, "");

/** Runs of three Latin words: an English sentence or a piece of one. */
const ENGLISH_RUN = /[A-Za-z][A-Za-z'-]+[ ,]+[A-Za-z][A-Za-z'-]+[ ,]+[A-Za-z][A-Za-z'-]+/;

/** Every text the reader sees that the run wrote: the log (each folded
 * line's trace too), the lesson's panel, the status line, the timeline's
 * tip and the branch list. */
const runTexts = (page) => page.evaluate(() => {
  const out = [...document.querySelectorAll("#log li")].map((li) => li.textContent);
  for (const s of ["#lesson-figure", "#lesson-title", "#lesson-says", "#lesson-quorum", "#status-state", "#scrub-time", "#scrub-tip", "#branch", "#quorum"]) {
    const el = document.querySelector(s);
    if (el) out.push(...el.innerText.split("\n"));
  }
  return out.filter((s) => s.trim());
});

test("?lang=ja through a lesson, a refused member command, a parse error and a step back in time: no English sentence", async () => {
  const { page, problems } = await openApp(browser, { hash: "?lang=ja" });
  // A lesson, step by step to its end (its header says what it was checked against).
  await page.click("#lessons-button");
  await page.locator("#lessons").waitFor({ state: "visible" });
  await page.click('#lesson-list button[data-id="12-learner-mistakes-are-reversible"]');
  await page.locator("#lesson").waitFor({ state: "visible" });
  // Its heading as shown (innerText, after CSS): レッスン12, lower case
  // kept, and the real-etcd suite's note in Japanese when it has one.
  const kicker = await page.evaluate(() => document.getElementById("lesson-figure").innerText);
  const checked = readFileSync(new URL("../../lessons/checked-against-etcd.txt", import.meta.url), "utf8")
    .split("\n").find((l) => l.startsWith("12-learner-mistakes-are-reversible "));
  assert.match(kicker, /^レッスン12 · 図8、図9/);
  if (checked) assert.ok(kicker.endsWith(` · etcd ${checked.split(" ").slice(1).join("、").replace(/、([^、]*)$/, "と$1")}で検証済み`), kicker);
  await page.evaluate(() => window.raftlab.openLesson("10b-the-ninety-percent-line"));
  assert.match(await page.evaluate(() => document.getElementById("lesson-figure").innerText), /^レッスン10b · 図12/);
  await page.evaluate(() => window.raftlab.openLesson("12-learner-mistakes-are-reversible"));
  const steps = (await page.evaluate(() => window.raftlab.lesson())).steps;
  const seen = [];
  for (let k = 1; k <= steps; k++) {
    await page.click("#lesson-next");
    await page.waitForFunction((k) => !window.raftlab.lesson().playing && window.raftlab.lesson().position === k, k, { timeout: 60000 });
    seen.push(...await runTexts(page));
  }
  assert.match(await page.textContent("#lesson-says"), /[\u3040-\u30ff]/);
  // Out of the lesson, at the console: a refused member command (raftlab's
  // and etcdctl's), a line that does not parse, a node id out of range.
  await page.evaluate(() => window.raftlab.leaveLesson());
  await page.waitForFunction(() => window.raftlab.lesson() == null, null, { timeout: 20000 });
  await page.evaluate(() => { window.raftlab.setSpeed(8); window.raftlab.play(); });
  await page.waitForFunction(() => window.raftlab.status().leader != null, null, { timeout: 20000 });
  for (const c of ["member promote 2", "etcdctl member promote 99", "member remove 7", "pt a b", "crash 16", "cut 1->", "expect leader=9", "crash 1", "wait 3s"]) {
    await page.evaluate((c) => window.raftlab.commandDone(c), c);
  }

  // Back in time, and a write there: a new branch.
  await page.evaluate(() => window.raftlab.pause());
  await page.evaluate(() => window.raftlab.seek(1500));
  await page.click("#back");
  await page.waitForFunction(() => document.querySelector("#timeline").classList.contains("past"));
  seen.push(...await runTexts(page));
  await page.click("#put-one");
  await page.waitForFunction(() => document.querySelector("#log").textContent.includes("分岐2"), null, { timeout: 20000 });
  seen.push(...await runTexts(page));
  const log = await page.textContent("#log");
  for (const said of [/未知のコマンド「pt」です/, /ノードID 16は範囲外です（ノードIDは1〜15）/, /エラー：(member-not-learner（学習者メンバーではない）|learner-not-ready（学習者メンバーがまだリーダーに追いついていない）)/,
    /Error: etcdserver: member not found（ID 99のメンバーはいません/, /ノード1がクラッシュしました/, /ここから分岐2が始まります/]) {
    assert.match(log, said);
  }
  await page.screenshot({ path: path.join(SHOTS, "ja-walk.png") });
  const english = [...new Set(seen)].filter((s) => ENGLISH_RUN.test(latinLeft(s)));
  assert.deepEqual(english, [], "English sentences on the Japanese page");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the walk's filter finds an English sentence, and leaves commands and etcd's texts alone", () => {
  assert.ok(ENGLISH_RUN.test(latinLeft("t=1.00秒 node 1 crashed while it waited")));
  assert.ok(ENGLISH_RUN.test(latinLeft("エラー：unexpected outcome from the server")));
  assert.ok(ENGLISH_RUN.test(latinLeft("t=11.15秒 ✓ put still-available yes: 成功")), "a command not quoted reads as words");
  for (const ok of ["› member promote 2", "エラー：「member add 4 --learner」で追加", "✗ エラー：member-not-found（メンバーが見つからない）。適用時のメンバーシップの検査が変更を拒否しました：membership: member not found",
    "Error: etcdserver: member not found（ID 99のメンバーはいません）", "t=6.46秒 ✗ エラー：timeout（時間切れ）。クライアントの期限切れです：context deadline exceeded", "未知のコマンド「pt」です。使えるコマンドは：wait, wait-until, expect, status", "ノード1がMsgAppをノード2に送りました",
    "etcdは起動時に「creating peer listener failed」で終了します：listen tcp 10.0.0.9:2380: bind: cannot assign requested address（レッスンの想定どおり）"]) {
    assert.ok(!ENGLISH_RUN.test(latinLeft(ok)), ok);
  }
});
