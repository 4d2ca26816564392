// The page's own words in English and 日本語: labels, tooltips, help and
// the messages app.js writes. Every sentence about the run (events, results,
// panels' verdicts, the canvas) is made in Rust by the language's Renderer;
// this table holds only what the page itself says. The vocabulary follows
// the design document (docs/glossary-ja.md).
//
// `PAGE` binds index.html's elements to keys: [selector, what, key], where
// `what` is "text", "html" (trusted: from this table), "lead" (the first
// text of the element, before its children), or an attribute name.
// tests/e2e/i18n.test.mjs fails when a key lacks a language, a selector
// matches nothing, or English is left on the Japanese page.
//
// English is here, but for the words of the parts of the page loaded on
// first use (app.js's "parts loaded on first use"): each part brings its
// own (addWords). Every other language is a module of its own
// (i18n-ja.js, all of its words), loaded by loadLanguage the first time
// the page speaks it, with the sentences the wasm module says in it
// (pkg/narration-ja.txt).
import { loadNarration } from "./pkg/raftlab.js";

export const LANGS = { en: "English", ja: "日本語" };

// The modules of the languages other than English: literal paths, which
// make dist inlines.
const MODULES = { ja: () => import("./i18n-ja.js") };

// The run's sentences in the languages other than English: the wasm module
// keeps the grammar and none of the words (src/words/narration-ja.txt,
// copied to pkg/ by tools/build-pkg.sh), so an English page never loads
// them. The one-file build (make dist) inlines them as
// globalThis.raftlabNarration.
const NARRATION = { ja: "narration-ja.txt" };
const fetchNarration = (lang) =>
  pkgText(NARRATION[lang], globalThis.raftlabNarration?.[lang], `the ${LANGS[lang]} sentences`);

/** A text file the build writes into pkg/ beside the module (the lessons,
 * a language's sentences), or what the one-file build inlined in its place
 * (`inlined`); rejects with a readable error saying `what` is missing. */
export async function pkgText(file, inlined, what) {
  if (inlined !== undefined) return inlined;
  const url = new URL(`./pkg/${file}`, import.meta.url);
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${what} could not be loaded (${url.pathname}: HTTP ${r.status})`);
  return r.text();
}

export const STRINGS = {
  en: {
    "doc.title": "raftlab: Raft with learners",
    "aria.time": "Time", "aria.runs": "Lessons and runs", "aria.reset": "Reset", "aria.tools": "Cluster actions",
    "aria.add": "Add a member", "aria.network": "Network", "aria.clients": "Clients", "aria.cluster": "The cluster",
    "aria.legend": "Legend", "aria.timeline": "Timeline of the run", "aria.lessonStrip": "Lesson progress",
    "aria.details": "Details", "aria.data": "Data", "aria.safety": "Raft safety", "aria.close": "Close",
    "aria.lang": "Language", "aria.canvas": "The cluster drawn live: nodes, links, messages and logs. Click or tap a node, a link or a message for its actions; from the keyboard, the arrow keys pick one and Enter shows its actions.",
    "aria.scrub": "Moment of the run: drag, or use the arrow keys, Page Up and Down, Home and End",
    "play": "Play", "pause": "Pause", "play.tip": "Play or pause (space)",
    "play.tipLesson": "Play or pause (space). In a lesson, letting the clock run leaves the lesson's path",
    "step": "Step", "step.tip": "Run to the next event (right arrow)", "speed": "speed",
    "stepMessage": "✉▸", "stepMessage.tip": "Deliver the next message alone, and nothing else (deliver-next)",
    "stepMessage.aria": "next message",
    "lessons": "Lessons", "lessons.tip": "Guided lessons: the learner design, figure by figure",
    "share": "Share", "share.tip": "Copy a link that opens this run at this moment",
    "export": "Export", "export.tip": "Download this run as a .scenario file",
    "import": "Import", "import.tip": "Open a .scenario file (or drop one on the page)",
    "seed": "seed ", "reset": "Reset",
    "aside.tip": "Hide or show the side panel", "help.tip": "Help and keyboard shortcuts (?)",
    "group.add": "add member", "group.network": "network", "group.client": "client",
    "voter": "voter", "voter.tip": "member add N: a new voter (its process is not started yet)",
    "learner": "learner", "learner.tip": "member add N --learner",
    "bad": "misconfigured", "bad.tip": "member add N with a peer URL that reaches nobody",
    "isolate": "isolate leader", "isolate.tip": "isolate the leader",
    "split31": "split 3+1", "split31.tip": "partition: the leader with two others | the rest",
    "split22": "split 2+2", "split22.tip": "partition into two halves",
    "heal": "heal all", "heal.tip": "heal every link",
    "put": "put", "put.tip": "put a key through the leader",
    "load": "load", "load.tip": "start or stop a steady write load",
    "legend.leader": "leader", "legend.follower": "follower", "legend.precandidate": "pre-candidate",
    "legend.candidate": "candidate", "legend.down": "down", "legend.learner": "learner",
    "legend.timer": "election timer", "legend.append": "append", "legend.heartbeat": "heartbeat",
    "legend.prevote": "pre-vote", "legend.vote": "vote", "legend.snapshot": "snapshot",
    "legend.readindex": "read index", "legend.transfer": "transfer", "legend.note": "replies lighter · size ∝ log(bytes)",
    "legend.cut": "cut link",
    "back": "◂ back", "back.tip": "Step back to the previous event (←)",
    "live": "live »", "live.tip": "Back to the live edge of the run", "branch": "branch",
    "branch.help": "Acting in the past starts a new branch; the run you left is kept here.",
    "strip.lesson": "lesson", "leave": "leave lesson", "leave.tip": "Leave the lesson and return to your sandbox run",
    "off": "You left the lesson's path (a command of your own, or the clock ran): what follows may not go as the lesson says.",
    "rejoin": "↩ return to the lesson", "lback": "◂ Back", "lback.tip": "Back one step (←)",
    "restart": "⟲ Restart", "restart.tip": "From the start", "next": "Next ▸", "next.tip": "Play the step to the next pause (→); press again to skip to it",
    "skip": "Skip ▸▸", "skip.tip": "Run the rest of the step at once, to its pause (→)",
    "begin": "Begin ▸", "nextLesson": "Next lesson ▸",
    "quorum": "quorum", "tab.events": "events", "tab.keys": "keys", "tab.script": "script",
    "clear": "clear", "clear.tip": "Clear the events", "copy": "copy",
    "console.placeholder": "a scenario command: put k v · crash 1 · member add 4 --learner · etcdctl member list · wait 2s   (↑↓ history)",
    "run": "run", "drop": "Drop a <b>.scenario</b> file to open it",
    "present.exit": "Leave presenter mode (esc)", "present.next": "next",
    "close": "close",
    // Messages app.js writes.
    "error": "error: {msg}",
    "none": "none", "row.leader": "leader", "row.voters": "voters", "row.learners": "learners",
    "row.learnersOf": "({n} of max {max})", "row.quorum": "quorum", "row.quorumOf": "{q} of {n} voters",
    "row.reachable": "reachable", "row.noLeader": "no leader", "row.acked": "acked commit {commit}",
    "status": "{voters} voters, {learners} learners, leader {leader}", "status.noLearners": "{voters} voters, 0 learners, leader {leader}",
    // With several clusters: each one's words after its name, one after the other.
    "ofCluster": "{name}: {text}",
    "past.tip": "in the past of the run: the timeline's live button returns to its end",
    "keys.node": "node {id}", "keys.applied": "applied {n}", "keys.none": "no keys", "keys.down": "not running",
    "role.leader": "leader", "role.follower": "follower", "role.candidate": "candidate", "role.pre-candidate": "pre-candidate",
    "role.down": "down", "role.not started": "not started", "role.joining": "joining", "role.removed": "removed",
    "popup.voter": "voter", "popup.learner": "learner",
    "clockRuns": "The clock runs: this leaves the lesson's path (the lesson's next step may not go as it says). “Return to the lesson” puts it back.",
    "scrub.value": "t = {now} of {end}", "scrub.live": ", the live edge", "scrub.past": ", in the past",
    "scrub.timeLive": "{now} · live", "scrub.timeOf": "{now} of {end}",
    "figure.list": "figure {list}", "figures.list": "figures {list}", "figure.n": "{n}", "figure.sep": ", ",
    "source.of": "{what}: {name}", "leader.id": "{id}", "proposal": "proposal",
    "proposal.learner-by-default": "learner by default", "proposal.auto-promotion": "automatic promotion",
    "proposal.failover": "standby for failover", "proposal.read-only": "read-only learner",
    "comparison": "comparison", "comparison.mirror-maker": "a learner or the mirror maker",
    "raft": "Raft", "raft.figure-8": "the Raft paper's figure 8", "raft.election-restriction": "the election restriction",
    "raft.learner-votes": "a learner's vote",
    "lesson.start": "Lesson {number}: {title}. Press Next (or →) to begin; the clock stands still between steps.",
    "lesson.atStart": "The lesson's start: press Next to begin.",
    "lesson.over": "The lesson is over: Restart it, pick another, or leave it.",
    "lesson.back": "↩ Back on the lesson's path.",
    "lesson.left": "You left the lesson: this is your sandbox run, as you left it.",
    "lesson.kicker": "Lesson {number} · {figures}", "lesson.pressNext": "Press Next to begin.",
    "lesson.end": "The end of the lesson.",
    "lesson.nextTitle": "Lesson {number}: {title}",
    "open.refused": "{what} was refused: {error}", "open.link": "The link", "open.file": "The file {name}", "open.theFile": "The file",
    "open.done": "{what} opened: the same run, at t = {t}{of}. Press Play to run on from here.", "open.of": " of {end}",
    "link.refused": "✗ The link in this page's address was refused: {error}. Here is a fresh cluster instead.",
    "link.opened": "A shared run, opened at t = {t}. Press Play to run on from here, or drag the timeline.",
    "welcome": "Welcome. The three voters are waiting for their election timers (the rings). {act} a node, a link or a message, or type a command below. {help}",
    "welcome.script": "Welcome. This is the run the address's script describes. {act} a node, a link or a message, or type a command below. {help}",
    "welcome.click": "Click", "welcome.tap": "Tap",
    "welcome.help": "Press ? for help, or open the Lessons.",
    "welcome.help.menu": "Open the help from the menu (☰), or the Lessons.",
    "lang.switched": "Language: English. Lines already in the log keep their words.",
    // Long runs: the progress bar, its Cancel, and the confirm before a big run.
    "run.cancel": "Cancel", "run.cancel.tip": "Stop the run at the last command that finished",
    "run.progress": "Running: {done} of {total} simulated · {c} of {n} commands",
    "run.left": " · about {left} left",
    "run.seeking": "Going to t = {to}: {done} of {total} replayed",
    "confirm.title": "This run is big", "confirm.run": "Run now ({n})", "confirm.skip": "Don't run",
    "confirm.text": "It runs {nodes} nodes for {time} of simulated time{load}: {n} commands. This page may take about {est} to run it. The page stays usable meanwhile, and Cancel stops the run.",
    "confirm.load": " under a load of {rate} writes a second of {size} each",
    "confirm.skipped": "The run was not run: the cluster stands at its start (t = 0). Open the link again to run it.",
    "dur.s": "{n} s", "dur.min": "{n} min", "dur.h": "{n} h",
    "log.skipped": "… {n} lines of the run not shown here",
    "sec": "{s} s",
    // The learner modes, the kinds of learners and the history view.
    "reset.tip2": "Start again from a fresh cluster with this seed and the run's modes (leaves a lesson)",
    "seed.tip": "seed of the fresh run",
    "modes": "modes", "modes.tip": "The design document's learner modes, for a fresh run. This run: {on}", "modes.allOff": "as etcd (all off)",
    "modes.learnersFirst": "learners first", "modes.auto": "auto-promote {p}%", "modes.failover": "failover {s} s, {how}",
    "modes.maxLearners": "{n} learners at most",
    "row.modes": "modes",
    "standby": "standby", "standby.tip": "member add N --learner --standby: a learner kept to replace a failed voter",
    "readOnly": "read-only", "weak": "weak", "strong": "strong",
    "weak.tip": "member add N --learner --read-only=weak: a read-only learner answering reads from its own state, possibly stale",
    "strong.tip": "member add N --learner --read-only=strong: a read-only learner confirming reads through the leader (read index)",
    "legend.standby": "standby", "legend.readweak": "read-only weak", "legend.readstrong": "read-only strong",
    "kind.standby": "standby learner", "kind.readOnly": "read-only learner ({mode})",
    "tab.history": "history", "tab.history.tip": "The clients' operations on a time axis, checked for linearizability",
    "kh.button": "history of key", "kh.key": "key",
    "kh.empty": "type a key",
    // Phones, tablets and the keyboard: the compact layout's menu, tabs,
    // legend, zoom and lesson bar; the status line; the canvas's keys.
    "menu": "menu", "menu.tip": "The toolbar's actions, the speed, the run's files, a fresh run and the help",
    "legend": "legend", "legend.tip": "Show or hide what the colours and shapes mean",
    "aria.zoom": "Zoom", "zoom.in": "zoom in", "zoom.out": "zoom out", "zoom.reset": "the whole cluster (pinch, or ctrl and the wheel, zooms too)",
    "tab.lesson": "lesson", "aria.lessonBar": "Lesson steps",
    "status.step": "Step {k} of {n}: {says}",
    "canvas.node": "node {id}, {kind}, {role}: Enter shows its actions",
    "canvas.link": "the link between {a} and {b}: Enter shows its actions (cut, hold, release), shift and Enter cuts one way only",
    "canvas.linkCut": "the link between {a} and {b}, cut: Enter shows its actions (heal, hold, release)",
    "canvas.message": "{kind} from {from} to {to}: Enter shows what it carries, with Drop",
  },
};

/** [selector, what, key]: the page's static words. */
export const PAGE = [
  ["#run-cancel", "text", "run.cancel"], ["#run-cancel", "title", "run.cancel.tip"],
  ["#confirm-h", "text", "confirm.title"], ["#confirm-skip", "text", "confirm.skip"],
  ["#play", "title", "play.tip"], ["#step", "text", "step"], ["#step", "title", "step.tip"],
  ["#step-message", "text", "stepMessage"], ["#step-message", "title", "stepMessage.tip"], ["#step-message", "aria-label", "stepMessage.aria"],
  ["#hand-close", "aria-label", "aria.close"],
  [".speed > span", "text", "speed"], ["#speed", "aria-label", "speed"],
  [".menu-word", "text", "menu"], ["#menu-button", "title", "menu.tip"],
  ["#legend-button", "text", "legend"], ["#legend-button", "title", "legend.tip"],
  [".zoom", "aria-label", "aria.zoom"], ["#zoom-in", "aria-label", "zoom.in"], ["#zoom-out", "aria-label", "zoom.out"],
  ["#zoom-in", "title", "zoom.in"], ["#zoom-out", "title", "zoom.out"], ["#zoom-reset", "title", "zoom.reset"],
  ["#tab-lesson", "text", "tab.lesson"], ["#tab-quorum", "text", "quorum"], ["#log", "aria-label", "tab.events"],
  ["#lesson-bar", "aria-label", "aria.lessonBar"],
  ["#lessons-button", "text", "lessons"], ["#lessons-button", "title", "lessons.tip"],
  ["#share", "text", "share"], ["#share", "title", "share.tip"],
  ["#export", "text", "export"], ["#export", "title", "export.tip"],
  ["#import", "text", "import"], ["#import", "title", "import.tip"],
  [".seed-word", "text", "seed"], ["#seed-label", "title", "seed.tip"], ["#seed", "aria-label", "seed.tip"],
  ["#reset", "text", "reset"], ["#reset", "title", "reset.tip2"], ["#modes-button", "text", "modes"],
  ["#toggle-aside", "title", "aside.tip"], ["#help-button", "title", "help.tip"],
  ["#lang", "aria-label", "aria.lang"],
  ["header .group:has(#play)", "aria-label", "aria.time"], ["header .group:has(#share)", "aria-label", "aria.runs"],
  ["header .group:has(#reset)", "aria-label", "aria.reset"], ["nav.tools", "aria-label", "aria.tools"],
  [".group:has(#add-voter)", "aria-label", "aria.add"], [".group:has(#add-voter) > .group-label", "text", "group.add"],
  [".group:has(#heal-all)", "aria-label", "aria.network"], [".group:has(#heal-all) > .group-label", "text", "group.network"],
  [".group:has(#put-one)", "aria-label", "aria.clients"], [".group:has(#put-one) > .group-label", "text", "group.client"],
  ["#add-voter", "text", "voter"], ["#add-voter", "title", "voter.tip"],
  ["#add-learner", "text", "learner"], ["#add-learner", "title", "learner.tip"],
  ["#add-bad", "text", "bad"], ["#add-bad", "title", "bad.tip"],
  ["#add-standby", "text", "standby"], ["#add-standby", "title", "standby.tip"], [".group:has(#add-voter) .sub-label", "text", "readOnly"],
  ["#add-read-weak", "text", "weak"], ["#add-read-weak", "title", "weak.tip"],
  ["#add-read-strong", "text", "strong"], ["#add-read-strong", "title", "strong.tip"],
  ["#tab-history", "text", "tab.history"], ["#tab-history", "title", "tab.history.tip"],
  ["#history-canvas", "aria-label", "history.aria"], ["#history-key", "html", "history.key"],
  ["#modes-h", "text", "modes.h"], ["#modes-close", "aria-label", "aria.close"], [".modes-intro", "html", "modes.intro"],
  ["#mode-learner-text", "text", "modes.learner"], ["#mode-learner-hint", "html", "modes.learnerHint"],
  ["#mode-auto-text", "text", "modes.autoText"], ["#mode-auto-pct", "aria-label", "modes.autoAria"],
  ["#mode-after-text", "text", "modes.after"], ["#mode-after-unit", "text", "modes.afterUnit"], ["#mode-after", "aria-label", "modes.afterAria"],
  ["#mode-failover", "aria-label", "modes.failoverAria"], ['#mode-failover option[value="replace"]', "text", "modes.replace"],
  ['#mode-failover option[value="grow"]', "text", "modes.grow"],
  ["#mode-max-text", "text", "modes.max"], ["#mode-max-learners", "aria-label", "modes.maxAria"], ["#mode-max-hint", "html", "modes.maxHint"],
  ["#modes-apply", "text", "modes.apply"],
  ["#isolate-leader", "text", "isolate"], ["#isolate-leader", "title", "isolate.tip"],
  ["#split-31", "text", "split31"], ["#split-31", "title", "split31.tip"],
  ["#split-22", "text", "split22"], ["#split-22", "title", "split22.tip"],
  ["#heal-all", "text", "heal"], ["#heal-all", "title", "heal.tip"],
  ["#put-one", "text", "put"], ["#put-one", "title", "put.tip"],
  ["#load", "text", "load"], ["#load", "title", "load.tip"],
  ["section.stage", "aria-label", "aria.cluster"], ["#cluster", "aria-label", "aria.canvas"], ["#legend", "aria-label", "aria.legend"],
  ...["leader", "follower", "precandidate", "candidate", "down", "learner", "standby", "readweak", "readstrong", "timer", "append", "heartbeat", "prevote", "vote", "snapshot", "readindex", "transfer"]
    .map((k, i) => [`#legend > li:nth-child(${i + 1})`, "tail", `legend.${k}`]),
  ["#legend > li.note", "text", "legend.note"], ["#legend > li:last-child", "tail", "legend.cut"],
  ["#popup-close", "aria-label", "aria.close"],
  ...["start", "crash", "campaign", "transfer", "promote", "remove"].map((a) => [`#popup button[data-act="${a}"]`, "text", `act.${a}`]),
  ["#popup-put input[name=key]", "placeholder", "aria.key"], ["#popup-put input[name=key]", "aria-label", "aria.key"],
  ["#popup-put input[name=value]", "placeholder", "aria.value"], ["#popup-put input[name=value]", "aria-label", "aria.value"],
  ["#popup-put button[type=submit]", "text", "put"], ['#popup-put button[data-act="get"]', "text", "act.get"],
  ["#timeline", "aria-label", "aria.timeline"], ["#back", "text", "back"], ["#back", "title", "back.tip"],
  ["#scrub", "aria-label", "aria.scrub"], ["#live", "text", "live"], ["#live", "title", "live.tip"],
  ["#branch-box .word", "text", "branch"], ["#branch-help", "text", "branch.help"],
  ["#lesson-strip", "aria-label", "aria.lessonStrip"], ["#lesson-strip .strip-label", "text", "strip.lesson"],
  ["#lesson-leave", "text", "leave"], ["#lesson-leave", "title", "leave.tip"],
  ["#details", "aria-label", "aria.details"], ["#lesson-off p", "text", "off"], ["#lesson-rejoin", "text", "rejoin"],
  ["#lesson-back", "text", "lback"], ["#lesson-back", "title", "lback.tip"],
  ["#lesson-restart", "text", "restart"], ["#lesson-restart", "title", "restart.tip"],
  ["#lesson-next", "text", "next"], ["#lesson-next", "title", "next.tip"],
  ["#quorum-h", "text", "quorum"], ['[role="tablist"]', "aria-label", "aria.data"],
  ["#tab-log", "text", "tab.events"], ["#tab-keys", "text", "tab.keys"], ["#tab-script", "text", "tab.script"],
  ["#clear-log", "text", "clear"], ["#clear-log", "title", "clear.tip"], ["#copy-script", "text", "copy"],
  ["#console", "placeholder", "console.placeholder"], ["#console-form button[type=submit]", "text", "run"],
  ["#safety", "aria-label", "aria.safety"], ["#drop p", "html", "drop"],
  ["#lessons-h", "text", "lessons"], ["#lessons-close", "aria-label", "aria.close"], [".lessons-intro", "html", "lessons.intro"],
  ["#share-h", "text", "share.h"], ["#share-close", "aria-label", "aria.close"], ["#share-link", "aria-label", "aria.shareLink"],
  ["#help .help-card > p:nth-of-type(1)", "html", "help.p1"], ["#help .help-card > h3:nth-of-type(1)", "text", "help.shapes"],
  ["#help .help-card > p:nth-of-type(2)", "html", "help.p2"], ["#help .help-card > h3:nth-of-type(2)", "text", "help.travel"],
  ["#help .help-card > p:nth-of-type(3)", "html", "help.p3"], ["#help .help-card > h3:nth-of-type(3)", "text", "help.share"],
  ["#help .help-card > p:nth-of-type(4)", "html", "help.p4"], ["#help .help-card > h3:nth-of-type(4)", "text", "help.mouse"],
  ["#help .help-card > p:nth-of-type(5)", "html", "help.p5"], ["#help .help-card > h3:nth-of-type(5)", "text", "help.keys"],
  ["#help dl", "html", "help.dl"], ["#help-close", "text", "close"], ["#help-x", "aria-label", "aria.close"],
  ["#present-exit", "title", "present.exit"], ["#present-exit", "aria-label", "present.exit"], ["#lesson-hint-label", "text", "present.next"],
  ["#key-history-form button", "text", "kh.button"], ["#key-history-form input", "placeholder", "kh.key"], ["#key-history-form input", "aria-label", "kh.key"],
];

const KEY = "raftlab.lang";

/** The language to speak: `?lang=` first, then the reader's last choice,
 * then the browser's language; English otherwise. */
export function pickLanguage() {
  const pick = (code) => {
    const primary = String(code ?? "").toLowerCase().split(/[-_]/)[0];
    return primary in LANGS ? primary : null;
  };
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* storage off (file://, private mode) */ }
  return pick(new URLSearchParams(location.search).get("lang")) ?? pick(stored)
    ?? (navigator.languages ?? [navigator.language]).map(pick).find(Boolean) ?? "en";
}

export function rememberLanguage(lang) {
  try { localStorage.setItem(KEY, lang); } catch { /* storage off */ }
}

let current = "en";
export const language = () => current;

/** True when `lang`'s words are here (English always is). */
export const haveLanguage = (lang) => lang in STRINGS;

/** Resolves once `lang`'s words are here: the page's (its module) and the
 * run's (its sentences, given to the wasm module), both fetched at once the
 * first time. `moduleReady`: the wasm module's init, when the page starts
 * loading before it is done. A language raftlab does not speak resolves at
 * once (it reads as English); one that cannot be had rejects, and is not
 * spoken. */
export async function loadLanguage(lang, moduleReady) {
  if (lang in STRINGS || !(lang in MODULES)) return;
  const [words, narration] = await Promise.all([MODULES[lang](), fetchNarration(lang)]);
  await moduleReady;
  loadNarration(lang, narration);
  STRINGS[lang] ??= words.default;
}

/** The page's word for `key` in the current language, `{name}`s filled. */
export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key];
  if (s === undefined) throw new Error(`no string ${key}`);
  // A count before つ takes つ from one to nine, 個 otherwise (0個, 10個),
  // as Japanese counts (narration-ja.txt's sentences count the same way).
  return s.replace(/\{(\w+)\}(つ)?/g, (m, k, tsu = "") => {
    if (!(k in params)) return m;
    const v = String(params[k]);
    return v + (tsu && /^\d+$/.test(v) && !/^[1-9]$/.test(v) ? "個" : tsu);
  });
}

/** Puts the page's static words into `lang` (loaded: see loadLanguage). */
export function applyLanguage(lang) {
  current = lang in STRINGS ? lang : "en";
  document.documentElement.lang = current;
  document.title = t("doc.title");
  applyPage(PAGE);
}

/** The English words a part of the page loaded later brings (its dialog's
 * and its messages', which nothing says before it is here): t knows them
 * from now on, and the page's elements bound to them (PAGE) take them, as
 * do those inside `root`, the markup the part put into the page (if any).
 * Another language's module holds all of its words, these too. */
export function addWords(words, root = null) {
  Object.assign(STRINGS.en, words);
  applyPage(PAGE.filter(([sel, , key]) => key in words || root?.querySelector(sel)));
}

function applyPage(entries) {
  for (const [selector, what, key] of entries) {
    // A part's words not here yet: its elements take them when it comes.
    if (STRINGS[current][key] === undefined && STRINGS.en[key] === undefined) continue;
    for (const el of document.querySelectorAll(selector)) {
      const s = t(key);
      if (what === "text") el.textContent = s;
      else if (what === "html") el.innerHTML = s;
      else if (what === "lead" || what === "tail") {
        // The element's own text beside its children (a label's word, a
        // legend entry's name after its swatch).
        const nodes = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        const node = what === "lead" ? nodes[0] : nodes[nodes.length - 1];
        if (node) node.textContent = s;
        else if (what === "lead") el.prepend(s);
        else el.append(s);
      } else el.setAttribute(what, s);
    }
  }
}
