// The help dialog's words, in English (i18n.js's addWords: the dialog's
// elements take them when this comes), and its style rules. Loaded the first time the help is
// opened, and fetched ahead once the page is idle, so the help opens with
// its words; opened before they came, it fills a moment later.
import { addWords } from "./i18n.js";
import { addStyle } from "./view.js";

// The help's style rules (style.css holds the page's own).
addStyle(`
.help-card h3 { margin: 10px 0 2px; font-size: 13px; color: var(--dim); }
.help-card dl { display: grid; grid-template-columns: 5em 1fr; margin: 4px 0 10px; }
.help-card dt { font-family: ui-monospace, Menlo, monospace; color: var(--accent); }
.help-card dd { margin: 0; }
`);

addWords({
  "help.p1": "An etcd Raft cluster with learners, simulated deterministically and stepped live. Every button runs a command of the scenario language; the <b>script</b> tab holds everything you did, replayable as it is. The console also takes etcdctl's own commands (<code>etcdctl member list</code>).",
  "help.shapes": "Shapes",
  "help.p2": "A solid disc is a voter; a hollow dashed hexagon is a learner. The colour is the role. The ring around a follower fills as its election timer runs; when it is full the node campaigns. Next to each peer, the leader's view: <i>match</i>, <i>next</i> and the progress state (probe, replicate, snapshot). A learner's bar shows its catch-up, with the line at which it is promoted (etcd's 90%, or the auto-promote threshold in green). A badge marks a learner's kind: a plus for a standby (it replaces a voter that falls silent), an eye for a read-only learner (hollow: weak reads, possibly stale; filled: strong reads through the leader). A shrinking red ring on a voter counts down to failover. An amber line under a node says it sees itself otherwise than the cluster does: a learner promoted while the leader's messages could not reach it still sees itself as a learner (etcd-raft lets it vote all the same).",
  "help.travel": "Time travel",
  "help.p3": "The timeline under the cluster holds the whole run: drag it to any moment (ticks mark your commands, triangles the elections), step back an event at a time, and press Play to run on from there. Acting in the past starts a new branch; the run you left stays in the branch list.",
  "help.share": "Share",
  "help.p4": "<b>Share</b> copies a link that opens this run at this moment, for anyone; <b>Export</b> downloads it as a <code>.scenario</code> script, which <b>Import</b> (or dropping the file on the page) opens again.",
  "help.mouse": "Mouse, touch and keyboard",
  "help.p5": "Click (or tap) a node for its actions. Click a link for its actions: cut or heal it, hold its messages at the receiver's side, release one or all; shift-click cuts one direction only, from the nearer node, at once. Click a message's dot to see what it carries, drop it or hold its link; <b>✉▸</b> beside Step delivers the next message alone. Pinch, the zoom buttons, or ctrl and the wheel zoom a big cluster; drag a zoomed canvas to move about. From the keyboard: Tab to the cluster, the arrow keys pick a node, a link or a message, Enter shows its actions (shift and Enter: a link's one direction cut), + and − zoom.",
  "help.keys": "Keys",
  "help.dl": "<dt>space</dt><dd>play / pause</dd><dt>→</dt><dd>step to the next event (in a lesson: Next)</dd><dt>←</dt><dd>step back to the previous event (in a lesson: Back)</dd><dt>/</dt><dd>focus the console</dd><dt>↑ ↓</dt><dd>console history</dd><dt>p</dt><dd>presenter mode: the cluster and the lesson step full screen in large type; Page Down or → plays Next, Page Up or ← goes Back (what a clicker sends)</dd><dt>?</dt><dd>this help</dd><dt>esc</dt><dd>close (in presenter mode: leave it)</dd>",
});
