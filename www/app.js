// Wires the page to the wasm app. All simulation state and all drawing live
// in Rust; this file only turns DOM events into scenario commands and runs
// the animation loop (only while playing: a paused page uses no CPU).
import init, { App } from "./pkg/raftlab.js";

await init();

const $ = (id) => document.getElementById(id);
const canvas = $("cluster");
const ctx = canvas.getContext("2d");
const logEl = $("log");

const DEFAULT_SPEED = 0.2;
const SPEED_MIN = 0.01, SPEED_MAX = 8;
const defaultScript = (seed) => `cluster voters=1,2,3 seed=${seed} bandwidth=1MB/s\n`;

let app;
let playing = true;
let speed = DEFAULT_SPEED;
let lastFrame = 0;
let rafId = 0;
let panelsDue = 0;
let loadOn = false;

// ---- the app and its commands --------------------------------------------

function scriptFromHash() {
  const m = location.hash.match(/^#script=(.*)$/s);
  return m ? decodeURIComponent(m[1]) : null;
}

function create(script) {
  try {
    app?.free();
    app = new App(script);
  } catch (e) {
    logLine(`error: ${e.message ?? e}`, "err");
    app = new App(defaultScript(1));
  }
  logEl.replaceChildren();
  closePopup();
  loadOn = false;
  $("load").setAttribute("aria-pressed", "false");
  flushNarration();
  refresh();
}

/** Runs one scenario command, logs it, and returns its result object. */
function run(text) {
  text = String(text).trim();
  if (!text) return { ok: false, error: "parse", detail: "empty command" };
  logLine(`› ${text}`, "cmd");
  let result;
  try {
    result = app.command(text);
  } catch (e) {
    result = { ok: false, command: text, error: "internal", detail: String(e?.message ?? e) };
    logLine(`error: ${result.detail}`, "err");
  }
  const bits = [];
  if (result?.ok) {
    if ("index" in result) bits.push(`committed at index ${result.index}`);
    if ("value" in result) bits.push(`value ${result.value === null ? "(none)" : JSON.stringify(result.value)}`);
    if ("members" in result) bits.push(result.members.map((m) => `${m.id}${m.learner ? " (learner)" : ""} ${m.peer_url}${m.started ? "" : " not started"}`).join("; "));
  }
  flushNarration();
  if (result?.ok && bits.length) logLine(`  ${bits.join(", ")}`, "ok");
  refresh();
  return result;
}

// ---- the event log -------------------------------------------------------

const MAX_LOG = 400;
function logLine(text, cls = "") {
  const stick = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 30;
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  logEl.append(li);
  while (logEl.childElementCount > MAX_LOG) logEl.firstElementChild.remove();
  if (stick) logEl.scrollTop = logEl.scrollHeight;
  return li;
}

// Dropped messages come in bursts (every heartbeat over a cut link): one
// line per link and reason, with a count, instead of a flood.
const drops = new Map();
const DROP = /^(t=[\d.]+s) (\S+) from (\d+) to (\d+) was dropped: (.*)$/;
function logDrop(m) {
  const [, time, , from, to, reason] = m;
  const key = `${from}>${to}:${reason}`;
  const seen = drops.get(key);
  const text = (n) => `${time} messages from ${from} to ${to} are dropped: ${reason}${n > 1 ? ` (×${n})` : ""}`;
  if (seen && seen.li.isConnected && logEl.lastElementChild && seen.li.parentNode === logEl) {
    seen.n += 1;
    seen.li.textContent = text(seen.n);
    return;
  }
  const li = logLine(text(1), "err");
  drops.set(key, { li, n: 1 });
}

const RESULT = /^(t=[\d.]+s) > (.*) : (.*)$/s;
function flushNarration() {
  for (const s of app.narration()) {
    const m = DROP.exec(s);
    if (m) { logDrop(m); continue; }
    drops.clear();
    // A command's own result: "t=1.23s > put k v : ok" (the command itself
    // is already in the log as it was typed or clicked).
    const done = RESULT.exec(s);
    if (done) {
      const [, time, , summary] = done;
      logLine(`${time} ${summary.startsWith("error") ? "✗" : "✓"} ${summary}`, summary.startsWith("error") ? "err" : "ok");
      continue;
    }
    const cls = /failed|error|refused|rejected|dropped|stepped down|crashed/.test(s) ? "err"
      : /became leader|promot|applied "/.test(s) ? "ok" : "";
    logLine(s, cls);
  }
}

// ---- drawing and panels ----------------------------------------------------

function resize() {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
}

function draw() {
  const r = canvas.getBoundingClientRect();
  app.setTopInset($("legend").offsetHeight + 6);
  app.draw(ctx, r.width, r.height, window.devicePixelRatio || 1);
}

function refresh() {
  draw();
  updatePanels();
}

function chips(ids, cls = () => "") {
  return ids.length ? ids.map((id) => `<span class="chip ${cls(id)}">${id}</span>`).join(" ") : `<span class="none">none</span>`;
}

function updatePanels() {
  const t = app.timeMs();
  $("clock").textContent = `t = ${(t / 1000).toFixed(2)} s`;
  const q = app.quorum();
  const acked = new Set(q.acked);
  $("quorum").innerHTML = `
    <div class="row"><span class="k">leader</span>${q.leader ?? "<span class='chip no'>none</span>"}</div>
    <div class="row"><span class="k">voters</span>${chips(q.voters, (id) => (q.leader === id ? "yes" : ""))}</div>
    <div class="row"><span class="k">learners</span>${chips(q.learners, () => "learner")} <span class="none">(${q.learners.length} of max ${q.max_learners})</span></div>
    <div class="row"><span class="k">quorum</span>${q.quorum} of ${q.voters.length} voters</div>
    <div class="row"><span class="k">acked commit ${q.commit}</span>${q.leader == null ? "<span class='none'>no leader</span>" : chips(q.voters, (id) => (acked.has(id) ? "yes" : "no"))}</div>
    <div class="verdict ${q.can_reach_quorum ? "ok" : "bad"}">${q.can_reach_quorum ? "✓" : "✗"} ${escapeHtml(q.summary)}</div>`;
  $("status").textContent = `${q.voters.length} voters, ${q.learners.length} learners, leader ${q.leader ?? "none"}`;
  const nodes = app.nodes();
  $("keys").innerHTML = `<table>${nodes.map((n) => `
    <tr><th colspan="2">node ${n.id} · ${n.learner ? "learner · " : ""}${n.role}${n.applied != null ? ` · applied ${n.applied}` : ""}</th></tr>
    ${n.kv.length ? n.kv.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join("") : `<tr><td class="none" colspan="2">${n.running ? "no keys" : "not running"}</td></tr>`}`).join("")}</table>`;
  const script = app.history();
  if ($("script").textContent !== script) $("script").textContent = script;
  if (popupId != null) fillPopup();
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// ---- the animation loop ------------------------------------------------------

function frame(now) {
  rafId = 0;
  if (!playing) return;
  const dt = lastFrame ? now - lastFrame : 16;
  lastFrame = now;
  app.advance(dt, speed);
  flushNarration();
  draw();
  if (now >= panelsDue) { updatePanels(); panelsDue = now + 120; }
  rafId = requestAnimationFrame(frame);
}

function setPlaying(on) {
  playing = on;
  $("play").textContent = on ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(on));
  if (on && !rafId) { lastFrame = 0; rafId = requestAnimationFrame(frame); }
  if (!on && rafId) { cancelAnimationFrame(rafId); rafId = 0; refresh(); }
}

function step() {
  setPlaying(false);
  if (!app.stepEvent()) logLine("nothing more happens within a minute", "");
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
$("reset").onclick = () => create(defaultScript(Math.max(0, Math.floor(Number($("seed").value) || 0))));
$("clear-log").onclick = () => logEl.replaceChildren();

const members = () => app.nodes().filter((n) => !n.removed);
function addMember(kind) {
  const id = app.nextId();
  if (id == null) { logLine("error: every id from 1 to 15 is taken", "err"); return; }
  if (kind === "voter") run(`member add ${id}`);
  else if (kind === "learner") run(`member add ${id} --learner`);
  else run(`member add ${id} --peer-url=http://10.0.0.9:2380`);
}
$("add-voter").onclick = () => addMember("voter");
$("add-learner").onclick = () => addMember("learner");
$("add-bad").onclick = () => addMember("bad");

function leaderFirst() {
  const leader = app.status().leader;
  const ids = members().map((n) => n.id);
  return leader == null ? ids : [leader, ...ids.filter((id) => id !== leader)];
}
$("isolate-leader").onclick = () => {
  const leader = app.status().leader;
  if (leader == null) logLine("error: there is no leader to isolate (no-leader)", "err");
  else run(`isolate ${leader}`);
};
function split(first) {
  const ids = leaderFirst();
  if (ids.length < 2) { logLine("error: a partition needs at least two nodes", "err"); return; }
  const k = Math.min(Math.max(1, first(ids.length)), ids.length - 1);
  run(`partition ${ids.slice(0, k).join(",")} | ${ids.slice(k).join(",")}`);
}
$("split-31").onclick = () => split((n) => n - 1);
$("split-22").onclick = () => split((n) => Math.floor(n / 2));
$("heal-all").onclick = () => run("heal");
let putCount = 0;
$("put-one").onclick = () => run(`put key${++putCount} value${putCount}`);
$("load").onclick = () => {
  loadOn = !loadOn;
  $("load").setAttribute("aria-pressed", String(loadOn));
  run(loadOn ? "load rate=20/s size=1KB" : "load stop");
};

// ---- the canvas: hover, node popup, links ----------------------------------------

const point = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
canvas.addEventListener("pointermove", (e) => {
  const [x, y] = point(e);
  if (app.hover(x, y) && !playing) draw();
  canvas.style.cursor = app.hitTest(x, y) ? "pointer" : "default";
});
canvas.addEventListener("click", (e) => {
  const [x, y] = point(e);
  const hit = app.hitTest(x, y);
  if (!hit) { closePopup(); return; }
  if (hit.kind === "node") { openPopup(hit.id); return; }
  closePopup();
  if (e.shiftKey) {
    const other = hit.near === hit.a ? hit.b : hit.a;
    run(`${app.isCut(hit.near, other) ? "heal" : "cut"} ${hit.near}->${other}`);
  } else {
    const cut = app.isCut(hit.a, hit.b) || app.isCut(hit.b, hit.a);
    run(`${cut ? "heal" : "cut"} ${hit.a} ${hit.b}`);
  }
});

let popupId = null;
const popup = $("popup");
function openPopup(id) {
  popupId = id;
  popup.hidden = false;
  fillPopup();
  const pos = app.nodePosition(id);
  const stage = canvas.getBoundingClientRect();
  if (pos) {
    const [x, y, r] = pos;
    const w = popup.offsetWidth, h = popup.offsetHeight;
    let left = x + r + 14, top = y - h / 2;
    if (left + w > stage.width - 6) left = x - r - 14 - w;
    left = Math.max(6, Math.min(left, stage.width - w - 6));
    top = Math.max(6, Math.min(top, stage.height - h - 6));
    popup.style.left = `${left}px`;
    popup.style.top = `${top}px`;
  }
  popup.querySelector("button[data-act]")?.focus({ preventScroll: true });
}
function closePopup() { popupId = null; popup.hidden = true; }
function fillPopup() {
  const n = app.nodes().find((m) => m.id === popupId);
  if (!n) { closePopup(); return; }
  $("popup-title").textContent = `node ${n.id} · ${n.learner ? "learner" : "voter"}`;
  const facts = [n.role];
  if (n.term != null) facts.push(`term ${n.term}`, `commit ${n.commit}`, `applied ${n.applied}`);
  if (n.peer_url) facts.push(n.peer_url);
  if (n.bad_url) facts.push("this URL reaches no host: the process cannot join");
  $("popup-info").textContent = facts.join(" · ");
  const show = (act, on) => { popup.querySelector(`[data-act="${act}"]`).hidden = !on; };
  show("start", !n.running && !n.removed);
  show("crash", n.running);
  show("promote", n.learner);
  show("campaign", !n.removed);
  show("transfer", !n.leader && !n.removed);
  show("remove", !n.removed);
}
const actions = {
  start: (id) => `start ${id}`,
  crash: (id) => `crash ${id}`,
  campaign: (id) => `campaign ${id}`,
  transfer: (id) => `transfer-leader ${id}`,
  promote: (id) => `member promote ${id}`,
  remove: (id) => `member remove ${id}`,
};
popup.addEventListener("click", (e) => {
  const act = e.target.closest("button[data-act]")?.dataset.act;
  if (!act || popupId == null) return;
  const form = $("popup-put");
  if (act === "get") run(`get ${quoteWord(form.key.value)} via=${popupId}`);
  else run(actions[act](popupId));
});
$("popup-put").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  run(`put ${quoteWord(f.key.value)} ${quoteWord(f.value.value)} via=${popupId}`);
});
$("popup-close").onclick = closePopup;
function quoteWord(s) {
  s = String(s);
  return s !== "" && /^[^\s#="\\]+$/.test(s) ? s : `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

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
  run(text);
});
consoleInput.addEventListener("keydown", (e) => {
  if (e.key === "ArrowUp" && pastAt > 0) { consoleInput.value = past[--pastAt]; e.preventDefault(); }
  else if (e.key === "ArrowDown") { pastAt = Math.min(past.length, pastAt + 1); consoleInput.value = past[pastAt] ?? ""; e.preventDefault(); }
});

// ---- tabs, help, keyboard ------------------------------------------------------------

function selectTab(which) {
  for (const [tab, panel] of [["tab-keys", "keys"], ["tab-script", "script-box"]]) {
    const on = tab === which;
    $(tab).setAttribute("aria-selected", String(on));
    $(panel).hidden = !on;
  }
}
$("tab-keys").onclick = () => selectTab("tab-keys");
$("tab-script").onclick = () => selectTab("tab-script");
$("copy-script").onclick = () => navigator.clipboard?.writeText(app.history());

const help = $("help");
const toggleHelp = (on = help.hidden) => { help.hidden = !on; if (on) $("help-close").focus(); };
$("help-button").onclick = () => toggleHelp(true);
$("help-close").onclick = () => toggleHelp(false);
help.addEventListener("click", (e) => { if (e.target === help) toggleHelp(false); });

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
  if (e.key === "Escape") { toggleHelp(false); closePopup(); if (typing) e.target.blur(); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === " " && !(e.target instanceof HTMLButtonElement)) { e.preventDefault(); setPlaying(!playing); }
  else if (e.key === "ArrowRight") { e.preventDefault(); step(); }
  else if (e.key === "?") { e.preventDefault(); toggleHelp(); }
  else if (e.key === "/") { e.preventDefault(); consoleInput.focus(); }
});

new ResizeObserver(() => { resize(); if (!playing) draw(); }).observe(canvas);
matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener?.("change", () => { resize(); draw(); });

// ---- start -------------------------------------------------------------------------

window.raftlab = {
  status: () => app.status(),
  command: (text) => run(text),
  history: () => app.history(),
  nodePosition: (id) => app.nodePosition(id),
  play: () => setPlaying(true),
  pause: () => setPlaying(false),
  setSpeed: (s) => { speed = Math.min(SPEED_MAX, Math.max(SPEED_MIN, s)); $("speed").value = String(Math.round(speedToSlider(speed))); showSpeed(); },
  get app() { return app; },
};

resize();
create(scriptFromHash() ?? defaultScript(1));
logLine("Welcome. The three voters are waiting for their election timers (the rings). Click a node or a link, or type a command below. Press ? for help.", "say");
setPlaying(true);
