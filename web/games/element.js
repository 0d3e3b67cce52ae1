// SPDX-License-Identifier: MIT
// element.js - the Element board (with the Silver expansion): the 11 x 11
// board with its stones, stacks, Ranges, Storms and Sages, the stones to
// place this turn, the bag, the players and whom each hunts, and the open
// follow-up decision (a river to steer, Wood to grow, a magnet to set, a
// Lightning to remove, a Metal to corrode). It reads views only
// (docs/rules/element.md, section 9) and never decides what is legal.
//
// Keys of board elements: `sq:e6` a square, `sage:N` the Sage of seat N,
// `hand:fire` a stone kind to place, `bag` the bag (draws).
//
// A placement comes in two steps (docs/rules/element.md, 4.6): the moves
// hold a `pick` of each stone in hand, and once a stone is picked
// (`turn.pick`), its placements. Selecting a stone in hand offers its pick;
// the picked stone's squares are marked, and selecting one offers the
// placement there, which the server takes as it is.

import { h, srOnly } from '../lib/dom.js';
import { plural, seatName } from '../lib/words.js';
import { keyState, keyed, marked } from './keys.js';

const SIDE = 11;
const FILES = 'abcdefghijk';

// Each kind of stone: its letter on the board (the terminal client's), its
// word, and what it is in the legend. Colour goes with the class st-<kind>.
const KINDS = {
  fire: { letter: 'F', word: 'Fire' },
  water: { letter: 'W', word: 'Water' },
  earth: { letter: 'E', word: 'Earth' },
  wind: { letter: 'A', word: 'Wind' },
  lightning: { letter: 'L', word: 'Lightning' },
  wood: { letter: 'T', word: 'Wood' },
  blaze: { letter: 'B', word: 'Blaze' },
  metal: { letter: 'M', word: 'Metal' },
  silver: { letter: 'S', word: 'Silver' },
};
const HAND_ORDER = ['fire', 'water', 'earth', 'wind', 'lightning', 'wood', 'metal'];
const BAG_ORDER = ['fire', 'water', 'earth', 'wind', 'silver'];

// ---- Words ----

function word(kind) {
  return KINDS[kind] ? KINDS[kind].word : String(kind);
}

// "P1" for seat 0: the rules' name of the player and the Sage's mark.
function tag(seat) {
  return `P${seat + 1}`;
}

// What a square holds, in words: "Earth, Mountain, Range", "Wind x3 (Whirlwind, Storm)".
function cellWords(cell) {
  if (!cell) return 'empty';
  const parts = [word(cell.stone)];
  if (cell.stone === 'earth' && cell.height > 1) parts.push('Mountain');
  if (cell.stone === 'wind' && cell.height > 1) parts.push(`Whirlwind of ${cell.height}`);
  if (cell.stone === 'blaze') parts.push('Fire on Wood');
  if (cell.range) parts.push('Range');
  if (cell.storm) parts.push('Storm');
  return parts.join(', ');
}

// The seat whose Sage was surrounded to end the game, or -1.
function caughtSeat(view) {
  const res = view.result;
  if (!res || res.reason !== 'surrounded' || !Array.isArray(res.winners) || !res.winners.length) return -1;
  const w = view.seats && view.seats[res.winners[0]];
  return w && Number.isInteger(w.target) ? w.target : -1;
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function sageOn(view, sq) {
  const seats = Array.isArray(view.seats) ? view.seats : [];
  return seats.findIndex((s) => s && s.sage === sq);
}

// The stones left to place this turn, "Fire 1, Water 2", or "none".
function handWords(hand) {
  const parts = HAND_ORDER.filter((k) => hand && hand[k] > 0).map((k) => `${word(k)} ${hand[k]}`);
  return parts.length ? parts.join(', ') : 'none';
}

function phaseWords(view) {
  const p = view.pending || {};
  const turn = view.turn || {};
  switch (view.phase) {
    case 'draw':
      return 'draw 0 to 4 stones';
    case 'act': {
      const bits = [`${plural(turn.steps || 0, 'step', 'steps')} left`];
      bits.push(`stones to place: ${handWords(turn.hand)}`);
      return `move and place stones (${bits.join('; ')})`;
    }
    case 'chain':
      return `choose the Water stones of the river flowing from ${p.at}`;
    case 'flow':
      return `steer the river (${plural(p.length || 0, 'stone', 'stones')}) one square at a time`;
    case 'grow':
      return `grow up to ${plural(p.grow_left || 0, 'Wood', 'Woods')} from the bag`;
    case 'magnet':
      return `make the Metal on ${p.at} attract or repel`;
    case 'remove':
      return `remove another Lightning, or keep them`;
    case 'corrode':
      return `choose the Metal that corrosion removes`;
    default:
      return String(view.phase || '');
  }
}

function endWords(view, names, me) {
  const res = view.result || {};
  const winners = Array.isArray(res.winners) ? res.winners : [];
  if (res.reason === 'surrounded' && winners.length) {
    const w = winners[0];
    const target = view.seats && view.seats[w] ? view.seats[w].target : null;
    const caught = target !== null && target !== undefined ? `${seatName(view, target, names)}'s Sage is surrounded` : 'a Sage is surrounded';
    return `${w === me ? 'you win' : `${seatName(view, w, names)} wins`} (${caught})`;
  }
  if (res.reason === 'bag_empty') return 'the bag ran empty and the last round caught no Sage: nobody wins';
  if (res.reason === 'round_limit') return '300 rounds passed without a Sage caught: nobody wins';
  return winners.length ? `${winners.map((s) => seatName(view, s, names)).join(' and ')} won` : 'nobody wins';
}

// ---- The module interface ----

export function describe(action, view, seat) {
  const a = action || {};
  const turn = (view && view.turn) || {};
  const me = turn.seat !== undefined ? turn.seat : seat;
  const pending = (view && view.pending) || {};
  const on = (sq) => {
    const cell = view && view.board ? view.board[sq] : null;
    return cell ? ` (on ${cellWords(cell)})` : '';
  };
  switch (a.type) {
    case 'draw': {
      const steps = 5 - a.count;
      return {
        group: 'Draw',
        label: `Draw ${plural(a.count, 'stone', 'stones')}, then ${plural(steps, 'step', 'steps')}`,
        keys: ['bag'],
      };
    }
    case 'step':
      return { group: 'Move your Sage', label: `Step to ${a.to}`, keys: [`sage:${me}`, `sq:${a.to}`] };
    case 'jump':
      return { group: 'Move your Sage', label: `Jump over Wind to ${a.to} (free)`, keys: [`sage:${me}`, `sq:${a.to}`] };
    case 'place':
      return {
        group: `Place ${word(a.stone)}`,
        label: `Place ${word(a.stone)} on ${a.at}${on(a.at)}`,
        keys: [`hand:${a.stone}`, `sq:${a.at}`],
      };
    case 'pick':
      return {
        group: 'Place a stone',
        label: `Pick ${word(a.stone)} to place (then choose its square)`,
        keys: [`hand:${a.stone}`],
      };
    case 'end': {
      const left = handWords(turn.hand);
      return {
        group: 'End the turn',
        label: left === 'none' ? 'End the turn' : `End the turn (${left} back to the bag)`,
        keys: [],
      };
    }
    case 'chain':
      return { group: 'River', label: `Add the Water on ${a.at} to the river`, keys: [`sq:${a.at}`] };
    case 'flow':
      return { group: 'River', label: `Flow the river to ${a.to}${on(a.to)}`, keys: [`sq:${a.to}`] };
    case 'grow':
      return { group: 'New Growth', label: `Grow a Wood on ${a.at}`, keys: [`sq:${a.at}`] };
    case 'grow_done':
      return { group: 'New Growth', label: 'Grow no more Wood', keys: [] };
    case 'magnet': {
      const at = pending.at ? ` on ${pending.at}` : '';
      const what = a.mode === 'attract' ? 'Attract: the Metal in its lines slides next to it'
        : a.mode === 'repel' ? 'Repel: the Metal in its lines slides to the far end'
          : `Magnet: ${a.mode}`;
      return { group: `Metal${at}`, label: what, keys: pending.at ? [`sq:${pending.at}`] : [] };
    }
    case 'remove':
      return { group: 'Lightning', label: `Also remove the Lightning on ${a.at}`, keys: [`sq:${a.at}`] };
    case 'keep':
      return { group: 'Lightning', label: 'Keep the other Lightning', keys: [] };
    case 'corrode':
      return { group: 'Corrosion', label: `Remove the Metal on ${a.at}`, keys: [`sq:${a.at}`] };
    default: {
      const rest = Object.keys(a).filter((k) => k !== 'type').map((k) => `${k} ${a[k]}`).join(', ');
      return { group: 'Other', label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ': ' + rest : ''}`, keys: [] };
    }
  }
}

export function status(view, seat, names) {
  if (!view) return '';
  if (view.result) return `Game over: ${endWords(view, names, seat)}.`;
  const turn = view.turn || {};
  const who = turn.seat;
  const whose = who === seat ? 'Your turn' : `${seatName(view, who, names)}'s turn`;
  const last = turn.final_round ? ', the last round' : '';
  return `${whose} (round ${turn.round}${last}): ${phaseWords(view)}.`;
}

export function results(view, names) {
  const res = (view && view.result) || {};
  const scores = Array.isArray(res.scores) ? res.scores : [];
  const seats = Array.isArray(view && view.seats) ? view.seats : [];
  const winners = Array.isArray(res.winners) ? res.winners : [];
  return seats.map((s, i) => {
    let detail;
    if (winners.includes(i)) {
      detail = `caught ${seatName(view, s.target, names)}'s Sage`;
    } else if (res.reason === 'surrounded' && winners.some((w) => seats[w] && seats[w].target === i)) {
      detail = `Sage surrounded on ${s.sage}`;
    } else if (res.reason === 'bag_empty') {
      detail = 'bag ran empty: no winner';
    } else if (res.reason === 'round_limit') {
      detail = 'round limit: no winner';
    } else {
      detail = `Sage on ${s.sage}`;
    }
    return { seat: i, score: scores[i] !== undefined ? scores[i] : 0, detail };
  });
}

// ---- Drawing ----

// The squares to mark with a dot as places an action goes to: with a
// selection, the squares of the actions that touch it (where the chosen
// stone may go, where the Sage may move); without one, every square an
// action names, the placements too: the moves hold only those of the
// picked stone (4.6).
function targetSquares(view, ctx) {
  const out = new Set();
  for (const a of ctx.legal || []) {
    const keys = describe(a, view, ctx.seat).keys;
    if (ctx.focus && !keys.includes(ctx.focus)) continue;
    for (const k of keys) if (k.startsWith('sq:') && k !== ctx.focus) out.add(k);
  }
  return out;
}

function stoneChip(kind, count) {
  const k = KINDS[kind] || { letter: '?', word: kind };
  const chip = h('span', { class: `el-chip st-${kind}` }, h('b', { class: 'el-letter', 'aria-hidden': 'true' }, k.letter), ` ${k.word}`);
  if (count !== undefined) chip.append(h('span', { class: 'el-count' }, ` ${count}`));
  return chip;
}

// The squares the open decision is about, with what each is.
function pendingMarks(view) {
  const p = view.pending || {};
  const marks = new Map();
  const add = (sq, cls, words) => {
    if (!sq) return;
    const m = marks.get(sq) || { cls: [], words: [] };
    m.cls.push(cls);
    m.words.push(words);
    marks.set(sq, m);
  };
  if (p.at) add(p.at, 'just', `just placed ${word(p.stone)}`);
  for (const sq of p.chain || []) add(sq, 'river', 'in the river');
  for (const sq of p.river || []) add(sq, 'river', 'the moving river');
  for (const sq of p.entered || []) add(sq, 'entered', 'the river flowed here');
  return marks;
}

function drawSquare(view, ctx, ks, targets, sq, marks) {
  const cell = view.board ? view.board[sq] : null;
  const sage = sageOn(view, sq);
  const el = h('div', { class: 'el-sq' });
  const words = [sq];
  if (cell) {
    const k = KINDS[cell.stone] || { letter: '?' };
    el.classList.add(`st-${cell.stone}`);
    // The square's glyphs are drawn by element.css from data-glyph: they
    // are pictures of what the square's name says in words.
    el.append(h('span', { class: 'el-letter', dataset: { glyph: k.letter } }));
    if (cell.height > 1) el.append(h('span', { class: 'el-height', dataset: { glyph: cell.height } }));
    if (cell.range) {
      el.classList.add('range');
      el.append(h('span', { class: 'el-mark', dataset: { glyph: '^' } }));
    } else if (cell.storm) {
      el.classList.add('storm');
      el.append(h('span', { class: 'el-mark', dataset: { glyph: '*' } }));
    }
    const [kind, ...more] = cellWords(cell).split(', ');
    words.push([`${kind} stone`, ...more].join(', '));
  }
  if (sage >= 0) {
    const token = h('span', { class: `el-sage seat-${sage}`, dataset: { glyph: tag(sage) } });
    if (sage === ctx.seat) token.classList.add('mine');
    const caught = sage === caughtSeat(view);
    if (caught) token.classList.add('caught');
    // Part of the square's element; it lights up with the Sage's key.
    el.append(marked(token, `sage:${sage}`, ks));
    words.push(`Sage of ${tag(sage)} ${seatName(view, sage, ctx.names)}${sage === ctx.seat ? ' (yours)' : ''}${caught ? ', surrounded' : ''}`);
  }
  const m = marks.get(sq);
  if (m) {
    el.classList.add(...m.cls);
    words.push(...m.words);
  }
  if (targets.has(`sq:${sq}`)) {
    el.classList.add('dest');
    words.push('a move goes here');
  }
  const label = `${sq}: ${words.length > 1 ? words.slice(1).join('; ') : 'empty'}`;
  return keyed(el, `sq:${sq}`, label, ctx, ks);
}

function drawBoard(view, ctx, ks) {
  const board = h('div', { class: 'el-board' });
  board.setAttribute('role', 'group');
  board.setAttribute('aria-label', 'The board, files a to k, ranks 1 to 11, a1 at the bottom left; the arrow keys move between squares');
  // A grid for the keyboard (keys.js): Up and Down move a rank.
  const marks = pendingMarks(view);
  const targets = targetSquares(view, ctx);
  board.append(h('span', { class: 'el-coord' }));
  for (const f of FILES) board.append(h('span', { class: 'el-coord' }, f));
  for (let rank = SIDE; rank >= 1; rank--) {
    board.append(h('span', { class: 'el-coord' }, String(rank)));
    for (let file = 0; file < SIDE; file++) {
      const square = drawSquare(view, ctx, ks, targets, `${FILES[file]}${rank}`, marks);
      square.dataset.row = String(SIDE - rank);
      square.dataset.col = String(file);
      board.append(square);
    }
  }
  return board;
}

function drawHeader(view) {
  const turn = view.turn || {};
  const title = view.silver ? `Element + Silver: ${word(view.silver)}` : 'Element';
  const bits = [`round ${turn.round || 0}`];
  if (turn.final_round) bits.push('the last round');
  return h('div', { class: 'el-head' }, h('strong', {}, title), ` \u2014 ${bits.join(', ')}`);
}

// The stones the player to move drew and has still to place; marked as
// yours when it is this client's turn.
function drawHand(view, ctx, ks) {
  const turn = view.turn || {};
  if (view.result) {
    return h('section', { class: 'el-box el-over' }, h('h3', {}, 'Game over'), h('p', {}, `${cap(endWords(view, ctx.names, ctx.seat))}.`));
  }
  const mine = turn.seat === ctx.seat;
  const box = h('section', { class: `el-box el-hand${mine ? ' mine' : ''}` });
  const who = mine ? 'Your stones to place' : `${seatName(view, turn.seat, ctx.names)}'s stones to place`;
  const head = h('h3', {}, who);
  if (mine) head.append(' ', h('span', { class: 'el-yours' }, 'yours'));
  box.append(head);
  if (turn.drawn === null || turn.drawn === undefined) {
    box.append(h('p', {}, 'Nothing drawn yet this turn.'));
    return box;
  }
  const list = h('div', { class: 'el-chips' });
  let any = false;
  for (const k of HAND_ORDER) {
    if (turn.hand && turn.hand[k] !== undefined && turn.hand[k] > 0) {
      any = true;
      const chip = stoneChip(k, turn.hand[k]);
      if (turn.pick === k) {
        chip.classList.add('picked');
        chip.append(h('span', { class: 'el-picked' }, ' (picked)'));
      }
      chip.append(srOnly(' in hand to place'));
      list.append(keyed(chip, `hand:${k}`, { short: `${word(k)} in hand` }, ctx, ks));
    }
  }
  if (!any) list.append(h('span', {}, 'none left'));
  box.append(list);
  box.append(h('p', { class: 'el-small' }, `Drew ${turn.drawn}; ${plural(turn.steps || 0, 'step', 'steps')} and ${plural(turn.jumps_left || 0, 'jump', 'jumps')} left.`));
  return box;
}

function drawPending(view) {
  const p = view.pending;
  if (!p || typeof p !== 'object') return null;
  const box = h('section', { class: 'el-box el-pending' });
  box.append(h('h3', {}, `Open: ${word(p.stone)} placed on ${p.at}`));
  const lines = [];
  if (view.phase === 'chain') {
    lines.push(`The river so far: ${[p.at, ...(p.chain || [])].join(', ')}. Add the next Water next to its end.`);
  } else if (view.phase === 'flow') {
    lines.push(`Moving river of ${plural(p.length || 0, 'stone', 'stones')}: ${(p.river || []).join(', ')}.`);
    lines.push(`Flowed through: ${(p.entered || []).length ? p.entered.join(', ') : 'nothing yet'}.`);
  } else if (view.phase === 'grow') {
    lines.push(`Up to ${plural(p.grow_left || 0, 'Wood', 'Woods')} may grow on empty squares.`);
  } else if (view.phase === 'magnet') {
    lines.push('The Metal attracts or repels the Metal along its eight lines.');
  } else if (view.phase === 'remove') {
    lines.push('Also remove one other Lightning, or keep them all.');
  } else if (view.phase === 'corrode') {
    lines.push('Corrosion: choose any Metal on the board to go back to the bag.');
  }
  for (const l of lines) box.append(h('p', {}, l));
  return box;
}

function drawSeats(view, ctx, ks) {
  const box = h('section', { class: 'el-box el-seats' });
  box.append(h('h3', {}, 'Players'));
  const list = h('ul', { class: 'el-list' });
  const turn = view.turn || {};
  (view.seats || []).forEach((s, i) => {
    const li = h('li', { class: `el-seat${i === ctx.seat ? ' mine' : ''}` });
    const token = h('span', { class: `el-sage seat-${i}` }, tag(i));
    const name = seatName(view, i, ctx.names);
    const hunts = `${tag(s.target)} ${seatName(view, s.target, ctx.names)}`;
    // The player's name is the element of its Sage (the list item stays one).
    li.append(token, ' ', keyed(h('strong', {}, name), `sage:${i}`, `${tag(i)} ${name}'s Sage on ${s.sage}, hunting ${hunts}'s Sage`, ctx, ks));
    if (i === ctx.seat) li.append(' ', h('span', { class: 'el-yours' }, 'you'));
    if (!view.result && turn.seat === i) li.append(' ', h('span', { class: 'el-tomove' }, '\u25b6 to move'));
    if (i === caughtSeat(view)) li.append(' ', h('span', { class: 'el-tomove' }, '\u2716 surrounded'));
    if (view.result && (view.result.winners || []).includes(i)) li.append(' ', h('span', { class: 'el-tomove' }, '\u2605 wins'));
    li.append(h('div', { class: 'el-small' }, `Sage on ${s.sage}; hunts ${hunts}'s Sage`));
    list.append(li);
  });
  box.append(list);
  return box;
}

function drawBag(view, ctx, ks) {
  const box = h('section', { class: 'el-box el-bag' });
  const bag = view.bag || {};
  const total = BAG_ORDER.reduce((n, k) => n + (bag[k] || 0), 0);
  const words = `Bag: ${plural(total, 'stone')}`;
  box.append(h('h3', {}, keyed(h('span', {}, words), 'bag', words, ctx, ks)));
  const list = h('div', { class: 'el-chips' });
  for (const k of BAG_ORDER) {
    if (bag[k] === undefined) continue;
    const chip = stoneChip(k, bag[k]);
    if (k === 'silver' && view.silver) chip.title = `Silver stones: each is ${word(view.silver)}`;
    list.append(chip);
  }
  box.append(list);
  return box;
}

function drawLegend(view) {
  const box = h('details', { class: 'el-box el-legend' });
  box.open = true;
  box.append(h('summary', {}, 'Legend'));
  const list = h('div', { class: 'el-chips' });
  const kinds = ['fire', 'water', 'earth', 'wind'];
  if (view.silver === 'lightning') kinds.push('lightning');
  if (view.silver === 'wood') kinds.push('wood', 'blaze');
  if (view.silver === 'metal') kinds.push('metal');
  for (const k of kinds) list.append(stoneChip(k));
  box.append(list);
  box.append(h('p', { class: 'el-small' }, 'A digit is the height of a stack: E2 a Mountain, A2 to A4 a Whirlwind, B2 a Blaze (Fire on Wood). ^ marks a Range (cannot be replaced; pinches diagonal moves), * a Storm Wind (cannot be jumped). P1 to P4 are the Sages. A double outline is the stone just placed, a dashed one the moving river, dots where it flowed. A black dot in a corner: a move of yours goes there (pick a stone to place to see where it may go, or select your Sage).'));
  return box;
}

export function render(root, view, ctx) {
  const c = Object.assign({ seat: null, names: [], legal: [], focus: null, setFocus: null, pick: null }, ctx || {});
  const ks = keyState(describe, view, c);
  const wrap = h('div', { class: 'el' });
  const side = h('div', { class: 'el-side' });
  side.append(drawHeader(view));
  const pending = drawPending(view);
  if (pending) side.append(pending);
  side.append(drawHand(view, c, ks), drawSeats(view, c, ks), drawBag(view, c, ks), drawLegend(view));
  wrap.append(h('div', { class: 'el-main' }, drawBoard(view, c, ks)), side);
  root.append(wrap);
}
