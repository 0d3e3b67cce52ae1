// SPDX-License-Identifier: MIT
// keys.js - the board elements of every board, and the one keyboard style
// they share. A board element is a thing on the board a player may select
// (a stone, a square, a card, an essence, a player): the board module
// makes it with keyed(el, key, label, ctx, ks), where `key` is the name
// its game's describe() gives it in an action's `keys`, and `label` its
// name (aria-label) when what it shows is a letter or a picture. Where it
// shows words (a card, a chip with a count) `label` is { short }: its name
// is the words it shows, completed where needed by words for screen
// readers only (srOnly), so that the name always holds the visible words
// (WCAG 2.5.3), and `short` names it in a sentence ("Moves involving
// Athanor"). data-words holds that short name for the page.
//
// The selection vocabulary, drawn by style.css for every board alike:
//   .keyed     a board element (role button, named by `label`)
//   .target    some legal action touches it (its name says so too)
//   .related   the actions of the selected element touch it as well
//   .selected  the selected element (aria-pressed="true"); the move list
//              then shows only the moves that touch it
//   .hl        the keys of the move under the pointer or the keyboard in
//              the move list (lib/actions.js)
//
// The keyboard (attachBoardKeys once on the board's container, rove()
// after every drawing): the board is one stop of the Tab key (a roving
// tabindex); the arrow keys move between its elements in reading order,
// and on a grid (elements with data-row and data-col) Up and Down move a
// row; Home and End go to the first and the last; Enter or Space selects
// the element as a click does, and again clears the selection. The page
// adds Escape (clear the selection) and the shortcuts of SHORTCUTS.

import { isSvg, srOnly } from '../lib/dom.js';
import { addPhrases, t } from '../lib/i18n.js';
import { zhCNBoards } from '../i18n/zh-CN-boards.js';

addPhrases('zh-CN', zhCNBoards);

// The page's keys that jump: to the move list, to the board.
export const SHORTCUTS = { actions: 'a', board: 'b' };

// The keys the legal actions touch (`targets`), and those touched by the
// actions of the selected element (`related`). `describe` is the board's.
export function keyState(describe, view, ctx) {
  const targets = new Set();
  const related = new Set();
  const selected = ctx.focus || null;
  for (const a of ctx.legal || []) {
    const d = describe(a, view, ctx.seat);
    for (const k of d.keys) targets.add(k);
    if (selected && d.keys.includes(selected)) {
      for (const k of d.keys) related.add(k);
    }
  }
  return { targets, related, selected };
}

// Gives `el` the key and the classes of the selection vocabulary, without
// making it a board element of its own: a mark inside another element
// (a Sage on its square) that lights up with the key.
export function marked(el, key, ks) {
  el.setAttribute('data-key', key);
  el.classList.toggle('target', ks.targets.has(key));
  el.classList.toggle('related', ks.related.has(key) && ks.selected !== key);
  el.classList.toggle('selected', ks.selected === key);
  return el;
}

// Makes `el` the board element of `key`, named `label` (or by its words,
// see above): a click (or Enter or Space, see onKey) selects it, and
// again clears the selection.
export function keyed(el, key, label, ctx, ks) {
  marked(el, key, ks);
  el.classList.add('keyed');
  el.setAttribute('role', 'button');
  el.setAttribute('tabindex', '-1');
  el.setAttribute('aria-pressed', ks.selected === key ? 'true' : 'false');
  const can = ks.targets.has(key);
  if (typeof label === 'object') {
    el.dataset.words = label.short;
    if (can) el.append(srOnly(t(', a move can be chosen')));
  } else {
    el.dataset.words = label;
    el.setAttribute('aria-label', can ? `${label}${t(', a move can be chosen')}` : label);
    // A tooltip for the pointer. Not on SVG, where a <title> would count
    // as words shown that the name lacks.
    if (!isSvg(el) && !el.title) el.title = label;
  }
  el.addEventListener('click', (ev) => {
    ev.stopPropagation();
    ev.preventDefault();
    if (ctx.setFocus) ctx.setFocus(ks.selected === key ? null : key);
  });
  return el;
}

// ---- The keyboard ----

const lastKey = new WeakMap(); // board container -> the key last focused in it

function visible(el) {
  return el.getClientRects().length > 0;
}

function elements(root) {
  return [...root.querySelectorAll('.keyed')].filter(visible);
}

// Makes `stop` the board's one Tab stop.
function setStop(root, stop) {
  for (const el of root.querySelectorAll('.keyed[tabindex="0"]')) el.setAttribute('tabindex', '-1');
  if (stop) stop.setAttribute('tabindex', '0');
}

// On a grid, the element `rows` rows below `from` (above when negative).
function gridStep(from, rows) {
  const { row, col } = from.dataset;
  if (row === undefined || col === undefined) return null;
  const sel = `.keyed[data-row="${Number(row) + rows}"][data-col="${col}"]`;
  return from.parentElement ? from.parentElement.querySelector(sel) : null;
}

function onKey(root, ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const from = ev.target instanceof Element ? ev.target.closest('.keyed') : null;
  if (!from || !root.contains(from)) return;
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    from.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    return;
  }
  const all = elements(root);
  const at = all.indexOf(from);
  let to = null;
  switch (ev.key) {
    case 'ArrowRight':
      to = all[at + 1];
      break;
    case 'ArrowLeft':
      to = at > 0 ? all[at - 1] : null;
      break;
    case 'ArrowDown':
      to = gridStep(from, 1) || (from.dataset.row === undefined ? all[at + 1] : null);
      break;
    case 'ArrowUp':
      to = gridStep(from, -1) || (from.dataset.row === undefined && at > 0 ? all[at - 1] : null);
      break;
    case 'Home':
      to = all[0];
      break;
    case 'End':
      to = all[all.length - 1];
      break;
    default:
      return;
  }
  ev.preventDefault();
  if (!to) return;
  setStop(root, to);
  to.focus();
}

// Once per board container (#board, #review-board): follows the focus and
// takes the keys.
export function attachBoardKeys(root) {
  root.addEventListener('focusin', (ev) => {
    const el = ev.target instanceof Element ? ev.target.closest('.keyed') : null;
    if (!el || !root.contains(el)) return;
    lastKey.set(root, el.dataset.key);
    setStop(root, el);
  });
  root.addEventListener('keydown', (ev) => onKey(root, ev));
}

// After each drawing: picks the Tab stop (the element last focused, else
// the selected one, else the first a move touches, else the first) and,
// when the focus was on the board before the drawing (`refocus`), puts it
// on the stop, so that a redraw never drops it.
export function rove(root, refocus = false) {
  const all = elements(root);
  const last = lastKey.get(root);
  const stop = all.find((el) => el.dataset.key === last) ||
    all.find((el) => el.classList.contains('selected')) ||
    all.find((el) => el.classList.contains('target')) || all[0];
  setStop(root, stop);
  if (refocus && stop) stop.focus({ preventScroll: true });
}

// Puts the focus on the board: its stop, else its first control.
export function focusBoard(root) {
  const el = root.querySelector('.keyed[tabindex="0"]') || root.querySelector('button, [tabindex="0"]');
  if (!el) return false;
  el.focus();
  return true;
}
