// SPDX-License-Identifier: MIT
// keys.js - what the Sorcerer & Stones and Sorcerers boards share: which
// board elements the seat's legal actions touch (describe().keys), and the
// keyboard focus kept across the app's redraws.

// The keys the legal actions touch (`targets`), and those touched by the
// actions of the selected element (`related`). `describe` is the board's.
export function keyState(describe, view, ctx) {
  const targets = new Set();
  const related = new Set();
  for (const a of ctx.legal || []) {
    const d = describe(a, view, ctx.seat);
    for (const k of d.keys) {
      targets.add(k);
    }
    if (ctx.focus && d.keys.includes(ctx.focus)) {
      for (const k of d.keys) {
        related.add(k);
      }
    }
  }
  return { targets, related, focus: ctx.focus || null };
}

// The board element that last had the keyboard focus. The app redraws the
// board from scratch on every change, which drops the focus; render() puts
// it back when nothing else has taken it meanwhile.
let focusedKey = null;

export function trackFocus(board) {
  board.addEventListener('focusin', (ev) => {
    focusedKey = (ev.target.getAttribute && ev.target.getAttribute('data-key')) || null;
  });
  board.addEventListener('focusout', (ev) => {
    if (ev.relatedTarget && !board.contains(ev.relatedTarget)) {
      focusedKey = null;
    }
  });
}

export function restoreFocus(board) {
  const active = document.activeElement;
  if (!focusedKey || (active && active !== document.body)) {
    return;
  }
  const el = board.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
  if (el) {
    el.focus({ preventScroll: true });
  }
}
