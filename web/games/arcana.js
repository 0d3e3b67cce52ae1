// SPDX-License-Identifier: MIT
// arcana.js - the Res Arcana board: the shared table (monuments on display
// and the monument deck, the five Places of Power, the magic items in the
// supply, the First Player token, a duel's score and face-up draft), every
// player's tableau (mage, magic item, artifacts, monuments and Places of
// Power in play, turned or straight, with the essences on them; the
// essence pool; hand, deck and discard pile), what only this seat sees
// (the hand, the mages to choose from, a draft pack, a look at a deck) and
// the open decision in words. Card names and texts come from
// arcana_texts.js, generated from the card data. It reads views only
// (docs/rules/arcana.md, section 0) and never decides what is legal.
//
// Keys of board elements: `card:ID` a card wherever it shows (every card
// is in one place at a time; an owned Place of Power shows twice),
// `pool:SEAT:ESS` an essence of a seat's pool, `seat:N` a player,
// `deck:N` a player's artifact deck, `monument_deck` the monument deck.

import { h, srOnly } from '../lib/dom.js';
import { plural, seatName } from '../lib/words.js';
import { CARDS } from './arcana_texts.js';
import { keyState, keyed } from './keys.js';

// Each essence: its letter (the terminal client's) and word. Colour goes
// with the class e-<key>.
const ESSENCES = [
  { key: 'elan', letter: 'E', word: 'Elan' },
  { key: 'life', letter: 'L', word: 'Life' },
  { key: 'calm', letter: 'C', word: 'Calm' },
  { key: 'death', letter: 'D', word: 'Death' },
  { key: 'gold', letter: 'G', word: 'Gold' },
];

const PHASES = {
  setup_mage: 'choosing mages',
  draft: 'drafting artifacts',
  setup_item: 'picking magic items',
  collect: 'Collect',
  actions: 'Actions',
  victory_check: 'victory check',
  match_first_player: 'duel: choosing the next First Player',
  match_draft: 'duel: face-up draft',
  ended: 'game over',
};

// ---- Words ----

function card(id) {
  return CARDS[id] || null;
}

// A card's printed name; its id when the table does not know it.
function cardName(id) {
  const c = card(id);
  return c ? c.name : String(id);
}

function essence(key) {
  return ESSENCES.find((e) => e.key === key) || null;
}

function essWord(key) {
  const e = essence(key);
  return e ? e.word : String(key);
}

// "Bo" or "you" (as the subject of a sentence: "You").
function who(view, names, seat, me) {
  return seat === me ? 'you' : seatName(view, seat, names);
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// "1 Elan + 2 Gold" from an essence map ("any N" too); "nothing".
function essenceWords(map) {
  const parts = [];
  for (const e of ESSENCES) {
    if (map && map[e.key] > 0) parts.push(`${map[e.key]} ${e.word}`);
  }
  if (map && map.any > 0) parts.push(`any ${map.any}`);
  return parts.length ? parts.join(' + ') : 'nothing';
}

function costWords(id) {
  const c = card(id);
  if (!c || !c.cost) return '';
  return Object.keys(c.cost).length ? essenceWords(c.cost) : 'nothing';
}

// What the open decision is for: "Vault's power 1", "Vault", "Collect".
function cause(d, phase) {
  if (!d || typeof d.card !== 'string') return phase === 'collect' ? 'Collect' : 'the action';
  if (Number.isInteger(d.power)) return `${cardName(d.card)}'s power ${d.power}`;
  return cardName(d.card);
}

const TARGET_VERBS = {
  destroy: 'Destroy',
  discard: 'Discard',
  place: 'Place',
  straighten: 'Straighten',
  turn: 'Turn',
  receive: 'Put the essence on',
};

// The open decision as a sentence without its subject ("pay 3 more for
// placing Vault"); simultaneous choices name no one.
function decisionWords(view, names, me) {
  const d = view.decision;
  const phase = view.phase;
  const why = cause(d, phase);
  const paid = d && d.paid ? essenceWords(d.paid) : 'nothing';
  switch (d.kind) {
    case 'pay': {
      const what = typeof d.placing === 'string' ? `placing ${cardName(d.placing)}` : why;
      return `pay for ${what}: ${d.left} more to pay${paid !== 'nothing' ? ` (paid so far: ${paid})` : ''}`;
    }
    case 'same':
      return `choose the one type to pay X essences of, for ${why}`;
    case 'same_more':
      return `pay one more of the same type for ${why}, or stop (paid so far: ${paid})`;
    case 'gain':
      return `gain ${plural(d.left || 0, 'more essence', 'more essences')} from ${why}`;
    case 'gain_discard':
      return `gain for discarding ${typeof d.card === 'string' ? cardName(d.card) : 'a card'}: 1 Gold, or 2 other essences one at a time`;
    case 'target': {
      const purpose = d.why === 'receive' ? 'receive the paid essence' : d.why || 'choose';
      if (Number.isInteger(d.attacker)) {
        return `choose a card to ${purpose}, to ignore the attack of ${seatName(view, d.attacker, names)}'s ${cardName(d.card)}`;
      }
      return `choose a card to ${purpose}, for ${why}`;
    }
    case 'rival':
      return `pick a rival for ${why}`;
    case 'deck':
      return `choose the deck to look at, for ${why}`;
    case 'order':
      return 'put the looked-at cards back, naming the next card from the top';
    case 'respond':
      return `answer ${seatName(view, d.attacker, names)}'s ${why}: lose ${d.amount} Life, ignore it, or react`;
    case 'lose':
      return `lose ${plural(d.left || 0, 'more essence', 'more essences')} (not Life) to ${why}`;
    case 'statue':
      return 'use the Golden Statue (turn it, pay 3 Gold) for +3 VP at this victory check, or not';
    case 'item':
      return 'take a magic item from the supply';
    case 'take':
      return `take all the essences off ${cardName(d.card)}, or leave them on it`;
    case 'forge':
      return 'pay 1 Death for the Cursed Forge, or turn it';
    case 'mage':
      return 'keep one of the two mages (secret until everyone has chosen)';
    case 'draft':
      return 'draft one card of the pack (secret until everyone has picked)';
    case 'match_draft':
      return 'draft a face-up card for the next game';
    case 'first':
      return 'choose who is First Player of the next game';
    default:
      return `decide (${String(d.kind).replace(/_/g, ' ')})`;
  }
}

// Who decides and what, in one sentence.
function decisionLine(view, names, me) {
  const d = view.decision;
  const words = decisionWords(view, names, me);
  if (d.kind === 'mage' || d.kind === 'draft') {
    const active = Array.isArray(view.active) ? view.active : [];
    const waiting = active.map((s) => (s === me ? 'you' : seatName(view, s, names)));
    const first = active.includes(me) ? `You: ${words}` : cap(words);
    return `${first}. Waiting for ${waiting.join(', ') || 'nobody'}.`;
  }
  const seat = Number.isInteger(d.seat) ? d.seat : (view.active || [])[0];
  return `${cap(who(view, names, seat, me))}: ${words}.`;
}

function endLine(view, names, me) {
  const res = view.result || {};
  const winners = Array.isArray(res.winners) ? res.winners : [];
  const duel = Array.isArray(res.games);
  const wnames = winners.map((s) => who(view, names, s, me));
  const scores = Array.isArray(res.scores) ? res.scores : [];
  let line;
  if (winners.length === 1) {
    const s = scores[winners[0]];
    line = `${cap(wnames[0])} ${winners[0] === me ? 'win' : 'wins'} ${duel ? `the duel (${plural(s, 'game', 'games')} won)` : `with ${s} VP`}`;
  } else if (winners.length > 1) {
    line = `${cap(wnames.join(' and '))} share the win`;
  } else {
    line = 'Nobody wins';
  }
  if (res.round_limit) line += ' (the round limit ended the game)';
  return line;
}

// ---- The module interface ----

function actionSeat(view, seat) {
  const d = view && view.decision;
  if (d && Number.isInteger(d.seat)) return d.seat;
  return seat;
}

export function describe(action, view, seat) {
  const a = action || {};
  const v = view || {};
  const d = v.decision || {};
  const me = actionSeat(v, seat);
  const poolKey = (e) => [`pool:${me}:${e}`];
  const cardKey = (id) => [`card:${id}`];
  switch (a.type) {
    case 'place': {
      const cost = costWords(a.card);
      const words = cost === 'nothing' ? ' (free)' : cost ? ` (printed cost ${cost})` : '';
      return { group: 'Place an artifact', label: `Place ${cardName(a.card)}${words}`, keys: cardKey(a.card) };
    }
    case 'monument':
      if (a.card === 'deck') {
        return { group: 'Claim', label: 'Claim the top monument of the deck, unseen, for 4 Gold', keys: ['monument_deck'] };
      }
      return { group: 'Claim', label: `Claim the monument ${cardName(a.card)} for 4 Gold`, keys: cardKey(a.card) };
    case 'pop':
      return { group: 'Claim', label: `Claim the Place of Power ${cardName(a.card)} for ${costWords(a.card) || 'its cost'}`, keys: cardKey(a.card) };
    case 'discard':
      return { group: 'Discard for essences', label: `Discard ${cardName(a.card)} for 1 Gold or 2 other essences`, keys: cardKey(a.card) };
    case 'power': {
      const c = card(a.card);
      const text = c && c.powers[String(a.power)];
      return { group: 'Use a power', label: `${cardName(a.card)}, power ${a.power}${text ? `: ${text}` : ''}`, keys: cardKey(a.card) };
    }
    case 'pass':
      return { group: 'Pass', label: 'Pass: swap your magic item, then draw 1 card', keys: [] };
    case 'pay':
      return { group: 'Pay', label: `Pay 1 ${essWord(a.essence)}`, keys: poolKey(a.essence) };
    case 'same':
      if (a.essence === 'none') return { group: 'Pay', label: 'Pay none of any type (X = 0)', keys: [] };
      return { group: 'Pay', label: `Pay X in ${essWord(a.essence)}, starting with 1`, keys: poolKey(a.essence) };
    case 'more': {
      const type = ESSENCES.find((e) => d.paid && d.paid[e.key] > 0);
      return { group: 'Pay', label: type ? `Pay 1 more ${type.word}` : 'Pay one more of that type', keys: type ? poolKey(type.key) : [] };
    }
    case 'done':
      return { group: 'Pay', label: 'Pay no more of that type', keys: [] };
    case 'gain':
      return { group: 'Gain', label: `Gain 1 ${essWord(a.essence)}`, keys: poolKey(a.essence) };
    case 'lose':
      return { group: 'Lose essences', label: `Lose 1 ${essWord(a.essence)}`, keys: poolKey(a.essence) };
    case 'target': {
      if (a.card === 'none') return { group: 'Choose a card', label: 'Choose no card', keys: [] };
      const verb = TARGET_VERBS[d.why] || 'Choose';
      const attack = Number.isInteger(d.attacker) ? ' to ignore the attack' : '';
      return { group: 'Choose a card', label: `${verb} ${cardName(a.card)}${attack}`, keys: cardKey(a.card) };
    }
    case 'rival':
      return { group: 'Choose a rival', label: `Choose ${seatName(v, a.seat, null)} as the rival`, keys: [`seat:${a.seat}`] };
    case 'deck':
      if (a.deck === 'own') return { group: 'Look at a deck', label: 'Look at your own deck', keys: [`deck:${me}`] };
      return { group: 'Look at a deck', label: 'Look at the monument deck', keys: ['monument_deck'] };
    case 'order':
      return { group: 'Put the cards back', label: `Put ${cardName(a.card)} next from the top`, keys: cardKey(a.card) };
    case 'respond': {
      if (a.with === 'lose') {
        return { group: 'Answer the attack', label: `Take it: lose ${d.amount !== undefined ? d.amount : 'the'} Life`, keys: poolKey('life') };
      }
      if (a.with === 'ignore') {
        const c = card(d.card);
        const cost = c && c.ignore ? c.ignore : "pay the attack's ignore cost";
        const keys = typeof d.card === 'string' ? cardKey(d.card) : [];
        for (const e of ESSENCES) if (c && c.ignore_pay && c.ignore_pay[e.key]) keys.push(...poolKey(e.key));
        return { group: 'Answer the attack', label: `Ignore it: ${cost}`, keys };
      }
      if (a.with === 'react') {
        const c = card(a.card);
        const text = c && c.powers[String(a.power)];
        return { group: 'Answer the attack', label: `React with ${cardName(a.card)}, power ${a.power}${text ? `: ${text}` : ''}`, keys: cardKey(a.card) };
      }
      break;
    }
    case 'statue':
      return {
        group: 'Golden Statue',
        label: a.use ? 'Use the Golden Statue: turn it, pay 3 Gold, +3 VP at this check' : 'Do not use the Golden Statue',
        keys: cardKey('golden_statue'),
      };
    case 'item':
      return { group: 'Take a magic item', label: `Take ${cardName(a.card)}`, keys: cardKey(a.card) };
    case 'take':
      return { group: 'Collect', label: `Take the essences off ${cardName(d.card)}`, keys: typeof d.card === 'string' ? cardKey(d.card) : [] };
    case 'leave':
      return { group: 'Collect', label: `Leave the essences on ${cardName(d.card)}`, keys: typeof d.card === 'string' ? cardKey(d.card) : [] };
    case 'forge':
      return {
        group: 'Collect',
        label: a.with === 'pay' ? 'Pay 1 Death for the Cursed Forge' : 'Turn the Cursed Forge',
        keys: a.with === 'pay' ? [...cardKey('cursed_forge'), ...poolKey('death')] : cardKey('cursed_forge'),
      };
    case 'mage':
      return { group: 'Choose your mage', label: `Keep the mage ${cardName(a.card)}`, keys: cardKey(a.card) };
    case 'draft':
      return { group: 'Draft', label: `Draft ${cardName(a.card)}`, keys: cardKey(a.card) };
    case 'first':
      return { group: 'Next game', label: `${cap(who(v, null, a.seat, seat))} ${a.seat === seat ? 'are' : 'is'} First Player of the next game`, keys: [`seat:${a.seat}`] };
    default:
      break;
  }
  const rest = Object.keys(a).filter((k) => k !== 'type')
    .map((k) => `${k} ${typeof a[k] === 'string' && CARDS[a[k]] ? cardName(a[k]) : a[k]}`).join(', ');
  return { group: 'Other', label: `${cap(String(a.type || 'action').replace(/_/g, ' '))}${rest ? `: ${rest}` : ''}`, keys: [] };
}

// Who acts now and what they decide, without the round and phase.
function nowLine(view, seat, names) {
  if (view.result) return `Game over. ${endLine(view, names, seat)}.`;
  if (view.decision) return decisionLine(view, names, seat);
  const active = Array.isArray(view.active) ? view.active : [];
  if (view.phase === 'actions' && active.length === 1) {
    if (active[0] === seat) return 'Your turn: place, claim, discard, use a power or pass.';
    return `${seatName(view, active[0], names)}'s turn.`;
  }
  if (active.length) return `To act: ${active.map((s) => who(view, names, s, seat)).join(', ')}.`;
  return '';
}

export function status(view, seat, names) {
  if (!view) return '';
  if (view.result) return nowLine(view, seat, names);
  const round = view.round ? `Round ${view.round}, ` : '';
  const head = cap(`${round}${PHASES[view.phase] || view.phase}`);
  const now = nowLine(view, seat, names);
  return now ? `${head}. ${now}` : `${head}.`;
}

export function results(view, names) {
  const res = (view && view.result) || {};
  const scores = Array.isArray(res.scores) ? res.scores : [];
  const tie = Array.isArray(res.tiebreak) ? res.tiebreak : [];
  const seats = Array.isArray(view && view.seats) ? view.seats : [];
  const duel = Array.isArray(res.games);
  return seats.map((s, i) => {
    const detail = [];
    if (duel) {
      detail.push(`${plural(scores[i] || 0, 'game', 'games')} won`);
      res.games.forEach((g, n) => {
        const w = Array.isArray(g.winners) ? g.winners : [];
        const how = w.length > 1 && w.includes(i) ? 'shared' : w.includes(i) ? 'won' : 'lost';
        detail.push(`game ${n + 1} ${how}`);
      });
    } else {
      detail.push(`${scores[i] || 0} VP`);
    }
    if (tie[i] !== undefined) detail.push(`tiebreak ${tie[i]} (pool, Gold counts 2)`);
    if (res.round_limit) detail.push('round limit');
    return { seat: i, score: scores[i] !== undefined ? scores[i] : 0, detail: detail.join('; ') };
  });
}

// ---- Drawing ----

// One essence with its letter and count: "E 2" in Elan's colour, read
// "2 Elan".
function essBadge(key, n) {
  const e = essence(key);
  const word = e ? e.word : key;
  return h('span', { class: `ess e-${key}`, title: `${n} ${word}` },
    h('b', { 'aria-hidden': 'true' }, e ? e.letter : '?'), h('span', { class: 'ess-n' }, String(n)), srOnly(` ${word}`));
}

function costBadges(cost) {
  const box = h('span', { class: 'ar-cost' });
  if (!cost) return box;
  let any = false;
  for (const e of ESSENCES) {
    if (cost[e.key] > 0) {
      box.append(essBadge(e.key, cost[e.key]));
      any = true;
    }
  }
  if (cost.any > 0) {
    const b = h('span', { class: 'ess e-any' }, h('b', {}, 'any'), h('span', { class: 'ess-n' }, String(cost.any)));
    b.title = `any ${cost.any} essences`;
    box.append(b);
    any = true;
  }
  if (!any) box.append(h('span', { class: 'ess e-free' }, 'free'));
  box.setAttribute('aria-label', `cost ${essenceWords(cost)}`);
  return box;
}

// Essences on a card (only the types present); null when none.
function onCard(map) {
  const list = ESSENCES.filter((e) => map && map[e.key] > 0);
  if (!list.length) return null;
  return h('div', { class: 'ar-on' }, 'On it: ', ...list.map((e) => essBadge(e.key, map[e.key])));
}

// A face-up card: name, cost, type and VP, its state in play (turned or
// straight, essences on it, owner), and its text. `comp` is the view's
// component object ({card, essences, turned}) or null for a card not in
// play; `extra` a line of words (owner, "being placed", ...).
function drawCard(id, ctx, ks, comp, extra) {
  const c = card(id);
  const el = h('article', { class: `ar-card k-${c ? c.kind : 'unknown'}` });
  const head = h('div', { class: 'ar-card-head' }, h('span', { class: 'ar-name' }, cardName(id)));
  if (c && c.cost) head.append(costBadges(c.cost));
  el.append(head);
  const type = c ? c.type + (c.vp ? ` \u00b7 ${c.vp}` : '') : '';
  if (type) el.append(h('div', { class: 'ar-type' }, type));
  if (comp) {
    const turned = !!comp.turned;
    el.classList.add(turned ? 'turned' : 'straight');
    el.append(h('div', { class: `ar-state${turned ? ' is-turned' : ''}` }, turned ? '\u21b7 Turned' : 'Straight'));
    const on = onCard(comp.essences);
    if (on) el.append(on);
  }
  if (extra) el.append(h('div', { class: 'ar-extra' }, extra));
  if (c) {
    if (c.side) el.append(h('div', { class: 'ar-line ar-side' }, c.side));
    const text = h('ul', { class: 'ar-text' });
    for (const line of c.lines) text.append(h('li', {}, line));
    if (c.lines.length) el.append(text);
    if (c.notes.length) el.title = c.notes.join('\n');
  }
  // Named by its words: "Athanor, 1 Elan 1 Gold, Artifact, Turned, On it:
  // 2 Elan, Owned by Bo, Power 0: ...".
  return keyed(el, `card:${id}`, { short: cardName(id) }, ctx, ks);
}

function cardRow(ids, ctx, ks, extraOf) {
  const row = h('div', { class: 'ar-cards' });
  for (const id of ids) row.append(drawCard(id, ctx, ks, null, extraOf ? extraOf(id) : null));
  return row;
}

function section(cls, title, ...children) {
  const box = h('section', { class: `ar-box ${cls}` });
  const head = h('h3', {}, ...(Array.isArray(title) ? title : [title]));
  box.append(head, ...children.filter(Boolean));
  return box;
}

function drawHeader(view, ctx) {
  const board = view.board || {};
  const bits = [];
  if (view.round) bits.push(`round ${view.round}`);
  bits.push(PHASES[view.phase] || String(view.phase));
  const head = h('div', { class: 'ar-head' }, h('strong', {}, 'Res Arcana'), ` \u2014 ${bits.join(', ')}`);
  if (Number.isInteger(board.first)) {
    head.append(h('span', { class: 'ar-first' }, `First Player: ${who(view, ctx.names, board.first, ctx.seat)}${board.first_passed ? ' (passed side)' : ''}`));
  }
  const m = view.match;
  if (m && typeof m === 'object') {
    const score = Array.isArray(m.score) ? m.score : [0, 0];
    const done = (m.results || []).map((r, i) => {
      const w = Array.isArray(r.winners) ? r.winners : [];
      return `game ${i + 1}: ${w.length === 1 ? `${seatName(view, w[0], ctx.names)} won` : 'shared'}`;
    });
    head.append(h('div', { class: 'ar-duel' }, `Duel, game ${m.game} of 3: ${seatName(view, 0, ctx.names)} ${score[0]} \u2013 ${score[1]} ${seatName(view, 1, ctx.names)}${done.length ? `; ${done.join(', ')}` : ''}`));
  }
  return head;
}

function drawDecision(view, ctx) {
  const d = view.decision;
  const line = nowLine(view, ctx.seat, ctx.names) || 'Waiting.';
  const mine = Array.isArray(view.active) && view.active.includes(ctx.seat) && !view.result;
  const box = h('section', { class: `ar-box ar-decision${mine ? ' mine' : ''}` });
  const title = h('h3', {}, mine ? 'Your decision' : 'Now');
  if (mine) title.append(' ', h('span', { class: 'ar-yours' }, 'yours'));
  box.append(title, h('p', {}, line));
  if (d && typeof d.placing === 'string') {
    box.append(h('p', { class: 'ar-small' }, `Being placed: ${cardName(d.placing)} (printed cost ${costWords(d.placing)}).`));
  }
  return box;
}

// What only this seat sees: the hand and the private parts of setup, the
// draft and a look at a deck. Marked as yours.
function drawYou(view, ctx, ks) {
  const you = view.you;
  if (!you || typeof you !== 'object') return null;
  const box = h('section', { class: 'ar-box ar-you mine' });
  box.append(h('h3', {}, 'Only you see this ', h('span', { class: 'ar-yours' }, 'yours')));
  const parts = [
    ['mages', view.phase === 'setup_mage' ? 'Your two mages: keep one' : 'Your two mages'],
    ['pack', 'Your draft pack'],
    ['looking', 'You are looking at (top first)'],
    ['hand', 'Your hand'],
    ['kept', 'Drafted so far'],
    ['deck_top', 'The known top of your deck'],
    ['monument_top', 'The known top of the monument deck'],
  ];
  for (const [key, label] of parts) {
    const ids = Array.isArray(you[key]) ? you[key] : [];
    if (key !== 'hand' && !ids.length) continue;
    box.append(h('h4', {}, `${label} (${ids.length})`));
    box.append(ids.length ? cardRow(ids, ctx, ks) : h('p', { class: 'ar-small' }, 'No cards.'));
  }
  if (typeof you.mage === 'string' && view.phase === 'setup_mage') {
    box.append(h('p', {}, `Your mage (secret until everyone has chosen): ${cardName(you.mage)}.`));
  }
  if (typeof you.pick === 'string') {
    box.append(h('p', {}, `Your pick (secret until everyone has picked): ${cardName(you.pick)}.`));
  }
  return box;
}

function drawShared(view, ctx, ks) {
  const board = view.board || {};
  const out = [];
  const display = Array.isArray(board.display) ? board.display : [];
  const deck = h('div', { class: 'ar-deck' }, h('strong', {}, 'Monument deck'), h('span', {}, `${plural(board.monument_deck || 0, 'card', 'cards')} face down`));
  keyed(deck, 'monument_deck', { short: 'the monument deck' }, ctx, ks);
  const monuments = cardRow(display, ctx, ks);
  monuments.prepend(deck);
  out.push(section('ar-monuments', 'Monuments (4 Gold each)', monuments));
  const pops = Array.isArray(board.pops) ? board.pops : [];
  if (pops.length) {
    const row = h('div', { class: 'ar-cards' });
    for (const p of pops) {
      const owner = Number.isInteger(p.owner) ? `Owned by ${who(view, ctx.names, p.owner, ctx.seat)}` : 'Unclaimed';
      row.append(drawCard(p.card, ctx, ks, Number.isInteger(p.owner) ? p : null, owner));
    }
    out.push(section('ar-pops', 'Places of Power', row));
  }
  const supply = Array.isArray(board.supply) ? board.supply : [];
  if (supply.length) {
    const items = section('ar-supply', 'Magic items in the supply', cardRow(supply, ctx, ks));
    if (choosing(view, 'item')) out.unshift(items);
    else out.push(items);
  }
  const m = view.match;
  if (m && Array.isArray(m.pool) && m.pool.length) {
    out.unshift(section('ar-pool', 'Duel: face-up cards to draft', cardRow(m.pool, ctx, ks)));
  }
  return out;
}

// Whether the open decision is a choice of kind `kind`.
function choosing(view, kind) {
  return !!(view.decision && view.decision.kind === kind);
}

function drawPool(view, i, s, ctx, ks) {
  const pool = h('div', { class: 'ar-pool-row' });
  pool.append(h('span', { class: 'ar-label' }, 'Pool'));
  for (const e of ESSENCES) {
    const n = s.pool && s.pool[e.key] !== undefined ? s.pool[e.key] : 0;
    const badge = essBadge(e.key, n);
    badge.prepend(srOnly(`${seatName(view, i, ctx.names)}'s pool: `));
    pool.append(keyed(badge, `pool:${i}:${e.key}`, { short: `${seatName(view, i, ctx.names)}'s ${e.word}` }, ctx, ks));
  }
  return pool;
}

function drawSeat(view, i, ctx, ks) {
  const s = view.seats[i];
  const board = view.board || {};
  const me = i === ctx.seat;
  const box = h('section', { class: `ar-box ar-seat${me ? ' mine' : ''}${s.passed ? ' passed' : ''}` });
  const name = seatName(view, i, ctx.names);
  // The name is the player's board element; the heading stays a heading.
  const title = h('h3', { class: 'ar-seat-head' },
    keyed(h('span', { class: 'ar-seat-name' }, name), `seat:${i}`, `Player ${name}, ${s.vp || 0} VP`, ctx, ks));
  if (me) title.append(' ', h('span', { class: 'ar-yours' }, 'you'));
  title.append(' ', h('span', { class: 'ar-vp' }, `${s.vp || 0} VP`));
  if (board.first === i) title.append(' ', h('span', { class: 'ar-tag' }, board.first_passed ? 'First Player (passed side)' : 'First Player'));
  if (s.passed) title.append(' ', h('span', { class: 'ar-tag' }, 'Passed'));
  if (Array.isArray(view.active) && view.active.includes(i) && !view.result) title.append(' ', h('span', { class: 'ar-tag ar-act' }, '\u25b6 to act'));
  box.append(title);
  box.append(drawPool(view, i, s, ctx, ks));
  const counts = h('div', { class: 'ar-counts' }, h('span', {}, `Hand ${s.hand || 0}`));
  counts.append(keyed(h('span', { class: 'ar-decksize' }, srOnly(`${name}'s `), `Deck ${s.deck || 0}`), `deck:${i}`, { short: `${name}'s deck` }, ctx, ks));
  if (s.looked && typeof s.looked === 'object') {
    counts.append(h('span', {}, `looked at ${plural(s.looked.count, 'card', 'cards')} of ${s.looked.deck === 'monument' ? 'the monument deck' : 'their own deck'}`));
  }
  if (view.phase === 'setup_mage') counts.append(h('span', {}, s.mage_chosen ? 'mage chosen' : 'still choosing a mage'));
  if (view.phase === 'draft') counts.append(h('span', {}, `kept ${s.kept || 0}; ${s.picked ? 'has picked' : 'still picking'}`));
  box.append(counts);
  const play = Array.isArray(s.play) ? s.play : [];
  if (play.length) {
    const row = h('div', { class: 'ar-cards' });
    for (const c of play) row.append(drawCard(c.card, ctx, ks, c, null));
    box.append(row);
  } else if (typeof s.mage === 'string' || typeof s.item === 'string') {
    const ids = [s.mage, s.item].filter((x) => typeof x === 'string');
    box.append(cardRow(ids, ctx, ks));
  }
  const discard = Array.isArray(s.discard) ? s.discard : [];
  if (discard.length) {
    const det = h('details', { class: 'ar-discard' });
    if (discard.some((id) => ks.targets.has(`card:${id}`) || ks.selected === `card:${id}`)) det.open = true;
    det.append(h('summary', {}, `Discard pile (${discard.length}): ${discard.map(cardName).join(', ')}`));
    det.append(cardRow(discard, ctx, ks));
    box.append(det);
  }
  return box;
}

export function render(root, view, ctx) {
  const c = Object.assign({ seat: null, names: [], legal: [], focus: null, setFocus: null, pick: null }, ctx || {});
  const ks = keyState(describe, view, c);
  const wrap = h('div', { class: 'ar' });
  wrap.append(drawHeader(view, c), drawDecision(view, c));
  const you = drawYou(view, c, ks);
  if (you) wrap.append(you);
  const seats = Array.isArray(view.seats) ? view.seats : [];
  const order = seats.map((_, i) => i);
  if (Number.isInteger(c.seat) && c.seat >= 0 && c.seat < seats.length) {
    order.sort((a, b) => ((a - c.seat + seats.length) % seats.length) - ((b - c.seat + seats.length) % seats.length));
  }
  const tableaux = h('div', { class: 'ar-seats' });
  for (const i of order) tableaux.append(drawSeat(view, i, c, ks));
  const shared = h('div', { class: 'ar-shared' }, ...drawShared(view, c, ks));
  // The table comes first while its cards are what is being chosen (a
  // magic item, a duel's face-up draft); else the players' tableaux.
  if (choosing(view, 'item') || choosing(view, 'match_draft')) wrap.append(shared, tableaux);
  else wrap.append(tableaux, shared);
  root.append(wrap);
}
