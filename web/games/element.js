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
import { addPhrases, t } from '../lib/i18n.js';
import { seatName } from '../lib/words.js';
import { zhCNElement } from '../i18n/zh-CN-element.js';
import { gameWords } from './catalogue.js';
import { keyState, keyed, marked } from './keys.js';

addPhrases('zh-CN', zhCNElement);
const W = gameWords('element');

const SIDE = 11;
const FILES = 'abcdefghijk';

// Each kind of stone: its letter on the board (the terminal client's), its
// word, and what it is in the legend; `zh` its one character in Chinese,
// drawn in place of the letter (the start or the end of its word in the
// catalogue). Colour goes with the class st-<kind>.
const KINDS = {
  fire: { letter: 'F', word: 'Fire', zh: '火' },
  water: { letter: 'W', word: 'Water', zh: '水' },
  earth: { letter: 'E', word: 'Earth', zh: '土' },
  wind: { letter: 'A', word: 'Wind', zh: '风' },
  lightning: { letter: 'L', word: 'Lightning', zh: '电' },
  wood: { letter: 'T', word: 'Wood', zh: '木' },
  blaze: { letter: 'B', word: 'Blaze', zh: '焰' },
  metal: { letter: 'M', word: 'Metal', zh: '金' },
  silver: { letter: 'S', word: 'Silver', zh: '银' },
};
const HAND_ORDER = ['fire', 'water', 'earth', 'wind', 'lightning', 'wood', 'metal'];
const BAG_ORDER = ['fire', 'water', 'earth', 'wind', 'silver'];

// ---- Words ----

// A stone's word, as the log says it (the catalogue's terms).
function word(kind) {
  return W.term('stone', kind, KINDS[kind] ? KINDS[kind].word : String(kind));
}

// The letter drawn for a stone: its character in Chinese.
function letter(kind) {
  const k = KINDS[kind];
  if (!k) return '?';
  return W.local() ? k.zh : k.letter;
}

// A term of the board (Sage, Mountain, Range...) as the log says it.
function boardWord(key, english) {
  return W.term('board', key, english);
}

// "P1" for seat 0: the rules' name of the player and the Sage's mark.
function tag(seat) {
  return `P${seat + 1}`;
}

// What a square holds, in words: "Earth, Mountain, Range", "Wind x3 (Whirlwind, Storm)".
function cellParts(cell) {
  const parts = [word(cell.stone)];
  if (cell.stone === 'earth' && cell.height > 1) parts.push(boardWord('mountain', 'Mountain'));
  if (cell.stone === 'wind' && cell.height > 1) parts.push(t('{whirlwind} of {n}', { whirlwind: boardWord('whirlwind', 'Whirlwind'), n: cell.height }));
  if (cell.stone === 'blaze') parts.push(t('{fire} on {wood}', { fire: word('fire'), wood: word('wood') }));
  if (cell.range) parts.push(boardWord('range', 'Range'));
  if (cell.storm) parts.push(boardWord('storm', 'Storm'));
  return parts;
}

function cellWords(cell) {
  if (!cell) return t('empty');
  return cellParts(cell).join(t(', '));
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

// The stones left to place this turn, "Fire 1, Water 2", or null.
function handWords(hand) {
  const parts = HAND_ORDER.filter((k) => hand && hand[k] > 0).map((k) => `${word(k)} ${hand[k]}`);
  return parts.length ? parts.join(t(', ')) : null;
}

// "1 stone", "3 stones"; "1 step", "2 steps"...
function stones(n) {
  return n === 1 ? t('1 stone') : t('{n} stones', { n });
}

function steps(n) {
  return n === 1 ? t('1 step') : t('{n} steps', { n });
}

function woods(n) {
  return n === 1 ? t('1 Wood') : t('{n} Woods', { n });
}

function phaseWords(view) {
  const p = view.pending || {};
  const turn = view.turn || {};
  switch (view.phase) {
    case 'draw':
      return t('draw 0 to 4 stones');
    case 'act':
      return t('move and place stones ({steps} left; stones to place: {hand})', { steps: steps(turn.steps || 0), hand: handWords(turn.hand) || t('none') });
    case 'chain':
      return t('choose the Water stones of the river flowing from {at}', { at: p.at });
    case 'flow':
      return t('steer the river ({stones}) one square at a time', { stones: stones(p.length || 0) });
    case 'grow':
      return t('grow up to {woods} from the bag', { woods: woods(p.grow_left || 0) });
    case 'magnet':
      return t('make the Metal on {at} attract or repel', { at: p.at });
    case 'remove':
      return t('remove another Lightning, or keep them');
    case 'corrode':
      return t('choose the Metal that corrosion removes');
    default:
      return W.term('phase', view.phase, String(view.phase || ''));
  }
}

function endWords(view, names, me) {
  const res = view.result || {};
  const winners = Array.isArray(res.winners) ? res.winners : [];
  if (res.reason === 'surrounded' && winners.length) {
    const w = winners[0];
    const target = view.seats && view.seats[w] ? view.seats[w].target : null;
    const caught = target !== null && target !== undefined
      ? t("{name}'s Sage is surrounded", { name: seatName(view, target, names) }) : t('a Sage is surrounded');
    return w === me ? t('you win ({caught})', { caught }) : t('{name} wins ({caught})', { name: seatName(view, w, names), caught });
  }
  if (res.reason === 'bag_empty') return t('the bag ran empty and the last round caught no Sage: nobody wins');
  if (res.reason === 'round_limit') return t('300 rounds passed without a Sage caught: nobody wins');
  return winners.length ? t('{names} won', { names: winners.map((s) => seatName(view, s, names)).join(t(' and ')) }) : t('nobody wins');
}

// ---- The module interface ----

export function describe(action, view, seat) {
  const a = action || {};
  const turn = (view && view.turn) || {};
  const me = turn.seat !== undefined ? turn.seat : seat;
  const pending = (view && view.pending) || {};
  const cellOn = (sq) => (view && view.board ? view.board[sq] : null);
  switch (a.type) {
    case 'draw':
      return {
        group: t('Draw'),
        label: t('Draw {stones}, then {steps}', { stones: stones(a.count), steps: steps(5 - a.count) }),
        keys: ['bag'],
      };
    case 'step':
      return { group: t('Move your Sage'), label: t('Step to {to}', { to: a.to }), keys: [`sage:${me}`, `sq:${a.to}`] };
    case 'jump':
      return { group: t('Move your Sage'), label: t('Jump over Wind to {to} (free)', { to: a.to }), keys: [`sage:${me}`, `sq:${a.to}`] };
    case 'place': {
      const cell = cellOn(a.at);
      const stone = word(a.stone);
      return {
        group: t('Place {stone}', { stone }),
        label: cell ? t('Place {stone} on {at} (on {what})', { stone, at: a.at, what: cellWords(cell) })
          : t('Place {stone} on {at}', { stone, at: a.at }),
        keys: [`hand:${a.stone}`, `sq:${a.at}`],
      };
    }
    case 'pick':
      return {
        group: t('Place a stone'),
        label: t('Pick {stone} to place (then choose its square)', { stone: word(a.stone) }),
        keys: [`hand:${a.stone}`],
      };
    case 'end': {
      const left = handWords(turn.hand);
      return {
        group: t('End the turn'),
        label: left ? t('End the turn ({stones} back to the bag)', { stones: left }) : t('End the turn'),
        keys: [],
      };
    }
    case 'chain':
      return { group: t('River'), label: t('Add the Water on {at} to the river', { at: a.at }), keys: [`sq:${a.at}`] };
    case 'flow': {
      const cell = cellOn(a.to);
      return {
        group: t('River'),
        label: cell ? t('Flow the river to {to} (on {what})', { to: a.to, what: cellWords(cell) }) : t('Flow the river to {to}', { to: a.to }),
        keys: [`sq:${a.to}`],
      };
    }
    case 'grow':
      return { group: t('New Growth'), label: t('Grow a Wood on {at}', { at: a.at }), keys: [`sq:${a.at}`] };
    case 'grow_done':
      return { group: t('New Growth'), label: t('Grow no more Wood'), keys: [] };
    case 'magnet': {
      const what = a.mode === 'attract' ? t('Attract: the Metal in its lines slides next to it')
        : a.mode === 'repel' ? t('Repel: the Metal in its lines slides to the far end')
          : t('Magnet: {mode}', { mode: a.mode });
      return {
        group: pending.at ? t('Metal on {at}', { at: pending.at }) : t('Metal'),
        label: what,
        keys: pending.at ? [`sq:${pending.at}`] : [],
      };
    }
    case 'remove':
      return { group: t('Lightning'), label: t('Also remove the Lightning on {at}', { at: a.at }), keys: [`sq:${a.at}`] };
    case 'keep':
      return { group: t('Lightning'), label: t('Keep the other Lightning'), keys: [] };
    case 'corrode':
      return { group: t('Corrosion'), label: t('Remove the Metal on {at}', { at: a.at }), keys: [`sq:${a.at}`] };
    default: {
      const rest = Object.keys(a).filter((k) => k !== 'type').map((k) => `${k} ${a[k]}`).join(', ');
      return { group: t('Other'), label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ': ' + rest : ''}`, keys: [] };
    }
  }
}

export function status(view, seat, names) {
  if (!view) return '';
  if (view.result) return t('Game over: {end}.', { end: endWords(view, names, seat) });
  const turn = view.turn || {};
  const who = turn.seat;
  const what = phaseWords(view);
  if (who === seat) {
    return turn.final_round ? t('Your turn (round {round}, the last round): {what}.', { round: turn.round, what })
      : t('Your turn (round {round}): {what}.', { round: turn.round, what });
  }
  const name = seatName(view, who, names);
  return turn.final_round ? t("{name}'s turn (round {round}, the last round): {what}.", { name, round: turn.round, what })
    : t("{name}'s turn (round {round}): {what}.", { name, round: turn.round, what });
}

export function results(view, names) {
  const res = (view && view.result) || {};
  const scores = Array.isArray(res.scores) ? res.scores : [];
  const seats = Array.isArray(view && view.seats) ? view.seats : [];
  const winners = Array.isArray(res.winners) ? res.winners : [];
  return seats.map((s, i) => {
    let detail;
    if (winners.includes(i)) {
      detail = t("caught {name}'s Sage", { name: seatName(view, s.target, names) });
    } else if (res.reason === 'surrounded' && winners.some((w) => seats[w] && seats[w].target === i)) {
      detail = t('Sage surrounded on {sq}', { sq: s.sage });
    } else if (res.reason === 'bag_empty') {
      detail = t('bag ran empty: no winner');
    } else if (res.reason === 'round_limit') {
      detail = t('round limit: no winner');
    } else {
      detail = t('Sage on {sq}', { sq: s.sage });
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
  // The letter and the word; one of them where they are the same (in
  // Chinese: 火).
  const [l, w] = [letter(kind), word(kind)];
  const chip = l === w ? h('span', { class: `el-chip st-${kind}` }, h('b', { class: 'el-letter' }, w))
    : h('span', { class: `el-chip st-${kind}` }, h('b', { class: 'el-letter', 'aria-hidden': 'true' }, l), ` ${w}`);
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
  if (p.at) add(p.at, 'just', t('just placed {stone}', { stone: word(p.stone) }));
  for (const sq of p.chain || []) add(sq, 'river', t('in the river'));
  for (const sq of p.river || []) add(sq, 'river', t('the moving river'));
  for (const sq of p.entered || []) add(sq, 'entered', t('the river flowed here'));
  return marks;
}

function drawSquare(view, ctx, ks, targets, sq, marks) {
  const cell = view.board ? view.board[sq] : null;
  const sage = sageOn(view, sq);
  const el = h('div', { class: 'el-sq' });
  const words = [sq];
  if (cell) {
    el.classList.add(`st-${cell.stone}`);
    // The square's glyphs are drawn by element.css from data-glyph: they
    // are pictures of what the square's name says in words.
    el.append(h('span', { class: 'el-letter', dataset: { glyph: letter(cell.stone) } }));
    if (cell.height > 1) el.append(h('span', { class: 'el-height', dataset: { glyph: cell.height } }));
    if (cell.range) {
      el.classList.add('range');
      el.append(h('span', { class: 'el-mark', dataset: { glyph: '^' } }));
    } else if (cell.storm) {
      el.classList.add('storm');
      el.append(h('span', { class: 'el-mark', dataset: { glyph: '*' } }));
    }
    const [kind, ...more] = cellParts(cell);
    words.push([t('{stone} stone', { stone: kind }), ...more].join(t(', ')));
  }
  if (sage >= 0) {
    const token = h('span', { class: `el-sage seat-${sage}`, dataset: { glyph: tag(sage) } });
    if (sage === ctx.seat) token.classList.add('mine');
    const caught = sage === caughtSeat(view);
    if (caught) token.classList.add('caught');
    // Part of the square's element; it lights up with the Sage's key.
    el.append(marked(token, `sage:${sage}`, ks));
    const who = { tag: tag(sage), name: seatName(view, sage, ctx.names) };
    let said = sage === ctx.seat ? t('Sage of {tag} {name} (yours)', who) : t('Sage of {tag} {name}', who);
    if (caught) said += t(', surrounded');
    words.push(said);
  }
  const m = marks.get(sq);
  if (m) {
    el.classList.add(...m.cls);
    words.push(...m.words);
  }
  if (targets.has(`sq:${sq}`)) {
    el.classList.add('dest');
    words.push(t('a move goes here'));
  }
  const label = `${sq}: ${words.length > 1 ? words.slice(1).join(t('; ')) : t('empty')}`;
  return keyed(el, `sq:${sq}`, label, ctx, ks);
}

function drawBoard(view, ctx, ks) {
  const board = h('div', { class: 'el-board' });
  board.setAttribute('role', 'group');
  board.setAttribute('aria-label', t('The board, files a to k, ranks 1 to 11, a1 at the bottom left; the arrow keys move between squares'));
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
  const title = view.silver ? t('Element + Silver: {stone}', { stone: word(view.silver) }) : t('Element');
  const round = turn.final_round ? t('round {n}, the last round', { n: turn.round || 0 }) : t('round {n}', { n: turn.round || 0 });
  return h('div', { class: 'el-head' }, h('strong', {}, title), ` \u2014 ${round}`);
}

// The stones the player to move drew and has still to place; marked as
// yours when it is this client's turn.
function drawHand(view, ctx, ks) {
  const turn = view.turn || {};
  if (view.result) {
    return h('section', { class: 'el-box el-over' }, h('h3', {}, t('Game over')), h('p', {}, t('{end}.', { end: cap(endWords(view, ctx.names, ctx.seat)) })));
  }
  const mine = turn.seat === ctx.seat;
  const box = h('section', { class: `el-box el-hand${mine ? ' mine' : ''}` });
  const who = mine ? t('Your stones to place') : t("{name}'s stones to place", { name: seatName(view, turn.seat, ctx.names) });
  const head = h('h3', {}, who);
  if (mine) head.append(' ', h('span', { class: 'el-yours' }, t('yours')));
  box.append(head);
  if (turn.drawn === null || turn.drawn === undefined) {
    box.append(h('p', {}, t('Nothing drawn yet this turn.')));
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
        chip.append(h('span', { class: 'el-picked' }, t(' (picked)')));
      }
      chip.append(srOnly(t(' in hand to place')));
      list.append(keyed(chip, `hand:${k}`, { short: t('{stone} in hand', { stone: word(k) }) }, ctx, ks));
    }
  }
  if (!any) list.append(h('span', {}, t('none left')));
  box.append(list);
  const jumps = turn.jumps_left || 0;
  box.append(h('p', { class: 'el-small' }, t('Drew {n}; {steps} and {jumps} left.', {
    n: turn.drawn, steps: steps(turn.steps || 0), jumps: jumps === 1 ? t('1 jump') : t('{n} jumps', { n: jumps }),
  })));
  return box;
}

function drawPending(view) {
  const p = view.pending;
  if (!p || typeof p !== 'object') return null;
  const box = h('section', { class: 'el-box el-pending' });
  box.append(h('h3', {}, t('Open: {stone} placed on {at}', { stone: word(p.stone), at: p.at })));
  const lines = [];
  if (view.phase === 'chain') {
    lines.push(t('The river so far: {squares}. Add the next Water next to its end.', { squares: [p.at, ...(p.chain || [])].join(t(', ')) }));
  } else if (view.phase === 'flow') {
    lines.push(t('Moving river of {stones}: {squares}.', { stones: stones(p.length || 0), squares: (p.river || []).join(t(', ')) }));
    lines.push(t('Flowed through: {squares}.', { squares: (p.entered || []).length ? p.entered.join(t(', ')) : t('nothing yet') }));
  } else if (view.phase === 'grow') {
    lines.push(t('Up to {woods} may grow on empty squares.', { woods: woods(p.grow_left || 0) }));
  } else if (view.phase === 'magnet') {
    lines.push(t('The Metal attracts or repels the Metal along its eight lines.'));
  } else if (view.phase === 'remove') {
    lines.push(t('Also remove one other Lightning, or keep them all.'));
  } else if (view.phase === 'corrode') {
    lines.push(t('Corrosion: choose any Metal on the board to go back to the bag.'));
  }
  for (const l of lines) box.append(h('p', {}, l));
  return box;
}

function drawSeats(view, ctx, ks) {
  const box = h('section', { class: 'el-box el-seats' });
  box.append(h('h3', {}, t('Players')));
  const list = h('ul', { class: 'el-list' });
  const turn = view.turn || {};
  (view.seats || []).forEach((s, i) => {
    const li = h('li', { class: `el-seat${i === ctx.seat ? ' mine' : ''}` });
    const token = h('span', { class: `el-sage seat-${i}` }, tag(i));
    const name = seatName(view, i, ctx.names);
    const hunts = `${tag(s.target)} ${seatName(view, s.target, ctx.names)}`;
    // The player's name is the element of its Sage (the list item stays one).
    const label = t("{tag} {name}'s Sage on {sq}, hunting {hunts}'s Sage", { tag: tag(i), name, sq: s.sage, hunts });
    li.append(token, ' ', keyed(h('strong', {}, name), `sage:${i}`, label, ctx, ks));
    if (i === ctx.seat) li.append(' ', h('span', { class: 'el-yours' }, t('you')));
    if (!view.result && turn.seat === i) li.append(' ', h('span', { class: 'el-tomove' }, t('▶ to move')));
    if (i === caughtSeat(view)) li.append(' ', h('span', { class: 'el-tomove' }, t('✖ surrounded')));
    if (view.result && (view.result.winners || []).includes(i)) li.append(' ', h('span', { class: 'el-tomove' }, t('★ wins')));
    li.append(h('div', { class: 'el-small' }, t("Sage on {sq}; hunts {hunts}'s Sage", { sq: s.sage, hunts })));
    list.append(li);
  });
  box.append(list);
  return box;
}

function drawBag(view, ctx, ks) {
  const box = h('section', { class: 'el-box el-bag' });
  const bag = view.bag || {};
  const total = BAG_ORDER.reduce((n, k) => n + (bag[k] || 0), 0);
  const words = t('Bag: {stones}', { stones: stones(total) });
  box.append(h('h3', {}, keyed(h('span', {}, words), 'bag', words, ctx, ks)));
  const list = h('div', { class: 'el-chips' });
  for (const k of BAG_ORDER) {
    if (bag[k] === undefined) continue;
    const chip = stoneChip(k, bag[k]);
    if (k === 'silver' && view.silver) chip.title = t('Silver stones: each is {stone}', { stone: word(view.silver) });
    list.append(chip);
  }
  box.append(list);
  return box;
}

function drawLegend(view) {
  const box = h('details', { class: 'el-box el-legend' });
  box.open = true;
  box.append(h('summary', {}, t('Legend')));
  const list = h('div', { class: 'el-chips' });
  const kinds = ['fire', 'water', 'earth', 'wind'];
  if (view.silver === 'lightning') kinds.push('lightning');
  if (view.silver === 'wood') kinds.push('wood', 'blaze');
  if (view.silver === 'metal') kinds.push('metal');
  for (const k of kinds) list.append(stoneChip(k));
  box.append(list);
  box.append(h('p', { class: 'el-small' }, t('A digit is the height of a stack: {E}2 a Mountain, {A}2 to {A}4 a Whirlwind, {B}2 a Blaze (Fire on Wood). ^ marks a Range (cannot be replaced; pinches diagonal moves), * a Storm Wind (cannot be jumped). P1 to P4 are the Sages. A double outline is the stone just placed, a dashed one the moving river, dots where it flowed. A black dot in a corner: a move of yours goes there (pick a stone to place to see where it may go, or select your Sage).', {
    E: letter('earth'), A: letter('wind'), B: letter('blaze'),
  })));
  return box;
}

export function render(root, view, ctx) {
  const c = Object.assign({ seat: null, names: [], legal: [], focus: null, setFocus: null, pick: null }, ctx || {});
  W.use(c);
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
