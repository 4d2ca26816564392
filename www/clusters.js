// The quorum panel's rows for several clusters and their mirror processes,
// and the key-history view (a key's versions in each cluster, side by
// side): loaded the first time a run has a second cluster or a mirror, or
// a key's history is asked for, and fetched ahead once the page is idle.
import { t, addWords } from "./i18n.js";
import { escapeHtml, addStyle } from "./view.js";

// The rows' and the view's style rules (style.css holds the page's own).
addStyle(`
.kh-cluster { flex: 1 1 130px; min-width: 0; font-size: 12px; }
.kh-head { font-weight: 600; }
.kh-note { color: var(--faint); }
.kh-cluster table { border-collapse: collapse; width: 100%; }
.kh-cluster th { text-align: left; color: var(--dim); font-weight: normal; padding: 1px 3px; }
.kh-cluster td { padding: 0 3px; overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, monospace; }
.fleet { border-top: 1px solid #1e293b; margin-top: 6px; padding-top: 4px; }
.fleet .bad { color: var(--bad); }
`);

// The rows' and the view's words, in English (i18n.js's addWords).
addWords({
  "row.cluster": "cluster",
  "row.revision": "revision {rev}",
  "row.mirror": "mirror {id}",
  "row.relayed": "relayed to revision {rev}",
  "mirror.syncing": "syncing",
  "mirror.watching": "watching",
  "mirror.stopped": "stopped",
  "mirror.failed": "failed",
  "mirror.cutTo": "link to {id} cut",
  "mirror.cutWay": "{a}→{b} cut",
  "kh.cluster": "{name} · node {node} · revision {rev}",
  "kh.noStore": "{name}: no member has a store",
  "kh.compacted": "compacted at revision {rev}: versions before it are gone",
  "kh.rev": "rev",
  "kh.ver": "version",
  "kh.value": "value",
  "kh.deleted": "deleted",
  "kh.none": "no version of {key}",
  "clusters.sep": "; ",
});

/** A cluster's name row. */
function named(c) {
  return `<div class="row"><span class="k">${t("row.cluster")}</span><b>${escapeHtml(c.name)}</b> <span class="none">${t("row.revision", { rev: c.revision })}</span></div>`;
}

/** With several clusters (`f`: app.clusters()): the first one's name for
 * the head of the panel (`head`), then each other cluster's quorum and the
 * mirror processes with their state (`rows`), and the status line naming
 * each cluster (`status`; "" with one). `chips(ids, cls)`: the panel's
 * chips. */
export function fleet(f, chips) {
  const others = f.clusters.slice(1).map((c) => {
    const q = c.quorum;
    return `<div class="fleet-cluster">${named(c)}
      <div class="row"><span class="k">${t("row.leader")}</span>${q.leader != null ? t("leader.id", { id: q.leader }) : `<span class='chip no'>${t("none")}</span>`}</div>
      <div class="row"><span class="k">${t("row.voters")}</span>${chips(q.voters, (id) => (q.leader === id ? "yes" : ""))}</div>
      <div class="row"><span class="k">${t("row.learners")}</span>${chips(q.learners, () => "learner")}</div>
      <div class="row"><span class="k">${t("row.quorum")}</span>${t("row.quorumOf", { q: q.quorum, n: q.voters.length })} <span class="chip ${q.can_reach_quorum ? "yes" : "no"}">${q.can_reach_quorum ? "✓" : "✗"}</span></div></div>`;
  }).join("");
  const mirrors = f.mirrors.map((m) => `<div class="row mirror-row" data-mirror="${m.id}"><span class="k">${t("row.mirror", { id: m.id })}</span>
    ${m.from}→${m.to} <span class="none">(${escapeHtml(m.source)}→${escapeHtml(m.destination)})</span>
    <span class="chip ${m.state === "watching" ? "yes" : m.state === "failed" ? "no" : ""}">${t(`mirror.${m.state}`)}</span>
    <span class="none">${t("row.relayed", { rev: m.last_revision })}</span>
    ${[[m.from, m.from_cut], [m.to, m.to_cut]].filter(([, way]) => way).map(([id, way]) => `<span class="chip no">${way === "both" ? t("mirror.cutTo", { id }) : t("mirror.cutWay", way === "out" ? { a: m.id, b: id } : { a: id, b: m.id })}</span>`).join(" ")}
    ${m.error ? `<span class="bad">${escapeHtml(m.error)}</span>` : ""}</div>`).join("");
  // The status line: each cluster's, by name.
  const status = f.clusters.length > 1 ? f.clusters.map(({ name, quorum: q }) => t("ofCluster", {
    name, text: t(q.learners.length ? "status" : "status.noLearners", { voters: q.voters.length, learners: q.learners.length, leader: q.leader != null ? t("leader.id", { id: q.leader }) : t("none") }),
  })).join(t("clusters.sep")) : "";
  return { head: f.clusters.length > 1 ? named(f.clusters[0]) : "", rows: `<div class="fleet">${others}${mirrors}</div>`, status };
}

/** The key-history view of `key` (`history`: app.keyHistory(key)). */
export function keyHistory(history, key) {
  return history.map((h) => `<div class="kh-cluster">
    <div class="kh-head">${h.node == null ? escapeHtml(t("kh.noStore", { name: h.cluster })) : escapeHtml(t("kh.cluster", { name: h.cluster, node: h.node, rev: h.revision }))}</div>
    ${h.compact_revision != null ? `<div class="kh-note">${t("kh.compacted", { rev: h.compact_revision })}</div>` : ""}
    ${h.versions.length ? `<table><tr><th>${t("kh.rev")}</th><th>${t("kh.ver")}</th><th>${t("kh.value")}</th></tr>${h.versions.map((v) => `<tr><td>${v.revision}</td><td>${v.value == null ? "" : v.version}</td><td>${v.value == null ? `<span class="none">${t("kh.deleted")}</span>` : escapeHtml(v.value)}</td></tr>`).join("")}</table>`
      : `<div class="none">${escapeHtml(t("kh.none", { key }))}</div>`}</div>`).join("");
}
