// Wires the page to the wasm app. All simulation state, all drawing and
// every sentence about the run live in Rust; this file only turns DOM events
// into calls of the app, shows what it returns, and runs the animation loop
// (only while playing: a paused page uses no CPU).
//
// Two modes, both held by the wasm app: the sandbox (a timeline one can
// travel in, branch and share) and a lesson (a player walking a lesson pause
// by pause; the sandbox waits aside and comes back when the lesson is left).
import init, { App, lessons as wasmLessons, defaultScript, freshScript, loadDeferred, deferredLoaded } from "./pkg/raftlab.js";
import { t, applyLanguage, pickLanguage, rememberLanguage, language, LANGS, loadLanguage, haveLanguage } from "./i18n.js";
import { escapeHtml, followingLesson, fitCanvas, canvasRatio, lessonsReady, haveLessons } from "./view.js";
import { isCompact, onLayout, closeMenu, showLegend, layoutWords } from "./layout.js";
// The lessons, titles and summaries in the page's language.
const lessonInfos = () => wasmLessons(language());

// The one-file build (make dist) hands the module over inlined; served, the
// glue fetches pkg/raftlab_bg.wasm.
// The page's language (its words load beside the module when not English).
const startLanguage = pickLanguage();
const moduleReady = init(globalThis.raftlabWasm);
// Its failure is taken at once (as the problem it resolves to), so that a
// fetch failing before the page is ready is not an unhandled rejection.
const languageLoading = loadLanguage(startLanguage, moduleReady).then(() => null, (e) => e);
await moduleReady;

const $ = (id) => document.getElementById(id);
const canvas = $("cluster");
const ctx = canvas.getContext("2d");
const logEl = $("log");
// What nothing else caught is said in the log (not the same message twice
// in a row): the module's deferred part that could not be fetched
// (docs/page-module.md), which leaves the module unable to go on, says
// there to reload the page.
let lastUncaught = "";
const sayUncaught = (e) => {
  const msg = String(e?.message ?? e);
  if (msg === lastUncaught) return;
  lastUncaught = msg;
  logLine(t("error", { msg }), "err");
};
window.addEventListener("error", (ev) => sayUncaught(ev.error ?? ev.message));
window.addEventListener("unhandledrejection", (ev) => sayUncaught(ev.reason));

const DEFAULT_SPEED = 0.2;
const SPEED_MIN = 0.01, SPEED_MAX = 8;

let app;
let playing = true;
let speed = DEFAULT_SPEED;
let lastFrame = 0;
let rafId = 0;
let panelsDue = 0;
let logDue = 0;
let lastStep = null; // the lesson step last shown: its surprises

const sec = (ms) => t("sec", { s: (ms / 1000).toFixed(2) });

// ---- the app and its commands --------------------------------------------

function scriptFromHash() {
  const m = location.hash.match(/^#script=(.*)$/s);
  return m ? decodeURIComponent(m[1]) : null;
}

/** A share link's fragment: `#v1.<payload>`. */
const isLink = (hash) => /^#v\d+\./.test(hash);

/** Makes `next` the app, the old one freed; the page starts afresh on it. */
function adopt(next) {
  if (app && app !== next) app.free();
  app = next;
  // A run of the app left, or its confirm, is over.
  endConfirm();
  runAfter = null;
  app.setLanguage(language());
  logEl.replaceChildren();
  closePopup();
  lastStep = null;
  flushNarration();
  refresh(true);
}

/** A fresh app on `script`, its commands run in slices (asking first when
 * the run is big); `after` once it ran. False when the script was refused
 * (the log says why) and the default cluster stands in its place. */
function create(script, after = null) {
  let next;
  try {
    next = App.queued(script);
  } catch (e) {
    next = App.queued(defaultScript(1));
    adopt(next);
    logLine(t("error", { msg: e.message ?? e }), "err");
    return false;
  }
  adopt(next);
  beginRun(app.planned(), after);
  return true;
}

/** Runs one scenario command and returns its result object; the app's log
 * lines (the command, what happened, the result) go to the log. A command
 * that lets much time pass (`wait 3600s`) runs on in slices after a first
 * stretch: it comes back as `{ok: true, running: true}` and its result goes
 * to the log when it ends. */
function run(text) {
  text = String(text).trim();
  if (!text) return { ok: false, error: "parse", detail: "empty command" };
  let result;
  try {
    result = app.commandIn(text, 1);
    if (result.running) {
      const p = runFor(SLICE_MS);
      if (p.running) startRun(null, false);
      else result = app.takeReply() ?? result;
    }
  } catch (e) {
    result = { ok: false, command: text, error: "internal", detail: String(e?.message ?? e) };
    logLine(t("error", { msg: result.detail }), "err");
  }
  const lines = flushNarration();
  refresh();
  if (result.ok === false && result.detail) sayChange(`› ${text}: ${t("error", { msg: result.detail })}`);
  else sayLines(lines, text);
  return result;
}

// ---- long runs: in slices, with a progress bar, Cancel, and a confirm --------

// A run (an opened link, file or script; a long console command) works in
// tasks of about SLICE_MS each, back to back: each is a message the page
// posts to itself, so clicks, keys and the browser's frames come between
// two of them and the page draws and answers throughout, while the work
// gets nearly all the time between (tied to animation frames, it got about
// half: the rest went waiting for the next frame and painting one).
const SLICE_MS = 12;
const CONFIRM_SECONDS = 3;
let runRaf = 0;
let runAfter = null;
let runStarted = 0; // wall clock and simulated time when the bar first showed
let runStartedSim = 0;
let confirming = null; // {plan, left, timer, after}
let openingAddress = false; // the page's address is about to be read
let seekTarget = null; // where a seek in slices is going, while it goes
const idleWaiters = [];
const replyWaiters = []; // resolves window.raftlab.commandDone's promise

/** Runs the queued run for about `budgetMs` of wall time (the app cuts it
 * in chunks of a fraction of a millisecond); the progress. */
const runFor = (budgetMs) => app.runFor(budgetMs);

/** Starts (or goes on with) the queued run: a first stretch at once, then
 * task by task; `after` once it ended (finished or cancelled). */
function startRun(after = null, first = true) {
  if (after) runAfter = after;
  if (first) {
    const p = runFor(SLICE_MS);
    if (!p.running) { runEnded(); return; }
  }
  runStarted = performance.now();
  runStartedSim = app.progress().done_ms;
  showProgress(app.progress());
  runActive = true;
  pumpRun();
}

let runActive = false; // a run is going on in tasks
let taskPosted = false; // its next task is on its way
const runPort = new MessageChannel();
runPort.port1.onmessage = runTask;
function pumpRun() {
  if (!taskPosted) { taskPosted = true; runPort.port2.postMessage(0); }
}
function runTask() {
  taskPosted = false;
  if (!runActive) return;
  // A hidden page's run waits to be seen again, as the clock does: with no
  // frame to show it, its narration would only pile up.
  if (document.hidden) return;
  if (!app.isRunning()) { runEnded(); return; }
  const p = runFor(SLICE_MS);
  if (!p.running) { runEnded(); return; }
  if (!runRaf && performance.now() - runDrawn >= RUN_DRAW_MS) runRaf = requestAnimationFrame(runPaint);
  pumpRun();
}

document.addEventListener("visibilitychange", () => { if (!document.hidden && runActive) pumpRun(); });

// The canvas of a heavy run (thousands of messages in flight) is costly to
// paint: during a run the canvas, the panels, the bar and the log are
// brought up to date a few times a second, in an animation frame. The log
// shows at most as many new lines as 12 a frame would have.
const RUN_DRAW_MS = 150;
let runDrawn = 0;
function runPaint(now) {
  runRaf = 0;
  if (!runActive) return;
  flushNarration(Math.min(MAX_LOG, Math.ceil((12 * (now - runDrawn)) / 16.7)));
  draw();
  updatePanels();
  showProgress(app.progress());
  runDrawn = now;
}

function runEnded() {
  runActive = false;
  if (runRaf) { cancelAnimationFrame(runRaf); runRaf = 0; }
  seekTarget = null;
  $("run-box").hidden = true;
  flushNarration(200);
  const reply = app.takeReply();
  if (reply) for (const r of replyWaiters.splice(0)) r(reply);
  const after = runAfter;
  runAfter = null;
  after?.();
  refresh();
  // The run's end, as the log's last line says it.
  sayChange(logEl.lastElementChild?.textContent ?? "");
  for (const w of idleWaiters.splice(0)) w();
  resumeClock();
}

/** The clock's loop, stopped while a run owned the clock, comes back. */
function resumeClock() {
  if (playing && !rafId) { lastFrame = 0; rafId = requestAnimationFrame(frame); }
}

/** A duration in the page's words: "12 s", "5 min", "3.0 h". */
function duration(ms) {
  if (ms < 60_000) return t("dur.s", { n: ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000) });
  if (ms < 3_600_000) return t("dur.min", { n: ms < 600_000 ? (ms / 60_000).toFixed(1) : Math.round(ms / 60_000) });
  return t("dur.h", { n: (ms / 3_600_000).toFixed(1) });
}
const bytes = (b) => (b >= 1 << 30 ? `${+(b / (1 << 30)).toFixed(1)} GB` : b >= 1 << 20 ? `${+(b / (1 << 20)).toFixed(1)} MB` : b >= 1 << 10 ? `${+(b / (1 << 10)).toFixed(1)} KB` : `${b} B`);

function showProgress(p) {
  $("run-box").hidden = false;
  let text = t("run.progress", { done: duration(p.done_ms), total: duration(p.total_ms), c: p.commands_done, n: p.commands_total });
  if (p.seeking) text = t("run.seeking", { to: sec(seekTarget ?? app.timeMs()), done: duration(p.done_ms), total: duration(p.total_ms) });
  const spent = performance.now() - runStarted, simDone = p.done_ms - runStartedSim;
  if (spent > 1500 && simDone > 0 && p.total_ms > p.done_ms) text += t("run.left", { left: duration(((p.total_ms - p.done_ms) * spent) / simDone) });
  $("run-text").textContent = text;
  const frac = p.total_ms > 0 ? p.done_ms / p.total_ms : p.commands_total ? p.commands_done / p.commands_total : 0;
  $("run-bar").style.width = `${(100 * Math.min(1, frac)).toFixed(2)}%`;
  $("clock").textContent = `t = ${sec(app.timeMs())}`;
}

/** Cancels the run going on (or a run not yet confirmed): it ends with the
 * last command that finished; the log says so. False if nothing ran. */
function cancelRun() {
  if (confirming) { skipConfirm(); return true; }
  if (!app.isRunning()) return false;
  app.cancel();
  runEnded();
  return true;
}
$("run-cancel").onclick = () => cancelRun();

/** Runs what is queued, asking first (a countdown) when the plan says the
 * page may take more than a few seconds. */
function beginRun(planned, after) {
  endConfirm();
  const plan = planned?.ok ? planned.plan : null;
  if (!plan?.confirm) { startRun(after); return; }
  confirming = { plan, left: CONFIRM_SECONDS, after, timer: 0 };
  const load = plan.load_rate_per_s != null ? t("confirm.load", { rate: plan.load_rate_per_s, size: bytes(plan.load_size ?? 64) }) : "";
  $("confirm-text").textContent = t("confirm.text", {
    nodes: plan.nodes, time: duration(plan.wait_ms), load, n: plan.commands, est: duration(plan.estimate_ms),
  });
  $("confirm-box").hidden = false;
  const tick = () => {
    $("confirm-run").textContent = t("confirm.run", { n: confirming.left });
    if (confirming.left-- <= 0) { runConfirmed(); return; }
    confirming.timer = setTimeout(tick, 1000);
  };
  tick();
  $("confirm-run").focus({ preventScroll: true });
}
function endConfirm() {
  if (!confirming) return null;
  const c = confirming;
  clearTimeout(c.timer);
  confirming = null;
  $("confirm-box").hidden = true;
  return c;
}
function runConfirmed() {
  const c = endConfirm();
  if (c) startRun(c.after);
}
function skipConfirm() {
  const c = endConfirm();
  if (!c) return;
  app.cancel();
  flushNarration();
  logLine(t("confirm.skipped"), "say");
  refresh();
  for (const w of idleWaiters.splice(0)) w();
  resumeClock();
}
$("confirm-run").onclick = runConfirmed;
$("confirm-skip").onclick = skipConfirm;

/** `{running, done_ms, total_ms, commands_done, commands_total,
 * confirming}`: a run waiting for the confirm counts as running. */
function progress() {
  if (openingAddress) return { running: true, done_ms: 0, total_ms: 0, commands_done: 0, commands_total: 0, confirming: false };
  const p = app.progress();
  if (confirming) return { ...p, running: true, confirming: true, total_ms: confirming.plan.wait_ms };
  return { ...p, confirming: false };
}

/** A page button: the command it stands for now, run; or, when it cannot
 * apply, the app's reason in the log. */
function preset(name) {
  const command = app.preset(name);
  const lines = flushNarration();
  if (command) run(command);
  else sayLines(lines);
}

// ---- the event log -------------------------------------------------------

const MAX_LOG = 400;
// The log follows its newest line unless the reader scrolled up; it keeps
// following when panels around it change size.
let logStuck = true;
logEl.addEventListener("scroll", () => { logStuck = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 30; });
new ResizeObserver(() => { if (logStuck) logEl.scrollTop = logEl.scrollHeight; }).observe(logEl);
let logBatch = null; // {stick}: while a batch of lines goes in, read the layout once
function logStick() {
  return logStuck || logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 30;
}
function logLine(text, cls = "", t = null, id = null) {
  const stick = logBatch ? false : logStick();
  const li = document.createElement("li");
  li.textContent = text;
  if (cls && cls !== "plain") li.className = cls;
  // A table wider than the panel scrolls sideways: from the keyboard too.
  if (cls === "table") li.tabIndex = 0;
  if (t != null) li.dataset.t = String(t);
  if (id != null) li.dataset.id = String(id);
  logEl.append(li);
  while (logEl.childElementCount > MAX_LOG) logEl.firstElementChild.remove();
  if (stick) logEl.scrollTop = logEl.scrollHeight;
  return li;
}

/** Shows one of the app's log lines. A line that folds into an earlier one
 * updates that line's words and joins the trace kept under it (a
 * disclosure: one click shows every line it stands for). */
function showLine(line) {
  const into = line.fold && logEl.querySelector(`li[data-id="${line.fold.into}"]`);
  if (!into) {
    logLine(line.fold ? line.fold.summary : line.text, line.tone, line.time_ms, line.id);
    return;
  }
  let trace = into.querySelector("ol.trace");
  if (!trace) {
    const first = document.createElement("li");
    first.textContent = into.textContent;
    const details = document.createElement("details");
    details.append(document.createElement("summary"), trace = document.createElement("ol"));
    trace.className = "trace";
    trace.append(first);
    into.replaceChildren(details);
  }
  into.querySelector("summary").textContent = line.fold.summary;
  const li = document.createElement("li");
  li.textContent = line.text;
  trace.append(li);
}
/** Shows the app's new log lines; of a long batch (a run in slices under a
 * heavy load says thousands a second), only the last `max`, with a line
 * saying how many were left out. */
function flushNarration(max = Infinity) {
  // Of a long batch, the lines left out never cross into the page.
  const skip = max < Infinity ? app.skipNarration(max) : 0;
  const lines = app.narration();
  if (!lines.length && !skip) return lines;
  logBatch = { stick: logStick() };
  try {
    if (skip) logLine(t("log.skipped", { n: skip }), "plain");
    for (const line of lines) showLine(line);
  } finally {
    if (logBatch.stick) logEl.scrollTop = logEl.scrollHeight;
    logBatch = null;
  }
  return lines;
}

// ---- drawing and panels ----------------------------------------------------

// The canvas's size and the legend's height, as last laid out: a frame
// reads them without asking the browser to lay the page out again (the
// log's new lines would make it, each frame).
let canvasBox = { width: 1, height: 1 };
let legendHeight = 0;
// The legend's button over the canvas's top-left corner (on a phone): its
// right and bottom edges on the canvas, which no node's label goes under.
let corner = [0, 0];
function measureLegend() {
  legendHeight = $("legend").offsetHeight;
  const b = $("legend-button").getBoundingClientRect();
  const c = canvas.getBoundingClientRect();
  corner = b.width > 0 ? [b.right - c.left + 4, b.bottom - c.top + 4] : [0, 0];
}
function resize() {
  const r = fitCanvas(canvas);
  canvasBox = { width: r.width, height: r.height };
  measureLegend();
}
new ResizeObserver(measureLegend).observe($("legend"));
new ResizeObserver(measureLegend).observe($("legend-button"));

/** How much larger the canvas draws: in presenter mode on a big screen,
 * nodes and their words grow with it (up to 1.3 times), readable from afar. */
let zoom = 1;
/** The reader's zoom (pinch, the zoom buttons, ctrl and the wheel, + and -
 * on the canvas): how much larger than the whole cluster (1 to ZOOM_MAX),
 * and the point of the layout (its CSS pixels) at the canvas's top left. */
const view = { scale: 1, x: 0, y: 0 };
const ZOOM_MAX = 4;
/** The zoom's buttons show on a cluster of more than this many nodes
 * (or while zoomed); pinching zooms any. */
const ZOOM_NODES = 5;
let zoomShown = false;
let nodeCount = 0;
function showZoom(nodes = nodeCount) {
  nodeCount = nodes;
  const on = nodes > ZOOM_NODES || view.scale > 1;
  if (on === zoomShown) return;
  zoomShown = on;
  document.querySelector(".stage").classList.toggle("zoomable", on);
  draw();
}
// Less motion asked for: messages drawn still (app.setStillMessages).
const lessMotion = matchMedia("(prefers-reduced-motion: reduce)");
function draw() {
  const r = canvasBox;
  zoom = presenting ? Math.min(1.3, Math.max(1, Math.min(r.width, r.height) / 760)) : 1;
  // The compact layout folds the legend behind a button over the canvas
  // (and shows the zoom's buttons beside it on a big cluster, over room
  // left free for them).
  app.setTopInset(isCompact() ? (zoomShown ? 50 : 4) : (legendHeight + 6) / zoom);
  app.setCorner(corner[0] / zoom, corner[1] / zoom);
  app.setView(view.x, view.y);
  app.setStillMessages(lessMotion.matches);
  app.draw(ctx, r.width / zoom, r.height / zoom, canvasRatio() * zoom * view.scale);
}
lessMotion.addEventListener?.("change", () => draw());

function refresh(force = false) {
  draw();
  updatePanels(force);
}

/** Shows a short message over the page for a few seconds (and to screen readers). */
let toastTimer = 0;
function toast(text, cls = "") {
  const t = $("toast");
  t.textContent = text;
  t.className = `toast ${cls}`;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

function chips(ids, cls = () => "") {
  return ids.length ? ids.map((id) => `<span class="chip ${cls(id)}">${id}</span>`).join(" ") : `<span class="none">${t("none")}</span>`;
}

/** The quorum panel and the status line: who leads, the voters, the
 * quorum, and whether a write can commit (with several clusters, the
 * status line says each one's). */
function updateQuorum(modesOn, shown = true) {
  const q = app.quorum();
  const acked = new Set(q.acked);
  const reach = new Set(q.reachable);
  const f = app.clusters();
  const fleet = fleetHtml(f);
  if (shown) $("quorum").innerHTML = `${fleet.head}
    <div class="row"><span class="k">${t("row.leader")}</span>${q.leader != null ? t("leader.id", { id: q.leader }) : `<span class='chip no'>${t("none")}</span>`}</div>
    <div class="row"><span class="k">${t("row.voters")}</span>${chips(q.voters, (id) => (q.leader === id ? "yes" : ""))}</div>
    <div class="row"><span class="k">${t("row.learners")}</span>${chips(q.learners, () => "learner")} <span class="none">${t("row.learnersOf", { n: q.learners.length, max: q.max_learners })}</span></div>
    <div class="row"><span class="k">${t("row.quorum")}</span>${t("row.quorumOf", { q: q.quorum, n: q.voters.length })}</div>
    <div class="row"><span class="k">${t("row.reachable")}</span>${q.leader == null ? `<span class='none'>${t("row.noLeader")}</span>` : `${chips(q.voters, (id) => (reach.has(id) ? "yes" : "no"))} <span class="none">${q.reachable.length} ${q.reachable.length >= q.quorum ? "≥" : "<"} ${q.quorum}</span>`}</div>
    <div class="row"><span class="k">${t("row.acked", { commit: q.commit })}</span>${q.leader == null ? `<span class='none'>${t("row.noLeader")}</span>` : chips(q.voters, (id) => (acked.has(id) ? "yes" : "no"))}</div>
    ${modesOn ? `<div class="row"><span class="k">${t("row.modes")}</span><span class="modes-on">${escapeHtml(modesOn)}</span></div>` : ""}
    <div class="verdict ${q.can_reach_quorum ? "ok" : "bad"}">${q.can_reach_quorum ? "✓" : "✗"} ${escapeHtml(q.summary)}</div>${fleet.rows}`;
  sayState(fleet.status || t(q.learners.length ? "status" : "status.noLearners", { voters: q.voters.length, learners: q.learners.length, leader: q.leader != null ? t("leader.id", { id: q.leader }) : t("none") }));
}

// ---- the status line: the canvas's text alternative ----------------------------------

// A screen reader hears it politely (index.html's #status): what the last
// step, command or click changed, then the cluster's state. Each part is
// written only when its words change, so a running clock is heard only
// when the cluster's state changes (a leader elected, a member added),
// never frame by frame; and the event log, which says hundreds of lines a
// second under load, is not a live region.
let stateSaid = "";
function sayState(text) {
  if (text === stateSaid) return;
  stateSaid = text;
  // A new state: what an earlier step changed is no longer the news.
  $("status-change").textContent = "";
  $("status-state").textContent = text;
}
function sayChange(text) {
  $("status-change").textContent = text ? `${text} ·` : "";
}
/** What a command (`command`, when a command of the page's ran) changed,
 * in the words of its log lines (the command's own echo aside; the first
 * three). */
function sayLines(lines, command = "") {
  const said = lines.filter((l) => l.tone !== "cmd").slice(0, 3).map((l) => (l.fold ? l.fold.summary : l.text));
  if (command) said.unshift(`› ${command}:`);
  if (said.length) sayChange(said.join(" "));
}

// The panel's rows for several clusters and mirrors, and the key-history
// view (clusters.js), a part (below): until it is here the panel shows the
// first cluster alone.
const clustersPart = part(() => import("./clusters.js"));

/** With several clusters or a mirror: the first cluster's name (`head`),
 * the others' quorums and the mirrors (`rows`). */
function fleetHtml(f) {
  if (f.clusters.length < 2 && !f.mirrors.length) return { head: "", rows: "" };
  if (clustersPart.m) return clustersPart.m.fleet(f, chips);
  clustersPart().then(() => updatePanels(), () => {});
  return { head: "", rows: "" };
}

/** The key-history view: a key's versions in each cluster, side by side. */
let historyKey = "";
function updateKeyHistory() {
  const out = $("key-history");
  if (!historyKey) { out.innerHTML = ""; return; }
  if (clustersPart.m) out.innerHTML = clustersPart.m.keyHistory(app.keyHistory(historyKey), historyKey);
}
$("key-history-form").addEventListener("submit", (e) => {
  e.preventDefault();
  historyKey = e.target.key.value.trim();
  if (!historyKey) { $("key-history").innerHTML = `<div class="none">${t("kh.empty")}</div>`; return; }
  // At once when the part is here (it is fetched when the page is idle).
  if (clustersPart.m) updateKeyHistory();
  else later(clustersPart, updateKeyHistory);
});

let quorumDue = 0;
function updatePanels(force = false) {
  // During a run in slices the canvas, the clock, the bar, the quorum panel
  // and the safety indicator move (the panel says what the canvas shows,
  // twice a second); the other panels catch up when it ends (some grow
  // with the run).
  if (!force && app.isRunning()) {
    $("clock").textContent = `t = ${sec(app.timeMs())}`;
    const wall = performance.now();
    if (wall >= quorumDue) {
      quorumDue = wall + 500;
      updateQuorum(modesSummary(app.modes()));
      app.renderSafety($("safety"));
    }
    return;
  }
  const now = app.timeMs();
  const tl = app.timeline();
  const lesson = app.lesson();
  $("clock").textContent = `t = ${sec(now)}${tl && !tl.live ? " ⟲" : ""}`;
  $("clock").title = tl && !tl.live ? t("past.tip") : "";
  updateTimeline(tl);
  updateLesson(lesson);
  $("load").setAttribute("aria-pressed", String(app.status().load != null));
  $("step-message").disabled = !app.canDeliverNext();
  const modesOn = modesSummary(app.modes());
  $("modes-button").setAttribute("aria-pressed", String(modesOn !== ""));
  $("modes-button").title = t("modes.tip", { on: modesOn || t("modes.allOff") });
  app.renderSafety($("safety"));
  // While the clock runs, the panels not on screen wait for it to stop (or
  // for their tab): a phone's page has no time to lay them out for nothing.
  const lazy = playing && !force;
  updateQuorum(modesOn, !lazy || showing("tab-quorum"));
  const nodes = app.nodes();
  showZoom(nodes.length);
  if (!lazy || showing("tab-keys")) $("keys").innerHTML = `<table>${nodes.map((n) => `
    <tr><th colspan="2">${t("keys.node", { id: n.id })} · ${n.learner ? `${kindName(n)} · ` : ""}${role(n.role)}${n.applied != null ? ` · ${t("keys.applied", { n: n.applied })}` : ""}</th></tr>
    ${n.kv.length ? n.kv.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join("") : `<tr><td class="none" colspan="2">${n.running ? t("keys.none") : t("keys.down")}</td></tr>`}`).join("")}</table>`;
  updateKeyHistory();
  // The run's script only while it is shown (it can be long).
  if (showing("tab-script")) {
    const script = app.history();
    if ($("script").textContent !== script) $("script").textContent = script;
  }
  popupPart.m?.fill(page);
  handPart.m?.fill(page);
  // The history view runs the checker: only while it is open, and at most
  // once a second while the clock runs.
  if (!$("history-box").hidden && (!playing || performance.now() - historyDrawn > 1000)) drawHistory();
}

// The history view (history.js), a part (below): its tab draws it once it
// is here (it is fetched when the page is idle).
const historyPart = part(() => import("./history.js"));
let historyDrawn = 0;
/** Draws the history view; its words ({ok, empty, verdict, note}), or
 * their promise while the view's part comes. */
function drawHistory() {
  historyDrawn = performance.now();
  return historyPart.m ? historyPart.m.draw(page) : later(historyPart, (m) => m.draw(page));
}

/** What a member is: a voter, or a learner of its kind. */
function kindName(n) {
  if (!n.learner) return t("popup.voter");
  if (n.standby) return t("kind.standby");
  return n.read_only ? t("kind.readOnly", { mode: n.read_only }) : t("popup.learner");
}

/** A node's role code ("pre-candidate") in the page's language. */
const role = (code) => { try { return t(`role.${code}`); } catch { return code; } };


// ---- the animation loop ------------------------------------------------------

function frame(now) {
  rafId = 0;
  const stepping = app.lessonPlaying();
  if (!playing && !stepping) return;
  // A run in slices owns the clock; the loop comes back when it ends.
  if (app.isRunning()) return;
  const dt = lastFrame ? now - lastFrame : 16;
  lastFrame = now;
  if (stepping) {
    // A lesson step plays: the app runs a slice of it; at its pause, the step.
    const step = app.lessonFrame(dt, speed);
    flushNarration();
    if (step) { showStep(step, "lessonNext"); return; }
  } else {
    app.advance(dt, speed);
  }
  // The canvas moves each frame; the log and the panels follow a few times
  // a second, each in a frame of its own (under load a run says hundreds
  // of lines a second, and a phone's page has no time to lay them out
  // frame by frame).
  if (now >= logDue) { flushNarration(); logDue = now + 120; panelsDue = Math.max(panelsDue, now + 60); }
  draw();
  if (now >= panelsDue) { updatePanels(); panelsDue = now + 120; }
  rafId = requestAnimationFrame(frame);
}

/** Keeps animation frames coming while a lesson step plays. */
function animate() {
  if (!rafId) { lastFrame = 0; rafId = requestAnimationFrame(frame); }
}

function setPlaying(on) {
  // The clock running, or anything else, ends a playing step first.
  if (on && app.lessonPlaying()) lessonMove("lessonNext");
  if (on && !playing) {
    const lesson = app.lesson();
    if (lesson?.on_path) logLine(t("clockRuns"), "say");
  }
  playing = on;
  $("play").textContent = on ? t("pause") : t("play");
  $("play").setAttribute("aria-pressed", String(on));
  if (on && !rafId) { lastFrame = 0; rafId = requestAnimationFrame(frame); }
  if (!on && rafId && !app.lessonPlaying()) { cancelAnimationFrame(rafId); rafId = 0; refresh(); }
}

function step() {
  setPlaying(false);
  app.stepEvent();
  const lines = flushNarration();
  refresh();
  sayLines(lines);
}

function stepBack() {
  setPlaying(false);
  if (app.lesson()) { lessonMove("lessonBack"); return; }
  app.stepBack();
  flushNarration();
  refresh();
}

// ---- speed: a logarithmic slider from 0.01x to 8x ---------------------------------

const sliderToSpeed = (v) => SPEED_MIN * Math.pow(SPEED_MAX / SPEED_MIN, v / 100);
const speedToSlider = (s) => (100 * Math.log(s / SPEED_MIN)) / Math.log(SPEED_MAX / SPEED_MIN);
function showSpeed() {
  $("speed-value").textContent = `${speed < 0.1 ? speed.toFixed(3) : speed < 1 ? speed.toFixed(2) : speed.toFixed(1)}×`;
}
$("speed").value = String(Math.round(speedToSlider(speed)));
showSpeed();
$("speed").addEventListener("input", (e) => { speed = sliderToSpeed(Number(e.target.value)); showSpeed(); });

// ---- buttons -------------------------------------------------------------------

$("play").onclick = () => setPlaying(!playing);
$("step").onclick = step;
// The next message alone (deliver-next), recorded as the command.
$("step-message").onclick = () => { setPlaying(false); run("deliver-next"); };
const seedValue = () => Math.max(0, Math.floor(Number($("seed").value) || 0));
// Reset keeps the run's modes: a fresh cluster on the seed, with the same cluster options.
$("reset").onclick = () => {
  const r = freshRun(seedValue(), app.modes());
  create(r.ok ? r.script : defaultScript(seedValue()));
};
$("clear-log").onclick = () => { logEl.replaceChildren(); app.clearLog(); };

for (const name of ["add-voter", "add-learner", "add-standby", "add-read-weak", "add-read-strong", "add-bad", "isolate-leader", "split-31", "split-22", "heal-all", "load"]) {
  $(name).onclick = () => preset(name);
}
let putCount = 0;
$("put-one").onclick = () => run(`put key${++putCount} value${putCount}`);

// ---- the canvas: hover, taps and clicks, zoom, the keyboard ----------------------

/** The canvas's CSS pixels from its top left, of a pointer event. */
const onCanvas = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
/** The layout's point under canvas point (px, py), and back. */
const scale = () => zoom * view.scale;
const toLayout = ([px, py]) => [view.x + px / scale(), view.y + py / scale()];
const toCanvas = ([x, y, r = 0]) => [(x - view.x) * scale(), (y - view.y) * scale(), r * scale()];
const point = (e) => toLayout(onCanvas(e));

/** What lies under a canvas point; for a finger, the nearest thing within
 * a finger's width (a link is a thin line). */
function hitNear([px, py], finger) {
  const at = (dx, dy) => app.hitTest(...toLayout([px + dx, py + dy]));
  const hit = at(0, 0);
  if (hit || !finger) return hit;
  for (const d of [8, 14, 20]) {
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      const h = at(d * Math.cos(a), d * Math.sin(a));
      if (h) return h;
    }
  }
  return null;
}

canvas.addEventListener("pointermove", (e) => {
  if (e.pointerType !== "mouse" || gesture) return;
  const [x, y] = point(e);
  if (app.hover(x, y) && !playing) draw();
  canvas.style.cursor = app.hitTest(x, y) ? "pointer" : view.scale > 1 ? "grab" : "default";
});

let fingerTap = false; // the click comes from a finger (a touch screen's tap)
canvas.addEventListener("click", (e) => {
  if (dragged) { dragged = false; return; }
  const at = onCanvas(e);
  const hit = hitNear(at, fingerTap);
  act(hit, e.shiftKey, at);
});

/** A click or a tap (or Enter, from the keyboard) on `hit`, at canvas
 * point `at`: a node's actions; a message's popup (what it carries, Drop,
 * Hold this link); a link's popup (cut or heal, hold, release), or with
 * `oneWay` the direction from its nearer end cut or healed at once; a
 * mirror's link cut or healed; a mirror's row in the quorum panel. */
function act(hit, oneWay = false, at = null) {
  if (!hit) { closePopup(); return; }
  if (hit.kind === "node") { handPart.m?.close(); later(popupPart, (m) => m.open(page, hit.id)); return; }
  if (hit.kind === "message") {
    later(handPart, (m) => m.openMessage(page, hit, at ?? toCanvas(targetPoint(hit))));
    return;
  }
  if (hit.kind === "link" && !oneWay && app.linkHand(hit.a, hit.b)) {
    later(handPart, (m) => m.openLink(page, hit, at ?? toCanvas(targetPoint(hit))));
    return;
  }
  // A mirror: its row in the quorum panel (its links are what a click changes).
  if (hit.kind === "mirror") {
    closePopup();
    if (isCompact()) selectTab("tab-quorum");
    document.querySelector(`[data-mirror="${hit.id}"]`)?.scrollIntoView({ block: "nearest" });
    return;
  }
  closePopup();
  if (oneWay) {
    const other = hit.near === hit.a ? hit.b : hit.a;
    run(`${app.isCut(hit.near, other) ? "heal" : "cut"} ${hit.near}->${other}`);
  } else {
    const cut = app.isCut(hit.a, hit.b) || app.isCut(hit.b, hit.a);
    run(`${cut ? "heal" : "cut"} ${hit.a} ${hit.b}`);
  }
}

// Zoom: pinch with two fingers (or ctrl and the wheel, a touchpad's
// pinch), the zoom buttons, + and - on the canvas; a zoomed canvas is
// dragged to move about (one finger, or the mouse).
/** Zooms by `k` about canvas point (px, py) (its centre when not given). */
function zoomBy(k, px, py) {
  const r = canvas.getBoundingClientRect();
  px ??= r.width / 2; py ??= r.height / 2;
  const [lx, ly] = toLayout([px, py]);
  view.scale = Math.min(ZOOM_MAX, Math.max(1, view.scale * k));
  view.x = lx - px / scale();
  view.y = ly - py / scale();
  settleView();
}
/** Keeps the view inside the cluster's drawing, whole device pixels apart
 * (the canvas's pictures are copied pixel for pixel), and draws. */
function settleView(moved = true) {
  const r = canvas.getBoundingClientRect();
  if (view.scale <= 1.001) Object.assign(view, { scale: 1, x: 0, y: 0 });
  const w = r.width / zoom, h = r.height / zoom;
  const px = canvasRatio() * scale();
  view.x = Math.round(Math.min(Math.max(0, view.x), w - w / view.scale) * px) / px;
  view.y = Math.round(Math.min(Math.max(0, view.y), h - h / view.scale) * px) / px;
  $("zoom-reset").textContent = `${+view.scale.toFixed(1)}×`;
  $("zoom-out").disabled = view.scale <= 1;
  $("zoom-in").disabled = view.scale >= ZOOM_MAX;
  // A popup beside a node would stand beside nothing.
  if (moved) closePopup();
  showZoom();
  draw();
}
$("zoom-in").onclick = () => zoomBy(1.5);
$("zoom-out").onclick = () => zoomBy(1 / 1.5);
$("zoom-reset").onclick = () => zoomBy(0);

const pointers = new Map(); // the fingers (or the mouse's button) down on the canvas
let gesture = null; // {pinch: distance and scale at its start} or {pan: where it started}
let dragged = false; // the last press moved the view: its click is no tap
canvas.addEventListener("pointerdown", (e) => {
  fingerTap = e.pointerType !== "mouse";
  pointers.set(e.pointerId, onCanvas(e));
  if (pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    gesture = { pinch: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, scale: view.scale, moved: true };
  } else if (pointers.size === 1) {
    gesture = { pan: onCanvas(e), from: [view.x, view.y], moved: false };
  }
});
canvas.addEventListener("pointermove", (e) => {
  if (!pointers.has(e.pointerId) || !gesture) return;
  pointers.set(e.pointerId, onCanvas(e));
  if (gesture.pinch && pointers.size >= 2) {
    const [a, b] = [...pointers.values()];
    const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
    zoomBy((gesture.scale * d) / gesture.pinch / view.scale, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
    dragged = true;
  } else if (gesture.pan) {
    const [px, py] = onCanvas(e);
    const dx = px - gesture.pan[0], dy = py - gesture.pan[1];
    // A finger that wobbles a little still taps.
    if (!gesture.moved && Math.hypot(dx, dy) < 8) return;
    gesture.moved = true;
    if (view.scale <= 1) return;
    canvas.setPointerCapture?.(e.pointerId);
    view.x = gesture.from[0] - dx / scale();
    view.y = gesture.from[1] - dy / scale();
    dragged = true;
    settleView();
  }
});
const lift = (e) => {
  pointers.delete(e.pointerId);
  if (!pointers.size) gesture = null;
  else if (gesture?.pinch) gesture = { pan: [...pointers.values()][0], from: [view.x, view.y], moved: true };
};
canvas.addEventListener("pointerup", lift);
canvas.addEventListener("pointercancel", (e) => { lift(e); dragged = false; });
canvas.addEventListener("wheel", (e) => {
  if (!e.ctrlKey) return;
  e.preventDefault();
  zoomBy(Math.exp(-e.deltaY / 200), ...onCanvas(e));
}, { passive: false });

// The keyboard: Tab to the canvas, then the arrows pick a node or a link
// (highlighted as under a mouse, and said on the status line), Enter acts
// on it as a click would (shift and Enter: a link's one direction), + and
// - zoom, 0 shows the whole cluster.
let picked = -1; // index in targets() of what the arrows picked
/** What the arrows go through: every node, then every link between two
 * linked nodes, of every cluster (as app.hitTest finds them), then every
 * message dot drawn. */
function targets() {
  const ids = app.nodes().filter((n) => !n.removed).map((n) => n.id);
  const list = ids.map((id) => ({ kind: "node", id }));
  const at = (id) => app.nodePosition(id);
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const [a, b] = [at(ids[i]), at(ids[j])];
      if (!a || !b) continue;
      const hit = app.hitTest((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      if (hit?.kind === "link" && ((hit.a === ids[i] && hit.b === ids[j]) || (hit.a === ids[j] && hit.b === ids[i]))) list.push({ kind: "link", a: hit.a, b: hit.b, near: hit.a });
    }
  }
  for (const d of app.messageDots()) list.push({ kind: "message", id: d.id, from: d.from, to: d.to, x: d.x, y: d.y });
  return list;
}
/** Where target `g` is (the layout's point: a node's centre, a link's
 * middle, a message's dot). */
function targetPoint(g) {
  if (g.kind === "node") return app.nodePosition(g.id);
  if (g.kind === "message") {
    const d = app.messageDots().find((m) => m.id === g.id && m.from === g.from);
    return d ? [d.x, d.y] : [g.x ?? 0, g.y ?? 0];
  }
  const [a, b] = [app.nodePosition(g.a), app.nodePosition(g.b)];
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}
function describe(g) {
  if (g.kind === "message") {
    const h = app.messageHand(g.from, g.id);
    return t("canvas.message", { kind: h?.etcd_kind ?? "", from: g.from, to: g.to });
  }
  if (g.kind === "link") {
    const cut = app.isCut(g.a, g.b) || app.isCut(g.b, g.a);
    return t(cut ? "canvas.linkCut" : "canvas.link", { a: g.a, b: g.b });
  }
  const n = app.nodes().find((m) => m.id === g.id);
  return t("canvas.node", { id: g.id, kind: kindName(n), role: role(n.role) });
}
function pick(k) {
  const list = targets();
  if (!list.length) return;
  picked = ((k % list.length) + list.length) % list.length;
  const g = list[picked];
  const [x, y] = targetPoint(g);
  // A zoomed canvas moves to show it.
  const [cx, cy] = toCanvas([x, y]);
  const r = canvas.getBoundingClientRect();
  if (cx < 0 || cy < 0 || cx > r.width || cy > r.height) {
    view.x = x - r.width / scale() / 2;
    view.y = y - r.height / scale() / 2;
    settleView();
  }
  app.hover(x, y);
  draw();
  sayChange(describe(g));
}
canvas.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (k !== undefined) {
    e.preventDefault();
    e.stopPropagation();
    pick(picked < 0 ? (k > 0 ? 0 : -1) : picked + k);
  } else if (e.key === "Enter" && picked >= 0) {
    e.preventDefault();
    const g = targets()[picked];
    if (g) act(g, e.shiftKey);
  } else if (e.key === "+" || e.key === "=") { e.preventDefault(); zoomBy(1.5); }
  else if (e.key === "-") { e.preventDefault(); zoomBy(1 / 1.5); }
  else if (e.key === "0") { e.preventDefault(); zoomBy(0); }
});
canvas.addEventListener("blur", (e) => {
  // Into the picked node's (or link's, or message's) actions: the pick
  // stays for the way back.
  if ($("popup").contains(e.relatedTarget) || $("hand").contains(e.relatedTarget)) return;
  picked = -1;
  if (app.hover(-1e6, -1e6)) draw();
});

// The node popup (popup.js), a part (below): a click on a node opens it
// once it is here (it is fetched when the page is idle).
const popupPart = part(() => import("./popup.js"));
// The popups of a message dot and of a link (hand.js), a part the same way.
const handPart = part(() => import("./hand.js"));
const closePopup = () => { popupPart.m?.close(); handPart.m?.close(); };

// ---- the console ------------------------------------------------------------------

const consoleInput = $("console");
const past = [];
let pastAt = 0;
$("console-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = consoleInput.value.trim();
  if (!text) return;
  if (past[past.length - 1] !== text) past.push(text);
  pastAt = past.length;
  consoleInput.value = "";
  // "help" (or "?") is no scenario command: the console opens the help, as
  // a command line's help would, and the run does not change.
  if (/^(help|\?)$/i.test(text)) {
    logLine(`› ${text}`, "cmd");
    toggleHelp(true);
    return;
  }
  run(text);
});
consoleInput.addEventListener("keydown", (e) => {
  if (e.key === "ArrowUp" && pastAt > 0) { consoleInput.value = past[--pastAt]; e.preventDefault(); }
  else if (e.key === "ArrowDown") { pastAt = Math.min(past.length, pastAt + 1); consoleInput.value = past[pastAt] ?? ""; e.preventDefault(); }
});

// ---- tabs, help, keyboard ------------------------------------------------------------

const TABS = [["tab-log", "log-box"], ["tab-keys", "keys-box"], ["tab-script", "script-box"], ["tab-history", "history-box"]];
// In the compact layout the lesson and the quorum are tabs too: one panel
// shows at a time (the aside's data-tab says which; style.css hides the others).
const PANEL_TABS = ["tab-lesson", "tab-quorum"];
let dataTab = "tab-log"; // the data panel last shown (the wide layout shows it)
function selectTab(which) {
  if (PANEL_TABS.includes(which) && !isCompact()) which = dataTab;
  if (!PANEL_TABS.includes(which)) {
    dataTab = which;
    for (const [tab, panel] of TABS) $(panel).hidden = tab !== which;
  }
  for (const tab of [...PANEL_TABS, ...TABS.map(([tab]) => tab)]) {
    const on = tab === which;
    $(tab).setAttribute("aria-selected", String(on));
    $(tab).tabIndex = on ? 0 : -1;
  }
  $("details").dataset.tab = which;
  // Its panel may have waited while hidden (updatePanels).
  if (app) updatePanels(true);
  if (which === "tab-log") logEl.scrollTop = logEl.scrollHeight;
  if (which === "tab-history") drawHistory();
}
/** The tab shown now. */
const shownTab = () => $("details").dataset.tab ?? "tab-log";
/** Whether the panel of `tab` is on screen (the wide layout shows the
 * quorum beside the data tab shown, but in a lesson; the compact one, the
 * tab chosen; a hidden side panel, none). */
function showing(tab) {
  if (!isCompact() && $("main").classList.contains("no-aside")) return false;
  if (isCompact()) return shownTab() === tab;
  return tab === "tab-quorum" ? !$("main").classList.contains("in-lesson") : dataTab === tab;
}
for (const tab of [...PANEL_TABS, ...TABS.map(([tab]) => tab)]) {
  $(tab).onclick = () => selectTab(tab);
  $(tab).addEventListener("keydown", (e) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
    // The tabs on screen (the lesson's only in a lesson; the lesson's and
    // the quorum's only in the compact layout).
    const shown = [...document.querySelectorAll('[role="tab"]')].filter((b) => b.checkVisibility?.() ?? b.offsetParent !== null);
    const i = shown.findIndex((b) => b.id === tab);
    const k = e.key === "Home" ? 0 : e.key === "End" ? shown.length - 1 : (i + (e.key === "ArrowRight" ? 1 : shown.length - 1)) % shown.length;
    selectTab(shown[k].id);
    shown[k].focus();
  });
}
// The wide layout has no lesson or quorum tab: its data tab shows again.
onLayout(() => {
  if (PANEL_TABS.includes(shownTab()) && !isCompact()) selectTab(dataTab);
  resize();
  if (app) draw();
});
selectTab("tab-log");
$("copy-script").onclick = () => navigator.clipboard?.writeText(app.history());

/** A modal dialog: shown with focus inside, closed by Escape, its × or a
 * click outside; focus goes back where it was. */
function dialog(id, closeId, first) {
  const el = $(id);
  let back = null;
  const show = (on = el.hidden) => {
    if (on === !el.hidden) return;
    if (on) {
      // Opened at its top, whatever the focus goes to.
      back = document.activeElement; el.hidden = false;
      (first?.() ?? $(closeId)).focus({ preventScroll: true });
      el.querySelector(".help-card").scrollTop = 0;
    }
    else { el.hidden = true; back?.focus?.({ preventScroll: true }); }
  };
  $(closeId).onclick = () => show(false);
  el.addEventListener("click", (e) => { if (e.target === el) show(false); });
  return show;
}
// The help's words (help.js), a part (below): the help opens at once, and
// fills when they come (they are fetched when the page is idle).
const helpPart = part(() => import("./help.js"));
const showHelp = dialog("help", "help-x");
$("help-close").onclick = () => showHelp(false);
const toggleHelp = (on) => {
  if (!helpPart.m) later(helpPart, () => {});
  showHelp(on);
};
$("help-button").onclick = () => toggleHelp(true);
const toggleLessons = dialog("lessons", "lessons-close", () => $("lesson-list").querySelector("button"));
const toggleShareBox = dialog("share-box", "share-close", () => $("share-link"));
const toggleModes = dialog("modes-box", "modes-close", () => $("mode-learner"));

function closeAll() {
  showHelp(false); toggleLessons(false); toggleShareBox(false); toggleModes(false); closePopup(); showSafetyList(false);
  closeMenu();
  if (isCompact()) showLegend(false);
}

const dialogOpen = () => !$("lessons").hidden || !$("help").hidden || !$("share-box").hidden || !$("modes-box").hidden;

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
  if (e.key === "Escape") {
    // Escape closes what is open; with nothing open, it leaves presenter mode.
    const inPopup = [$("popup"), $("hand")].some((p) => !p.hidden && p.contains(document.activeElement));
    if (closeMenu(true)) return;
    const open = dialogOpen() || !$("popup").hidden || !$("hand").hidden || typing;
    closeAll();
    if (typing) e.target.blur();
    // From a node's actions, the focus goes back to the canvas it came from.
    if (inPopup) canvas.focus({ preventScroll: true });
    if (!open) present(false);
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (dialogOpen()) return;
  const lesson = app.lesson();
  // A presentation clicker sends Page Down / Page Up (or the arrows).
  const forward = e.key === "ArrowRight" || (presenting && e.key === "PageDown");
  const backward = e.key === "ArrowLeft" || (presenting && e.key === "PageUp");
  if (e.key === " " && !(e.target instanceof HTMLButtonElement)) { e.preventDefault(); setPlaying(!playing); }
  else if (forward) { e.preventDefault(); if (lesson) lessonForward(); else step(); }
  else if (backward) { e.preventDefault(); stepBack(); }
  else if (e.key === "p") { e.preventDefault(); present(!presenting, true); }
  else if (e.key === "?") { e.preventDefault(); toggleHelp(); }
  else if (e.key === "/") { e.preventDefault(); consoleInput.focus(); }
});

new ResizeObserver(() => {
  resize();
  if (view.scale > 1) settleView(false);
  if (!playing) draw();
  if (presenting) showHint(app.lesson());
}).observe(canvas);
matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener?.("change", () => { resize(); draw(); });

// ---- the timeline under the canvas (the sandbox) ----------------------------------------

const scrub = $("scrub");
let scrubbing = false; // the pointer holds the scrubber: do not move it under the finger
let pendingSeek = null;
let seekRaf = 0;
let marksKey = "";

function updateTimeline(tl) {
  $("timeline").hidden = !tl;
  dimLog(tl && !tl.live ? tl.now_ms : null);
  if (!tl) return;
  const end = tl.end_ms, now = tl.now_ms, span = Math.max(end, 1);
  scrub.max = String(end);
  if (!scrubbing) scrub.value = String(seekTarget ?? now);
  scrub.setAttribute("aria-valuetext", t("scrub.value", { now: sec(now), end: sec(end) }) + t(tl.live ? "scrub.live" : "scrub.past"));
  $("timeline").classList.toggle("past", !tl.live);
  $("scrub-played").style.width = `${(100 * now) / span}%`;
  $("scrub-time").textContent = tl.live ? t("scrub.timeLive", { now: sec(now) }) : t("scrub.timeOf", { now: sec(now), end: sec(end) });
  $("live").disabled = tl.live;
  $("live").setAttribute("aria-pressed", String(tl.live));
  $("back").disabled = now === 0;
  // Ticks for commands, triangles for elections; dimmed in the future.
  const key = `${tl.branch}:${tl.entries.length}:${tl.leaders.length}:${end}:${tl.live ? end : now}`;
  if (key !== marksKey) {
    marksKey = key;
    const at = (ms) => `${(100 * ms) / span}%`;
    $("scrub-marks").replaceChildren(
      ...tl.entries.map((e) => mark("tick", e.at_ms, at, now)),
      ...tl.leaders.map((l) => mark("elect", l.at_ms, at, now)),
    );
  }
  const box = $("branch-box");
  box.hidden = tl.branches.length < 2;
  if (box.hidden) return;
  if (travelPart.m) travelPart.m.branches(tl, sec);
  else travelPart().then(() => updateTimeline(app.timeline()), () => {});
}

// The branch list and the timeline's tip (travel.js), a part (below): a
// list shown before it came fills when it comes; the tip shows once it is
// here (both are fetched when the page is idle).
const travelPart = part(() => import("./travel.js"));

/** In the past, the log's lines after the moment shown are dimmed. */
let logDimmed = false;
function dimLog(now) {
  if (now == null && !logDimmed) return;
  logDimmed = now != null;
  for (const li of logEl.children) {
    if (li.dataset.t !== undefined) li.classList.toggle("future", now != null && Number(li.dataset.t) > now);
  }
}

function mark(cls, ms, at, now) {
  const m = document.createElement("span");
  m.className = ms > now ? `${cls} future` : cls;
  m.style.left = at(ms);
  return m;
}

function seekTo(t) {
  setPlaying(false);
  pendingSeek = t;
  if (!seekRaf) seekRaf = requestAnimationFrame(doSeek);
}
function doSeek() {
  seekRaf = 0;
  if (pendingSeek == null) return;
  const t = pendingSeek;
  pendingSeek = null;
  // A far seek replays in slices: the page draws and answers meanwhile,
  // with the progress bar and its Cancel.
  const at = app.beginSeek(t);
  if (app.isRunning()) { seekTarget = Number.isNaN(at) ? t : at; startRun(); return; }
  flushNarration();
  refresh();
}
scrub.addEventListener("pointerdown", () => { scrubbing = true; setPlaying(false); });
window.addEventListener("pointerup", () => { if (scrubbing) { scrubbing = false; updateTimeline(app.timeline()); } });
scrub.addEventListener("input", () => seekTo(Number(scrub.value)));
scrub.addEventListener("keydown", (e) => {
  // Arrow keys move by 1% of the run (at least 100 ms), page keys by 10%.
  const end = Number(scrub.max), now = app.timeMs();
  const small = Math.max(100, end / 100), big = Math.max(1000, end / 10);
  const to = { ArrowLeft: now - small, ArrowDown: now - small, ArrowRight: now + small, ArrowUp: now + small,
    PageDown: now - big, PageUp: now + big, Home: 0, End: end }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  seekTo(Math.max(0, Math.min(end, Math.round(to))));
});
// A tip naming the command or election under the pointer.
$("timeline").querySelector(".scrub").addEventListener("pointermove", (e) => {
  const tl = app.timeline();
  if (tl && travelPart.m) travelPart.m.tip(e, tl, sec);
});
// A finger leaves the strip as it lifts: its tip stays a moment to be read.
let tipTimer = 0;
$("timeline").querySelector(".scrub").addEventListener("pointerleave", (e) => {
  clearTimeout(tipTimer);
  if (e.pointerType === "mouse") $("scrub-tip").hidden = true;
  else tipTimer = setTimeout(() => { $("scrub-tip").hidden = true; }, 2000);
});
$("back").onclick = stepBack;
$("live").onclick = () => { const tl = app.timeline(); if (tl) seekTo(tl.end_ms); };
$("branch").addEventListener("change", (e) => {
  const id = Number(e.target.value);
  setPlaying(false);
  app.switchBranch(id);
  flushNarration();
  refresh();
});

// ---- lessons ------------------------------------------------------------------------------

// The lesson list's and panel's drawing (lesson-panel.js), a part (below),
// comes with the lessons' scripts, the first time either is asked for: a
// lesson is on screen only once both are here.
const lessonPanel = part(() => import("./lesson-panel.js"));
const lessonsAndPanel = () => Promise.all([lessonsReady(), lessonPanel()]);
const fillLessonList = () => lessonPanel.m.fillList(lessonInfos(), startLesson);

$("lessons-button").onclick = () => later(lessonsAndPanel, () => {
  fillLessonList();
  toggleLessons(true);
});

function startLesson(id) {
  // The lessons come with the first one asked for (view.js), and the
  // panel's drawing with them: then on.
  if (!haveLessons() || !lessonPanel.m) {
    openingAddress = true;
    later(lessonsAndPanel, () => { openingAddress = false; startLesson(id); }).then(() => {
      openingAddress = false;
      for (const w of idleWaiters.splice(0)) w();
    });
    return;
  }
  // A run going on in the sandbox ends where it is (the app cancels it).
  endConfirm();
  runAfter = null;
  const r = app.openLesson(id);
  toggleLessons(false);
  if (!r.ok) { logLine(t("error", { msg: r.error }), "err"); return; }
  setPlaying(false);
  logEl.replaceChildren();
  closePopup();
  lastStep = null;
  const l = app.lesson();
  logLine(t("lesson.start", { number: l.number, title: l.title }), "say");
  refresh();
  sayChange(t("lesson.start", { number: l.number, title: l.title }));
  $("lesson-next").focus({ preventScroll: true });
}

/** Next (at once; while a step plays, the rest of it), back, restart,
 * rejoin or goto: the clock stops, a playing step ends; the step's lines go
 * to the log. */
function lessonMove(fn, arg) {
  setPlaying(false);
  flushNarration();
  const before = app.lesson();
  const step = arg === undefined ? app[fn]() : app[fn](arg);
  if (!step) { refresh(); return null; }
  return showStep(step, fn, fn === "lessonNext" && before?.finished && !before.playing);
}

/** Shows a step that ended (`fn`: the move that ended it; `over`: Next
 * was pressed at the lesson's end). */
function showStep(step, fn, over = false) {
  const rebuilt = fn !== "lessonNext";
  if (rebuilt) {
    logEl.replaceChildren();
    if (step.position === 0) logLine(t("lesson.atStart"), "say");
  }
  for (const line of step.lines) showLine(line);
  if (over) logLine(t("lesson.over"), "say");
  lastStep = step;
  refresh();
  // The step's words: what the canvas now shows.
  const l = app.lesson();
  if (l) sayChange(t("status.step", { k: l.position, n: l.steps, says: l.says.join(" ") || l.summary }));
  logEl.scrollTop = logEl.scrollHeight;
  return step;
}

/** Next: plays the next step (while one plays, skips to its pause), or at
 * a lesson's end opens the next lesson. */
function lessonForward() {
  const l = app.lesson();
  if (!l) return;
  if (l.playing) { lessonMove("lessonNext"); return; }
  const following = l.finished ? followingLesson(l.id) : undefined;
  if (following) { startLesson(following.id); return; }
  if (l.finished) { lessonMove("lessonNext"); return; }
  setPlaying(false);
  flushNarration();
  if (app.lessonPlay()) {
    lastStep = null;
    refresh();
    animate();
  }
}
$("lesson-next").onclick = lessonForward;
$("lesson-back").onclick = () => lessonMove("lessonBack");
$("lesson-restart").onclick = () => lessonMove("lessonRestart");
$("lesson-rejoin").onclick = () => { lessonMove("lessonRejoin"); logLine(t("lesson.back"), "say"); };
$("lesson-leave").onclick = leaveLesson;

function leaveLesson() {
  if (!app.leaveLesson()) return;
  setPlaying(false);
  logEl.replaceChildren();
  lastStep = null;
  logLine(t("lesson.left"), "say");
  refresh();
  sayChange(t("lesson.left"));
}

function updateLesson(l) {
  $("main").classList.toggle("in-lesson", !!l);
  $("lesson").hidden = !l;
  $("lesson-strip").hidden = !l;
  $("lesson-bar").hidden = !l;
  // The compact layout's lesson tab: shown from a lesson's start (the
  // lesson is what one reads then), gone when it is left.
  if ($("tab-lesson").hidden === !!l) {
    $("tab-lesson").hidden = !l;
    if (l && isCompact()) selectTab("tab-lesson");
  }
  if (!l && shownTab() === "tab-lesson") selectTab(dataTab);
  $("play").title = l ? t("play.tipLesson") : t("play.tip");
  if (!l) { lessonPanel.m?.forget(); return; }
  // A lesson opens once its panel's drawing is here (startLesson); should
  // one ever come without, the panel fills when it comes.
  if (!lessonPanel.m) { lessonPanel().then(() => updateLesson(app.lesson()), () => {}); return; }
  lessonPanel.m.show(l, lastStep, (k) => lessonMove("lessonGoto", k), app.clusters().clusters);
  if (presenting || !$("lesson-hint").hidden) showHint(l);
}

// ---- the modes control: cluster options for a fresh run ------------------------------------

/** freshScript for a modes object (the shape of app.modes()). */
const freshRun = (seed, m) => freshScript(seed, String(m?.new_members), m?.auto_promote == null ? undefined : Number(m.auto_promote),
  Number(m?.failover_after_ms), String(m?.failover), Number(m?.max_learners), language());

/** What the run's modes have on, in words ("" when all are off, as in etcd). */
function modesSummary(m) {
  const on = [];
  if (m.new_members === "learner") on.push(t("modes.learnersFirst"));
  if (m.auto_promote != null) on.push(t("modes.auto", { p: m.auto_promote }));
  if (m.failover_after_ms !== 10000 || m.failover !== "replace") on.push(t("modes.failover", { s: m.failover_after_ms / 1000, how: m.failover }));
  if (m.max_learners !== 1) on.push(t("modes.maxLearners", { n: m.max_learners }));
  return on.join(" · ");
}

// The dialog's form (modes.js) loads on first use.
$("modes-button").onclick = () => later(modesPart, (m) => m.openModes(page));

// ---- share links, files -------------------------------------------------------------------

const fullLink = () => `${location.href.split("#")[0]}${app.shareLink()}`;

$("share").onclick = () => later(filesPart, (m) => m.share(page));

/** Replaces the run with an opened one (its run queued: it runs in slices,
 * asking first when it is big), or refuses and changes nothing. */
function opened(r, what) {
  if (!r.ok) {
    logLine(`✗ ${t("open.refused", { what, error: r.error })}`, "err");
    toast(t("open.refused", { what, error: r.error }), "err");
    return { ok: false, error: r.error };
  }
  const planned = app.planned();
  setPlaying(false);
  adopt(app);
  beginRun(planned, () => {
    const tl = app.timeline();
    logLine(t("open.done", { what, t: sec(app.timeMs()), of: tl && !tl.live ? t("open.of", { end: sec(tl.end_ms) }) : "" }), "say");
  });
  return { ok: true };
}

function openLink(link) {
  let r;
  link = String(link ?? "");
  try { r = app.openLink(link); } catch (e) { r = { ok: false, error: String(e?.message ?? e) }; }
  return opened(r, t("open.link"));
}

function importText(text, name) {
  let r;
  text = String(text);
  try { r = app.importScenario(text); } catch (e) { r = { ok: false, error: String(e?.message ?? e) }; }
  return opened(r, name ? t("open.file", { name }) : t("open.theFile"));
}
$("import").onclick = () => $("import-file").click();
$("import-file").addEventListener("change", async (e) => {
  const file = e.target.files?.[0];
  e.target.value = "";
  if (file) await later(filesPart, (m) => m.importFile(page, file));
});

$("export").onclick = () => later(filesPart, (m) => m.exportRun(page));

// Drag and drop a .scenario file anywhere on the page.
let dragDepth = 0;
const hasFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes("Files");
document.addEventListener("dragenter", (e) => { if (!hasFiles(e)) return; e.preventDefault(); dragDepth++; $("drop").hidden = false; });
document.addEventListener("dragover", (e) => { if (hasFiles(e)) e.preventDefault(); });
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; $("drop").hidden = true; } });
document.addEventListener("drop", (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  dragDepth = 0;
  $("drop").hidden = true;
  // The dropped file is read now: the event's data is gone once it ends.
  const file = e.dataTransfer.files[0];
  later(filesPart, (m) => m.importFile(page, file));
});

window.addEventListener("hashchange", () => { if (isLink(location.hash)) openLink(location.hash); });

// ---- the safety indicator and the side panel ------------------------------------------------

function showSafetyList(on) {
  const b = $("safety").querySelector(".safety-button");
  const list = $("safety").querySelector(".safety-list");
  if (!b || !list) return;
  on ??= list.hidden;
  list.hidden = !on;
  b.setAttribute("aria-expanded", String(on));
}
$("safety").addEventListener("click", (e) => { if (e.target.closest(".safety-button")) showSafetyList(); });

$("toggle-aside").onclick = () => {
  const hide = !$("main").classList.contains("no-aside");
  $("main").classList.toggle("no-aside", hide);
  $("toggle-aside").setAttribute("aria-expanded", String(!hide));
  $("toggle-aside").textContent = hide ? "⇤" : "⇥";
  resize();
  draw();
};

// ---- presenter mode ------------------------------------------------------------------

// The canvas and the current lesson step fill the screen in large type, the
// side panels hidden (in the sandbox: the canvas alone); the speaker sees a
// hint of the next step when it fits. `?present` in the address, or `p`.
let presenting = false;
let ownFullscreen = false;
function present(on, fullscreen = false) {
  if (on === presenting) return presenting;
  presenting = on;
  document.body.classList.toggle("present", on);
  closeAll();
  // The key asks the browser for full screen too (the address cannot: the
  // browser wants a key press or a click first).
  if (on && fullscreen && !document.fullscreenElement) {
    document.documentElement.requestFullscreen?.().then(() => { ownFullscreen = true; }, () => {});
  } else if (!on && ownFullscreen && document.fullscreenElement) {
    ownFullscreen = false;
    document.exitFullscreen?.().catch(() => {});
  }
  lessonPanel.m?.forget();
  resize();
  refresh();
  return presenting;
}
// The browser's own Escape ends its full screen: presenter mode ends with it.
document.addEventListener("fullscreenchange", () => {
  if (!document.fullscreenElement && ownFullscreen) { ownFullscreen = false; present(false); }
});
$("present-exit").onclick = () => present(false);

/** The next step's words, for the speaker: shown in presenter mode between
 * steps, and only if the panel has room for them. */
function showHint(l) {
  const hint = $("lesson-hint");
  const says = presenting && l && !l.playing && !l.finished ? l.next_says ?? [] : [];
  $("lesson-hint-text").textContent = says.join(" ");
  hint.hidden = !says.length;
  const panel = $("lesson");
  if (!hint.hidden && panel.scrollHeight > panel.clientHeight + 1) hint.hidden = true;
}

// ---- language -------------------------------------------------------------------------

/** Speaks `lang` from now on: the page's words, and (through the app) new
 * log lines, the panels and the canvas. The run goes on untouched. */
function setLanguage(lang) {
  if (!(lang in LANGS) || lang === language()) return language();
  if (!haveLanguage(lang)) {
    // Its words come first (i18n.js loads them once): then the switch.
    return loadLanguage(lang).then(() => setLanguage(lang), (e) => {
      $("lang").value = language();
      logLine(t("error", { msg: e.message }), "err");
      return language();
    });
  }
  applyLanguage(lang);
  rememberLanguage(lang);
  $("lang").value = lang;
  app.setLanguage(lang);
  $("play").textContent = playing ? t("pause") : t("play");
  if (!$("lessons").hidden) fillLessonList();
  layoutWords();
  logLine(t("lang.switched"), "say");
  refresh();
  return lang;
}
$("lang").addEventListener("change", (e) => setLanguage(e.target.value));

// ---- parts loaded on first use ----------------------------------------------------------

// The modes dialog's form (modes.js), the Share, Export and Import buttons
// (files.js), the lessons' drawing (lesson-panel.js, above), the panels
// for several clusters (clusters.js, above), the node popup (popup.js,
// above), the history view (history.js, above), the branch list and the
// timeline's tip (travel.js, above) and the help's words (help.js, above)
// load the first time they are used, and are fetched ahead once the page
// is idle (the end of this file): a first click does not wait for them.
// Each brings its English words (i18n.js's addWords), and the markup and
// style rules of what only it shows. `page` is what they use of this file.
const modesPart = part(() => import("./modes.js"));
const filesPart = part(() => import("./files.js"));
const page = {
  get app() { return app; },
  toCanvas, run, kindName, role, seedValue, freshRun, create, logLine, toast, sec, fullLink, opened, importText, toggleModes, toggleShareBox,
};

/** A part: `p()` loads it, then `p.m` is it. */
function part(load) {
  const p = () => load().then((m) => (p.m = m));
  return p;
}

/** `use(part, page)` once the part `load` gives is here; a part that
 * cannot be had says why in the log (and as `{ok: false, error}`). */
function later(load, use) {
  return load().then((part) => use(part, page), (e) => {
    logLine(t("error", { msg: e.message }), "err");
    return { ok: false, error: e.message };
  });
}

// ---- start -------------------------------------------------------------------------

// A language whose words or sentences cannot be had (a failed fetch): the
// page opens in English, and its log says why once the run is there.
const languageProblem = await languageLoading;
applyLanguage(languageProblem ? "en" : startLanguage);
$("lang").value = language();
resize();
/** Opens the page's address: a link's run, or a `#script=`. */
function openAddress() {
  if (isLink(location.hash)) {
    // The link's run is queued, drawn at its start, and runs in slices from
    // here (asking first when it is big): window.raftlab answers throughout.
    let opening;
    try {
      opening = App.queuedLink(location.hash);
    } catch (e) {
      create(defaultScript(1));
      // The fresh app says why in the page's language (it changes nothing).
      logLine(t("link.refused", { error: app.openLink(location.hash).error ?? e.message ?? e }), "err");
    }
    if (opening) {
      adopt(opening);
      beginRun(app.planned(), () => logLine(t("link.opened", { t: sec(app.timeMs()) }), "say"));
    }
    setPlaying(false);
  } else {
    // The welcome speaks of the default cluster's three voters only when
    // that is the cluster on screen (an address's script refused leaves it).
    const script = scriptFromHash();
    const taken = create(script ?? defaultScript(1));
    // The compact layout has no ? button: its help is in the menu. A
    // finger taps.
    const help = t(isCompact() ? "welcome.help.menu" : "welcome.help");
    const act = t(matchMedia("(pointer: coarse)").matches ? "welcome.tap" : "welcome.click");
    logLine(t(script !== null && taken ? "welcome.script" : "welcome", { help, act }), "say");
    setPlaying(true);
    // `#lesson=ID` opens a lesson (as an embedded lesson's link to the page does).
    const lessonId = location.hash.match(/^#lesson=([^&]*)/)?.[1];
    if (lessonId) startLesson(decodeURIComponent(lessonId));
  }
}
if (isLink(location.hash) || location.hash.startsWith("#script=")) {
  // Reading a long link takes a moment: the page answers first (a run
  // being opened counts as running), then reads it.
  adopt(App.queued(defaultScript(1)));
  openingAddress = true;
  setTimeout(() => {
    openingAddress = false;
    openAddress();
    // A refused address runs nothing: whoever waited for the page to be idle is told now.
    if (!confirming && !app.isRunning()) for (const w of idleWaiters.splice(0)) w();
  }, 0);
} else {
  openAddress();
}
// For tests and the curious, once the page has its app (a language loading
// before it came first).
window.raftlab = {
  // How the module's deferred part came: null (not yet), "ahead" (fetched
  // when the page was idle) or "when first called".
  deferred: () => deferredLoaded(),
  // The report's object without its results; the history's verdict is
  // computed for the console only (never for a frame).
  status: () => ({ ...app.status(), linearizability: app.linearizability() }),
  linearizability: () => app.linearizability(),
  // The history view: opens its tab; its words ({ok, empty, verdict, note}),
  // a promise of them the first time if its part is not here yet.
  showHistory: () => { selectTab("tab-history"); return drawHistory(); },
  command: (text) => run(text),
  // The same, as a promise of its result once it ended (a command that
  // runs on in slices: when it ends, or is cancelled).
  commandDone: (text) => {
    const r = run(text);
    if (!r.running) return Promise.resolve(r);
    return new Promise((resolve) => replyWaiters.push(resolve));
  },
  history: () => app.history(),
  // Where a node is on the canvas, in its CSS pixels, zoomed: [x, y, radius].
  nodePosition: (id) => { const p = app.nodePosition(id); return p && toCanvas(p); },
  // Every message dot drawn, where it is on the canvas (zoomed): [{id, from, to, x, y, held}].
  messageDots: () => app.messageDots().map((d) => { const [x, y] = toCanvas([d.x, d.y]); return { ...d, x, y }; }),
  // The reader's zoom: {scale, x, y}; zoomBy(k) zooms about the canvas's centre.
  view: () => ({ ...view }),
  zoomBy: (k) => { zoomBy(k); return { ...view }; },
  // Every cluster and mirror process; a key's history in each cluster.
  clusters: () => app.clusters(),
  keyHistory: (key) => app.keyHistory(key),
  play: () => setPlaying(true),
  pause: () => setPlaying(false),
  setSpeed: (s) => { speed = Math.min(SPEED_MAX, Math.max(SPEED_MIN, s)); $("speed").value = String(Math.round(speedToSlider(speed))); showSpeed(); },
  // Time travel: where `seek` landed; `stepBack` is undefined at the start.
  seek: (t) => { setPlaying(false); const at = app.seek(t); refresh(); return at; },
  stepBack: () => { setPlaying(false); const at = app.stepBack(); refresh(); return at; },
  goLive: () => { const at = app.goLive(); refresh(); return at; },
  timeline: () => app.timeline(),
  // Sharing: the link to this run at this moment; open one ({ok} or {ok: false, error}).
  share: () => fullLink(),
  open: (link) => openLink(link),
  exportScenario: () => app.exportScenario(),
  // The learner modes: the run's, and a fresh run with others (a promise
  // of {ok, script} or {ok: false, error}: the form's code loads on first use).
  modes: () => app.modes(),
  applyModes: (form) => later(modesPart, (m) => m.applyModes(page, form)),
  importScenario: (text) => importText(text),
  // Lessons.
  // Promises: the lessons are fetched the first time they are asked for.
  lessons: async () => { await lessonsReady(); return lessonInfos(); },
  openLesson: async (id) => { await lessonsAndPanel(); startLesson(id); return app.lesson(); },
  lesson: () => app.lesson(),
  // Next at once (while a step plays: skips to its pause); `play` is the
  // page's Next button, which plays the step.
  next: () => lessonMove("lessonNext"),
  playNext: () => { lessonForward(); return app.lesson(); },
  leaveLesson: () => leaveLesson(),
  // Presenter mode: on or off; whether it is on.
  present: (on = !presenting) => present(Boolean(on)),
  presenting: () => presenting,
  // The page's language: "en" or "ja".
  language: () => language(),
  setLanguage: (lang) => setLanguage(lang),
  // Long runs (an opened link or file, a long console command) run in
  // slices: how far ({running, done_ms, total_ms, commands_done,
  // commands_total, confirming}), Cancel (true if something was running; a
  // run waiting for its confirm is not run), the confirm's "Run now", a
  // promise that resolves when nothing runs, and the memory counted
  // against the budget ({counted_bytes, budget_bytes}; setMemoryBudget(bytes
  // or null)).
  progress: () => progress(),
  cancel: () => cancelRun(),
  runNow: () => { const was = confirming != null; runConfirmed(); return was; },
  idle: () => (openingAddress || confirming || app.isRunning() ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
  memory: () => app.memory(),
  runStats: () => app.runStats(),
  setMemoryBudget: (bytes) => app.setMemoryBudget(bytes ?? undefined),
  get app() { return app; },
};
// After the address's run (opened now or in a moment) started its log.
if (languageProblem) setTimeout(() => logLine(t("error", { msg: languageProblem.message }), "err"), 0);
if (new URLSearchParams(location.search).has("present")) present(true);
// The parts loaded on first use, fetched ahead while the page has nothing
// else to do (within 2 s: a page that plays on a busy machine may never be idle).
// The module's deferred part comes the same way (its functions would
// otherwise fetch it when first called: docs/page-module.md).
(window.requestIdleCallback ?? ((f) => setTimeout(f, 500)))(() => {
  for (const load of [lessonPanel, clustersPart, modesPart, filesPart, helpPart, popupPart, handPart, historyPart, travelPart]) load().catch(() => {});
  loadDeferred().catch(() => {});
}, { timeout: 2000 });
