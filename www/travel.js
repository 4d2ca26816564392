// The time-travel strip's rare parts: the list of the run's branches (shown
// once acting in the past started a second one) and the tip naming the
// command or election under the pointer. Loaded the first time either is
// needed, and fetched ahead once the page is idle.
import { t, addWords } from "./i18n.js";

// Their words, in English (i18n.js's addWords).
addWords({
  "branch.first": "the first run",
  "branch.from": "from {t}",
  "branch.here": " (here)",
  "tip.leads": "node {id} leads (term {term})",
});

const $ = (id) => document.getElementById(id);

/** Fills the branch list from `tl` (app.timeline(), two branches or more);
 * `sec`: a time in the page's words. */
export function branches(tl, sec) {
  const sel = $("branch");
  const opts = tl.branches.map((b) => {
    const what = b.parent == null ? t("branch.first") : `${t("branch.from", { t: sec(b.fork_ms) })}${b.first ? `: ${b.first}` : ""}`;
    return [String(b.id), `${b.id} · ${what}${b.current ? t("branch.here") : ""}`];
  });
  const sig = JSON.stringify(opts);
  if (sel.dataset.sig !== sig) {
    sel.dataset.sig = sig;
    sel.replaceChildren(...opts.map(([v, label]) => Object.assign(document.createElement("option"), { value: v, textContent: label })));
  }
  sel.value = String(tl.branch);
  sel.title = opts.find(([v]) => v === String(tl.branch))?.[1] ?? "";
}

/** Shows the tip for the pointer's event `e` over the timeline `tl`. */
export function tip(e, tl, sec) {
  const r = $("scrub").getBoundingClientRect();
  const x = Math.max(0, Math.min(1, (e.clientX - r.left - 7) / Math.max(1, r.width - 14)));
  const at = x * tl.end_ms;
  const near = (ms) => Math.abs(ms - at) / Math.max(1, tl.end_ms) * (r.width - 14) < 5;
  const bits = [
    ...tl.entries.filter((en) => near(en.at_ms)).map((en) => en.text),
    ...tl.leaders.filter((l) => near(l.at_ms)).map((l) => t("tip.leads", { id: l.id, term: l.term })),
  ];
  const el = $("scrub-tip");
  el.textContent = `t = ${sec(at)}${bits.length ? ` · ${bits.slice(0, 3).join(" · ")}` : ""}`;
  el.style.left = `${e.clientX - r.left}px`;
  el.hidden = false;
}
