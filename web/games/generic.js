// SPDX-License-Identifier: MIT
// The board of last resort: any game's view as a tree of its fields, and
// any action labelled from its JSON. The app uses it when a game has no
// board module of its own (or its module fails to load), so every game
// the server offers can be played from the page before its board exists.
//
// String values in the tree carry data-key="<the string>", and an action's
// keys are the strings it holds, so hovering "cast card SPIN-1" lights up
// every SPIN-1 in the tree; a string that some legal action names is a
// button that narrows the action list to the actions naming it.

import { h, humanize } from '../lib/dom.js';
import { addPhrases, t } from '../lib/i18n.js';
import { seatName } from '../lib/words.js';
import { zhCNGeneric } from '../i18n/zh-CN-generic.js';

addPhrases('zh-CN', zhCNGeneric);

// Open/closed state of the tree's branches by path, kept across redraws
// (the app empties the board before each one).
const openState = new Map();

// Members the app shows elsewhere (the log has its own panel).
const SKIP = new Set(['log']);

function scalarText(v) {
  if (v === null) return '—';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return String(v);
}

function isScalar(v) {
  return v === null || typeof v !== 'object';
}

// An array of scalars reads best on one line.
function isFlat(v) {
  return Array.isArray(v) && v.length <= 12 && v.every(isScalar);
}

function leafValue(v, ctx, keys) {
  if (typeof v === 'string' && v !== '') {
    if (keys.has(v)) {
      return h('button', {
        type: 'button', class: ['gv-str', 'gv-pick', ctx.focus === v && 'selected'],
        dataset: { key: v }, 'aria-pressed': ctx.focus === v ? 'true' : 'false',
        onclick: () => ctx.setFocus(ctx.focus === v ? null : v),
      }, v);
    }
    return h('span', { class: 'gv-str', dataset: { key: v } }, v);
  }
  return h('span', { class: `gv-${v === null ? 'null' : typeof v}` }, scalarText(v));
}

function flatValue(arr, ctx, keys) {
  if (arr.length === 0) return h('span', { class: 'gv-null' }, t('(none)'));
  const parts = [];
  arr.forEach((v, i) => {
    if (i) parts.push(', ');
    parts.push(leafValue(v, ctx, keys));
  });
  return h('span', { class: 'gv-flat' }, parts);
}

function label(key) {
  return typeof key === 'number' ? `#${key + 1}` : humanize(key);
}

function node(key, value, path, depth, ctx, keys) {
  if (isScalar(value)) {
    return h('div', { class: 'gv-row' }, h('span', { class: 'gv-key' }, label(key), ': '), leafValue(value, ctx, keys));
  }
  if (isFlat(value)) {
    return h('div', { class: 'gv-row' }, h('span', { class: 'gv-key' }, label(key), ': '), flatValue(value, ctx, keys));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const n = Array.isArray(value) ? value.length : 0;
  const size = Array.isArray(value) ? (n === 1 ? t('1 item') : t('{n} items', { n })) : '';
  const mine = depth === 0 && key === 'you';
  const open = openState.has(path) ? openState.get(path) : depth === 0 || entries.length <= 6;
  const details = h('details', { class: ['gv-branch', mine && 'mine'], open },
    h('summary', {}, h('span', { class: 'gv-key' }, label(key)),
      size ? h('span', { class: 'gv-size' }, ` (${size})`) : null,
      mine ? h('span', { class: 'yours-label' }, t(' yours: only you see this')) : null),
    h('div', { class: 'gv-children' },
      entries.length === 0 ? h('div', { class: 'gv-row gv-null' }, t('(empty)')) :
        entries.filter(([k]) => !(depth === 0 && SKIP.has(k)))
          .map(([k, v]) => node(k, v, `${path}/${k}`, depth + 1, ctx, keys))));
  details.addEventListener('toggle', () => openState.set(path, details.open));
  return details;
}

// Any JSON value as the same tree, without the note: the review screen
// shows each seat's hand (its view's `you`) this way. `path` keys the
// branches' open state.
export function tree(value, path, ctx = {}) {
  const entries = value && typeof value === 'object' ? Object.entries(value) : [['value', value]];
  return h('div', { class: 'generic-board gv-tree' },
    entries.length ? entries.map(([k, v]) => node(k, v, `${path}/${k}`, 1, ctx, new Set())) :
      h('div', { class: 'gv-row gv-null' }, t('(empty)')));
}

export function render(root, view, ctx) {
  const keys = new Set();
  for (const a of ctx.legal || []) for (const k of describe(a).keys) keys.add(k);
  const top = Object.entries(view).filter(([k]) => !SKIP.has(k));
  // Put the seat's own part first: it is what a player looks for.
  top.sort(([a], [b]) => (b === 'you') - (a === 'you'));
  root.appendChild(h('div', { class: 'generic-board' },
    h('p', { class: 'gv-note' },
      t('This game has no board drawing here yet: its state is shown as a tree. '),
      keys.size ? t('Names in buttons can be selected to narrow the actions.') : ''),
    top.map(([k, v]) => node(k, v, `/${k}`, 0, ctx, keys))));
}

function valueWords(v) {
  if (v === null) return t('none');
  if (Array.isArray(v)) return v.map(valueWords).join(' ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function stringsIn(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => stringsIn(x, out));
  return out;
}

export function describe(action) {
  const type = typeof action?.type === 'string' ? action.type : 'action';
  const fields = Object.entries(action || {}).filter(([k]) => k !== 'type');
  const words = fields.map(([k, v]) => `${humanize(k).toLowerCase()} ${valueWords(v)}`);
  return {
    group: humanize(type),
    label: words.length ? `${humanize(type)}: ${words.join(', ')}` : humanize(type),
    keys: [...new Set(fields.flatMap(([, v]) => stringsIn(v, [])))],
  };
}

export function status(view, seat, names) {
  if (view.result) return t('The game is over.');
  const active = Array.isArray(view.active) ? view.active : [];
  const phase = view.phase ? t('{phase}: ', { phase: humanize(view.phase) }) : '';
  if (active.length === 0) return t('{phase}nobody to act.', { phase });
  const mine = seat !== null && seat !== undefined && active.includes(seat);
  const others = active.filter((s) => s !== seat).map((s) => seatName(view, s, names)).join(t(', '));
  if (mine && !others) return t('{phase}your turn.', { phase });
  if (mine) return t('{phase}your turn, and {others}.', { phase, others });
  return t('{phase}waiting for {others}.', { phase, others });
}

export function results(view, names) {
  const r = view.result || {};
  const scores = Array.isArray(r.scores) ? r.scores : [];
  return scores.map((score, seat) => {
    const b = Array.isArray(r.breakdown) ? r.breakdown.find((x) => x && x.seat === seat) : null;
    const detail = b ? Object.entries(b).filter(([k]) => k !== 'seat' && k !== 'total')
      .map(([k, v]) => `${humanize(k).toLowerCase()} ${valueWords(v)}`).join(', ') : '';
    return { seat, score, detail };
  });
}
