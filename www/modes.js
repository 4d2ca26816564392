// The modes dialog's form: the design document's learner modes, as cluster
// options for a fresh run. Loaded the first time the dialog (or
// window.raftlab.applyModes) is asked for, and fetched ahead once the page
// is idle. `page` is what app.js lends its parts loaded later: the app,
// the seed in the bar, freshRun (a modes object's cluster line), create
// (a fresh run on a script), logLine and toggleModes (the dialog shown or
// hidden).
import { t, addWords } from "./i18n.js";
import { addStyle } from "./view.js";

// The form's style rules (style.css holds the page's own).
addStyle(`
.modes-row { display: block; margin: 8px 0; }
.modes-row .hint { color: var(--faint); font-size: 12px; }
.modes-row input[type="number"] { width: 4.5em; }
.modes-row select { max-width: 100%; }
.modes-line { margin: 10px 0 4px !important; color: var(--dim); font-size: 12px; overflow-wrap: anywhere; }
.modes-error { color: var(--bad); margin: 4px 0 !important; }
`);

const $ = (id) => document.getElementById(id);

// The dialog's form, under its heading (index.html keeps the dialog and its
// heading), and its words and its message, in English (i18n.js's addWords).
$("modes-form").insertAdjacentHTML("beforeend", `
<p class="modes-intro"></p>
<label class="modes-row"><input id="mode-learner" type="checkbox"> <span id="mode-learner-text"></span>
  <span id="mode-learner-hint" class="hint"></span></label>
<label class="modes-row"><input id="mode-auto" type="checkbox"> <span id="mode-auto-text"></span>
  <input id="mode-auto-pct" type="number" min="1" max="100" step="1" value="90">%</label>
<label class="modes-row"><span id="mode-after-text"></span>
  <input id="mode-after" type="number" min="1" max="600" step="0.5" value="10"> <span id="mode-after-unit"></span>
  <select id="mode-failover"><option value="replace"></option><option value="grow"></option></select></label>
<label class="modes-row"><span id="mode-max-text"></span> <input id="mode-max-learners" type="number" min="0" max="15" step="1" value="1">
  <span id="mode-max-hint"></span></label>
<p class="modes-line"><code id="modes-line"></code></p>
<p id="modes-error" class="modes-error" role="alert" hidden></p>
<button id="modes-apply" type="submit" class="primary"></button>
`);
addWords({
  "modes.h": "Learner modes",
  "modes.intro": "The design document's proposals, which etcd does not ship: each is off in etcd. They are options of the <code>cluster</code> line, so they apply to a <b>fresh run</b> (on the seed in the bar).",
  "modes.learner": "new members join as learners",
  "modes.learnerHint": "(<code>member add N</code> adds a learner; the voter button adds <code>--voter</code>)",
  "modes.autoText": "the leader promotes a caught-up learner at",
  "modes.autoAria": "auto-promote threshold in percent",
  "modes.after": "a standby takes over a voter silent for",
  "modes.afterUnit": "s, and",
  "modes.afterAria": "failover-after in seconds",
  "modes.failoverAria": "failover",
  "modes.replace": "replaces it (remove, then promote)",
  "modes.grow": "joins it (promote only)",
  "modes.max": "at most",
  "modes.maxAria": "max-learners",
  "modes.maxHint": "learners <span class=\"hint\">(etcd's <code>max-learners</code>: standby and read-only learners count too)</span>",
  "modes.apply": "Start a new run with these modes",
  "modes.started": "A fresh run with these modes: {line}",
}, $("modes-form"));

const modesForm = () => ({
  new_members: $("mode-learner").checked ? "learner" : "voter",
  auto_promote: $("mode-auto").checked ? Number($("mode-auto-pct").value) : null,
  failover_after_ms: Number($("mode-after").value) * 1000,
  failover: $("mode-failover").value,
  max_learners: Number($("mode-max-learners").value),
});

/** The cluster line the form stands for, or what is wrong with it. */
function previewModes(page) {
  const r = page.freshRun(page.seedValue(), modesForm());
  $("modes-line").textContent = r.ok ? r.script.trim() : "";
  $("modes-error").textContent = r.error ?? "";
  $("modes-error").hidden = r.ok;
  $("modes-apply").disabled = !r.ok;
  return r;
}

let listening = false;

/** Opens the dialog on the run's modes, the cluster line they make below. */
export function openModes(page) {
  if (!listening) {
    listening = true;
    const form = $("modes-form");
    form.addEventListener("input", () => previewModes(page));
    form.addEventListener("change", () => previewModes(page));
    form.addEventListener("submit", (e) => { e.preventDefault(); applyModes(page, modesForm()); });
  }
  const m = page.app.modes();
  $("mode-learner").checked = m.new_members === "learner";
  $("mode-auto").checked = m.auto_promote != null;
  $("mode-auto-pct").value = String(m.auto_promote ?? 90);
  $("mode-after").value = String(m.failover_after_ms / 1000);
  $("mode-failover").value = m.failover;
  $("mode-max-learners").value = String(m.max_learners);
  previewModes(page);
  page.toggleModes(true);
}

/** Starts a fresh run whose cluster line carries these modes; a bad form is refused and changes nothing. */
export function applyModes(page, form) {
  const r = page.freshRun(page.seedValue(), form);
  if (!r.ok) {
    $("modes-error").textContent = r.error;
    $("modes-error").hidden = false;
    page.logLine(r.error, "err");
    return r;
  }
  page.toggleModes(false);
  page.create(r.script);
  page.logLine(t("modes.started", { line: r.script.trim() }), "say");
  return r;
}
