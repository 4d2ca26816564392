// An embedded lesson (embed.html#lesson=ID&lang=ja) or share link
// (embed.html#v1.…): the canvas, the step's words, Back and Next, sized by
// the iframe. The lesson words and the canvas come from the same wasm app
// and view.js as the full page.
import init, { App, defaultScript, loadDeferred } from "./pkg/raftlab.js";
import { t, applyLanguage, pickLanguage, loadLanguage, addWords } from "./i18n.js";
import { escapeHtml, lessonSource, narrationHtml, nextButton, fitCanvas, canvasRatio, lessonsReady } from "./view.js";

// The frame's own words, in English (i18n.js's addWords: the full page
// never says them).
addWords({
  "embed.none": "No lesson to show: give one in the address, as embed.html#lesson=01-… (and &lang=ja for 日本語), or a share link.",
  "embed.bad": "This embedded lesson cannot be shown: {error}.",
  "embed.open": "open in raftlab",
  "embed.open.tip": "Open this lesson in the full raftlab page",
});

await init(globalThis.raftlabWasm);
// A lesson runs at once, and its code is mostly in the module's deferred
// part (docs/page-module.md): fetched now, not function by function. A
// failure here is met again, as an error on the console, when a function
// of it is called.
await loadDeferred().catch(() => {});

const $ = (id) => document.getElementById(id);
const canvas = $("cluster");
const ctx = canvas.getContext("2d");
const SPEED = 0.2;

// `#lesson=ID&lang=ja`, or `#v1.<link>&lang=ja`.
const [head, ...rest] = location.hash.replace(/^#/, "").split("&");
const params = new URLSearchParams(rest.join("&"));
const lang = params.get("lang");
const speak = lang === "ja" || lang === "en" ? lang : pickLanguage();
// A language whose words or sentences cannot be had: the frame speaks English.
applyLanguage(await loadLanguage(speak).then(() => speak, (e) => {
  console.warn(e?.message ?? e);
  return "en";
}));

let app = new App(defaultScript(1));
// Refusals (an unknown lesson, a bad link) come in the page's language.
app.setLanguage(document.documentElement.lang);
let mode = null; // "lesson" or "link"
let rafId = 0, lastFrame = 0;
let said = ""; // a link's newest log line

function fail(message) {
  $("embed-error").textContent = message;
  $("embed-error").hidden = false;
  $("embed-next").disabled = $("embed-back").disabled = true;
}

if (head.startsWith("lesson=")) {
  const id = decodeURIComponent(head.slice("lesson=".length));
  let r;
  // An embedded lesson is the lesson: its scripts are part of this frame's first load.
  try { await lessonsReady(); r = app.openLesson(id); } catch (e) { r = { ok: false, error: String(e?.message ?? e) }; }
  if (r.ok) mode = "lesson";
  else fail(t("embed.bad", { error: r.error }));
  $("embed-open").href = `./?lang=${document.documentElement.lang}#lesson=${encodeURIComponent(id)}`;
} else if (/^v\d+\./.test(head)) {
  try {
    const opened = App.fromLink(`#${head}`);
    app.free();
    app = opened;
    mode = "link";
  } catch (e) {
    // The app, still the fresh one, says why in the page's language.
    fail(t("link.refused", { error: app.openLink(`#${head}`).error ?? e?.message ?? e }));
  }
  $("embed-open").href = `./?lang=${document.documentElement.lang}#${head}`;
} else {
  fail(t("embed.none"));
}
app.setLanguage(document.documentElement.lang);
$("embed-open").textContent = t("embed.open");
$("embed-open").title = t("embed.open.tip");
$("embed-open").hidden = !mode;
app.narration();

function draw() {
  const r = canvas.getBoundingClientRect();
  app.setTopInset(6);
  app.draw(ctx, r.width, r.height, canvasRatio());
}

function show() {
  draw();
  if (mode === "lesson") {
    const l = app.lesson();
    $("embed-kicker").textContent = t("lesson.kicker", { number: l.number, figures: lessonSource(l) }) +
      (l.checked ? ` · ${l.checked}` : "");
    $("embed-title").textContent = l.title;
    $("embed-says").innerHTML = narrationHtml(l);
    $("embed-count").textContent = `${l.position} / ${l.steps}`;
    $("embed-back").disabled = l.position === 0 && !l.playing;
    $("embed-next").disabled = l.finished;
    const nb = nextButton(l);
    $("embed-next").textContent = nb.text;
    $("embed-next").title = nb.title;
    $("embed-back").textContent = t("lback");
    $("embed-back").title = t("lback.tip");
  } else if (mode === "link") {
    for (const line of app.narration()) said = line.fold ? line.fold.summary : line.text;
    $("embed-says").innerHTML = said ? `<p>${escapeHtml(said)}</p>` : "";
    $("embed-count").textContent = t("sec", { s: (app.timeMs() / 1000).toFixed(2) });
    $("embed-next").textContent = t("step");
    $("embed-next").title = t("step.tip");
    $("embed-back").textContent = t("back");
    $("embed-back").title = t("back.tip");
  }
}

function frame(now) {
  rafId = 0;
  const dt = lastFrame ? now - lastFrame : 16;
  lastFrame = now;
  app.lessonFrame(dt, SPEED);
  app.narration();
  show();
  if (app.lessonPlaying()) rafId = requestAnimationFrame(frame);
}

function next() {
  if (mode === "link") { app.stepEvent(); show(); return; }
  const l = app.lesson();
  if (!l || l.finished) return;
  if (l.playing) { app.lessonNext(); app.narration(); show(); return; }
  if (app.lessonPlay() && !rafId) { lastFrame = 0; rafId = requestAnimationFrame(frame); }
  show();
}
function back() {
  if (mode === "link") { app.stepBack(); show(); return; }
  app.lessonBack();
  app.narration();
  show();
}
$("embed-next").onclick = next;
$("embed-back").onclick = back;
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !mode) return;
  if (e.key === "ArrowRight" || e.key === "PageDown") { e.preventDefault(); next(); }
  else if (e.key === "ArrowLeft" || e.key === "PageUp") { e.preventDefault(); back(); }
});

new ResizeObserver(() => { fitCanvas(canvas); show(); }).observe(canvas);
fitCanvas(canvas);
show();

// For tests and the page around: the lesson, and Next / Back.
window.raftlab = { lesson: () => app.lesson(), next, back, mode: () => mode, get app() { return app; } };
