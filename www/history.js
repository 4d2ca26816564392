// The history view: the clients' operations on a time axis, one lane per
// key and client, checked for linearizability (the checker and the drawing
// are the wasm app's). Loaded the first time its tab is opened (or
// window.raftlab.showHistory is called), and fetched ahead once the page is
// idle. It brings its markup (index.html keeps the tab's empty panel), its
// style rules and its English words.
import { addWords } from "./i18n.js";
import { addStyle, fitCanvas, canvasRatio } from "./view.js";

const $ = (id) => document.getElementById(id);

$("history-box").insertAdjacentHTML("beforeend", `
<p id="history-verdict" class="history-verdict" aria-live="polite"></p>
<canvas id="history-canvas"></canvas>
<p id="history-note" class="history-note"></p>
<p id="history-key" class="history-key"></p>
`);
addStyle(`
#history-canvas { position: static; flex: 1; min-height: 140px; width: 100%; border-radius: 6px; }
.history-verdict { margin: 4px 2px 0; line-height: 1.4; }
.history-verdict.bad { color: var(--bad); }
.history-verdict.ok { color: var(--good); }
.history-note, .history-key { margin: 0 2px; color: var(--faint); font-size: 11.5px; }
.history-key .sw { background: var(--c); vertical-align: -1px; margin: 0 3px 0 6px; }
.history-key .sw.open { border: 1px dashed var(--dim); background: transparent; }
`);
addWords({
  "history.aria": "The clients' operations: one lane per key and client, each a bar from when it was sent to when it was answered; the operations no order explains in red",
  "history.key": "<span class=\"sw\" style=\"--c:#38bdf8\"></span>put <span class=\"sw\" style=\"--c:#4ade80\"></span>get <span class=\"sw\" style=\"--c:#f87171\"></span>no order explains <span class=\"sw open\"></span>no answer",
}, $("history-box"));

let observed = false;

/** Draws the view of the run (`page.app`) in its tab; its words ({ok,
 * empty, verdict, note}). From the first on, the view follows its canvas's
 * size while the tab is open. */
export function draw(page) {
  const c = $("history-canvas");
  if (!observed) {
    observed = true;
    new ResizeObserver(() => { if (!$("history-box").hidden) draw(page); }).observe(c);
  }
  const r = fitCanvas(c);
  const v = page.app.drawHistory(c.getContext("2d"), r.width, r.height, canvasRatio());
  // A live region: written only when its words change (the view is drawn
  // again once a second while the clock runs).
  if ($("history-verdict").textContent !== v.verdict) $("history-verdict").textContent = v.verdict;
  $("history-verdict").className = `history-verdict ${v.empty ? "" : v.ok ? "ok" : "bad"}`;
  $("history-note").textContent = v.empty ? "" : v.note;
  return v;
}
