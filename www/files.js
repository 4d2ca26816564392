// The Share, Export and Import buttons (and a file dropped on the page):
// loaded the first time one is used, and fetched ahead once the page is
// idle. `page` is what app.js lends its parts loaded later: the app, the
// link to the run (fullLink), sec (a time in the page's words), toast,
// logLine, toggleShareBox (the dialog with the link to copy), opened (a
// run opened, or refused) and importText (a scenario's text opened).
import { t, addWords } from "./i18n.js";

// The Share dialog's words and the messages of Share, Export and Import,
// in English (i18n.js's addWords).
addWords({
  "share.h": "Share this run",
  "share.copied": "Link copied: it opens this run at t = {t}.",
  "share.logged": "A link to this run at t = {t} is on the clipboard.",
  "share.noClipboard": "The clipboard is not available here: copy the link below (it is selected). It opens this run at t = {t}.",
  "share.shown": "A link to this run at t = {t} is shown to copy.",
  "file.tooBig": "{name} is {size} bytes, more than the 1 MB a .scenario file may have",
  "file.notText": "{name} is not a text file (a .scenario file is UTF-8 text)",
  "file.none": "no file",
  "exported": "↓ raftlab-run.scenario: this run, at t = {t}.",
  "aria.shareLink": "The link to this run",
});

const $ = (id) => document.getElementById(id);

/** Copies the link to the run at this moment; where the clipboard is
 * refused, shows it in a dialog to copy from. Resolves to the link. */
export async function share(page) {
  const link = page.fullLink();
  const at = page.sec(page.app.timeMs());
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
    await navigator.clipboard.writeText(link);
    page.toast(t("share.copied", { t: at }));
    page.logLine(t("share.logged", { t: at }), "ok");
  } catch {
    $("share-why").textContent = t("share.noClipboard", { t: at });
    $("share-link").value = link;
    page.toggleShareBox(true);
    $("share-link").select();
    page.logLine(t("share.shown", { t: at }), "ok");
  }
  return link;
}

const MAX_FILE = 1 << 20;

/** Opens a .scenario file (at most 1 MB), or refuses it and changes nothing. */
export async function importFile(page, file) {
  if (!file) return { ok: false, error: t("file.none") };
  if (file.size > MAX_FILE) return page.opened({ ok: false, error: t("file.tooBig", { name: file.name, size: file.size }) }, t("open.theFile"));
  // Bytes that are not UTF-8, or a NUL, are no script: said as such, not as
  // a parse error quoting replacement characters.
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    text = null;
  }
  if (text === null || text.includes("\0")) return page.opened({ ok: false, error: t("file.notText", { name: file.name }) }, t("open.theFile"));
  return page.importText(text, file.name);
}

/** Downloads the run as raftlab-run.scenario. */
export function exportRun(page) {
  const blob = new Blob([page.app.exportScenario()], { type: "text/plain" });
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement("a"), { href: url, download: "raftlab-run.scenario" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  page.logLine(t("exported", { t: page.sec(page.app.timeMs()) }), "ok");
}
