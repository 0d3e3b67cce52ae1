// SPDX-License-Identifier: MIT
// stones.js - the browser board of Sorcerer & Stones. It draws a view (the
// Alchemy Zone with its tiles, stones and Taoists, the supply line, the
// artifacts, the Element Zone with Spirits and rune stacks, the players with
// their magic cards, the decision being made, the last log lines) and puts
// every legal action into words. It only reads views and legal lists; the
// server decides every rule (docs/rules/stones.md, sections 9 and 10).

import { h, srOnly, svg } from '../lib/dom.js';
import { addPhrases, t } from '../lib/i18n.js';
import { seatName } from '../lib/words.js';
import { zhCNStones } from '../i18n/zh-CN-stones.js';
import { gameWords } from './catalogue.js';
import { keyState, keyed } from './keys.js';

addPhrases('zh-CN', zhCNStones);
const W = gameWords('stones');

// Stone colours: letter -> words. The letter is drawn on every stone so that
// colour never carries the information alone; in Chinese the stone's colour
// word of the catalogue is (one character: 黄 绿 蓝 红 棕).
const STONE = {
  Y: { word: 'yellow', element: 'Metal' },
  G: { word: 'green', element: 'Wood' },
  B: { word: 'blue', element: 'Water' },
  R: { word: 'red', element: 'Fire' },
  N: { word: 'brown', element: 'Earth' },
};
const STONE_ORDER = ['Y', 'G', 'B', 'R', 'N'];

// Player colours (seat i plays the i-th) and their one-letter marks; in
// Chinese the colour's word (one character).
const PLAYER_LETTER = { red: 'R', green: 'G', blue: 'B', yellow: 'Y' };

// Rune sites of the Element Zone map (lower case letters).
const SITE_ELEMENT = { g: 'Wood', r: 'Fire', y: 'Metal', b: 'Water', n: 'Earth' };
const ELEMENT_STONE = { Metal: 'Y', Wood: 'G', Water: 'B', Fire: 'R', Earth: 'N' };

const SLOTS = ['TL', 'TR', 'BL', 'BR'];
const SLOT_WORDS = { TL: 'top left', TR: 'top right', BL: 'bottom left', BR: 'bottom right' };

// Every artifact (R-stones-1.4): crafted ones are listed by id only.
const ARTIFACTS = {
  A01: ['Nu Wa Rock', 'NYY', 2, ['Earth']],
  A02: ['Wind-Fire Wheels', 'RRG', 2, ['Fire']],
  A03: ['Sea-Calming Needle', 'BBY', 2, ['Water']],
  A04: ['Purple-Gold Gourd', 'GGB', 2, ['Wood']],
  A05: ['Qiankun Ring', 'NNR', 2, ['Metal']],
  A06: ['Fuxi Harp', 'BGRY', 3, ['Wood', 'Water']],
  A07: ['Shennong Cauldron', 'GRNB', 3, ['Wood', 'Fire']],
  A08: ['Kunlun Mirror', 'YBNG', 3, ['Metal', 'Water']],
  A09: ['Haotian Pagoda', 'NYRB', 3, ['Earth', 'Metal']],
  A10: ['Kongtong Seal', 'RGYN', 3, ['Earth', 'Fire']],
  A11: ['Pangu Axe', 'NNYYR', 5, ['Earth', 'Wood']],
  A12: ['Xuanyuan Sword', 'YYRRB', 5, ['Metal', 'Fire']],
  A13: ['Donghuang Bell', 'BBGGN', 5, ['Water', 'Metal']],
  A14: ['Demon-Refining Pot', 'GGNRB', 5, ['Water', 'Wood']],
};

// Card texts (R-stones-5) and objectives (R-stones-1.5), as on the cards.
function familyText(fam) {
  switch (fam) {
    case 'SPIN':
      return t('Turn any tile a quarter turn, clockwise or counter-clockwise.');
    case 'FLY':
      return t('Move your own Taoist to any tile (also the one it stands on).');
    case 'QUAKE':
      return t('Move a tile to another place next to the others, or swap two tiles.');
    case 'SHIFT':
      return t("Exchange a stone of the card's colour with a stone of another colour anywhere on the Alchemy Zone.");
    default:
      return '';
  }
}

function objectiveText(o) {
  switch (o) {
    case 'O1':
      return t('Longest line touching the activated tile: 3 stones 1 Qi; 4 stones 1 Qi and a free step; 5 or more 4 Qi and a free step.');
    case 'O2':
      return t('Stones gained in the turn: 2 gives 1 Qi; 3 gives 2 Qi; 4 or more give 4 Qi.');
    case 'O3':
      return t('Two or more gained stones of one colour: 3 Qi.');
    case 'O4':
      return t('Two or more lines touching the activated tile: one free step.');
    case 'O5':
      return t('After a craft: one free step, or a FLY of your own Taoist, or nothing.');
    case 'O6':
      return t("Once a turn in the move step: pay a reservoir stone to step onto a cell of that stone's colour.");
    case 'O7':
      return t('Any two stones may be paid in place of one stone of any colour (crafting and O6).');
    default:
      return '';
  }
}

// The magic card families' names: SPIN, FLY, QUAKE, SHIFT.
function familyWord(fam) {
  switch (fam) {
    case 'SPIN':
      return t('SPIN');
    case 'FLY':
      return t('FLY');
    case 'QUAKE':
      return t('QUAKE');
    case 'SHIFT':
      return t('SHIFT');
    default:
      return fam;
  }
}

// What the acting player is doing: to the player (`you`) or of them.
function phaseWords(phase, you) {
  switch (phase) {
    case 'place_taoist':
      return you ? t('place your Taoist') : t('places a Taoist');
    case 'cast':
      return you ? t('cast magic cards') : t('casts magic cards');
    case 'choose_stone':
      return you ? t('choose which stone to gain') : t('chooses which stone to gain');
    case 'offer':
      return you ? t('offer gained stones to the artifacts') : t('offers gained stones to the artifacts');
    case 'move':
      return you ? t('move your Spirit') : t('moves the Spirit');
    case 'reward_move':
      return you ? t('take the free steps of the objectives') : t('takes the free steps of the objectives');
    case 'craft':
      return you ? t('you may craft an artifact') : t('may craft an artifact');
    case 'pay':
      return you ? t('pay for the artifact') : t('pays for an artifact');
    case 'reward':
      return you ? t('choose the reward for crafting (O5)') : t('chooses the reward for crafting (O5)');
    default:
      return W.term('phase', phase, String(phase));
  }
}

function reasonWords(reason) {
  switch (reason) {
    case 'runes':
      return t('a player owned all five rune types and the round was completed');
    case 'artifacts':
      return t('all 14 artifacts were crafted');
    case 'qi':
      return t('the Qi supply ran out');
    case 'frozen':
      return t('the position was frozen');
    case 'novice':
      return t('a fourth artifact was crafted');
    case 'cards':
      return t('the magic cards ran out');
    default:
      return reason ? String(reason) : '';
  }
}

/* ---- Small helpers ---- */

// What is drawn on a stone of colour `c`: its letter, in Chinese its
// colour's word.
function glyph(c) {
  return W.term('stone', c, c);
}

// " (Y)" after a stone's colour in words, where the colour's word is not
// what the stone shows (in English).
function letterTag(c) {
  return glyph(c) === c ? ` (${c})` : '';
}

// A stone's colour in words, as the log says it.
function colourOf(c) {
  return STONE[c] ? W.term('colour', STONE[c].word, STONE[c].word) : String(c);
}

function elementWord(element) {
  return W.term('element', element, element);
}

// A player colour (red, ...) in words, and its mark on the board.
function playerColour(colour) {
  return W.term('colour', colour, colour);
}

function playerMark(colour) {
  const letter = PLAYER_LETTER[colour] || '?';
  return W.local() ? W.term('colour', colour, letter) : letter;
}

// "yellow (Y)"; in Chinese "黄".
function stoneWord(c) {
  return STONE[c] ? `${colourOf(c)}${letterTag(c)}` : String(c);
}

// A tile by its id ("Tn"), as the log says it ("北砖" in Chinese).
function tileWord(id) {
  return W.term('tile', id, id);
}

// A magic card's or an artifact's name, as the log says it.
function cardWord(id, english = id) {
  return W.card(id, english);
}

function cellWords(cell) {
  return Array.isArray(cell) ? `e(${cell[0]},${cell[1]})` : '?';
}

function slotWords(slot) {
  const [tile, pos] = String(slot).split('.');
  return t('{slot} of {tile}', { slot: W.term('slot', pos, SLOT_WORDS[pos] || pos), tile: tileWord(tile) });
}

function family(card) {
  return String(card || '').split('-')[0];
}

function actingPlayer(view) {
  const colour = view.turn && view.turn.colour;
  return (view.players || []).find((p) => p.colour === colour) || null;
}

function actingColour(view) {
  return (view.turn && view.turn.colour) || '';
}

function stoneAt(view, slot) {
  const [id, pos] = String(slot).split('.');
  const tile = ((view.board && view.board.tiles) || []).find((x) => x.id === id);
  const i = SLOTS.indexOf(pos);
  return tile && i >= 0 ? tile.stones[i] : null;
}

function mapLetter(view, cell) {
  const map = view.element && view.element.map;
  if (!map || !Array.isArray(cell)) {
    return null;
  }
  const row = map[cell[0]];
  return row ? row[cell[1]] || null : null;
}

function artifactInfo(view, id) {
  const arts = view.artifacts || {};
  const shown = [...(arts.row || []), arts.deck_top].find((a) => a && a.id === id);
  if (shown) {
    return shown;
  }
  const a = ARTIFACTS[id];
  return a ? { id, name: a[0], cost: a[1].split(''), points: a[2], symbols: a[3] } : { id, name: id, cost: [], points: 0, symbols: [] };
}

// An artifact's name by id, as the log says it.
function artifactName(view, id) {
  return cardWord(id, artifactInfo(view, id).name);
}

function tileAtPos(view, r, c) {
  return ((view.board && view.board.tiles) || []).find((x) => x.pos[0] === r && x.pos[1] === c) || null;
}

// A tile position in words, by a neighbouring tile other than `except`:
// "west of Tw". Positions may lie outside the current layout (-1).
function placeWords(view, to, except) {
  const [r, c] = to;
  const around = [
    [0, 1, (tile) => t('the place west of {tile} ({r},{c})', { tile, r, c })],
    [0, -1, (tile) => t('the place east of {tile} ({r},{c})', { tile, r, c })],
    [1, 0, (tile) => t('the place north of {tile} ({r},{c})', { tile, r, c })],
    [-1, 0, (tile) => t('the place south of {tile} ({r},{c})', { tile, r, c })],
  ];
  for (const [dr, dc, rel] of around) {
    const near = tileAtPos(view, r + dr, c + dc);
    if (near && near.id !== except) {
      return rel(tileWord(near.id));
    }
  }
  return t('the place ({r},{c})', { r, c });
}

// The rune sites next to a cell whose stack is not empty: [{element, cells}].
function runeSitesNear(view, cell) {
  const map = view.element && view.element.map;
  if (!map || !Array.isArray(cell)) {
    return [];
  }
  const found = new Map();
  for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
    const r = cell[0] + dr;
    const c = cell[1] + dc;
    const ch = map[r] && map[r][c];
    if (ch && SITE_ELEMENT[ch]) {
      const el = SITE_ELEMENT[ch];
      if (!found.has(el)) {
        found.set(el, []);
      }
      found.get(el).push([r, c]);
    }
  }
  const stacks = (view.element && view.element.stacks) || {};
  return [...found].filter(([el]) => (stacks[el] || []).length > 0).map(([element, cells]) => ({ element, cells }));
}

// "1 card", "3 cards"; "1 point"...
function cards(n) {
  return n === 1 ? t('1 card') : t('{n} cards', { n });
}

function points(n) {
  return n === 1 ? t('1 point') : t('{n} points', { n });
}

function artifacts(n) {
  return n === 1 ? t('1 artifact') : t('{n} artifacts', { n });
}

/* ---- describe ---- */

function castWords(a, view, colour) {
  const card = a.card;
  const fam = family(card);
  const cardKey = `card:${colour}:${card}`;
  const group = t('Cast {family}', { family: familyWord(fam) });
  const name = cardWord(card);
  if (fam === 'SPIN' && a.tile && a.dir) {
    const dir = W.term('direction', a.dir === 'ccw' ? 'counter-clockwise' : 'clockwise');
    return { group, label: t('{card}: turn tile {tile} {dir}', { card: name, tile: tileWord(a.tile), dir }), keys: [cardKey, `tile:${a.tile}`] };
  }
  if (fam === 'FLY' && a.tile) {
    return { group, label: t('{card}: fly your Taoist to tile {tile}', { card: name, tile: tileWord(a.tile) }), keys: [cardKey, `tile:${a.tile}`, `taoist:${colour}`] };
  }
  if (fam === 'QUAKE' && Array.isArray(a.swap)) {
    const [x, y] = a.swap;
    return { group, label: t('{card}: swap tiles {a} and {b}', { card: name, a: tileWord(x), b: tileWord(y) }), keys: [cardKey, `tile:${x}`, `tile:${y}`] };
  }
  if (fam === 'QUAKE' && a.move && Array.isArray(a.to)) {
    return {
      group,
      label: t('{card}: move tile {tile} to {place}', { card: name, tile: tileWord(a.move), place: placeWords(view, a.to, a.move) }),
      keys: [cardKey, `tile:${a.move}`, `pos:${a.to[0]}:${a.to[1]}`],
    };
  }
  if (fam === 'QUAKE' && a.move) {
    return { group, label: t('{card}: choose tile {tile} to move', { card: name, tile: tileWord(a.move) }), keys: [cardKey, `tile:${a.move}`] };
  }
  if (fam === 'SHIFT' && a.a && a.b) {
    const sa = stoneAt(view, a.a);
    const sb = stoneAt(view, a.b);
    const chosen = view.pending && view.pending.card === card && view.pending.a === a.a;
    if (chosen) {
      // The first stone is chosen already (the decision box says which).
      return {
        group,
        label: t('{card}: exchange with the {stone} stone at {slot}', { card: name, stone: stoneWord(sb), slot: slotWords(a.b) }),
        keys: [cardKey, `slot:${a.a}`, `slot:${a.b}`],
      };
    }
    return {
      group,
      label: t('{card}: exchange the {a} stone at {at} with the {b} stone at {bt}', { card: name, a: stoneWord(sa), at: slotWords(a.a), b: stoneWord(sb), bt: slotWords(a.b) }),
      keys: [cardKey, `slot:${a.a}`, `slot:${a.b}`],
    };
  }
  if (fam === 'SHIFT' && a.a) {
    return { group, label: t('{card}: choose the {stone} stone at {slot}', { card: name, stone: stoneWord(stoneAt(view, a.a)), slot: slotWords(a.a) }), keys: [cardKey, `slot:${a.a}`] };
  }
  return { group, label: t('Choose {card} to cast', { card: name }), keys: [cardKey] };
}

function stepKeys(a, colour) {
  const keys = [`spirit:${colour}`];
  if (Array.isArray(a.to)) {
    keys.unshift(`cell:${a.to[0]}:${a.to[1]}`);
  }
  return keys;
}

function cancelWords(view) {
  const p = view.pending || {};
  if (p.pair_for) {
    return t('Cancel the pair being chosen for a {stone} stone', { stone: stoneWord(p.pair_for) });
  }
  if (Array.isArray(p.step_pair)) {
    return t('Cancel the paid step being chosen');
  }
  if (p.card) {
    return t('Cancel the {card} being chosen', { card: cardWord(p.card) });
  }
  return t('Cancel what is being chosen');
}

function fieldWords(a) {
  return Object.entries(a)
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(' and ') : v}`)
    .join(', ');
}

// Words for one legal action: {group, label, keys}. The keys name board
// elements (data-key) the action touches.
export function describe(action, view, seat) {
  const a = action || {};
  const colour = actingColour(view);
  const res = (c) => `res:${colour}:${c}`;
  const cardKey = a.card ? `card:${colour}:${a.card}` : null;
  switch (a.type) {
    case 'place_taoist':
      return { group: t('Place Taoist'), label: t('Place your Taoist on tile {tile}', { tile: tileWord(a.tile) }), keys: [`tile:${a.tile}`] };
    case 'cast':
      return castWords(a, view, colour);
    case 'end_cast':
      return { group: t('Pass'), label: t('Stop casting and activate your tile'), keys: [] };
    case 'discard':
      return { group: t('Discard'), label: t('Discard {card} (no card has a target)', { card: cardWord(a.card) }), keys: [cardKey] };
    case 'cancel': {
      const p = view.pending || {};
      return { group: t('Cancel'), label: cancelWords(view), keys: p.card ? [`card:${colour}:${p.card}`] : [] };
    }
    case 'choose_stone':
      return {
        group: t('Gain stone'),
        label: t('Gain the {stone} stone at {slot}', { stone: stoneWord(stoneAt(view, a.slot)), slot: slotWords(a.slot) }),
        keys: [`slot:${a.slot}`],
      };
    case 'offer': {
      const left = view.pending && view.pending.leftmost;
      return {
        group: t('Offer'),
        label: left ? t('Offer a {stone} stone to {id} {name}', { stone: stoneWord(a.colour), id: left, name: artifactName(view, left) })
          : t('Offer a {stone} stone', { stone: stoneWord(a.colour) }),
        keys: [`offer:${a.colour}`, left ? `art:${left}` : null].filter(Boolean),
      };
    }
    case 'step':
      return {
        group: t('Spirit step'),
        label: t('Move your Spirit to {cell}, a {stone} cell', { cell: cellWords(a.to), stone: stoneWord(mapLetter(view, a.to)) }),
        keys: stepKeys(a, colour),
      };
    case 'pay_step': {
      const stones = Array.isArray(a.stones) ? a.stones : null;
      if (!Array.isArray(a.to)) {
        return {
          group: t('Paid step (O6)'),
          label: t('Pay {a} and {b} stones for a step onto any colour', { a: stoneWord(stones[0]), b: stoneWord(stones[1]) }),
          keys: [res(stones[0]), res(stones[1]), `spirit:${colour}`],
        };
      }
      const cellColour = mapLetter(view, a.to);
      const paid = stones ? t('{a} and {b} stones', { a: stoneWord(stones[0]), b: stoneWord(stones[1]) }) : t('a {stone} stone', { stone: stoneWord(cellColour) });
      return {
        group: t('Paid step (O6)'),
        label: t('Pay {paid} to move your Spirit to {cell}, a {stone} cell', { paid, cell: cellWords(a.to), stone: stoneWord(cellColour) }),
        keys: [...stepKeys(a, colour), ...(stones ? stones.map(res) : [res(cellColour)])],
      };
    }
    case 'take_rune': {
      const me = actingPlayer(view);
      const owned = new Set(((me && me.runes) || []).map((r) => r.element));
      const sites = runeSitesNear(view, me && me.spirit).filter((x) => !owned.has(x.element));
      const stacks = (view.element && view.element.stacks) || {};
      const names = sites.map((x) => t('{element} rune ({value})', { element: elementWord(x.element), value: (stacks[x.element] || [])[0] }));
      return {
        group: t('Rune'),
        label: names.length ? t('Take the {runes} next to your Spirit', { runes: names.join(t(' or ')) }) : t('Take the rune next to your Spirit'),
        keys: [...sites.map((x) => `rune:${x.element}`), `spirit:${colour}`],
      };
    }
    case 'end_move':
      return { group: t('Pass'), label: t('Stop moving the Spirit'), keys: [] };
    case 'craft': {
      const art = artifactInfo(view, a.artifact);
      return {
        group: t('Craft'),
        label: t('Craft {id} {name} (cost {cost}, {points})', { id: a.artifact, name: artifactName(view, a.artifact), cost: art.cost.map(glyph).join(' '), points: points(art.points) }),
        keys: [`art:${a.artifact}`],
      };
    }
    case 'end_turn':
      return { group: t('Pass'), label: t('End the turn without crafting'), keys: [] };
    case 'pay': {
      const art = view.pending && view.pending.artifact;
      return {
        group: t('Pay'),
        label: art ? t('Pay a {stone} stone for {id}', { stone: stoneWord(a.colour), id: art }) : t('Pay a {stone} stone', { stone: stoneWord(a.colour) }),
        keys: [res(a.colour), art ? `art:${art}` : null].filter(Boolean),
      };
    }
    case 'pay_pair': {
      const art = view.pending && view.pending.artifact;
      const keys = [art ? `art:${art}` : null].filter(Boolean);
      if (Array.isArray(a.stones)) {
        return {
          group: t('Pay with a pair (O7)'),
          label: t('Pay {a} and {b} stones in place of a {stone} stone', { a: stoneWord(a.stones[0]), b: stoneWord(a.stones[1]), stone: stoneWord(a.for) }),
          keys: [...a.stones.map(res), ...keys],
        };
      }
      return { group: t('Pay with a pair (O7)'), label: t('Pay two stones in place of a {stone} stone', { stone: stoneWord(a.for) }), keys };
    }
    case 'reward_step':
      return {
        group: t('Reward (O5)'),
        label: t('Reward: free step to {cell}, a {stone} cell', { cell: cellWords(a.to), stone: stoneWord(mapLetter(view, a.to)) }),
        keys: stepKeys(a, colour),
      };
    case 'reward_fly':
      return { group: t('Reward (O5)'), label: t('Reward: fly your Taoist to tile {tile}', { tile: tileWord(a.tile) }), keys: [`tile:${a.tile}`, `taoist:${colour}`] };
    case 'reward_skip':
      return { group: t('Reward (O5)'), label: t('Decline the reward'), keys: [] };
    default: {
      const rest = fieldWords(a);
      return { group: t('Other'), label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ` (${rest})` : ''}`, keys: [] };
    }
  }
}

/* ---- status and results ---- */

// The decision being made, in words; `you` speaks to the acting player.
function pendingWords(view, you) {
  const p = view.pending || {};
  if (view.phase === 'cast' && p.card) {
    const card = cardWord(p.card);
    if (p.move) {
      const w = { card, tile: tileWord(p.move) };
      return you ? t('casting {card}, moving tile {tile}', w) : t('is casting {card}, moving tile {tile}', w);
    }
    if (p.a) {
      const w = { card, slot: slotWords(p.a) };
      return you ? t('casting {card} on the stone at {slot}', w) : t('is casting {card} on the stone at {slot}', w);
    }
    return you ? t('casting {card}', { card }) : t('is casting {card}', { card });
  }
  if (view.phase === 'cast') {
    const w = { cards: cards((view.turn && view.turn.casts) || 0) };
    return you ? t('cast magic cards ({cards} cast so far)', w) : t('casts magic cards ({cards} cast so far)', w);
  }
  if (view.phase === 'pay' && p.artifact) {
    const w = { id: p.artifact, name: artifactName(view, p.artifact) };
    return you ? t('pay for {id} {name}', w) : t('pays for {id} {name}', w);
  }
  return phaseWords(view.phase, you);
}

// One line: whose turn it is and what is being decided.
export function status(view, seat, names) {
  if (!view) {
    return '';
  }
  if (view.phase === 'over' || view.result) {
    const r = view.result || {};
    const who = (r.winners || []).map((w) => seatName(view, w, names)).join(t(' and '));
    const why = reasonWords(r.reason);
    if (r.completed !== undefined) {
      const done = artifacts(r.completed);
      return r.title ? t('Game over: the team completed {artifacts}, title {title}.', { artifacts: done, title: r.title })
        : t('Game over: the team completed {artifacts}, no title.', { artifacts: done });
    }
    if (why) {
      return who ? t('Game over: {why}. Won by {names}.', { why, names: who }) : t('Game over: {why}. Nobody won.', { why });
    }
    return who ? t('Game over. Won by {names}.', { names: who }) : t('Game over. Nobody won.');
  }
  const turn = view.turn || {};
  const actor = (view.active || [])[0];
  const mine = seat !== null && seat !== undefined && actor === seat;
  // The colour in words, and its letter where that is not the word.
  const colour = turn.colour ? (W.local() ? playerColour(turn.colour) : `${turn.colour}, ${PLAYER_LETTER[turn.colour] || ''}`) : '';
  let what;
  if (mine) {
    const w = { colour, what: pendingWords(view, true) };
    what = colour ? t('Your turn ({colour}): {what}.', w) : t('Your turn: {what}.', w);
  } else {
    const w = { name: seatName(view, actor !== undefined ? actor : turn.seat, names), colour, what: pendingWords(view, false) };
    what = colour ? t('{name} ({colour}) {what}.', w) : t('{name} {what}.', w);
  }
  const line = t('{what} Turn {n}.', { what, n: turn.number || 0 });
  return turn.final_round ? t('{line} Final round.', { line }) : line;
}

// Score rows of the end screen.
export function results(view, names) {
  const r = (view && view.result) || {};
  const scores = r.scores || [];
  if (r.completed !== undefined) {
    const title = r.title ? t('title {title}', { title: r.title }) : t('no title');
    return scores.map((score, seat) => ({
      seat,
      score,
      detail: t('Team completed {artifacts}: {title}', { artifacts: artifacts(r.completed), title }),
    }));
  }
  const rows = [];
  for (const b of r.breakdown || []) {
    const novice = r.scoring === 'artifacts crafted';
    const colour = playerColour(b.colour);
    const detail = novice
      ? t('{colour}: {artifacts} crafted', { colour, artifacts: artifacts(b.crafted || 0) })
      : t('{colour}: runes {runes} + artifacts {artifacts} + Qi {qi} + symbol bonus {symbol} + stone bonus {stone} = {total}', {
        colour, runes: b.runes, artifacts: b.artifacts, qi: b.qi, symbol: b.symbol_bonus, stone: b.stone_bonus, total: b.total,
      });
    rows.push({ seat: b.seat, score: scores[b.seat] !== undefined ? scores[b.seat] : b.total, detail });
  }
  if (!rows.length) {
    scores.forEach((score, seat) => rows.push({ seat, score, detail: '' }));
  }
  return rows;
}

/* ---- render ---- */

// What the board shows as selectable or highlighted, from the legal list.

function stoneChip(c, extra) {
  const cls = STONE[c] ? `stone st-${c}` : 'stone st-none';
  const word = STONE[c] ? t('{colour} stone ({element})', { colour: colourOf(c), element: elementWord(STONE[c].element) }) : t('empty');
  return h('span', { class: `${cls}${extra ? ` ${extra}` : ''}`, title: word, 'aria-label': word }, STONE[c] ? glyph(c) : '·');
}

function section(title, cls, ...children) {
  return h('section', { class: `st-panel ${cls || ''}` }, h('h3', {}, title), ...children);
}

/* Alchemy Zone */

const TILE = 100;

function quakeTargets(legal) {
  const out = new Map();
  for (const a of legal || []) {
    if (a.type === 'cast' && Array.isArray(a.to)) {
      out.set(`${a.to[0]}:${a.to[1]}`, a.to);
    }
  }
  return [...out.values()];
}

function drawAlchemy(view, ctx, ks) {
  const tiles = (view.board && view.board.tiles) || [];
  const ghosts = quakeTargets(ctx.legal);
  const all = [...tiles.map((t) => t.pos), ...ghosts];
  const minR = Math.min(...all.map((p) => p[0]));
  const maxR = Math.max(...all.map((p) => p[0]));
  const minC = Math.min(...all.map((p) => p[1]));
  const maxC = Math.max(...all.map((p) => p[1]));
  const pad = 6;
  const pic = svg('svg', {
    class: 'st-alchemy',
    viewBox: `${minC * TILE - pad} ${minR * TILE - pad} ${(maxC - minC + 1) * TILE + 2 * pad} ${(maxR - minR + 1) * TILE + 2 * pad}`,
    role: 'group',
    'aria-label': t('Alchemy Zone'),
  });
  // At most about 110 pixels a tile, however the tiles are spread.
  pic.style.maxWidth = `${(maxC - minC + 1) * 110}px`;
  for (const g of ghosts) {
    const key = `pos:${g[0]}:${g[1]}`;
    const el = svg(
      'g',
      { class: 'ghost' },
      svg('rect', { x: g[1] * TILE + 4, y: g[0] * TILE + 4, width: TILE - 8, height: TILE - 8, rx: 10 }),
      svg('text', { x: g[1] * TILE + TILE / 2, y: g[0] * TILE + TILE / 2 + 5, 'text-anchor': 'middle' }, `(${g[0]},${g[1]})`),
    );
    pic.append(keyed(el, key, t('Empty place ({r},{c}) for a {quake}', { r: g[0], c: g[1], quake: familyWord('QUAKE') }), ctx, ks));
  }
  for (const tile of tiles) {
    pic.append(drawTile(view, tile, ctx, ks));
  }
  return pic;
}

// The name a tile shows: its id, in Chinese the first character of its
// word in the catalogue (北 for 北砖).
function tileMark(id) {
  const word = tileWord(id);
  return word === id ? id : word.slice(0, 1);
}

function drawTile(view, tile, ctx, ks) {
  const x0 = tile.pos[1] * TILE;
  const y0 = tile.pos[0] * TILE;
  // The tile itself is an element of its own beside its stones and
  // Taoists (a board element holds no other).
  const g = svg('g', { class: 'tile' });
  const face = svg('g', { class: 'tile-face' },
    svg('rect', { class: 'tile-bg', x: x0 + 3, y: y0 + 3, width: TILE - 6, height: TILE - 6, rx: 8 }),
    svg('circle', { class: 'tile-name-bg', cx: x0 + 50, cy: y0 + 50, r: 13 }),
    svg('text', { class: 'tile-name', x: x0 + 50, y: y0 + 54, 'text-anchor': 'middle' }, tileMark(tile.id)));
  const names = tile.stones.map((c, i) => t('{slot} {stone}', { slot: W.term('slot', SLOTS[i], SLOT_WORDS[SLOTS[i]]), stone: c ? colourOf(c) : t('empty') })).join(t(', '));
  let tileLabel = t('Tile {tile}: {stones}', { tile: tileWord(tile.id), stones: names });
  if (tile.taoists.length) {
    tileLabel += t('; Taoists {colours}', { colours: tile.taoists.map(playerColour).join(t(', ')) });
  }
  g.append(keyed(face, `tile:${tile.id}`, tileLabel, ctx, ks));
  tile.stones.forEach((c, i) => {
    const cx = x0 + (i % 2 ? 73 : 27);
    const cy = y0 + (i < 2 ? 27 : 73);
    const slot = `${tile.id}.${SLOTS[i]}`;
    const stone = svg('g', { class: c ? `stone st-${c}` : 'stone st-none' });
    stone.append(svg('circle', { cx, cy, r: 19 }));
    stone.append(svg('text', { x: cx, y: cy + 6, 'text-anchor': 'middle' }, c ? glyph(c) : '·'));
    const label = c ? t('{colour} stone{tag} at {slot}', { colour: colourOf(c), tag: letterTag(c), slot: slotWords(slot) })
      : t('empty slot at {slot}', { slot: slotWords(slot) });
    g.append(keyed(stone, `slot:${slot}`, label, ctx, ks));
  });
  // Taoists stand on the middle of the tile's edges (up to four).
  const spots = [
    [50, 8],
    [92, 50],
    [50, 92],
    [8, 50],
  ];
  tile.taoists.forEach((colour, i) => {
    const [dx, dy] = spots[i % 4];
    const cx = x0 + dx;
    const cy = y0 + dy;
    const r = 11;
    const el = svg('g', { class: `taoist pl-${colour}` });
    el.append(svg('polygon', { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` }));
    el.append(svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, playerMark(colour)));
    g.append(keyed(el, `taoist:${colour}`, t('Taoist of {colour} on {tile}', { colour: playerColour(colour), tile: tileWord(tile.id) }), ctx, ks));
  });
  return g;
}

/* Element Zone */

const CELL = 50;

// Connected rune-site cells of one letter form one site (the centre 2x2).
function runeSites(map) {
  const seen = new Set();
  const sites = [];
  for (let r = 0; r < map.length; r++) {
    for (let c = 0; c < map[r].length; c++) {
      const ch = map[r][c];
      if (!SITE_ELEMENT[ch] || seen.has(`${r}:${c}`)) {
        continue;
      }
      const cells = [];
      const todo = [[r, c]];
      seen.add(`${r}:${c}`);
      while (todo.length) {
        const [y, x] = todo.pop();
        cells.push([y, x]);
        for (const [dy, dx] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const k = `${y + dy}:${x + dx}`;
          if (map[y + dy] && map[y + dy][x + dx] === ch && !seen.has(k)) {
            seen.add(k);
            todo.push([y + dy, x + dx]);
          }
        }
      }
      sites.push({ element: SITE_ELEMENT[ch], cells });
    }
  }
  return sites;
}

function drawElement(view, ctx, ks) {
  const el = view.element;
  const map = el.map || [];
  const rows = map.length;
  const cols = rows ? map[0].length : 0;
  const pic = svg('svg', { class: 'st-element', viewBox: `-2 -2 ${cols * CELL + 4} ${rows * CELL + 4}`, role: 'group', 'aria-label': t('Element Zone') });
  const spirits = new Map();
  for (const p of view.players || []) {
    if (Array.isArray(p.spirit)) {
      spirits.set(`${p.spirit[0]}:${p.spirit[1]}`, p);
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ch = map[r][c];
      if (SITE_ELEMENT[ch]) {
        continue;
      }
      const x = c * CELL;
      const y = r * CELL;
      const spirit = spirits.get(`${r}:${c}`);
      const g = svg('g', { class: `cell st-${ch}` });
      g.append(svg('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4 }));
      const mark = STONE[ch] ? glyph(ch) : ch;
      if (spirit) {
        g.append(svg('text', { class: 'cell-letter small', x: x + 9, y: y + 14, 'text-anchor': 'middle' }, mark));
      } else {
        g.append(svg('text', { class: 'cell-letter', x: x + CELL / 2, y: y + CELL / 2 + 7, 'text-anchor': 'middle' }, mark));
      }
      let label = t('{cell} {colour} cell', { cell: `e(${r},${c})`, colour: STONE[ch] ? colourOf(ch) : ch });
      if (spirit) {
        label += t(', Spirit of {colour}', { colour: playerColour(spirit.colour) });
      }
      pic.append(keyed(g, `cell:${r}:${c}`, label, ctx, ks));
    }
  }
  const stacks = el.stacks || {};
  for (const site of runeSites(map)) {
    const rs = site.cells.map((p) => p[0]);
    const cs = site.cells.map((p) => p[1]);
    const x = Math.min(...cs) * CELL;
    const y = Math.min(...rs) * CELL;
    const w = (Math.max(...cs) - Math.min(...cs) + 1) * CELL;
    const hgt = (Math.max(...rs) - Math.min(...rs) + 1) * CELL;
    const stack = stacks[site.element] || [];
    const stoneC = ELEMENT_STONE[site.element];
    const g = svg('g', { class: `site st-${stoneC}` });
    g.append(svg('rect', { x: x + 3, y: y + 3, width: w - 6, height: hgt - 6, rx: 12 }));
    const element = elementWord(site.element);
    // The name starts with the words shown: "Wood rune 3: ...".
    const top = stack.length ? t('rune {value}', { value: stack[0] }) : t('none');
    g.append(svg('text', { class: 'site-name', x: x + w / 2, y: y + hgt / 2 - 4, 'text-anchor': 'middle' }, `${element} `));
    g.append(svg('text', { class: 'site-top', x: x + w / 2, y: y + hgt / 2 + 13, 'text-anchor': 'middle' }, top));
    const n = stack.length;
    const left = n ? t('{runes} left', { runes: n === 1 ? t('1 rune') : t('{n} runes', { n }) }) : t('empty');
    const label = t('{element} {top}: the {element} rune site, {left}', { element, top, left });
    pic.append(keyed(g, `rune:${site.element}`, label, ctx, ks));
  }
  // Spirits last, on top of their cells.
  for (const p of view.players || []) {
    if (!Array.isArray(p.spirit)) {
      continue;
    }
    const cx = p.spirit[1] * CELL + CELL / 2 + 3;
    const cy = p.spirit[0] * CELL + CELL / 2 + 3;
    const g = svg('g', { class: `spirit pl-${p.colour}` });
    g.append(svg('polygon', { points: starPoints(cx, cy, 17, 8) }));
    g.append(svg('text', { x: cx, y: cy + 5, 'text-anchor': 'middle' }, playerMark(p.colour)));
    pic.append(keyed(g, `spirit:${p.colour}`, t('Spirit of {colour} ({name}) at {cell}', { colour: playerColour(p.colour), name: p.name, cell: cellWords(p.spirit) }), ctx, ks));
  }
  return pic;
}

function starPoints(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

function drawRunes(view, ctx, ks) {
  const stacks = (view.element && view.element.stacks) || {};
  const list = h('ul', { class: 'st-runes' });
  for (const el of ['Metal', 'Wood', 'Water', 'Fire', 'Earth']) {
    const stack = stacks[el] || [];
    const item = h(
      'span',
      {},
      stoneChip(ELEMENT_STONE[el], 'small'),
      h('span', {}, t(' {element}: ', { element: elementWord(el) })),
      h('strong', {}, stack.length ? stack.join(' ') : t('empty')),
      stack.length ? h('span', { class: 'muted' }, t(' (top first)')) : null,
    );
    list.append(h('li', {}, keyed(item, `rune:${el}`, { short: t('the {element} runes', { element: elementWord(el) }) }, ctx, ks)));
  }
  return list;
}

/* Artifacts, supply, objectives */

// `placed`: in the co-op game, how many of the card's cost stones (in
// printed order) already lie on it.
function artifactCard(view, art, where, ctx, ks, placed) {
  const costChips = art.cost.map((c, i) => {
    const chip = stoneChip(c, i < (placed || 0) ? 'placed' : '');
    if (i < (placed || 0)) {
      chip.textContent = `${glyph(c)}✓`;
      chip.setAttribute('aria-label', t('{colour} stone, placed', { colour: colourOf(c) }));
    }
    return chip;
  });
  const name = cardWord(art.id, art.name);
  const card = h(
    'div',
    { class: 'st-art' },
    h('div', { class: 'art-head' }, h('span', { class: 'art-id' }, art.id), h('span', { class: 'art-pts' }, art.points === 1 ? t('1 pt') : t('{n} pts', { n: art.points }))),
    h('div', { class: 'art-name' }, name),
    h('div', { class: 'art-cost', 'aria-label': t('cost {stones}', { stones: art.cost.map(colourOf).join(t(', ')) }) }, costChips),
    h('div', { class: 'art-sym' }, (art.symbols || []).map(elementWord).join(' · ')),
    where ? h('div', { class: 'art-where' }, where) : null,
  );
  return keyed(card, `art:${art.id}`, { short: `${art.id} ${name}` }, ctx, ks);
}

function drawArtifacts(view, ctx, ks) {
  const arts = view.artifacts || {};
  const row = h('div', { class: 'st-arts' });
  const left = arts.completed ? (arts.row || [])[0] : null;
  for (const a of arts.row || []) {
    const placed = left && a.id === left.id ? arts.placed || 0 : 0;
    const where = placed ? t('{stones} placed', { stones: placed === 1 ? t('1 stone') : t('{n} stones', { n: placed }) }) : '';
    row.append(artifactCard(view, a, where, ctx, ks, placed));
  }
  if (arts.deck_top) {
    row.append(artifactCard(view, arts.deck_top, t('deck top'), ctx, ks));
  }
  const foot = [t('{n} more in the deck', { n: arts.deck_below || 0 })];
  if (Array.isArray(arts.completed)) {
    const n = arts.completed.length;
    foot.push(n ? t('team completed {n}: {ids}', { n, ids: arts.completed.join(t(', ')) }) : t('team completed {n}', { n }));
  }
  return section(t('Artifacts'), 'st-artifacts', row, h('p', { class: 'muted' }, foot.join(t('; '))));
}

function drawSupply(view) {
  const supply = view.supply || [];
  const line = h('div', { class: 'st-supply', 'aria-label': t('Supply, front first: {stones}', { stones: supply.map(glyph).join(' ') || t('empty') }) });
  line.append(h('span', { class: 'muted' }, t('front ▸ ')));
  for (const c of supply) {
    line.append(stoneChip(c, 'small'));
  }
  if (!supply.length) {
    line.append(h('span', { class: 'muted' }, t('empty')));
  }
  return section(t('Supply ({n})', { n: supply.length }), 'st-supply-panel', line);
}

function drawObjectives(view) {
  if (!Array.isArray(view.objectives)) {
    return null;
  }
  const list = h('ul', { class: 'st-objectives' });
  for (const o of view.objectives) {
    list.append(h('li', {}, h('strong', {}, `${o} `), objectiveText(o)));
  }
  return section(t('Objectives · Qi supply {n}', { n: view.qi_supply }), 'st-obj-panel', list);
}

/* Players */

function magicCard(card, colour, ctx, ks) {
  const fam = family(card);
  const suffix = card.split('-')[1] || '';
  const shiftColour = fam === 'SHIFT' && STONE[suffix] ? suffix : null;
  const text = shiftColour
    ? t('Exchange a {stone} stone with a stone of another colour anywhere on the Alchemy Zone.', { stone: stoneWord(shiftColour) })
    : familyText(fam);
  const name = cardWord(card);
  const el = h(
    'div',
    { class: `st-card fam-${fam.toLowerCase()}` },
    h('div', { class: 'card-name' }, h('span', {}, name), shiftColour ? stoneChip(shiftColour, 'small') : null),
    h('div', { class: 'card-text' }, text),
  );
  return keyed(el, `card:${colour}:${card}`, { short: name }, ctx, ks);
}

function playerPanel(view, p, ctx, ks, mine) {
  const turn = view.turn || {};
  const acting = turn.colour === p.colour && view.phase !== 'over';
  const head = h(
    'div',
    { class: 'pl-head' },
    h('span', { class: `pl-swatch pl-${p.colour}` }, playerMark(p.colour)),
    h('strong', {}, ` ${p.name}`),
    h('span', { class: 'muted' }, t(' {colour}, seat {n}', { colour: playerColour(p.colour), n: p.seat })),
    mine ? h('span', { class: 'badge mine-badge' }, t('yours')) : null,
    acting ? h('span', { class: 'badge turn-badge' }, t('▶ to play')) : null,
  );
  const facts = [];
  facts.push(p.taoist ? t('Taoist on {tile}', { tile: tileWord(p.taoist) }) : t('Taoist on no tile yet'));
  if (Array.isArray(p.spirit)) {
    facts.push(t('Spirit at {cell}', { cell: cellWords(p.spirit) }));
  }
  if (p.qi !== undefined) {
    facts.push(p.excess ? t('Qi {n} + {excess} excess', { n: p.qi, excess: p.excess }) : t('Qi {n}', { n: p.qi }));
  }
  if (p.score !== undefined) {
    facts.push(t('score {n}', { n: p.score }));
  }
  const body = [h('p', { class: 'pl-facts' }, facts.join(' · '))];
  if (p.reservoir) {
    const res = h('div', { class: 'pl-res' }, h('span', { class: 'muted' }, t('Reservoir: ')));
    let total = 0;
    for (const c of STONE_ORDER) {
      const n = p.reservoir[c] || 0;
      total += n;
      const chip = h('span', { class: 'res-item' }, stoneChip(c, 'small'), h('span', {}, `×${n}`));
      if (!n) {
        chip.classList.add('none');
      }
      chip.prepend(srOnly(t('{colour} reservoir: ', { colour: playerColour(p.colour) })));
      res.append(keyed(chip, `res:${p.colour}:${c}`, { short: t('{stone} in the {colour} reservoir', { stone: colourOf(c), colour: playerColour(p.colour) }) }, ctx, ks));
    }
    if (!total) {
      res.append(h('span', { class: 'muted' }, t(' (empty)')));
    }
    body.push(res);
  }
  if (Array.isArray(p.runes)) {
    const runes = p.runes.map((r) => `${elementWord(r.element)} ${r.value}${r.starting ? t(' (starting)') : ''}`).join(t(', '));
    body.push(h('p', { class: 'pl-runes' }, h('span', { class: 'muted' }, t('Runes: ')), runes));
  }
  if (Array.isArray(p.crafted)) {
    const pts = p.crafted.reduce((n, id) => n + artifactInfo(view, id).points, 0);
    body.push(
      h(
        'p',
        { class: 'pl-crafted' },
        h('span', { class: 'muted' }, t('Crafted ({n}, {points}): ', { n: p.crafted.length, points: points(pts) })),
        p.crafted.length ? p.crafted.map((id) => `${id} ${artifactName(view, id)}`).join(t(', ')) : t('none'),
      ),
    );
  }
  const row = h('div', { class: 'st-cards' });
  for (const c of p.row || []) {
    row.append(magicCard(c, p.colour, ctx, ks));
  }
  body.push(row);
  const pile = Array.isArray(p.discard)
    ? t('discard: {cards}', { cards: p.discard.length ? p.discard.map((c) => cardWord(c)).join(t(', ')) : t('empty') })
    : t('removed from the game: {n}', { n: p.removed || 0 });
  body.push(h('p', { class: 'muted small-text' }, t('Magic deck {n}; {pile}', { n: p.deck, pile })));
  const cls = `st-player pl-border-${p.colour}${mine ? ' mine' : ''}${acting ? ' acting' : ''}`;
  const who = { name: p.name, colour: playerColour(p.colour) };
  return h('section', { class: cls, 'aria-label': mine ? t('{name}, {colour}, yours', who) : t('{name}, {colour}', who) }, head, ...body);
}

/* The decision being made */

function decisionPanel(view, ctx, ks) {
  const p = view.pending || {};
  const lines = [];
  const acting = actingPlayer(view);
  if (view.phase === 'move' || view.phase === 'reward_move') {
    const grants = STONE_ORDER.filter((c) => (p.grants || {})[c] > 0);
    lines.push(
      h(
        'p',
        {},
        t('Steps allowed onto: '),
        grants.length ? grants.map((c) => h('span', { class: 'grant' }, stoneChip(c, 'small'), `×${p.grants[c]} `)) : t('no colour'),
        p.free_steps ? t('; {steps} onto any colour', { steps: p.free_steps === 1 ? t('1 free step') : t('{n} free steps', { n: p.free_steps }) }) : '',
      ),
    );
    const steps = (p.steps || 0) === 1 ? t('1 step') : t('{n} steps', { n: p.steps || 0 });
    lines.push(h('p', { class: 'muted' }, p.o6_used ? t('{steps} taken in this batch; the O6 paid step is used.', { steps }) : t('{steps} taken in this batch.', { steps })));
    if (Array.isArray(p.step_pair)) {
      lines.push(h('p', {}, t('Paying the pair '), stoneChip(p.step_pair[0], 'small'), ' ', stoneChip(p.step_pair[1], 'small'), t(' for a step: choose the cell.')));
    }
  } else if (view.phase === 'pay') {
    const owed = STONE_ORDER.flatMap((c) => Array((p.owed || {})[c] || 0).fill(c));
    lines.push(h('p', {}, t('Paying for {id} {name}; still owed: ', { id: p.artifact, name: artifactName(view, p.artifact) }), owed.map((c) => stoneChip(c, 'small'))));
    if (p.pair_for) {
      lines.push(h('p', {}, t('Choosing two stones in place of '), stoneChip(p.pair_for, 'small')));
    }
  } else if (view.phase === 'choose_stone') {
    const choices = (p.choices || []).map((sl) => h('span', { class: 'choice' }, stoneChip(stoneAt(view, sl), 'small'), ` ${W.local() ? slotWords(sl) : sl} `));
    lines.push(h('p', {}, t('Several stones of one group may be gained; choose one: '), choices));
  } else if (view.phase === 'offer') {
    const offer = h('p', {}, p.leftmost ? t('Gained stones to offer to {id} {name}: ', { id: p.leftmost, name: artifactName(view, p.leftmost) }) : t('Gained stones to offer: '));
    for (const c of STONE_ORDER) {
      const n = (p.stones || {})[c] || 0;
      if (n) {
        offer.append(keyed(h('span', { class: 'res-item' }, stoneChip(c, 'small'), `×${n}`, srOnly(t(' to offer'))), `offer:${c}`, { short: t('{stone} to offer', { stone: colourOf(c) }) }, ctx, ks));
      }
    }
    lines.push(offer);
  } else if (view.phase === 'cast' && p.card) {
    const card = cardWord(p.card);
    if (p.move) {
      lines.push(h('p', {}, t('Casting {card}: moving tile {tile}, choose where', { card, tile: tileWord(p.move) })));
    } else if (p.a) {
      lines.push(h('p', {}, t('Casting {card}: the stone at {slot} is chosen, choose the other', { card, slot: slotWords(p.a) })));
    } else {
      lines.push(h('p', {}, t('Casting {card}: choose its target', { card })));
    }
  } else if (view.phase === 'reward') {
    lines.push(h('p', {}, t('Crafting earned the O5 reward: a free step, a FLY of your own Taoist, or nothing.')));
  }
  if (acting && acting.reservoir && ['pay', 'move', 'reward_move'].includes(view.phase)) {
    const colour = playerColour(acting.colour);
    const held = h('p', {}, h('span', { class: 'muted' }, t('{colour} reservoir: ', { colour })));
    for (const c of STONE_ORDER) {
      const n = acting.reservoir[c] || 0;
      if (n) {
        held.append(keyed(h('span', { class: 'res-item' }, stoneChip(c, 'small'), `×${n}`, srOnly(t(' in the reservoir'))), `res:${acting.colour}:${c}`, { short: t('{stone} in the {colour} reservoir', { stone: colourOf(c), colour }) }, ctx, ks), ' ');
      }
    }
    lines.push(held);
  }
  if (!lines.length) {
    return null;
  }
  const title = acting ? t('Decision — {name} ({colour})', { name: acting.name, colour: playerColour(acting.colour) }) : t('Decision');
  return section(title, 'st-decision', ...lines);
}

function drawLog(view) {
  const log = W.log(view);
  if (!log.length) {
    return null;
  }
  return section(t('Last actions'), 'st-log', h('ol', {}, log.map((line) => h('li', {}, line))));
}

function drawHeader(view) {
  const turn = view.turn || {};
  const variant = view.variant || 'standard';
  const bits = [
    h('strong', {}, t('Sorcerer & Stones')),
    h('span', { class: 'muted' }, t(' {variant} game · turn {n}', { variant: variantWord(variant), n: turn.number || 0 })),
  ];
  if (turn.colour && view.phase !== 'over') {
    bits.push(h('span', { class: 'hdr-turn' }, ' · ', h('span', { class: `pl-swatch pl-${turn.colour}` }, playerMark(turn.colour)),
      t(' {colour} {what}', { colour: playerColour(turn.colour), what: pendingWords(view, false) })));
  }
  if (turn.final_round) {
    bits.push(h('span', { class: 'badge final-badge' }, t('final round')));
  }
  const you = view.you;
  if (you && Array.isArray(you.colours)) {
    bits.push(h('span', { class: 'badge mine-badge' }, t('you play {colours}', { colours: you.colours.map(playerColour).join(t(' and ')) })));
  }
  return h('header', { class: 'st-header' }, ...bits);
}

// The end in one sentence; the app's end screen has the score rows.
function drawResult(view, ctx) {
  if (!view.result) {
    return null;
  }
  return section(t('Game over'), 'st-result', h('p', {}, status(view, ctx.seat, ctx.names || [])));
}

// The words of a variant: standard, novice, cooperative.
function variantWord(variant) {
  switch (variant) {
    case 'standard':
      return t('standard');
    case 'novice':
      return t('novice');
    case 'cooperative':
      return t('cooperative');
    default:
      return String(variant);
  }
}

function legend() {
  // The player colours' marks: "R red", in Chinese the word alone.
  const marks = ['red', 'green', 'blue', 'yellow'].map((c) => (W.local() ? playerMark(c) : `${PLAYER_LETTER[c]} ${c}`));
  return h(
    'p',
    { class: 'st-legend muted' },
    t('Stones: '),
    // The spaces between items stay outside the nowrap spans, so that the
    // legend can wrap on a phone.
    STONE_ORDER.map((c) => [h('span', { class: 'legend-item' }, stoneChip(c, 'small'), t(' {colour} ({element})', { colour: colourOf(c), element: elementWord(STONE[c].element) })), ' ']),
    t(' · ◆ Taoist · ★ Spirit, lettered by player colour ({marks}).', { marks: marks.join(t(', ')) }),
  );
}

// Draws the board of `view` into `root`.
export function render(root, view, ctx) {
  ctx = ctx || {};
  W.use(ctx);
  const ks = keyState(describe, view, ctx);
  const you = view.you;
  const mine = new Set((you && you.colours) || []);
  const board = h('div', { class: 'stones-board' });
  board.append(drawHeader(view));
  const result = drawResult(view, ctx);
  if (result) {
    board.append(result);
  }
  const decision = decisionPanel(view, ctx, ks);
  const zones = h('div', { class: 'st-zones' });
  zones.append(section(t('Alchemy Zone'), 'st-alchemy-panel', drawAlchemy(view, ctx, ks)));
  if (view.element) {
    zones.append(section(t('Element Zone'), 'st-element-panel', drawElement(view, ctx, ks), drawRunes(view, ctx, ks)));
  }
  const side = h('div', { class: 'st-side' });
  if (decision) {
    side.append(decision);
  }
  side.append(drawArtifacts(view, ctx, ks), drawSupply(view));
  const objectives = drawObjectives(view);
  if (objectives) {
    side.append(objectives);
  }
  zones.append(side);
  board.append(zones);
  board.append(legend());
  const players = h('div', { class: 'st-players' });
  for (const p of view.players || []) {
    players.append(playerPanel(view, p, ctx, ks, mine.has(p.colour)));
  }
  board.append(players);
  const log = drawLog(view);
  if (log) {
    board.append(log);
  }
  root.append(board);
}
