// SPDX-License-Identifier: MIT
// keys.js - what the Sorcerer & Stones and Sorcerers boards share: which
// board elements the seat's legal actions touch (describe().keys), and the
// keyboard focus kept across the app's redraws, and the making of a board
// element that selects its key on click, Enter or Space.

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

const SVG_NS = 'http://www.w3.org/2000/svg';

// Makes `el` a board element for `key`: data-key, focusable, a click or
// Enter/Space selects it (again: deselects).
export function keyed(el, key, label, ctx, ks) {
  el.setAttribute('data-key', key);
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', label);
  el.classList.add('keyed');
  if (ks.targets.has(key)) {
    el.classList.add('target');
  }
  // `hl` belongs to the app (the keys of the action under the pointer);
  // `related` marks what the actions of the selected element touch.
  if (ks.related.has(key) && ks.focus !== key) {
    el.classList.add('related');
  }
  if (ks.focus === key) {
    el.classList.add('focused');
    el.setAttribute('aria-pressed', 'true');
  }
  const select = (ev) => {
    ev.stopPropagation();
    ev.preventDefault();
    if (ctx.setFocus) {
      ctx.setFocus(ks.focus === key ? null : key);
    }
  };
  el.addEventListener('click', select);
  el.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      select(ev);
    }
  });
  if (el.namespaceURI === SVG_NS) {
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = label;
    el.append(title);
  } else {
    el.title = label;
  }
  return el;
}
