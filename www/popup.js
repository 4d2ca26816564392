// The node popup: a node's facts and actions, opened by a click on the node
// in the canvas. Loaded the first time a node is clicked, and fetched ahead
// once the page is idle. `page` is what app.js lends its parts loaded
// later: the app, run (a command, its lines in the log), toCanvas (where a
// point of the drawing is on the canvas, zoomed), kindName and role (a
// member's kind and role in words).
import { quoteWord } from "./pkg/raftlab.js";
import { t, addWords } from "./i18n.js";
import { addStyle } from "./view.js";

// The popup's style rules (style.css holds the page's own).
addStyle(`
.popup {
  position: absolute; z-index: 5; width: 250px; background: #131d33; border: 1px solid #334155;
  border-radius: 10px; padding: 8px 10px 10px; box-shadow: 0 10px 30px rgba(0, 0, 0, 0.5);
}
.popup h2 { font-size: 14px; margin: 0; }
.popup-info { margin: 2px 0 8px; color: var(--dim); font-size: 12px; }
.popup-actions { display: flex; flex-wrap: wrap; gap: 5px; }
.popup-form { display: flex; gap: 5px; margin-top: 8px; }
.popup-form input { width: 62px; flex: 1; min-width: 0; }
`);

const $ = (id) => document.getElementById(id);
const popup = $("popup");

// The popup's facts, actions and form, under its heading (index.html keeps
// the popup and its heading), and its words, in English (i18n.js's addWords).
popup.insertAdjacentHTML("beforeend", `
<p id="popup-info" class="popup-info"></p>
<div class="popup-actions">
  <button data-act="start" type="button"></button>
  <button data-act="crash" type="button"></button>
  <button data-act="campaign" type="button"></button>
  <button data-act="transfer" type="button"></button>
  <button data-act="promote" type="button"></button>
  <button data-act="remove" type="button"></button>
</div>
<form id="popup-put" class="popup-form">
  <input name="key" value="k">
  <input name="value" value="v">
  <button type="submit"></button>
  <button type="button" data-act="get"></button>
</form>
`);
addWords({
  "act.start": "start",
  "act.crash": "crash",
  "act.campaign": "campaign",
  "act.transfer": "transfer leadership here",
  "act.promote": "promote",
  "act.remove": "remove",
  "act.get": "get",
  "aria.key": "key",
  "aria.value": "value",
  "popup.title": "node {id} · {kind}",
  "popup.term": "term {n}",
  "popup.commit": "commit {n}",
  "popup.applied": "applied {n}",
  "popup.msgs": "Raft messages in {in} · out {out}",
  "popup.badUrl": "this URL reaches no host: the process cannot join",
}, popup);
let popupId = null;
let lent = null; // the page, once a popup was opened

/** Opens the popup of node `id`, beside it in the canvas. */
export function open(page, id) {
  lent = page;
  popupId = id;
  popup.hidden = false;
  fill(page);
  const pos = page.app.nodePosition(id);
  const stage = $("cluster").getBoundingClientRect();
  if (pos) {
    const [x, y, r] = page.toCanvas(pos);
    const w = popup.offsetWidth, h = popup.offsetHeight;
    let left = x + r + 14, top = y - h / 2;
    if (left + w > stage.width - 6) left = x - r - 14 - w;
    left = Math.max(6, Math.min(left, stage.width - w - 6));
    top = Math.max(6, Math.min(top, stage.height - h - 6));
    popup.style.left = `${left}px`;
    popup.style.top = `${top}px`;
  }
  popup.querySelector("button[data-act]:not([hidden])")?.focus({ preventScroll: true });
}

export function close() { popupId = null; popup.hidden = true; }

/** Brings the open popup's facts up to date (nothing when none is open). */
export function fill(page) {
  if (popupId == null) return;
  const n = page.app.nodes().find((m) => m.id === popupId);
  if (!n) { close(); return; }
  $("popup-title").textContent = t("popup.title", { id: n.id, kind: page.kindName(n) });
  const facts = [page.role(n.role)];
  if (n.term != null) facts.push(t("popup.term", { n: n.term }), t("popup.commit", { n: n.commit }), t("popup.applied", { n: n.applied }));
  if (n.peer_url) facts.push(n.peer_url);
  facts.push(t("popup.msgs", { in: n.msgs_in, out: n.msgs_out }));
  if (n.bad_url) facts.push(t("popup.badUrl"));
  $("popup-info").textContent = facts.join(" · ");
  const show = (act, on) => { popup.querySelector(`[data-act="${act}"]`).hidden = !on; };
  // A new member's process talking to its peers runs, raft not yet: it
  // can be stopped, not started again.
  const joining = n.role === "joining";
  show("start", !n.running && !n.removed && !joining);
  show("crash", n.running || joining);
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
  if (act === "get") lent.run(`get ${quoteWord(form.key.value)} via=${popupId}`);
  else lent.run(actions[act](popupId));
});
$("popup-put").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  lent.run(`put ${quoteWord(f.key.value)} ${quoteWord(f.value.value)} via=${popupId}`);
});
$("popup-close").onclick = close;
