// A hand on single messages: a message dot's popup (what it carries, with
// Drop and Hold this link) and a link's popup (Cut or Heal, Hold, Release
// one, Release all), opened by a click or a tap on a dot or a link, or
// Enter on one picked with the arrow keys. Each button runs the command it
// stands for (the wasm module's linkHand and messageHand say which), so
// the history and a share link replay the click. Loaded the first time a
// dot or a link is clicked, and fetched ahead once the page is idle.
// `page` is what app.js lends its parts: the app, run, toCanvas, sec.
import { t, addWords } from "./i18n.js";
// The popups' style rules, and the node popup it closes.
import { close as closeNodePopup } from "./popup.js";

const $ = (id) => document.getElementById(id);
const box = $("hand");

box.insertAdjacentHTML("beforeend", `
<p id="hand-info" class="popup-info"></p>
<div class="popup-actions">
  <button data-act="drop" type="button"></button>
  <button data-act="cut" type="button"></button>
  <button data-act="heal" type="button"></button>
  <button data-act="hold" type="button"></button>
  <button data-act="release_one" type="button"></button>
  <button data-act="release_all" type="button"></button>
</div>
`);
addWords({
  "hand.message": "{kind} from {from} to {to}",
  "hand.term": "term {n}",
  "hand.index": "index {n}",
  "hand.logTerm": "log term {n}",
  "hand.entries": "{n} entries",
  "hand.commit": "commit {n}",
  "hand.reject": "a rejection",
  "hand.bytes": "{n} bytes",
  "hand.held": "held at node {to}'s side",
  "hand.arrives": "arrives at t = {t}",
  "hand.queued": "waits in node {from}'s send queue",
  "hand.gone": "no longer on its way: it was delivered or dropped",
  "hand.link": "link {a} – {b}",
  "hand.dirHeld": "{from}→{to}: held, {n} waiting",
  "hand.dirFlying": "{from}→{to}: {n} on the way",
  "hand.dirCut": "{from}→{to}: cut",
  "act.drop": "drop",
  "act.drop.tip": "Drop this message; its sender hears of it as of a lost one ({cmd})",
  "act.holdLink": "hold this link",
  "act.hold": "hold",
  "act.hold.tip": "Hold the link's messages at the receiver's side ({cmd})",
  "act.cut": "cut",
  "act.heal": "heal",
  "act.releaseOne": "release one",
  "act.releaseOne.tip": "Deliver the held message sent first ({cmd})",
  "act.releaseAll": "release all",
  "act.releaseAll.tip": "Deliver every held message, in order, and end the hold ({cmd})",
}, box);

let shown = null; // {message: {from, id}} or {link: {a, b}}
let lent = null; // the page, once a popup was opened
let commands = {}; // each button's command, as last filled

/** Opens message `hit`'s popup ({id, from, to}) at canvas point `at`. */
export function openMessage(page, hit, at) {
  shown = { message: { from: hit.from, id: hit.id } };
  open(page, at);
}

/** Opens the popup of the link `hit` ({a, b}) at canvas point `at`. */
export function openLink(page, hit, at) {
  shown = { link: { a: hit.a, b: hit.b } };
  open(page, at);
}

function open(page, at) {
  lent = page;
  closeNodePopup();
  box.hidden = false;
  fill(page);
  const stage = $("cluster").getBoundingClientRect();
  const [x, y] = at;
  const w = box.offsetWidth, h = box.offsetHeight;
  let left = x + 16, top = y - h / 2;
  if (left + w > stage.width - 6) left = x - 16 - w;
  box.style.left = `${Math.max(6, Math.min(left, stage.width - w - 6))}px`;
  box.style.top = `${Math.max(6, Math.min(top, stage.height - h - 6))}px`;
  box.querySelector("button[data-act]:not([hidden])")?.focus({ preventScroll: true });
}

export function close() {
  shown = null;
  box.hidden = true;
}

export const isOpen = () => shown != null;

const show = (act, cmd, label) => {
  const b = box.querySelector(`[data-act="${act}"]`);
  b.hidden = !cmd;
  commands[act] = cmd;
  if (label) b.textContent = t(label);
  return b;
};

/** Brings the open popup up to date (nothing when none is open). */
export function fill(page) {
  if (!shown) return;
  commands = {};
  if (shown.message) fillMessage(page, shown.message);
  else fillLink(page, shown.link);
}

function fillMessage(page, { from, id }) {
  const hand = page.app.messageHand(from, id);
  for (const act of ["cut", "heal", "release_one", "release_all"]) show(act, null);
  if (!hand) {
    $("hand-info").textContent = t("hand.gone");
    show("drop", null);
    show("hold", null);
    return;
  }
  const m = hand.message;
  $("hand-title").textContent = t("hand.message", { kind: hand.etcd_kind, from: m.from, to: m.to });
  const facts = [t("hand.term", { n: m.term }), t("hand.index", { n: m.index }), t("hand.logTerm", { n: m.log_term })];
  facts.push(t("hand.entries", { n: m.entries }), t("hand.commit", { n: m.commit }));
  if (m.reject) facts.push(t("hand.reject"));
  facts.push(t("hand.bytes", { n: m.bytes }));
  if (m.held) facts.push(t("hand.held", { to: m.to }));
  else if (m.arrives_ms != null) facts.push(t("hand.arrives", { t: page.sec(m.arrives_ms) }));
  else facts.push(t("hand.queued", { from: m.from }));
  $("hand-info").textContent = facts.join(" · ");
  show("drop", hand.drop, "act.drop").title = t("act.drop.tip", { cmd: hand.drop });
  const hold = show("hold", hand.hold, "act.holdLink");
  if (hand.hold) hold.title = t("act.hold.tip", { cmd: hand.hold });
}

function fillLink(page, { a, b }) {
  const hand = page.app.linkHand(a, b);
  if (!hand) { close(); return; }
  $("hand-title").textContent = t("hand.link", { a, b });
  $("hand-info").textContent = hand.directions.map((d) => page.app.isCut(d.from, d.to) ? t("hand.dirCut", d)
    : d.held ? t("hand.dirHeld", { ...d, n: d.waiting }) : t("hand.dirFlying", { ...d, n: d.flying })).join(" · ");
  const cut = page.app.isCut(a, b) || page.app.isCut(b, a);
  show("drop", null);
  show("cut", cut ? null : `cut ${a} ${b}`, "act.cut");
  show("heal", cut ? `heal ${a} ${b}` : null, "act.heal");
  const titled = (act, cmd, label, tip) => {
    const el = show(act, cmd, label);
    if (cmd) el.title = t(tip, { cmd });
  };
  titled("hold", hand.hold, "act.hold", "act.hold.tip");
  titled("release_one", hand.release_one, "act.releaseOne", "act.releaseOne.tip");
  titled("release_all", hand.release_all, "act.releaseAll", "act.releaseAll.tip");
}

box.addEventListener("click", (e) => {
  const act = e.target.closest("button[data-act]")?.dataset.act;
  const cmd = act && commands[act];
  if (!cmd) return;
  const focused = document.activeElement;
  lent.run(cmd);
  // Dropped, or delivered: the message's popup says it is gone. The focus
  // stays in the popup for the next action (a button hidden now hands it
  // to the first one shown).
  if (focused && box.contains(focused) && focused.hidden) box.querySelector("button[data-act]:not([hidden])")?.focus({ preventScroll: true });
});
$("hand-close").onclick = close;
