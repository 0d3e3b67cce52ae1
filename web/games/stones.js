// SPDX-License-Identifier: MIT
// stones.js - the browser board of Sorcerer & Stones. It draws a view (the
// Alchemy Zone with its tiles, stones and Taoists, the supply line, the
// artifacts, the Element Zone with Spirits and rune stacks, the players with
// their magic cards, the decision being made, the last log lines) and puts
// every legal action into words. It only reads views and legal lists; the
// server decides every rule (docs/rules/stones.md, sections 9 and 10).

import { h, srOnly, svg } from '../lib/dom.js';
import { plural, seatName } from '../lib/words.js';
import { keyState, keyed } from './keys.js';

// Stone colours: letter -> words. The letter is drawn on every stone so that
// colour never carries the information alone.
const STONE = {
  Y: { word: 'yellow', element: 'Metal' },
  G: { word: 'green', element: 'Wood' },
  B: { word: 'blue', element: 'Water' },
  R: { word: 'red', element: 'Fire' },
  N: { word: 'brown', element: 'Earth' },
};
const STONE_ORDER = ['Y', 'G', 'B', 'R', 'N'];

// Player colours (seat i plays the i-th) and their one-letter marks.
const PLAYER_LETTER = { red: 'R', green: 'G', blue: 'B', yellow: 'Y' };

// Rune sites of the Element Zone map (lower case letters).
const SITE_ELEMENT = { g: 'Wood', r: 'Fire', y: 'Metal', b: 'Water', n: 'Earth' };
const ELEMENT_STONE = { Metal: 'Y', Wood: 'G', Water: 'B', Fire: 'R', Earth: 'N' };

const SLOTS = ['TL', 'TR', 'BL', 'BR'];
const SLOT_WORDS = { TL: 'top left', TR: 'top right', BL: 'bottom left', BR: 'bottom right' };

// Card texts (R-stones-5) and objectives (R-stones-1.5), as on the cards.
const FAMILY_TEXT = {
  SPIN: 'Turn any tile a quarter turn, clockwise or counter-clockwise.',
  FLY: 'Move your own Taoist to any tile (also the one it stands on).',
  QUAKE: 'Move a tile to another place next to the others, or swap two tiles.',
  SHIFT: "Exchange a stone of the card's colour with a stone of another colour anywhere on the Alchemy Zone.",
};
const OBJECTIVE_TEXT = {
  O1: 'Longest line touching the activated tile: 3 stones 1 Qi; 4 stones 1 Qi and a free step; 5 or more 4 Qi and a free step.',
  O2: 'Stones gained in the turn: 2 gives 1 Qi; 3 gives 2 Qi; 4 or more give 4 Qi.',
  O3: 'Two or more gained stones of one colour: 3 Qi.',
  O4: 'Two or more lines touching the activated tile: one free step.',
  O5: 'After a craft: one free step, or a FLY of your own Taoist, or nothing.',
  O6: "Once a turn in the move step: pay a reservoir stone to step onto a cell of that stone's colour.",
  O7: 'Any two stones may be paid in place of one stone of any colour (crafting and O6).',
};

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

// What the acting player is doing: [third person, to the player].
const PHASE_WORDS = {
  place_taoist: ['places a Taoist', 'place your Taoist'],
  cast: ['casts magic cards', 'cast magic cards'],
  choose_stone: ['chooses which stone to gain', 'choose which stone to gain'],
  offer: ['offers gained stones to the artifacts', 'offer gained stones to the artifacts'],
  move: ['moves the Spirit', 'move your Spirit'],
  reward_move: ['takes the free steps of the objectives', 'take the free steps of the objectives'],
  craft: ['may craft an artifact', 'you may craft an artifact'],
  pay: ['pays for an artifact', 'pay for the artifact'],
  reward: ['chooses the reward for crafting (O5)', 'choose the reward for crafting (O5)'],
};

const REASON_WORDS = {
  runes: 'a player owned all five rune types and the round was completed',
  artifacts: 'all 14 artifacts were crafted',
  qi: 'the Qi supply ran out',
  frozen: 'the position was frozen',
  novice: 'a fourth artifact was crafted',
  cards: 'the magic cards ran out',
};

/* ---- Small helpers ---- */

function stoneWord(c) {
  return STONE[c] ? `${STONE[c].word} (${c})` : String(c);
}

function cellWords(cell) {
  return Array.isArray(cell) ? `e(${cell[0]},${cell[1]})` : '?';
}

function slotWords(slot) {
  const [tile, pos] = String(slot).split('.');
  return `${SLOT_WORDS[pos] || pos} of ${tile}`;
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
  const tile = ((view.board && view.board.tiles) || []).find((t) => t.id === id);
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

function tileAtPos(view, r, c) {
  return ((view.board && view.board.tiles) || []).find((t) => t.pos[0] === r && t.pos[1] === c) || null;
}

// A tile position in words, by a neighbouring tile other than `except`:
// "west of Tw". Positions may lie outside the current layout (-1).
function placeWords(view, to, except) {
  const [r, c] = to;
  const around = [
    [0, 1, 'west of'],
    [0, -1, 'east of'],
    [1, 0, 'north of'],
    [-1, 0, 'south of'],
  ];
  for (const [dr, dc, rel] of around) {
    const t = tileAtPos(view, r + dr, c + dc);
    if (t && t.id !== except) {
      return `the place ${rel} ${t.id} (${r},${c})`;
    }
  }
  return `the place (${r},${c})`;
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

/* ---- describe ---- */

function castWords(a, view, colour) {
  const card = a.card;
  const fam = family(card);
  const cardKey = `card:${colour}:${card}`;
  const group = `Cast ${fam}`;
  if (fam === 'SPIN' && a.tile && a.dir) {
    const dir = a.dir === 'ccw' ? 'counter-clockwise' : 'clockwise';
    return { group, label: `${card}: turn tile ${a.tile} ${dir}`, keys: [cardKey, `tile:${a.tile}`] };
  }
  if (fam === 'FLY' && a.tile) {
    return { group, label: `${card}: fly your Taoist to tile ${a.tile}`, keys: [cardKey, `tile:${a.tile}`, `taoist:${colour}`] };
  }
  if (fam === 'QUAKE' && Array.isArray(a.swap)) {
    const [x, y] = a.swap;
    return { group, label: `${card}: swap tiles ${x} and ${y}`, keys: [cardKey, `tile:${x}`, `tile:${y}`] };
  }
  if (fam === 'QUAKE' && a.move && Array.isArray(a.to)) {
    return {
      group,
      label: `${card}: move tile ${a.move} to ${placeWords(view, a.to, a.move)}`,
      keys: [cardKey, `tile:${a.move}`, `pos:${a.to[0]}:${a.to[1]}`],
    };
  }
  if (fam === 'QUAKE' && a.move) {
    return { group, label: `${card}: choose tile ${a.move} to move`, keys: [cardKey, `tile:${a.move}`] };
  }
  if (fam === 'SHIFT' && a.a && a.b) {
    const sa = stoneAt(view, a.a);
    const sb = stoneAt(view, a.b);
    const chosen = view.pending && view.pending.card === card && view.pending.a === a.a;
    if (chosen) {
      // The first stone is chosen already (the decision box says which).
      return { group, label: `${card}: exchange with the ${stoneWord(sb)} stone at ${slotWords(a.b)}`, keys: [cardKey, `slot:${a.a}`, `slot:${a.b}`] };
    }
    return {
      group,
      label: `${card}: exchange the ${stoneWord(sa)} stone at ${slotWords(a.a)} with the ${stoneWord(sb)} stone at ${slotWords(a.b)}`,
      keys: [cardKey, `slot:${a.a}`, `slot:${a.b}`],
    };
  }
  if (fam === 'SHIFT' && a.a) {
    return { group, label: `${card}: choose the ${stoneWord(stoneAt(view, a.a))} stone at ${slotWords(a.a)}`, keys: [cardKey, `slot:${a.a}`] };
  }
  return { group, label: `Choose ${card} to cast`, keys: [cardKey] };
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
    return `Cancel the pair being chosen for a ${stoneWord(p.pair_for)} stone`;
  }
  if (Array.isArray(p.step_pair)) {
    return 'Cancel the paid step being chosen';
  }
  if (p.card) {
    return `Cancel the ${p.card} being chosen`;
  }
  return 'Cancel what is being chosen';
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
      return { group: 'Place Taoist', label: `Place your Taoist on tile ${a.tile}`, keys: [`tile:${a.tile}`] };
    case 'cast':
      return castWords(a, view, colour);
    case 'end_cast':
      return { group: 'Pass', label: 'Stop casting and activate your tile', keys: [] };
    case 'discard':
      return { group: 'Discard', label: `Discard ${a.card} (no card has a target)`, keys: [cardKey] };
    case 'cancel': {
      const p = view.pending || {};
      return { group: 'Cancel', label: cancelWords(view), keys: p.card ? [`card:${colour}:${p.card}`] : [] };
    }
    case 'choose_stone':
      return {
        group: 'Gain stone',
        label: `Gain the ${stoneWord(stoneAt(view, a.slot))} stone at ${slotWords(a.slot)}`,
        keys: [`slot:${a.slot}`],
      };
    case 'offer': {
      const left = view.pending && view.pending.leftmost;
      return {
        group: 'Offer',
        label: `Offer a ${stoneWord(a.colour)} stone${left ? ` to ${left} ${artifactInfo(view, left).name}` : ''}`,
        keys: [`offer:${a.colour}`, left ? `art:${left}` : null].filter(Boolean),
      };
    }
    case 'step':
      return {
        group: 'Spirit step',
        label: `Move your Spirit to ${cellWords(a.to)}, a ${stoneWord(mapLetter(view, a.to))} cell`,
        keys: stepKeys(a, colour),
      };
    case 'pay_step': {
      const stones = Array.isArray(a.stones) ? a.stones : null;
      if (!Array.isArray(a.to)) {
        return {
          group: 'Paid step (O6)',
          label: `Pay ${stoneWord(stones[0])} and ${stoneWord(stones[1])} stones for a step onto any colour`,
          keys: [res(stones[0]), res(stones[1]), `spirit:${colour}`],
        };
      }
      const cellColour = mapLetter(view, a.to);
      const paid = stones ? `${stoneWord(stones[0])} and ${stoneWord(stones[1])} stones` : `a ${stoneWord(cellColour)} stone`;
      return {
        group: 'Paid step (O6)',
        label: `Pay ${paid} to move your Spirit to ${cellWords(a.to)}, a ${stoneWord(cellColour)} cell`,
        keys: [...stepKeys(a, colour), ...(stones ? stones.map(res) : [res(cellColour)])],
      };
    }
    case 'take_rune': {
      const me = actingPlayer(view);
      const owned = new Set(((me && me.runes) || []).map((r) => r.element));
      const sites = runeSitesNear(view, me && me.spirit).filter((x) => !owned.has(x.element));
      const stacks = (view.element && view.element.stacks) || {};
      const names = sites.map((x) => `${x.element} rune (${(stacks[x.element] || [])[0]})`);
      return {
        group: 'Rune',
        label: names.length ? `Take the ${names.join(' or ')} next to your Spirit` : 'Take the rune next to your Spirit',
        keys: [...sites.map((x) => `rune:${x.element}`), `spirit:${colour}`],
      };
    }
    case 'end_move':
      return { group: 'Pass', label: 'Stop moving the Spirit', keys: [] };
    case 'craft': {
      const art = artifactInfo(view, a.artifact);
      return {
        group: 'Craft',
        label: `Craft ${a.artifact} ${art.name} (cost ${art.cost.join(' ')}, ${plural(art.points, 'point')})`,
        keys: [`art:${a.artifact}`],
      };
    }
    case 'end_turn':
      return { group: 'Pass', label: 'End the turn without crafting', keys: [] };
    case 'pay': {
      const art = view.pending && view.pending.artifact;
      return {
        group: 'Pay',
        label: `Pay a ${stoneWord(a.colour)} stone${art ? ` for ${art}` : ''}`,
        keys: [res(a.colour), art ? `art:${art}` : null].filter(Boolean),
      };
    }
    case 'pay_pair': {
      const art = view.pending && view.pending.artifact;
      const keys = [art ? `art:${art}` : null].filter(Boolean);
      if (Array.isArray(a.stones)) {
        return {
          group: 'Pay with a pair (O7)',
          label: `Pay ${stoneWord(a.stones[0])} and ${stoneWord(a.stones[1])} stones in place of a ${stoneWord(a.for)} stone`,
          keys: [...a.stones.map(res), ...keys],
        };
      }
      return { group: 'Pay with a pair (O7)', label: `Pay two stones in place of a ${stoneWord(a.for)} stone`, keys };
    }
    case 'reward_step':
      return { group: 'Reward (O5)', label: `Reward: free step to ${cellWords(a.to)}, a ${stoneWord(mapLetter(view, a.to))} cell`, keys: stepKeys(a, colour) };
    case 'reward_fly':
      return { group: 'Reward (O5)', label: `Reward: fly your Taoist to tile ${a.tile}`, keys: [`tile:${a.tile}`, `taoist:${colour}`] };
    case 'reward_skip':
      return { group: 'Reward (O5)', label: 'Decline the reward', keys: [] };
    default: {
      const rest = fieldWords(a);
      return { group: 'Other', label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ` (${rest})` : ''}`, keys: [] };
    }
  }
}

/* ---- status and results ---- */

// The decision being made, in words; `you` speaks to the acting player.
function pendingWords(view, you) {
  const p = view.pending || {};
  const form = you ? 1 : 0;
  const being = you ? 'casting' : 'is casting';
  if (view.phase === 'cast' && p.card) {
    if (p.move) {
      return `${being} ${p.card}, moving tile ${p.move}`;
    }
    if (p.a) {
      return `${being} ${p.card} on the stone at ${slotWords(p.a)}`;
    }
    return `${being} ${p.card}`;
  }
  if (view.phase === 'cast') {
    return `${PHASE_WORDS.cast[form]} (${plural((view.turn && view.turn.casts) || 0, 'card')} cast so far)`;
  }
  if (view.phase === 'pay' && p.artifact) {
    return `${you ? 'pay' : 'pays'} for ${p.artifact} ${artifactInfo(view, p.artifact).name}`;
  }
  return (PHASE_WORDS[view.phase] || [view.phase, view.phase])[form];
}

// One line: whose turn it is and what is being decided.
export function status(view, seat, names) {
  if (!view) {
    return '';
  }
  if (view.phase === 'over' || view.result) {
    const r = view.result || {};
    const who = (r.winners || []).map((w) => seatName(view, w, names));
    const why = REASON_WORDS[r.reason] || r.reason || '';
    if (r.completed !== undefined) {
      return `Game over: the team completed ${plural(r.completed, 'artifact')}${r.title ? `, title ${r.title}` : ', no title'}.`;
    }
    return `Game over${why ? `: ${why}` : ''}. ${who.length ? `Won by ${who.join(' and ')}.` : 'Nobody won.'}`;
  }
  const turn = view.turn || {};
  const actor = (view.active || [])[0];
  const mine = seat !== null && seat !== undefined && actor === seat;
  const colour = turn.colour ? ` (${turn.colour}, ${PLAYER_LETTER[turn.colour] || ''})` : '';
  const final = turn.final_round ? ' Final round.' : '';
  const what = mine
    ? `Your turn${colour}: ${pendingWords(view, true)}.`
    : `${seatName(view, actor !== undefined ? actor : turn.seat, names)}${colour} ${pendingWords(view, false)}.`;
  return `${what} Turn ${turn.number || 0}.${final}`;
}

// Score rows of the end screen.
export function results(view, names) {
  const r = (view && view.result) || {};
  const scores = r.scores || [];
  if (r.completed !== undefined) {
    const title = r.title ? `title ${r.title}` : 'no title';
    return scores.map((score, seat) => ({
      seat,
      score,
      detail: `Team completed ${plural(r.completed, 'artifact')}: ${title}`,
    }));
  }
  const rows = [];
  for (const b of r.breakdown || []) {
    const novice = r.scoring === 'artifacts crafted';
    const detail = novice
      ? `${b.colour}: ${plural(b.crafted || 0, 'artifact')} crafted`
      : `${b.colour}: runes ${b.runes} + artifacts ${b.artifacts} + Qi ${b.qi} + symbol bonus ${b.symbol_bonus} + stone bonus ${b.stone_bonus} = ${b.total}`;
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
  const word = STONE[c] ? `${STONE[c].word} stone (${STONE[c].element})` : 'empty';
  return h('span', { class: `${cls}${extra ? ` ${extra}` : ''}`, title: word, 'aria-label': word }, STONE[c] ? c : '·');
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
    'aria-label': 'Alchemy Zone',
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
    pic.append(keyed(el, key, `Empty place (${g[0]},${g[1]}) for a QUAKE`, ctx, ks));
  }
  for (const t of tiles) {
    pic.append(drawTile(view, t, ctx, ks));
  }
  return pic;
}

function drawTile(view, t, ctx, ks) {
  const x0 = t.pos[1] * TILE;
  const y0 = t.pos[0] * TILE;
  // The tile itself is an element of its own beside its stones and
  // Taoists (a board element holds no other).
  const g = svg('g', { class: 'tile' });
  const face = svg('g', { class: 'tile-face' },
    svg('rect', { class: 'tile-bg', x: x0 + 3, y: y0 + 3, width: TILE - 6, height: TILE - 6, rx: 8 }),
    svg('circle', { class: 'tile-name-bg', cx: x0 + 50, cy: y0 + 50, r: 13 }),
    svg('text', { class: 'tile-name', x: x0 + 50, y: y0 + 54, 'text-anchor': 'middle' }, t.id));
  const names = t.stones.map((c, i) => `${SLOT_WORDS[SLOTS[i]]} ${c ? STONE[c].word : 'empty'}`).join(', ');
  const tileLabel = `Tile ${t.id}: ${names}${t.taoists.length ? `; Taoists ${t.taoists.join(', ')}` : ''}`;
  g.append(keyed(face, `tile:${t.id}`, tileLabel, ctx, ks));
  t.stones.forEach((c, i) => {
    const cx = x0 + (i % 2 ? 73 : 27);
    const cy = y0 + (i < 2 ? 27 : 73);
    const slot = `${t.id}.${SLOTS[i]}`;
    const stone = svg('g', { class: c ? `stone st-${c}` : 'stone st-none' });
    stone.append(svg('circle', { cx, cy, r: 19 }));
    stone.append(svg('text', { x: cx, y: cy + 6, 'text-anchor': 'middle' }, c || '·'));
    g.append(keyed(stone, `slot:${slot}`, `${c ? `${STONE[c].word} stone (${c})` : 'empty slot'} at ${slotWords(slot)}`, ctx, ks));
  });
  // Taoists stand on the middle of the tile's edges (up to four).
  const spots = [
    [50, 8],
    [92, 50],
    [50, 92],
    [8, 50],
  ];
  t.taoists.forEach((colour, i) => {
    const [dx, dy] = spots[i % 4];
    const cx = x0 + dx;
    const cy = y0 + dy;
    const r = 11;
    const el = svg('g', { class: `taoist pl-${colour}` });
    el.append(svg('polygon', { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}` }));
    el.append(svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, PLAYER_LETTER[colour] || '?'));
    g.append(keyed(el, `taoist:${colour}`, `Taoist of ${colour} on ${t.id}`, ctx, ks));
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
  const pic = svg('svg', { class: 'st-element', viewBox: `-2 -2 ${cols * CELL + 4} ${rows * CELL + 4}`, role: 'group', 'aria-label': 'Element Zone' });
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
      if (spirit) {
        g.append(svg('text', { class: 'cell-letter small', x: x + 9, y: y + 14, 'text-anchor': 'middle' }, ch));
      } else {
        g.append(svg('text', { class: 'cell-letter', x: x + CELL / 2, y: y + CELL / 2 + 7, 'text-anchor': 'middle' }, ch));
      }
      const label = `e(${r},${c}) ${STONE[ch] ? STONE[ch].word : ch} cell${spirit ? `, Spirit of ${spirit.colour}` : ''}`;
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
    g.append(svg('text', { class: 'site-name', x: x + w / 2, y: y + hgt / 2 - 4, 'text-anchor': 'middle' }, `${site.element} `));
    g.append(svg('text', { class: 'site-top', x: x + w / 2, y: y + hgt / 2 + 13, 'text-anchor': 'middle' }, stack.length ? `rune ${stack[0]}` : 'none'));
    // The name starts with the words shown: "Wood rune 3: ...".
    const top = stack.length ? `rune ${stack[0]}` : 'none';
    const label = `${site.element} ${top}: the ${site.element} rune site, ${stack.length ? `${plural(stack.length, 'rune')} left` : 'empty'}`;
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
    g.append(svg('text', { x: cx, y: cy + 5, 'text-anchor': 'middle' }, PLAYER_LETTER[p.colour] || '?'));
    pic.append(keyed(g, `spirit:${p.colour}`, `Spirit of ${p.colour} (${p.name}) at ${cellWords(p.spirit)}`, ctx, ks));
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
      h('span', {}, ` ${el}: `),
      h('strong', {}, stack.length ? stack.join(' ') : 'empty'),
      stack.length ? h('span', { class: 'muted' }, ' (top first)') : null,
    );
    list.append(h('li', {}, keyed(item, `rune:${el}`, { short: `the ${el} runes` }, ctx, ks)));
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
      chip.textContent = `${c}✓`;
      chip.setAttribute('aria-label', `${STONE[c].word} stone, placed`);
    }
    return chip;
  });
  const card = h(
    'div',
    { class: 'st-art' },
    h('div', { class: 'art-head' }, h('span', { class: 'art-id' }, art.id), h('span', { class: 'art-pts' }, plural(art.points, 'pt'))),
    h('div', { class: 'art-name' }, art.name),
    h('div', { class: 'art-cost', 'aria-label': `cost ${art.cost.map((c) => STONE[c].word).join(', ')}` }, costChips),
    h('div', { class: 'art-sym' }, (art.symbols || []).join(' · ')),
    where ? h('div', { class: 'art-where' }, where) : null,
  );
  return keyed(card, `art:${art.id}`, { short: `${art.id} ${art.name}` }, ctx, ks);
}

function drawArtifacts(view, ctx, ks) {
  const arts = view.artifacts || {};
  const row = h('div', { class: 'st-arts' });
  const left = arts.completed ? (arts.row || [])[0] : null;
  for (const a of arts.row || []) {
    const placed = left && a.id === left.id ? arts.placed || 0 : 0;
    const where = placed ? `${plural(placed, 'stone')} placed` : '';
    row.append(artifactCard(view, a, where, ctx, ks, placed));
  }
  if (arts.deck_top) {
    row.append(artifactCard(view, arts.deck_top, 'deck top', ctx, ks));
  }
  const foot = [`${arts.deck_below || 0} more in the deck`];
  if (Array.isArray(arts.completed)) {
    foot.push(`team completed ${arts.completed.length}${arts.completed.length ? `: ${arts.completed.join(', ')}` : ''}`);
  }
  return section('Artifacts', 'st-artifacts', row, h('p', { class: 'muted' }, foot.join('; ')));
}

function drawSupply(view) {
  const supply = view.supply || [];
  const line = h('div', { class: 'st-supply', 'aria-label': `Supply, front first: ${supply.join(' ') || 'empty'}` });
  line.append(h('span', { class: 'muted' }, 'front ▸ '));
  for (const c of supply) {
    line.append(stoneChip(c, 'small'));
  }
  if (!supply.length) {
    line.append(h('span', { class: 'muted' }, 'empty'));
  }
  return section(`Supply (${supply.length})`, 'st-supply-panel', line);
}

function drawObjectives(view) {
  if (!Array.isArray(view.objectives)) {
    return null;
  }
  const list = h('ul', { class: 'st-objectives' });
  for (const o of view.objectives) {
    list.append(h('li', {}, h('strong', {}, `${o} `), OBJECTIVE_TEXT[o] || ''));
  }
  return section(`Objectives · Qi supply ${view.qi_supply}`, 'st-obj-panel', list);
}

/* Players */

function magicCard(card, colour, ctx, ks) {
  const fam = family(card);
  const suffix = card.split('-')[1] || '';
  const shiftColour = fam === 'SHIFT' && STONE[suffix] ? suffix : null;
  const text = shiftColour
    ? `Exchange a ${STONE[shiftColour].word} (${shiftColour}) stone with a stone of another colour anywhere on the Alchemy Zone.`
    : FAMILY_TEXT[fam] || '';
  const el = h(
    'div',
    { class: `st-card fam-${fam.toLowerCase()}` },
    h('div', { class: 'card-name' }, h('span', {}, card), shiftColour ? stoneChip(shiftColour, 'small') : null),
    h('div', { class: 'card-text' }, text),
  );
  return keyed(el, `card:${colour}:${card}`, { short: card }, ctx, ks);
}

function playerPanel(view, p, ctx, ks, mine) {
  const turn = view.turn || {};
  const acting = turn.colour === p.colour && view.phase !== 'over';
  const head = h(
    'div',
    { class: 'pl-head' },
    h('span', { class: `pl-swatch pl-${p.colour}` }, PLAYER_LETTER[p.colour] || '?'),
    h('strong', {}, ` ${p.name}`),
    h('span', { class: 'muted' }, ` ${p.colour}, seat ${p.seat}`),
    mine ? h('span', { class: 'badge mine-badge' }, 'yours') : null,
    acting ? h('span', { class: 'badge turn-badge' }, '▶ to play') : null,
  );
  const facts = [];
  facts.push(`Taoist on ${p.taoist || 'no tile yet'}`);
  if (Array.isArray(p.spirit)) {
    facts.push(`Spirit at ${cellWords(p.spirit)}`);
  }
  if (p.qi !== undefined) {
    facts.push(`Qi ${p.qi}${p.excess ? ` + ${p.excess} excess` : ''}`);
  }
  if (p.score !== undefined) {
    facts.push(`score ${p.score}`);
  }
  const body = [h('p', { class: 'pl-facts' }, facts.join(' · '))];
  if (p.reservoir) {
    const res = h('div', { class: 'pl-res' }, h('span', { class: 'muted' }, 'Reservoir: '));
    let total = 0;
    for (const c of STONE_ORDER) {
      const n = p.reservoir[c] || 0;
      total += n;
      const chip = h('span', { class: 'res-item' }, stoneChip(c, 'small'), h('span', {}, `×${n}`));
      if (!n) {
        chip.classList.add('none');
      }
      chip.prepend(srOnly(`${p.colour} reservoir: `));
      res.append(keyed(chip, `res:${p.colour}:${c}`, { short: `${STONE[c].word} in the ${p.colour} reservoir` }, ctx, ks));
    }
    if (!total) {
      res.append(h('span', { class: 'muted' }, ' (empty)'));
    }
    body.push(res);
  }
  if (Array.isArray(p.runes)) {
    body.push(
      h('p', { class: 'pl-runes' }, h('span', { class: 'muted' }, 'Runes: '), p.runes.map((r) => `${r.element} ${r.value}${r.starting ? ' (starting)' : ''}`).join(', ')),
    );
  }
  if (Array.isArray(p.crafted)) {
    const pts = p.crafted.reduce((n, id) => n + artifactInfo(view, id).points, 0);
    body.push(
      h(
        'p',
        { class: 'pl-crafted' },
        h('span', { class: 'muted' }, `Crafted (${p.crafted.length}, ${plural(pts, 'point')}): `),
        p.crafted.length ? p.crafted.map((id) => `${id} ${artifactInfo(view, id).name}`).join(', ') : 'none',
      ),
    );
  }
  const row = h('div', { class: 'st-cards' });
  for (const c of p.row || []) {
    row.append(magicCard(c, p.colour, ctx, ks));
  }
  body.push(row);
  const pile = Array.isArray(p.discard)
    ? `discard: ${p.discard.length ? p.discard.join(', ') : 'empty'}`
    : `removed from the game: ${p.removed || 0}`;
  body.push(h('p', { class: 'muted small-text' }, `Magic deck ${p.deck}; ${pile}`));
  const cls = `st-player pl-border-${p.colour}${mine ? ' mine' : ''}${acting ? ' acting' : ''}`;
  return h('section', { class: cls, 'aria-label': `${p.name}, ${p.colour}${mine ? ', yours' : ''}` }, head, ...body);
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
        'Steps allowed onto: ',
        grants.length ? grants.map((c) => h('span', { class: 'grant' }, stoneChip(c, 'small'), `×${p.grants[c]} `)) : 'no colour',
        p.free_steps ? `; ${plural(p.free_steps, 'free step')} onto any colour` : '',
      ),
    );
    lines.push(h('p', { class: 'muted' }, `${plural(p.steps || 0, 'step')} taken in this batch${p.o6_used ? '; the O6 paid step is used' : ''}.`));
    if (Array.isArray(p.step_pair)) {
      lines.push(h('p', {}, 'Paying the pair ', stoneChip(p.step_pair[0], 'small'), ' ', stoneChip(p.step_pair[1], 'small'), ' for a step: choose the cell.'));
    }
  } else if (view.phase === 'pay') {
    const owed = STONE_ORDER.flatMap((c) => Array((p.owed || {})[c] || 0).fill(c));
    lines.push(h('p', {}, `Paying for ${p.artifact} ${artifactInfo(view, p.artifact).name}; still owed: `, owed.map((c) => stoneChip(c, 'small'))));
    if (p.pair_for) {
      lines.push(h('p', {}, 'Choosing two stones in place of ', stoneChip(p.pair_for, 'small')));
    }
  } else if (view.phase === 'choose_stone') {
    lines.push(h('p', {}, 'Several stones of one group may be gained; choose one: ', (p.choices || []).map((sl) => h('span', { class: 'choice' }, stoneChip(stoneAt(view, sl), 'small'), ` ${sl} `))));
  } else if (view.phase === 'offer') {
    const offer = h('p', {}, `Gained stones to offer${p.leftmost ? ` to ${p.leftmost} ${artifactInfo(view, p.leftmost).name}` : ''}: `);
    for (const c of STONE_ORDER) {
      const n = (p.stones || {})[c] || 0;
      if (n) {
        offer.append(keyed(h('span', { class: 'res-item' }, stoneChip(c, 'small'), `×${n}`, srOnly(' to offer')), `offer:${c}`, { short: `${STONE[c].word} to offer` }, ctx, ks));
      }
    }
    lines.push(offer);
  } else if (view.phase === 'cast' && p.card) {
    let what = `Casting ${p.card}`;
    if (p.move) {
      what += `: moving tile ${p.move}, choose where`;
    } else if (p.a) {
      what += `: the stone at ${slotWords(p.a)} is chosen, choose the other`;
    } else {
      what += ': choose its target';
    }
    lines.push(h('p', {}, what));
  } else if (view.phase === 'reward') {
    lines.push(h('p', {}, 'Crafting earned the O5 reward: a free step, a FLY of your own Taoist, or nothing.'));
  }
  if (acting && acting.reservoir && ['pay', 'move', 'reward_move'].includes(view.phase)) {
    const held = h('p', {}, h('span', { class: 'muted' }, `${acting.colour} reservoir: `));
    for (const c of STONE_ORDER) {
      const n = acting.reservoir[c] || 0;
      if (n) {
        held.append(keyed(h('span', { class: 'res-item' }, stoneChip(c, 'small'), `×${n}`, srOnly(' in the reservoir')), `res:${acting.colour}:${c}`, { short: `${STONE[c].word} in the ${acting.colour} reservoir` }, ctx, ks), ' ');
      }
    }
    lines.push(held);
  }
  if (!lines.length) {
    return null;
  }
  const who = acting ? `${acting.name} (${acting.colour})` : '';
  return section(`Decision${who ? ` — ${who}` : ''}`, 'st-decision', ...lines);
}

function drawLog(view) {
  const log = view.log || [];
  if (!log.length) {
    return null;
  }
  return section('Last actions', 'st-log', h('ol', {}, log.map((line) => h('li', {}, line))));
}

function drawHeader(view) {
  const turn = view.turn || {};
  const variant = view.variant || 'standard';
  const bits = [
    h('strong', {}, 'Sorcerer & Stones'),
    h('span', { class: 'muted' }, ` ${variant} game · turn ${turn.number || 0}`),
  ];
  if (turn.colour && view.phase !== 'over') {
    bits.push(h('span', { class: 'hdr-turn' }, ' · ', h('span', { class: `pl-swatch pl-${turn.colour}` }, PLAYER_LETTER[turn.colour]), ` ${turn.colour} ${pendingWords(view, false)}`));
  }
  if (turn.final_round) {
    bits.push(h('span', { class: 'badge final-badge' }, 'final round'));
  }
  const you = view.you;
  if (you && Array.isArray(you.colours)) {
    bits.push(h('span', { class: 'badge mine-badge' }, `you play ${you.colours.join(' and ')}`));
  }
  return h('header', { class: 'st-header' }, ...bits);
}

// The end in one sentence; the app's end screen has the score rows.
function drawResult(view, ctx) {
  if (!view.result) {
    return null;
  }
  return section('Game over', 'st-result', h('p', {}, status(view, ctx.seat, ctx.names || [])));
}

function legend() {
  return h(
    'p',
    { class: 'st-legend muted' },
    'Stones: ',
    // The spaces between items stay outside the nowrap spans, so that the
    // legend can wrap on a phone.
    STONE_ORDER.map((c) => [h('span', { class: 'legend-item' }, stoneChip(c, 'small'), ` ${STONE[c].word} (${STONE[c].element})`), ' ']),
    ' · ◆ Taoist · ★ Spirit, lettered by player colour (R red, G green, B blue, Y yellow).',
  );
}

// Draws the board of `view` into `root`.
export function render(root, view, ctx) {
  ctx = ctx || {};
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
  zones.append(section('Alchemy Zone', 'st-alchemy-panel', drawAlchemy(view, ctx, ks)));
  if (view.element) {
    zones.append(section('Element Zone', 'st-element-panel', drawElement(view, ctx, ks), drawRunes(view, ctx, ks)));
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
