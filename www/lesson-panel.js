// The lesson list and the lesson panel, as the page (app.js) draws them.
// Loaded with the lessons (pkg/lessons.txt), on first use, and fetched
// ahead once the page is idle: a page that never opens a lesson needs none
// of it before it is usable. Thin: every sentence is made in Rust or comes
// from i18n.js; app.js keeps the moves (Next, Back, leaving).
import { t, language, addWords } from "./i18n.js";
import { escapeHtml, lessonSource, figureList, followingLesson, narrationHtml, nextButton, addStyle } from "./view.js";

// The lesson list's style rules (style.css holds the page's own).
addStyle(`
.lessons-card { max-width: 720px; }
.lessons-intro { color: var(--dim); font-size: 13px; }
.lesson-list { list-style: none; margin: 10px 0 0; padding: 0; display: grid; gap: 6px; }
.lesson-list button { display: grid; grid-template-columns: 4.6em 1fr; gap: 2px 10px; width: 100%; text-align: left; white-space: normal; padding: 7px 10px; border-radius: 8px; }
.lesson-list .fig { grid-row: span 2; color: var(--accent); font-size: 12px; padding-top: 2px; }
.lesson-list .t { font-weight: 600; }
.lesson-list .s { color: var(--dim); font-size: 12.5px; line-height: 1.35; }
`);

// The lesson list's and panel's words, in English (i18n.js's addWords).
addWords({
  "lessons.intro": "Each lesson tells one story of the learner design, figure by figure, on the live cluster. <b>Next</b> plays the step up to its pause, the clock running as you watch (the speed control sets the pace; press Next again to skip to the pause); the clock stands still between steps. You may still click and type: that leaves the lesson's path, and <b>return to the lesson</b> puts it back. Your sandbox run waits until you leave the lesson.",
  "arith.voters": "voters",
  "arith.quorum": "quorum",
  "arith.reachable": "reachable",
  "dot.start": "the lesson's start",
  "dot.after": "after step {k}",
  "dot.gotoStart": "go to the lesson's start",
  "dot.goto": "go to step {k} of {n}",
  "fig.list": "fig. {list}",
  "steps": "({n} steps)",
  "lesson.finished": "finished",
  "lesson.stepOf": "step {k} of {n}",
});

const $ = (id) => document.getElementById(id);

// On a narrow screen the step dots scroll sideways (style.css): the current
// step's dot is kept in view, and a fade marks each side where more hide.
function markHiddenDots(ol) {
  const more = ol.scrollWidth - ol.clientWidth;
  ol.classList.toggle("more-after", more > 1 && ol.scrollLeft < more - 1);
  ol.classList.toggle("more-before", more > 1 && ol.scrollLeft > 1);
}
$("lesson-dots").addEventListener("scroll", (e) => markHiddenDots(e.currentTarget), { passive: true });

function currentDotInView() {
  const ol = $("lesson-dots");
  const dot = ol.querySelector('[aria-current="step"]')?.parentElement;
  if (dot && ol.scrollWidth > ol.clientWidth) {
    const d = dot.getBoundingClientRect(), o = ol.getBoundingClientRect();
    // A little past the dot, so that the next one shows it is there.
    if (d.right > o.right) ol.scrollLeft += d.right - o.right + 24;
    else if (d.left < o.left) ol.scrollLeft -= o.left - d.left + 24;
  }
  markHiddenDots(ol);
}

/** Fills the lessons dialog's list with `infos` (the lessons in the
 * page's language) unless it holds them already; `open(id)` starts one. */
export function fillList(infos, open) {
  const list = $("lesson-list");
  if (list.childElementCount && list.dataset.lang === language()) return;
  list.dataset.lang = language();
  list.replaceChildren();
  for (const l of infos) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.id = l.id;
    b.innerHTML = `<span class="fig">${escapeHtml(l.number)} · ${escapeHtml(l.figures.length ? t("fig.list", { list: figureList(l.figures) }) : lessonSource(l))}</span>
      <span class="t">${escapeHtml(l.title)}</span><span class="s">${escapeHtml(l.summary)} <i>${t("steps", { n: l.steps })}</i></span>`;
    b.onclick = () => open(l.id);
    const li = document.createElement("li");
    li.append(b);
    list.append(li);
  }
}

// What the panel shows now: it is drawn again only when that changes.
let shownKey = "";

/** The panel draws itself afresh next time (presenter mode's large type,
 * a lesson left). */
export function forget() {
  shownKey = "";
}

/** Shows lesson `l` (app.lesson()) in the panel and the strip under the
 * canvas; `lastStep`: the step last shown (its surprises); `goto(k)` moves
 * to step `k` (the strip's dots); `clusters`: the run's clusters
 * (app.clusters().clusters). */
export function show(l, lastStep, goto, clusters) {
  const key = `${l.id}:${l.position}:${l.playing}:${l.says.length}:${lastStep?.position ?? -1}:${language()}`;
  if (key !== shownKey) {
    shownKey = key;
    // The real-etcd suite's word, when every check held on real etcd.
    $("lesson-figure").textContent = t("lesson.kicker", { number: l.number, figures: lessonSource(l) }) +
      (l.checked ? ` · ${l.checked}` : "");
    $("lesson-title").textContent = l.title;
    $("lesson-says").innerHTML = narrationHtml(l);
    $("lesson-count").textContent = `${l.position} / ${l.steps}`;
    $("lesson-count").title = t("lesson.stepOf", { k: l.position, n: l.steps });
    $("lesson-back").disabled = l.position === 0;
    const following = l.finished ? followingLesson(l.id) : undefined;
    $("lesson-next").disabled = l.finished && !following;
    const nb = nextButton(l, following);
    $("lesson-next").textContent = nb.text;
    $("lesson-next").title = nb.title;
    $("lesson-where").textContent = l.finished ? t("lesson.finished") : t("lesson.stepOf", { k: l.position, n: l.steps });
    const dots = [];
    for (let k = 0; k <= l.steps; k++) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = k === 0 ? "⟲" : String(k);
      b.title = k === 0 ? t("dot.start") : t("dot.after", { k });
      b.setAttribute("aria-label", k === 0 ? t("dot.gotoStart") : t("dot.goto", { k, n: l.steps }));
      if (k < l.position) b.className = "done";
      if (l.playing && k === l.position + 1) b.className = "playing";
      if (k === l.position) b.setAttribute("aria-current", "step");
      b.onclick = () => goto(k);
      const li = document.createElement("li");
      li.append(b);
      dots.push(li);
    }
    $("lesson-dots").replaceChildren(...dots);
    currentDotInView();
    $("lesson-surprises").hidden = !lastStep?.surprise;
    $("lesson-surprises").textContent = lastStep?.surprise ?? "";
  }
  $("lesson-off").hidden = l.on_path;
  // With several clusters (`clusters`: app.clusters().clusters), each
  // one's arithmetic after its name; the sentence is the first's.
  const several = clusters?.length > 1;
  const arith = (q, name) => `<div class="arith">${name ? `<b>${escapeHtml(name)}</b>` : ""}<span>${t("arith.voters")} <b>${q.voters.length}</b></span><span>${t("arith.quorum")} <b>${q.quorum}</b></span>
    <span class="${q.has_quorum ? "ok" : "bad"}">${t("arith.reachable")} <b>${q.reachable.length}</b> ${q.has_quorum ? "≥" : "<"} ${q.quorum} ${q.has_quorum ? "✓" : "✗"}</span></div>`;
  $("lesson-quorum").innerHTML = `${several ? clusters.map((c) => arith(c.quorum, c.name)).join("") : arith(l.quorum)}
    <div>${escapeHtml(several ? t("ofCluster", { name: clusters[0].name, text: l.sentence }) : l.sentence)}</div>`;
}
