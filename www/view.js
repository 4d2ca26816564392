// What the page (app.js) and an embedded lesson (embed.js) show alike: the
// lesson panel's words, the canvas's size, and the lesson after another.
// Thin: every sentence is made in Rust or comes from i18n.js.
import { lessons as lessonInfos, loadLessons } from "./pkg/raftlab.js";
import { t, pkgText } from "./i18n.js";

// The lessons' scripts are not in the wasm module: the page fetches them
// (pkg/lessons.txt, about 20 KB gzipped) the first time a lesson or the list
// is asked for, so its first load is lighter. The one-file build (make dist)
// inlines them as globalThis.raftlabLessons.
let lessonsLoading = null;
let lessonsLoaded = false;

/** True once the lessons are in the module. */
export const haveLessons = () => lessonsLoaded;

/** Resolves once the lessons are in the module (fetching them the first
 * time); rejects with a readable error when they cannot be had, and the
 * next call tries again. */
export function lessonsReady() {
  lessonsLoading ??= (async () => {
    loadLessons(await pkgText("lessons.txt", globalThis.raftlabLessons, "the lessons"));
    lessonsLoaded = true;
  })().catch((e) => { lessonsLoading = null; throw e; });
  return lessonsLoading;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A lesson's figures as the language numbers them: "1, 10", "図1、図10". */
export const figureList = (f) => f.map((n) => t("figure.n", { n })).join(t("figure.sep"));
const figuresText = (f) => t(f.length > 1 ? "figures.list" : "figure.list", { list: figureList(f) });
/** What a lesson follows: its figures, the design document's proposal it
 * makes tryable, Raft's own story it tells, or the comparison it sets side
 * by side. */
export const lessonSource = (l) => l.figures.length ? figuresText(l.figures)
  : l.proposal ? t("source.of", { what: t("proposal"), name: t(`proposal.${l.proposal}`) })
  : l.raft ? t("source.of", { what: t("raft"), name: t(`raft.${l.raft}`) })
  : t("source.of", { what: t("comparison"), name: t(`comparison.${l.comparison}`) });

/** The lesson after `id` in the list, if there is one. */
export function followingLesson(id) {
  const all = lessonInfos();
  const i = all.findIndex((l) => l.id === id);
  return i >= 0 ? all[i + 1] : undefined;
}

/** The lesson step's narration as HTML paragraphs (`l`: app.lesson()). */
export function narrationHtml(l) {
  const paras = l.position === 0 && !l.says.length
    ? [`<p>${escapeHtml(l.summary)}</p>`, `<p class="hint">${t("lesson.pressNext")}</p>`]
    : l.says.map((said) => `<p>${escapeHtml(said)}</p>`);
  if (l.finished) paras.push(`<p class="hint">${t("lesson.end")}</p>`);
  return paras.join("");
}

/** The Next button's word and tooltip for lesson `l`. */
export function nextButton(l, following) {
  return {
    text: l.playing ? t("skip") : l.position === 0 ? t("begin") : following ? t("nextLesson") : t("next"),
    title: l.playing ? t("skip.tip") : following ? t("lesson.nextTitle", { number: following.number, title: following.title }) : t("next.tip"),
  };
}

/** Device pixels a canvas has for each of its CSS pixels: the screen's,
 * up to 2. A phone's screen of 3 (or more) would have the canvas paint more
 * than twice the pixels of 2 each frame, for text that looks no sharper
 * at arm's length (docs/accessibility.md). */
export const canvasRatio = () => Math.min(2, window.devicePixelRatio || 1);

/** Sizes the canvas's backing store to its box at canvasRatio. */
export function fitCanvas(canvas) {
  const r = canvas.getBoundingClientRect();
  const dpr = canvasRatio();
  const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  return r;
}

/** A part's own style rules (a part loaded on first use brings the rules
 * of what only it draws), after the page's style sheet. */
export function addStyle(css) {
  document.head.append(Object.assign(document.createElement("style"), { textContent: css }));
}
