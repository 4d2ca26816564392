// The page on a phone or a tablet: style.css's compact layout (its media
// queries are COMPACT and STACKED here, word for word) shows the canvas
// with one panel at a time chosen by tabs, the toolbar's actions in a
// menu, the legend behind a button and the lesson's Back and Next in a bar
// at the bottom of the screen. Which layout shows is the style sheet's;
// this module moves the few parts whose place in the document changes
// with it, so that the document's order (Tab, a screen reader) follows
// what is on screen, and runs the menu and the legend's button. Loaded
// with the page (app.js imports it), before the wasm module is here.
/** Phones (any way up), tablets and narrow windows held upright, and
 * tablets on their side (a coarse pointer): the compact layout. */
export const COMPACT = "(max-width: 760px), (orientation: portrait) and (max-width: 1100px), (orientation: landscape) and (pointer: coarse) and (max-width: 1366px)";
/** Of those, the ones with the panel under the canvas rather than beside it:
 * phones, and tablets (up to 1100 px wide) either way up. */
export const STACKED = "(max-width: 760px), (orientation: portrait) and (max-width: 1100px), (orientation: landscape) and (pointer: coarse) and (min-height: 600px) and (max-width: 1100px)";

const compactQuery = matchMedia(COMPACT);
/** True while the compact layout shows. */
export const isCompact = () => compactQuery.matches;

const $ = (id) => document.getElementById(id);
const menu = $("menu");
const menuButton = $("menu-button");

// What moves, and where to in the compact layout: [element, its parent
// there, the element it goes before (null: at the end)]. In the wide
// layout each goes back where index.html put it.
const MOVES = [
  [$("lessons-button"), () => [menuButton.parentNode, menuButton]],
  [document.querySelector("nav.tools"), () => [menu, null]],
  [document.querySelector("label.speed"), () => [menu, null]],
  [document.querySelector("header .group:has(#share)"), () => [menu, null]],
  [document.querySelector("header .group:has(#reset)"), () => [menu, null]],
  // The help in the last group's grid, its tip beside it as the others'.
  [$("help-button"), () => [$("modes-button").parentNode, null]],
  [$("lang"), () => [menu, null]],
  // The footer's parts: the safety indicator's dot in the bar at the top,
  // the console under the events it adds to.
  [$("safety"), () => [menuButton.parentNode, menuButton]],
  [$("console-form"), () => [$("log-box"), null]],
  [document.querySelector(".tabs-head"), () => [$("details"), $("details").firstChild]],
  [$("clear-log"), () => [$("log-box"), $("log-box").firstChild]],
  [document.querySelector("#lesson .lesson-controls"), () => [$("lesson-bar"), null]],
  // The lesson's steps and its Leave at the top of the lesson's panel: the
  // canvas keeps the height.
  [$("lesson-strip"), () => [$("lesson"), $("lesson").firstChild]],
];
const homes = MOVES.map(([el]) => [el.parentNode, el.nextSibling]);
const listeners = [];

/** Calls `f(compact)` each time the layout changes (after the moves). */
export function onLayout(f) {
  listeners.push(f);
}

function place() {
  const compact = isCompact();
  closeMenu();
  if (compact) {
    for (const [el, where] of MOVES) {
      const [parent, before] = where();
      parent.insertBefore(el, before);
    }
  } else {
    // In reverse, so that each one's next sibling at home is back first.
    for (let i = MOVES.length - 1; i >= 0; i--) {
      const [parent, next] = homes[i];
      parent.insertBefore(MOVES[i][0], next && next.parentNode === parent ? next : null);
    }
    for (const tip of document.querySelectorAll(".menu-tip")) tip.remove();
  }
  document.documentElement.classList.toggle("compact", compact);
  for (const f of listeners) f(compact);
}

// ---- the menu --------------------------------------------------------------------

/** Each action in the menu with what its tooltip says written beside it
 * (a finger has no hover); brought up to date each time the menu opens
 * (the language may have changed). */
function tips() {
  for (const el of menu.querySelectorAll("button[title], label[title]")) {
    let tip = el.nextElementSibling;
    if (!tip?.classList.contains("menu-tip")) {
      tip = document.createElement("span");
      tip.className = "menu-tip";
      tip.setAttribute("aria-hidden", "true");
      el.after(tip);
    }
    tip.textContent = el.title;
  }
}

let menuBack = null;
export function openMenu() {
  if (!menu.hidden) return;
  tips();
  menu.style.top = `${Math.round(document.querySelector("header.bar").getBoundingClientRect().bottom)}px`;
  menu.hidden = false;
  menuButton.setAttribute("aria-expanded", "true");
  menuBack = document.activeElement;
  menu.querySelector("button, input")?.focus({ preventScroll: true });
}
/** Closes the menu; true if it was open. `focusBack`: the focus goes back
 * where it was (Escape), not when an action was picked (its effect may
 * move the focus). */
export function closeMenu(focusBack = false) {
  if (menu.hidden) return false;
  menu.hidden = true;
  menuButton.setAttribute("aria-expanded", "false");
  if (focusBack) (menuBack ?? menuButton).focus?.({ preventScroll: true });
  menuBack = null;
  return true;
}
menuButton.addEventListener("click", () => (menu.hidden ? openMenu() : closeMenu(true)));
// An action picked closes the menu (its effect shows on the canvas); the
// speed, the seed and the file input stay.
menu.addEventListener("click", (e) => {
  if (e.target.closest("button")) closeMenu();
});
// A tap outside closes it.
document.addEventListener("pointerdown", (e) => {
  if (!menu.hidden && !menu.contains(e.target) && !menuButton.contains(e.target)) closeMenu();
});

// ---- the legend, folded behind a button in the compact layout ----------------------

const legendButton = $("legend-button");
export function showLegend(on = legendButton.getAttribute("aria-expanded") !== "true") {
  legendButton.setAttribute("aria-expanded", String(on));
  $("legend").classList.toggle("open", on);
  return on;
}
legendButton.addEventListener("click", () => showLegend());
$("legend").addEventListener("click", () => { if (isCompact()) showLegend(false); });

/** The menu's tips again (the page's language changed). */
export function layoutWords() {
  if (!menu.hidden) tips();
}

compactQuery.addEventListener("change", place);
place();
