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
import { addPhrases, t } from '../lib/i18n.js';
import { seatName } from '../lib/words.js';
import { zhCNArcana } from '../i18n/zh-CN-arcana.js';
import { CARDS } from './arcana_texts.js';
import { fillCards, gameWords } from './catalogue.js';
import { keyState, keyed } from './keys.js';

addPhrases('zh-CN', zhCNArcana);
const W = gameWords('arcana');

// Each essence: its letter (the terminal client's) and word; `zh` its one
// character in Chinese, shown in place of the letter. Colour goes with the
// class e-<key>.
const ESSENCES = [
  { key: 'elan', letter: 'E', word: 'Elan', zh: '热' },
  { key: 'life', letter: 'L', word: 'Life', zh: '生' },
  { key: 'calm', letter: 'C', word: 'Calm', zh: '冷' },
  { key: 'death', letter: 'D', word: 'Death', zh: '死' },
  { key: 'gold', letter: 'G', word: 'Gold', zh: '金' },
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

// A card's printed name (the catalogue's in the reader's language); its
// id when the table does not know it.
function cardName(id) {
  const c = card(id);
  return W.card(id, c ? c.name : String(id));
}

// A card's words in the reader's language: type line, VP, text lines,
// powers by index, board side, notes, what ignoring its attack costs.
function cardText(id) {
  const c = card(id);
  if (!c) return null;
  const zh = W.local() && c.zh ? c.zh : null;
  const src = zh || c;
  const fill = (text) => (zh ? fillCards(text, cardName) : text);
  const powers = {};
  for (const [k, v] of Object.entries(src.powers)) powers[k] = fill(v);
  return {
    type: src.type,
    vp: src.vp,
    lines: src.lines.map(fill),
    powers,
    side: src.side ? fill(src.side) : '',
    notes: src.notes.map(fill),
    ignore: src.ignore ? fill(src.ignore) : '',
  };
}

function essence(key) {
  return ESSENCES.find((e) => e.key === key) || null;
}

// An essence's word, as the log says it (the catalogue's terms).
function essWord(key) {
  const e = essence(key);
  return W.term('essence', key, e ? e.word : String(key));
}

function phaseWord(phase) {
  return W.term('phase', phase, PHASES[phase] || String(phase));
}

// "Bo" or "you" (as the subject of a sentence: "You").
function who(view, names, seat, me) {
  return seat === me ? t('you') : seatName(view, seat, names);
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function hasEssences(map) {
  return !!map && (ESSENCES.some((e) => map[e.key] > 0) || map.any > 0);
}

// "1 Elan + 2 Gold" from an essence map ("any N" too); "nothing".
function essenceWords(map) {
  const parts = [];
  for (const e of ESSENCES) {
    if (map && map[e.key] > 0) parts.push(`${map[e.key]} ${essWord(e.key)}`);
  }
  if (map && map.any > 0) parts.push(t('any {n}', { n: map.any }));
  return parts.length ? parts.join(' + ') : t('nothing');
}

// A card's printed cost in words; '' for a card without one.
function costWords(id) {
  const c = card(id);
  if (!c || !c.cost) return '';
  return essenceWords(c.cost);
}

// "1 card", "3 cards"; "1 game", "2 games".
function cards(n) {
  return n === 1 ? t('1 card') : t('{n} cards', { n });
}

function games(n) {
  return n === 1 ? t('1 game') : t('{n} games', { n });
}

// What the open decision is for: "Vault's power 1", "Vault", "Collect".
function cause(d, phase) {
  if (!d || typeof d.card !== 'string') return phase === 'collect' ? phaseWord('collect') : t('the action');
  if (Number.isInteger(d.power)) return t("{card}'s power {n}", { card: cardName(d.card), n: d.power });
  return cardName(d.card);
}

// Choosing a card of the open decision: "Destroy Vault".
function targetWords(why, name) {
  switch (why) {
    case 'destroy':
      return t('Destroy {card}', { card: name });
    case 'discard':
      return t('Discard {card}', { card: name });
    case 'place':
      return t('Place {card}', { card: name });
    case 'straighten':
      return t('Straighten {card}', { card: name });
    case 'turn':
      return t('Turn {card}', { card: name });
    case 'receive':
      return t('Put the essence on {card}', { card: name });
    default:
      return t('Choose {card}', { card: name });
  }
}

// The open decision as a sentence without its subject ("pay 3 more for
// placing Vault"); simultaneous choices name no one.
function decisionWords(view, names, me) {
  const d = view.decision;
  const phase = view.phase;
  const why = cause(d, phase);
  const paid = d && hasEssences(d.paid) ? essenceWords(d.paid) : null;
  switch (d.kind) {
    case 'pay': {
      const what = typeof d.placing === 'string' ? t('placing {card}', { card: cardName(d.placing) }) : why;
      return paid ? t('pay for {what}: {n} more to pay (paid so far: {paid})', { what, n: d.left, paid })
        : t('pay for {what}: {n} more to pay', { what, n: d.left });
    }
    case 'same':
      return t('choose the one type to pay X essences of, for {why}', { why });
    case 'same_more':
      return t('pay one more of the same type for {why}, or stop (paid so far: {paid})', { why, paid: paid || t('nothing') });
    case 'gain':
      return (d.left || 0) === 1 ? t('gain 1 more essence from {why}', { why }) : t('gain {n} more essences from {why}', { n: d.left || 0, why });
    case 'gain_discard':
      return t('gain for discarding {card}: 1 Gold, or 2 other essences one at a time', { card: typeof d.card === 'string' ? cardName(d.card) : t('a card') });
    case 'target': {
      const purpose = d.why === 'receive' ? t('receive the paid essence') : d.why ? W.term('why', d.why, d.why) : t('choose');
      if (Number.isInteger(d.attacker)) {
        return t("choose a card to {purpose}, to ignore the attack of {name}'s {card}", { purpose, name: seatName(view, d.attacker, names), card: cardName(d.card) });
      }
      return t('choose a card to {purpose}, for {why}', { purpose, why });
    }
    case 'rival':
      return t('pick a rival for {why}', { why });
    case 'deck':
      return t('choose the deck to look at, for {why}', { why });
    case 'order':
      return t('put the looked-at cards back, naming the next card from the top');
    case 'respond':
      return t("answer {name}'s {why}: lose {n} Life, ignore it, or react", { name: seatName(view, d.attacker, names), why, n: d.amount });
    case 'lose':
      return (d.left || 0) === 1 ? t('lose 1 more essence (not Life) to {why}', { why }) : t('lose {n} more essences (not Life) to {why}', { n: d.left || 0, why });
    case 'statue':
      return t('use the {card} (turn it, pay 3 Gold) for +3 VP at this victory check, or not', { card: cardName('golden_statue') });
    case 'item':
      return t('take a magic item from the supply');
    case 'take':
      return t('take all the essences off {card}, or leave them on it', { card: cardName(d.card) });
    case 'forge':
      return t('pay 1 Death for the {card}, or turn it', { card: cardName('cursed_forge') });
    case 'mage':
      return t('keep one of the two mages (secret until everyone has chosen)');
    case 'draft':
      return t('draft one card of the pack (secret until everyone has picked)');
    case 'match_draft':
      return t('draft a face-up card for the next game');
    case 'first':
      return t('choose who is First Player of the next game');
    default:
      return t('decide ({kind})', { kind: String(d.kind).replace(/_/g, ' ') });
  }
}

// Who decides and what, in one sentence.
function decisionLine(view, names, me) {
  const d = view.decision;
  const words = decisionWords(view, names, me);
  if (d.kind === 'mage' || d.kind === 'draft') {
    const active = Array.isArray(view.active) ? view.active : [];
    const waiting = active.map((s) => (s === me ? t('you') : seatName(view, s, names)));
    const first = active.includes(me) ? t('You: {words}', { words }) : cap(words);
    return t('{first}. Waiting for {waiting}.', { first, waiting: waiting.join(t(', ')) || t('nobody') });
  }
  const seat = Number.isInteger(d.seat) ? d.seat : (view.active || [])[0];
  return t('{who}: {words}.', { who: cap(who(view, names, seat, me)), words });
}

function endLine(view, names, me) {
  const res = view.result || {};
  const winners = Array.isArray(res.winners) ? res.winners : [];
  const duel = Array.isArray(res.games);
  const scores = Array.isArray(res.scores) ? res.scores : [];
  let line;
  if (winners.length === 1) {
    const s = scores[winners[0]];
    const name = cap(seatName(view, winners[0], names));
    if (winners[0] === me) line = duel ? t('You win the duel ({games} won)', { games: games(s) }) : t('You win with {n} VP', { n: s });
    else line = duel ? t('{name} wins the duel ({games} won)', { name, games: games(s) }) : t('{name} wins with {n} VP', { name, n: s });
  } else if (winners.length > 1) {
    line = t('{names} share the win', { names: cap(winners.map((s) => who(view, names, s, me)).join(t(' and '))) });
  } else {
    line = t('Nobody wins');
  }
  if (res.round_limit) line += t(' (the round limit ended the game)');
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
  const name = (id) => cardName(id);
  switch (a.type) {
    case 'place': {
      const c = card(a.card);
      const label = !c || !c.cost ? t('Place {card}', { card: name(a.card) })
        : hasEssences(c.cost) ? t('Place {card} (printed cost {cost})', { card: name(a.card), cost: costWords(a.card) })
          : t('Place {card} (free)', { card: name(a.card) });
      return { group: t('Place an artifact'), label, keys: cardKey(a.card) };
    }
    case 'monument':
      if (a.card === 'deck') {
        return { group: t('Claim'), label: t('Claim the top monument of the deck, unseen, for 4 Gold'), keys: ['monument_deck'] };
      }
      return { group: t('Claim'), label: t('Claim the monument {card} for 4 Gold', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'pop':
      return { group: t('Claim'), label: t('Claim the Place of Power {card} for {cost}', { card: name(a.card), cost: costWords(a.card) || t('its cost') }), keys: cardKey(a.card) };
    case 'discard':
      return { group: t('Discard for essences'), label: t('Discard {card} for 1 Gold or 2 other essences', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'power': {
      const text = cardText(a.card);
      const power = text && text.powers[String(a.power)];
      const label = power ? t('{card}, power {n}: {text}', { card: name(a.card), n: a.power, text: power })
        : t('{card}, power {n}', { card: name(a.card), n: a.power });
      return { group: t('Use a power'), label, keys: cardKey(a.card) };
    }
    case 'pass':
      return { group: t('Pass'), label: t('Pass: swap your magic item, then draw 1 card'), keys: [] };
    case 'pay':
      return { group: t('Pay'), label: t('Pay 1 {essence}', { essence: essWord(a.essence) }), keys: poolKey(a.essence) };
    case 'same':
      if (a.essence === 'none') return { group: t('Pay'), label: t('Pay none of any type (X = 0)'), keys: [] };
      return { group: t('Pay'), label: t('Pay X in {essence}, starting with 1', { essence: essWord(a.essence) }), keys: poolKey(a.essence) };
    case 'more': {
      const type = ESSENCES.find((e) => d.paid && d.paid[e.key] > 0);
      return {
        group: t('Pay'),
        label: type ? t('Pay 1 more {essence}', { essence: essWord(type.key) }) : t('Pay one more of that type'),
        keys: type ? poolKey(type.key) : [],
      };
    }
    case 'done':
      return { group: t('Pay'), label: t('Pay no more of that type'), keys: [] };
    case 'gain':
      return { group: t('Gain'), label: t('Gain 1 {essence}', { essence: essWord(a.essence) }), keys: poolKey(a.essence) };
    case 'lose':
      return { group: t('Lose essences'), label: t('Lose 1 {essence}', { essence: essWord(a.essence) }), keys: poolKey(a.essence) };
    case 'target': {
      if (a.card === 'none') return { group: t('Choose a card'), label: t('Choose no card'), keys: [] };
      const attack = Number.isInteger(d.attacker) ? t(' to ignore the attack') : '';
      return { group: t('Choose a card'), label: `${targetWords(d.why, name(a.card))}${attack}`, keys: cardKey(a.card) };
    }
    case 'rival':
      return { group: t('Choose a rival'), label: t('Choose {name} as the rival', { name: seatName(v, a.seat, null) }), keys: [`seat:${a.seat}`] };
    case 'deck':
      if (a.deck === 'own') return { group: t('Look at a deck'), label: t('Look at your own deck'), keys: [`deck:${me}`] };
      return { group: t('Look at a deck'), label: t('Look at the monument deck'), keys: ['monument_deck'] };
    case 'order':
      return { group: t('Put the cards back'), label: t('Put {card} next from the top', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'respond': {
      if (a.with === 'lose') {
        const label = d.amount !== undefined ? t('Take it: lose {n} Life', { n: d.amount }) : t('Take it: lose the Life');
        return { group: t('Answer the attack'), label, keys: poolKey('life') };
      }
      if (a.with === 'ignore') {
        const c = card(d.card);
        const text = cardText(d.card);
        const cost = text && text.ignore ? text.ignore : t("pay the attack's ignore cost");
        const keys = typeof d.card === 'string' ? cardKey(d.card) : [];
        for (const e of ESSENCES) if (c && c.ignore_pay && c.ignore_pay[e.key]) keys.push(...poolKey(e.key));
        return { group: t('Answer the attack'), label: t('Ignore it: {cost}', { cost }), keys };
      }
      if (a.with === 'react') {
        const text = cardText(a.card);
        const power = text && text.powers[String(a.power)];
        const label = power ? t('React with {card}, power {n}: {text}', { card: name(a.card), n: a.power, text: power })
          : t('React with {card}, power {n}', { card: name(a.card), n: a.power });
        return { group: t('Answer the attack'), label, keys: cardKey(a.card) };
      }
      break;
    }
    case 'statue':
      return {
        group: name('golden_statue'),
        label: a.use ? t('Use the {card}: turn it, pay 3 Gold, +3 VP at this check', { card: name('golden_statue') })
          : t('Do not use the {card}', { card: name('golden_statue') }),
        keys: cardKey('golden_statue'),
      };
    case 'item':
      return { group: t('Take a magic item'), label: t('Take {card}', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'take':
      return { group: phaseWord('collect'), label: t('Take the essences off {card}', { card: name(d.card) }), keys: typeof d.card === 'string' ? cardKey(d.card) : [] };
    case 'leave':
      return { group: phaseWord('collect'), label: t('Leave the essences on {card}', { card: name(d.card) }), keys: typeof d.card === 'string' ? cardKey(d.card) : [] };
    case 'forge':
      return {
        group: phaseWord('collect'),
        label: a.with === 'pay' ? t('Pay 1 Death for the {card}', { card: name('cursed_forge') }) : t('Turn the {card}', { card: name('cursed_forge') }),
        keys: a.with === 'pay' ? [...cardKey('cursed_forge'), ...poolKey('death')] : cardKey('cursed_forge'),
      };
    case 'mage':
      return { group: t('Choose your mage'), label: t('Keep the mage {card}', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'draft':
      return { group: t('Draft'), label: t('Draft {card}', { card: name(a.card) }), keys: cardKey(a.card) };
    case 'first':
      return {
        group: t('Next game'),
        label: a.seat === seat ? t('You are First Player of the next game')
          : t('{name} is First Player of the next game', { name: cap(seatName(v, a.seat, null)) }),
        keys: [`seat:${a.seat}`],
      };
    default:
      break;
  }
  const rest = Object.keys(a).filter((k) => k !== 'type')
    .map((k) => `${k} ${typeof a[k] === 'string' && CARDS[a[k]] ? cardName(a[k]) : a[k]}`).join(', ');
  return { group: t('Other'), label: `${cap(String(a.type || 'action').replace(/_/g, ' '))}${rest ? `: ${rest}` : ''}`, keys: [] };
}

// Who acts now and what they decide, without the round and phase.
function nowLine(view, seat, names) {
  if (view.result) return t('Game over. {end}.', { end: endLine(view, names, seat) });
  if (view.decision) return decisionLine(view, names, seat);
  const active = Array.isArray(view.active) ? view.active : [];
  if (view.phase === 'actions' && active.length === 1) {
    if (active[0] === seat) return t('Your turn: place, claim, discard, use a power or pass.');
    return t("{name}'s turn.", { name: seatName(view, active[0], names) });
  }
  if (active.length) return t('To act: {names}.', { names: active.map((s) => who(view, names, s, seat)).join(t(', ')) });
  return '';
}

export function status(view, seat, names) {
  if (!view) return '';
  if (view.result) return nowLine(view, seat, names);
  const head = view.round ? t('Round {n}, {phase}', { n: view.round, phase: phaseWord(view.phase) }) : cap(phaseWord(view.phase));
  const now = nowLine(view, seat, names);
  return now ? t('{head}. {now}', { head, now }) : t('{head}.', { head });
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
      detail.push(t('{games} won', { games: games(scores[i] || 0) }));
      res.games.forEach((g, n) => {
        const w = Array.isArray(g.winners) ? g.winners : [];
        if (w.length > 1 && w.includes(i)) detail.push(t('game {n} shared', { n: n + 1 }));
        else if (w.includes(i)) detail.push(t('game {n} won', { n: n + 1 }));
        else detail.push(t('game {n} lost', { n: n + 1 }));
      });
    } else {
      detail.push(t('{n} VP', { n: scores[i] || 0 }));
    }
    if (tie[i] !== undefined) detail.push(t('tiebreak {n} (pool, Gold counts 2)', { n: tie[i] }));
    if (res.round_limit) detail.push(t('round limit'));
    return { seat: i, score: scores[i] !== undefined ? scores[i] : 0, detail: detail.join(t('; ')) };
  });
}

// ---- Drawing ----

// One essence with its letter and count: "E 2" in Elan's colour, read
// "2 Elan".
function essBadge(key, n) {
  const e = essence(key);
  const word = essWord(key);
  const letter = e ? (W.local() ? e.zh : e.letter) : '?';
  return h('span', { class: `ess e-${key}`, title: `${n} ${word}` },
    h('b', { 'aria-hidden': 'true' }, letter), h('span', { class: 'ess-n' }, String(n)), srOnly(` ${word}`));
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
    const b = h('span', { class: 'ess e-any' }, h('b', {}, t('any')), h('span', { class: 'ess-n' }, String(cost.any)));
    b.title = t('any {n} essences', { n: cost.any });
    box.append(b);
    any = true;
  }
  if (!any) box.append(h('span', { class: 'ess e-free' }, t('free')));
  box.setAttribute('aria-label', t('cost {essences}', { essences: essenceWords(cost) }));
  return box;
}

// Essences on a card (only the types present); null when none.
function onCard(map) {
  const list = ESSENCES.filter((e) => map && map[e.key] > 0);
  if (!list.length) return null;
  return h('div', { class: 'ar-on' }, t('On it: '), ...list.map((e) => essBadge(e.key, map[e.key])));
}

// A face-up card: name, cost, type and VP, its state in play (turned or
// straight, essences on it, owner), and its text. `comp` is the view's
// component object ({card, essences, turned}) or null for a card not in
// play; `extra` a line of words (owner, "being placed", ...).
function drawCard(id, ctx, ks, comp, extra) {
  const c = card(id);
  const words = cardText(id);
  const el = h('article', { class: `ar-card k-${c ? c.kind : 'unknown'}` });
  const head = h('div', { class: 'ar-card-head' }, h('span', { class: 'ar-name' }, cardName(id)));
  if (c && c.cost) head.append(costBadges(c.cost));
  el.append(head);
  const type = words ? words.type + (words.vp ? ` \u00b7 ${words.vp}` : '') : '';
  if (type) el.append(h('div', { class: 'ar-type' }, type));
  if (comp) {
    const turned = !!comp.turned;
    el.classList.add(turned ? 'turned' : 'straight');
    el.append(h('div', { class: `ar-state${turned ? ' is-turned' : ''}` }, turned ? t('↷ Turned') : t('Straight')));
    const on = onCard(comp.essences);
    if (on) el.append(on);
  }
  if (extra) el.append(h('div', { class: 'ar-extra' }, extra));
  if (words) {
    if (words.side) el.append(h('div', { class: 'ar-line ar-side' }, words.side));
    const text = h('ul', { class: 'ar-text' });
    for (const line of words.lines) text.append(h('li', {}, line));
    if (words.lines.length) el.append(text);
    if (words.notes.length) el.title = words.notes.join('\n');
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
  const when = view.round ? t('round {n}, {phase}', { n: view.round, phase: phaseWord(view.phase) }) : phaseWord(view.phase);
  const head = h('div', { class: 'ar-head' }, h('strong', {}, t('Res Arcana')), ` \u2014 ${when}`);
  if (Number.isInteger(board.first)) {
    const first = who(view, ctx.names, board.first, ctx.seat);
    head.append(h('span', { class: 'ar-first' }, board.first_passed ? t('First Player: {name} (passed side)', { name: first }) : t('First Player: {name}', { name: first })));
  }
  const m = view.match;
  if (m && typeof m === 'object') {
    const score = Array.isArray(m.score) ? m.score : [0, 0];
    const done = (m.results || []).map((r, i) => {
      const w = Array.isArray(r.winners) ? r.winners : [];
      return w.length === 1 ? t('game {n}: {name} won', { n: i + 1, name: seatName(view, w[0], ctx.names) }) : t('game {n}: shared', { n: i + 1 });
    });
    const line = t('Duel, game {n} of 3: {a} {x} – {y} {b}', { n: m.game, a: seatName(view, 0, ctx.names), x: score[0], y: score[1], b: seatName(view, 1, ctx.names) });
    head.append(h('div', { class: 'ar-duel' }, done.length ? `${line}${t('; ')}${done.join(t(', '))}` : line));
  }
  return head;
}

function drawDecision(view, ctx) {
  const d = view.decision;
  const line = nowLine(view, ctx.seat, ctx.names) || t('Waiting.');
  const mine = Array.isArray(view.active) && view.active.includes(ctx.seat) && !view.result;
  const box = h('section', { class: `ar-box ar-decision${mine ? ' mine' : ''}` });
  const title = h('h3', {}, mine ? t('Your decision') : t('Now'));
  if (mine) title.append(' ', h('span', { class: 'ar-yours' }, t('yours')));
  box.append(title, h('p', {}, line));
  if (d && typeof d.placing === 'string') {
    box.append(h('p', { class: 'ar-small' }, t('Being placed: {card} (printed cost {cost}).', { card: cardName(d.placing), cost: costWords(d.placing) })));
  }
  return box;
}

// What only this seat sees: the hand and the private parts of setup, the
// draft and a look at a deck. Marked as yours.
function drawYou(view, ctx, ks) {
  const you = view.you;
  if (!you || typeof you !== 'object') return null;
  const box = h('section', { class: 'ar-box ar-you mine' });
  box.append(h('h3', {}, t('Only you see this '), h('span', { class: 'ar-yours' }, t('yours'))));
  const parts = [
    ['mages', view.phase === 'setup_mage' ? t('Your two mages: keep one') : t('Your two mages')],
    ['pack', t('Your draft pack')],
    ['looking', t('You are looking at (top first)')],
    ['hand', t('Your hand')],
    ['kept', t('Drafted so far')],
    ['deck_top', t('The known top of your deck')],
    ['monument_top', t('The known top of the monument deck')],
  ];
  for (const [key, label] of parts) {
    const ids = Array.isArray(you[key]) ? you[key] : [];
    if (key !== 'hand' && !ids.length) continue;
    box.append(h('h4', {}, t('{label} ({n})', { label, n: ids.length })));
    box.append(ids.length ? cardRow(ids, ctx, ks) : h('p', { class: 'ar-small' }, t('No cards.')));
  }
  if (typeof you.mage === 'string' && view.phase === 'setup_mage') {
    box.append(h('p', {}, t('Your mage (secret until everyone has chosen): {card}.', { card: cardName(you.mage) })));
  }
  if (typeof you.pick === 'string') {
    box.append(h('p', {}, t('Your pick (secret until everyone has picked): {card}.', { card: cardName(you.pick) })));
  }
  return box;
}

function drawShared(view, ctx, ks) {
  const board = view.board || {};
  const out = [];
  const display = Array.isArray(board.display) ? board.display : [];
  const n = board.monument_deck || 0;
  const deck = h('div', { class: 'ar-deck' }, h('strong', {}, t('Monument deck')),
    h('span', {}, n === 1 ? t('1 card face down') : t('{n} cards face down', { n })));
  keyed(deck, 'monument_deck', { short: t('the monument deck') }, ctx, ks);
  const monuments = cardRow(display, ctx, ks);
  monuments.prepend(deck);
  out.push(section('ar-monuments', t('Monuments (4 Gold each)'), monuments));
  const pops = Array.isArray(board.pops) ? board.pops : [];
  if (pops.length) {
    const row = h('div', { class: 'ar-cards' });
    for (const p of pops) {
      const owner = Number.isInteger(p.owner) ? t('Owned by {name}', { name: who(view, ctx.names, p.owner, ctx.seat) }) : t('Unclaimed');
      row.append(drawCard(p.card, ctx, ks, Number.isInteger(p.owner) ? p : null, owner));
    }
    out.push(section('ar-pops', t('Places of Power'), row));
  }
  const supply = Array.isArray(board.supply) ? board.supply : [];
  if (supply.length) {
    const items = section('ar-supply', t('Magic items in the supply'), cardRow(supply, ctx, ks));
    if (choosing(view, 'item')) out.unshift(items);
    else out.push(items);
  }
  const m = view.match;
  if (m && Array.isArray(m.pool) && m.pool.length) {
    out.unshift(section('ar-pool', t('Duel: face-up cards to draft'), cardRow(m.pool, ctx, ks)));
  }
  return out;
}

// Whether the open decision is a choice of kind `kind`.
function choosing(view, kind) {
  return !!(view.decision && view.decision.kind === kind);
}

function drawPool(view, i, s, ctx, ks) {
  const pool = h('div', { class: 'ar-pool-row' });
  pool.append(h('span', { class: 'ar-label' }, t('Pool')));
  const name = seatName(view, i, ctx.names);
  for (const e of ESSENCES) {
    const n = s.pool && s.pool[e.key] !== undefined ? s.pool[e.key] : 0;
    const badge = essBadge(e.key, n);
    badge.prepend(srOnly(t("{name}'s pool: ", { name })));
    pool.append(keyed(badge, `pool:${i}:${e.key}`, { short: t("{name}'s {essence}", { name, essence: essWord(e.key) }) }, ctx, ks));
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
    keyed(h('span', { class: 'ar-seat-name' }, name), `seat:${i}`, t('Player {name}, {n} VP', { name, n: s.vp || 0 }), ctx, ks));
  if (me) title.append(' ', h('span', { class: 'ar-yours' }, t('you')));
  title.append(' ', h('span', { class: 'ar-vp' }, t('{n} VP', { n: s.vp || 0 })));
  if (board.first === i) title.append(' ', h('span', { class: 'ar-tag' }, board.first_passed ? t('First Player (passed side)') : t('First Player')));
  if (s.passed) title.append(' ', h('span', { class: 'ar-tag' }, t('Passed')));
  if (Array.isArray(view.active) && view.active.includes(i) && !view.result) title.append(' ', h('span', { class: 'ar-tag ar-act' }, t('▶ to act')));
  box.append(title);
  box.append(drawPool(view, i, s, ctx, ks));
  const counts = h('div', { class: 'ar-counts' }, h('span', {}, t('Hand {n}', { n: s.hand || 0 })));
  counts.append(keyed(h('span', { class: 'ar-decksize' }, srOnly(t("{name}'s ", { name })), t('Deck {n}', { n: s.deck || 0 })),
    `deck:${i}`, { short: t("{name}'s deck", { name }) }, ctx, ks));
  if (s.looked && typeof s.looked === 'object') {
    const seen = cards(s.looked.count);
    counts.append(h('span', {}, s.looked.deck === 'monument' ? t('looked at {cards} of the monument deck', { cards: seen })
      : t('looked at {cards} of their own deck', { cards: seen })));
  }
  if (view.phase === 'setup_mage') counts.append(h('span', {}, s.mage_chosen ? t('mage chosen') : t('still choosing a mage')));
  if (view.phase === 'draft') counts.append(h('span', {}, s.picked ? t('kept {n}; has picked', { n: s.kept || 0 }) : t('kept {n}; still picking', { n: s.kept || 0 })));
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
    det.append(h('summary', {}, t('Discard pile ({n}): {cards}', { n: discard.length, cards: discard.map(cardName).join(t(', ')) })));
    det.append(cardRow(discard, ctx, ks));
    box.append(det);
  }
  return box;
}

export function render(root, view, ctx) {
  const c = Object.assign({ seat: null, names: [], legal: [], focus: null, setFocus: null, pick: null }, ctx || {});
  W.use(c);
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
