// SPDX-License-Identifier: MIT
// The action list: the seat's legal actions, grouped by the board's
// describe().group (in the order the groups first appear in `legal`) and
// labelled with describe().label; only the actions touching the focus key
// when the board has one selected. Hovering or focusing an action
// highlights its keys on the board (class `hl` on [data-key=...] under
// #board). In the list the arrow keys move from move to move, Home and
// End to the first and the last (attachActionKeys).

import { h, clear, keySelector } from './dom.js';
import { t } from './i18n.js';

export function describeAll(legal, board, view, seat) {
  return legal.map((action, index) => ({ action, index, ...board.describe(action, view, seat) }));
}

// Adds or removes class `hl` on the board elements of `keys`.
export function highlight(boardEl, keys, on) {
  for (const key of keys || []) {
    for (const el of boardEl.querySelectorAll(keySelector(key))) el.classList.toggle('hl', on);
  }
}

function groupsOf(items) {
  const groups = new Map();
  for (const item of items) {
    if (!groups.has(item.group)) groups.set(item.group, []);
    groups.get(item.group).push(item);
  }
  return groups;
}

// opts: { items (from describeAll), focus, message, onPick(index), boardEl }
// Returns the number of buttons drawn.
export function renderActions(container, opts) {
  const { items, focus, message, onPick, boardEl } = opts;
  const hadFocus = container.contains(document.activeElement);
  const focusedLabel = hadFocus ? document.activeElement.textContent : null;
  // Whatever was lit for a button that is about to go must go dark.
  for (const el of boardEl.querySelectorAll('.hl')) el.classList.remove('hl');
  clear(container);

  if (message) {
    container.appendChild(h('p', { class: 'actions-message' }, message));
    // Keep keyboard focus here while the moves are away, so that the next
    // list gets it back.
    if (hadFocus) container.focus({ preventScroll: true });
    return 0;
  }
  let shown = items;
  if (focus !== null && focus !== undefined) {
    const narrowed = items.filter((it) => it.keys.includes(focus));
    if (narrowed.length) shown = narrowed;
    else container.appendChild(h('p', { class: 'hint' }, t('No move involves the selected piece; every move is listed.')));
  }
  let first = null;
  let again = null;
  for (const [group, members] of groupsOf(shown)) {
    const list = h('div', { class: 'action-buttons', role: 'group', 'aria-label': group });
    for (const it of members) {
      const button = h('button', {
        type: 'button', class: 'action', dataset: { index: it.index },
        onclick: () => onPick(it.index),
        onmouseenter: () => highlight(boardEl, it.keys, true),
        onmouseleave: () => highlight(boardEl, it.keys, false),
        onfocus: () => highlight(boardEl, it.keys, true),
        onblur: () => highlight(boardEl, it.keys, false),
      }, it.label);
      first = first || button;
      if (focusedLabel !== null && it.label === focusedLabel) again = button;
      list.appendChild(button);
    }
    container.appendChild(h('section', { class: 'action-group' }, h('h3', {}, group), list));
  }
  // Keyboard players keep their place: the same move if it is still
  // offered, else the first one.
  if (hadFocus) (again || first || container).focus({ preventScroll: true });
  return shown.length;
}

// Once, on the list's container: Up and Down move the focus between the
// moves, Home and End to the first and the last.
export function attachActionKeys(container) {
  container.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const buttons = [...container.querySelectorAll('button.action')];
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const to = {
      ArrowDown: buttons[Math.min(at + 1, buttons.length - 1)],
      ArrowUp: buttons[Math.max(at - 1, 0)],
      Home: buttons[0],
      End: buttons[buttons.length - 1],
    }[ev.key];
    if (!to) return;
    ev.preventDefault();
    to.focus();
  });
}
