// SPDX-License-Identifier: MIT
// sorcerers.js - the browser board of Sorcerers (Merlinians vs Morganians).
// It draws a view (both sides with their sorcerers and objects, the shared
// deck and discard pile, the time markers and the Grimhold, the Event phase,
// the duel with its sealed and then revealed combos, this seat's hand and
// private information) and puts every legal action into words. It only
// reads views and legal lists; the server decides every rule
// (docs/rules/sorcerers.md, sections 9 and 10). What a sealed decision
// holds is shown only where the view gives it (the seat's own `you`).

import { h } from '../lib/dom.js';
import { addPhrases, t } from '../lib/i18n.js';
import { seatName } from '../lib/words.js';
import { zhCNSorcerers } from '../i18n/zh-CN-sorcerers.js';
import { fillCards, gameWords } from './catalogue.js';
import { keyState, keyed } from './keys.js';
import { SORC_CARDS } from './sorcerers_texts.js';

addPhrases('zh-CN', zhCNSorcerers);
const W = gameWords('sorcerers');

const FACTION = {
  merlinian: { side: 'Merlinians', mark: '☀' },
  morganian: { side: 'Morganians', mark: '☾' },
};

// Each phase in a few words. The phases in the log are the catalogue's
// terms; these say more, so that a new player knows what is asked.
function phaseWords(phase) {
  switch (phase) {
    case 'lore_faust':
      return t('Lore: Deal with the Devil');
    case 'recruit':
      return t('Recruit step');
    case 'event':
      return t('Event phase: activate an Event Ability or pass');
    case 'event_track':
      return t('Event: searching the deck for a card');
    case 'event_discard':
      return t('Event: discarding two cards');
    case 'encounter':
      return t('Encounter: keep the picked sorcerer or send another (sealed)');
    case 'duel_combo':
      return t('Duel: building the attack combos (sealed)');
    case 'duel_clear_mind':
      return t('Duel: Clear your Mind, discarding for power');
    case 'duel_negate':
      return t('Duel reveal: choosing negations (sealed)');
    case 'duel_defense':
      return t('Duel: playing Defense cards (sealed)');
    case 'duel_protect':
      return t('Duel: the loser may protect its sorcerer');
    case 'duel_steal':
      return t("Duel: the winner steals from the loser's hand");
    case 'object_overflow':
      return t('Too many objects: discarding one');
    case 'grimhold_place':
      return t('Placing the Grimhold');
    case 'end_discard':
      return t('End: discarding down to the hand limit');
    case 'over':
      return t('Game over');
    default:
      return W.term('phase', phase, String(phase));
  }
}

const SEALED = new Set(['encounter', 'duel_combo', 'duel_negate', 'duel_defense']);

function reasonWords(reason) {
  switch (reason) {
    case 'destroy_morgana':
      return t('Morgan Le Fay was destroyed (lost a duel by 7 or more)');
    case 'prime_merlinian_succession':
      return t("Dave's time marker reached 7");
    case 'rising_spell':
      return t("Morgana's time marker reached 5");
    case 'army_of_sorcerers':
      return t('a side had 6 or more sorcerers more than the other');
    case 'simultaneous':
      return t('both sides qualified at once: a draw');
    case 'turn_limit':
      return t('the turn limit was reached: a draw');
    default:
      return reason ? W.term('reason', reason, String(reason)) : '';
  }
}

function outcomeWords(outcome) {
  switch (outcome) {
    case 'pending':
      return t('in progress');
    case 'winner':
      return t('won');
    case 'tie':
      return t('a tie');
    case 'sacrifice':
      return t('ended by a Sacrifice: no winner, both duelists leave play');
    case 'no_duel':
      return t('no duel this turn');
    default:
      return W.term('outcome', outcome, String(outcome));
  }
}

/* ---- Small helpers ---- */

function info(id) {
  return SORC_CARDS[id] || null;
}

// A card's printed name (the catalogue's in the reader's language);
// unknown ids are shown readably, never raw.
function nm(id) {
  if (id === null || id === undefined) {
    return t('nothing');
  }
  const c = info(id);
  return W.card(id, c ? c.name : String(id).replace(/_/g, ' '));
}

// A card's words in the reader's language: type, classes, note, rules.
function texts(c) {
  if (W.local() && c.zh) {
    return { type: c.zh.type, classes: c.zh.classes, note: c.zh.note, rules: c.zh.rules.map((r) => fillCards(r, nm)) };
  }
  return { type: c.type, classes: c.classes, note: c.note, rules: c.rules };
}

function powerWords(id) {
  const c = info(id);
  return c && c.power !== null && c.power !== undefined ? t('{n}P', { n: c.power }) : '–';
}

function seatOf(view, seat) {
  return (view.seats || []).find((s) => s.seat === seat) || null;
}

// A side's name, as the log says it (the catalogue's terms).
function sideName(faction) {
  return FACTION[faction] ? W.term('faction', faction, FACTION[faction].side) : String(faction || '');
}

function sideWord(view, seat) {
  const s = seatOf(view, seat);
  return s && FACTION[s.faction] ? sideName(s.faction) : '';
}

// The sorcerer carrying object `id`, or null.
function carrierOf(view, id) {
  for (const s of view.play || []) {
    if ((s.objects || []).includes(id)) {
      return s.card;
    }
  }
  return null;
}

function mySide(view, seat) {
  return (view.duel && view.duel.sides && view.duel.sides[seat]) || null;
}

// "1 card", "3 cards".
function cards(n) {
  return n === 1 ? t('1 card') : t('{n} cards', { n });
}

/* ---- describe ---- */

// The effect of an Event Ability card in words, from its generated text.
function effectWords(id) {
  const c = info(id);
  if (!c) {
    return '';
  }
  const rules = texts(c).rules;
  const head = t('Event Ability: ');
  const rule = rules.find((r) => r.startsWith(head));
  return rule ? rule.slice(head.length).replace(/[.。]$/, '') : '';
}

function activateWords(a, view) {
  const name = nm(a.card);
  const keys = [`card:${a.card}`];
  if (a.target && a.to) {
    keys.push(`card:${a.target}`, `card:${a.to}`);
    return { label: t('Activate {card}: move {object} from {from} to {to}', { card: name, object: nm(a.target), from: nm(carrierOf(view, a.target)), to: nm(a.to) }), keys };
  }
  if (a.target) {
    keys.push(`card:${a.target}`);
    const inPlay = carrierOf(view, a.target);
    const label = inPlay ? t('Activate {card}: discard {object} from {from}', { card: name, object: nm(a.target), from: nm(inPlay) })
      : t('Activate {card}: take {object} from the discard pile', { card: name, object: nm(a.target) });
    return { label, keys };
  }
  const effect = effectWords(a.card);
  return { label: effect ? t('Activate {card}: {effect}', { card: name, effect }) : t('Activate {card}', { card: name }), keys };
}

// A combo slot's words: [slot, its name, the moves' group].
function slotWords(type) {
  switch (type) {
    case 'combo_spell':
      return ['spell', t('Spell'), t('Combo: spell')];
    case 'combo_event':
      return ['event', t('Event'), t('Combo: event')];
    default:
      return ['amplifier', t('Amplifier'), t('Combo: amplifier')];
  }
}

function comboWords(a, view) {
  const draft = (view.you && view.you.draft) || {};
  if (a.type === 'combo_declare') {
    const bits = [t('Seal the combo')];
    if (a.sacrifice) {
      bits.push(t('declaring a Sacrifice'));
    }
    if (a.betray) {
      bits.push(t('betraying {card}', { card: nm(a.betray) }));
    }
    const keys = a.betray ? [`card:${a.betray}`] : [];
    return { group: t('Combo: seal'), label: bits.join(t(', ')), keys };
  }
  const [slot, name, group] = slotWords(a.type);
  let where = name;
  if (a.type === 'combo_amp') {
    const k = (draft.amplifiers || []).length + 1;
    where = t('Amplifier {k} of 3', { k: Math.min(k, 3) });
  }
  if (!a.card) {
    return { group, label: t('{slot}: none', { slot: where }), keys: [] };
  }
  const c = info(a.card);
  let label = t('{slot}: {card}, {power}', { slot: where, card: nm(a.card), power: powerWords(a.card) });
  if (c && c.type !== slot) {
    const words = { type: W.local() && c.zh ? c.zh.type : c.type, slot: slotName(slot) };
    label += slot === 'amplifier' ? t(' (a {type} used as an {slot})', words) : t(' (a {type} used as a {slot})', words);
  }
  return { group, label, keys: [`card:${a.card}`] };
}

// An encounter choice: keep, first to fight, martyr.
function choiceWords(choice) {
  switch (choice) {
    case 'first_to_fight':
      return t('first to fight');
    case 'martyr':
      return t('martyr');
    default:
      return String(choice).replace(/_/g, ' ');
  }
}

function slotName(slot) {
  switch (slot) {
    case 'spell':
      return t('spell');
    case 'event':
      return t('event');
    default:
      return t('amplifier');
  }
}

// Words for one legal action: {group, label, keys}. The keys name board
// elements (data-key) the action touches: every card is `card:<id>`.
export function describe(action, view, seat) {
  const a = action || {};
  const card = a.card ? [`card:${a.card}`] : [];
  switch (a.type) {
    case 'deal':
      return { group: t('Deal with the Devil'), label: t('Discard {card}, to draw one more card when done', { card: nm(a.card) }), keys: card };
    case 'done': {
      if (view.phase === 'lore_faust') {
        return { group: t('Deal with the Devil'), label: t('Done dealing: draw as many cards as you discarded'), keys: [] };
      }
      if (view.phase === 'recruit') {
        return { group: t('Done'), label: t('End your recruit step'), keys: [] };
      }
      if (view.phase === 'duel_clear_mind') {
        return { group: t('Clear your Mind'), label: t('Stop discarding'), keys: [] };
      }
      return { group: t('Done'), label: t('Done'), keys: [] };
    }
    case 'recruit':
      return { group: t('Recruit'), label: t('Recruit {card} ({power})', { card: nm(a.card), power: powerWords(a.card) }), keys: card };
    case 'equip':
      return { group: t('Equip'), label: t('Equip {card} on {to}', { card: nm(a.card), to: nm(a.to) }), keys: [...card, `card:${a.to}`] };
    case 'move_object':
      return {
        group: t('Move object'),
        label: t('Move {object} from {from} to {to}', { object: nm(a.object), from: nm(carrierOf(view, a.object)), to: nm(a.to) }),
        keys: [`card:${a.object}`, `card:${a.to}`],
      };
    case 'discard_object':
      return {
        group: t('Discard object'),
        label: t('Discard {object} from {from}', { object: nm(a.object), from: nm(carrierOf(view, a.object)) }),
        keys: [`card:${a.object}`],
      };
    case 'place_grimhold':
      return { group: nm('grimhold'), label: t('Place the {grimhold} on {to}', { grimhold: nm('grimhold'), to: nm(a.to) }), keys: ['card:grimhold', `card:${a.to}`] };
    case 'activate': {
      const w = activateWords(a, view);
      return { group: t('Event Ability'), label: w.label, keys: w.keys };
    }
    case 'pass': {
      const label = {
        event: () => t('Pass (activate nothing now)'),
        duel_defense: () => t('Play no Defense card'),
        duel_protect: () => t('Do not protect your sorcerer'),
      }[view.phase];
      return { group: t('Pass'), label: label ? label() : t('Pass'), keys: [] };
    }
    case 'track':
      return a.card
        ? { group: t('Track'), label: t('Take {card} from the deck', { card: nm(a.card) }), keys: card }
        : { group: t('Track'), label: t('Take nothing (the deck is shuffled anyway)'), keys: [] };
    case 'discard': {
      const why = view.phase === 'end_discard' ? t('hand limit') : view.event && view.event.resolving ? nm(view.event.resolving) : t('forced');
      return { group: t('Discard'), label: t('Discard {card} ({why})', { card: nm(a.card), why }), keys: card };
    }
    case 'encounter': {
      const side = mySide(view, seat);
      if (a.choice === 'keep') {
        const pick = side && side.pick;
        return { group: t('Encounter'), label: t('Keep {card} in the duel', { card: nm(pick) }), keys: pick ? [`card:${pick}`] : [] };
      }
      if (a.choice === 'first_to_fight') {
        return { group: t('Encounter'), label: t('Send {card} to fight instead (First to Fight)', { card: nm(a.sorcerer) }), keys: [`card:${a.sorcerer}`] };
      }
      if (a.choice === 'martyr') {
        return { group: t('Encounter'), label: t('Play {martyr}: {card} fights instead', { martyr: nm('martyr'), card: nm(a.sorcerer) }), keys: [`card:${a.sorcerer}`, 'card:martyr'] };
      }
      return { group: t('Encounter'), label: t('Encounter: {choice}', { choice: String(a.choice || '').replace(/_/g, ' ') }), keys: [] };
    }
    case 'combo_spell':
    case 'combo_event':
    case 'combo_amp':
    case 'combo_declare':
      return comboWords(a, view);
    case 'clear_mind':
      return { group: t('Clear your Mind'), label: t('Discard {card} for +1P', { card: nm(a.card) }), keys: card };
    case 'negate': {
      const choices = Array.isArray(a.choices) ? a.choices : [];
      const label = choices
        .map((c) => (c.target ? t('{card} negates {target}', { card: nm(c.card), target: nm(c.target) }) : t('{card} negates nothing', { card: nm(c.card) })))
        .join(t('; '));
      const keys = choices.flatMap((c) => [`card:${c.card}`, c.target ? `card:${c.target}` : null]).filter(Boolean);
      return { group: t('Negate'), label: label || t('Negate nothing'), keys };
    }
    case 'defense':
      return { group: t('Defense'), label: t('Play {card} against {target}', { card: nm(a.card), target: nm(a.target) }), keys: [...card, `card:${a.target}`] };
    case 'protect': {
      const side = mySide(view, seat);
      const who = side && side.sorcerer ? nm(side.sorcerer) : t('your sorcerer');
      return { group: t('Protect'), label: t('Protect {who} with {card}', { who, card: nm(a.card) }), keys: card };
    }
    case 'steal':
      return { group: t('Steal'), label: t('Steal {card}', { card: nm(a.card) }), keys: card };
    default: {
      const rest = Object.entries(a)
        .filter(([k]) => k !== 'type')
        .map(([k, v]) => `${k} ${typeof v === 'string' ? nm(v) : Array.isArray(v) ? v.length : v}`)
        .join(', ');
      return { group: t('Other'), label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ` (${rest})` : ''}`, keys: [] };
    }
  }
}

/* ---- status and results ---- */

function turnWords(view) {
  return view.max_turns ? t('Turn {n} of {max}', { n: view.turn, max: view.max_turns }) : t('Turn {n}', { n: view.turn });
}

// One line: whose decision it is and what is being decided.
export function status(view, seat, names) {
  if (!view) {
    return '';
  }
  if (view.result || view.phase === 'over') {
    const r = view.result || {};
    const why = reasonWords(r.reason);
    const won = (r.winners || []).map((w) => t('{name} ({side})', { name: seatName(view, w, names), side: sideWord(view, w) }));
    return won.length ? t('Game over: {why}. {names} won.', { why, names: won.join(t(' and ')) }) : t('Game over: {why}.', { why });
  }
  const phase = phaseWords(view.phase);
  const active = view.active || [];
  const turn = turnWords(view);
  if (SEALED.has(view.phase)) {
    const parts = (view.seats || []).map((s) => {
      const mine = s.seat === seat;
      const name = seatName(view, s.seat, names);
      if (active.includes(s.seat)) {
        return mine ? t('you choose') : t('{name} is choosing', { name });
      }
      if (s.submitted) {
        return mine ? t('you have sealed') : t('{name} has sealed', { name });
      }
      return mine ? t('you are not asked') : t('{name} is not asked', { name });
    });
    return t('{turn}. {phase}: {parts}.', { turn, phase, parts: parts.join(t(', ')) });
  }
  if (!active.length) {
    return t('{turn}. {phase}.', { turn, phase });
  }
  const who = active.map((a) => (a === seat ? t('your decision') : t('{name} ({side}) decides', { name: seatName(view, a, names), side: sideWord(view, a) })));
  return t('{turn}. {phase}: {parts}.', { turn, phase, parts: who.join(t(', ')) });
}

// Score rows of the end screen.
export function results(view, names) {
  const r = (view && view.result) || {};
  const scores = r.scores || [];
  const why = reasonWords(r.reason);
  return scores.map((score, seat) => {
    const won = (r.winners || []).includes(seat);
    const draw = !(r.winners || []).length;
    const side = sideWord(view, seat);
    let detail;
    if (won) {
      detail = why ? t('{side}: won ({why})', { side, why }) : t('{side}: won', { side });
    } else if (draw) {
      detail = why ? t('{side}: draw ({why})', { side, why }) : t('{side}: draw', { side });
    } else {
      detail = t('{side}: lost', { side });
    }
    return { seat, score, detail };
  });
}

/* ---- render ---- */


function typeLine(c) {
  if (!c) {
    return t('card');
  }
  const w = texts(c);
  const type = FACTION[c.type] ? (W.local() ? `${FACTION[c.type].mark} ${w.type}` : `${FACTION[c.type].mark} ${c.type} sorcerer`) : w.type;
  return w.classes && w.classes.length ? `${type} · ${w.classes.join(t(', '))}` : type;
}

// A face-up card: name, power, type, printed text and its rules in words.
// `compact` leaves the rules out (they stay in the tooltip).
function cardEl(id, ctx, ks, opts) {
  const o = opts || {};
  const c = info(id);
  const cls = ['sc-card', `type-${c ? c.type : 'unknown'}`];
  if (o.compact) {
    cls.push('compact');
  }
  if (o.negated) {
    cls.push('negated');
  }
  if (o.extra) {
    cls.push(o.extra);
  }
  const w = c ? texts(c) : null;
  const note = w && w.note && w.note !== '-' ? w.note : '';
  const rules = w ? w.rules : [];
  const el = h(
    'div',
    { class: cls.join(' ') },
    h('div', { class: 'sc-head' }, h('span', { class: 'sc-name' }, nm(id)), h('span', { class: 'sc-power' }, powerWords(id))),
    h('div', { class: 'sc-type' }, typeLine(c)),
    note ? h('div', { class: 'sc-note' }, note) : null,
    !o.compact && rules.length ? h('ul', { class: 'sc-rules' }, rules.map((r) => h('li', {}, r))) : null,
    o.negated ? h('div', { class: 'sc-flag' }, t('✗ negated')) : null,
    o.badge ? h('div', { class: 'sc-flag' }, o.badge) : null,
  );
  let label = t('{card}, {type}, power {power}', { card: nm(id), type: typeLine(c), power: powerWords(id) });
  if (note) {
    label += t(': {note}', { note });
  }
  if (rules.length) {
    label += t('. {rules}', { rules: rules.join(' ') });
  }
  if (o.negated) {
    label += t(' (negated)');
  }
  el.title = label;
  return keyed(el, `card:${id}`, { short: nm(id) }, ctx, ks);
}

function cardRow(ids, ctx, ks, opts, empty) {
  const row = h('div', { class: `sc-row${opts && opts.compact ? ' compact-row' : ''}` });
  for (const id of ids || []) {
    row.append(cardEl(id, ctx, ks, opts));
  }
  if (!(ids || []).length) {
    row.append(h('p', { class: 'muted' }, empty || t('none')));
  }
  return row;
}

function section(title, cls, ...children) {
  return h('section', { class: `sc-panel ${cls || ''}` }, h('h3', {}, title), ...children);
}

function sorcererEl(view, s, ctx, ks) {
  const duel = view.duel;
  const dueling = duel && (duel.sides || []).some((d) => d && d.sorcerer === s.card) && duel.outcome === 'pending';
  const badges = [];
  if (dueling) {
    badges.push(t('⚔ dueling'));
  }
  if (s.first_to_fight_temp) {
    badges.push(t('First to Fight this turn'));
  }
  const wrap = h('div', { class: `sc-sorcerer${dueling ? ' dueling' : ''}` });
  wrap.append(cardEl(s.card, ctx, ks, { extra: 'sorc', badge: badges.join(' · ') }));
  const objs = s.objects || [];
  const oRow = h('div', { class: 'sc-objects', 'aria-label': t('objects of {card}: {n}', { card: nm(s.card), n: objs.length }) });
  oRow.append(h('span', { class: 'muted small' }, objs.length ? t('objects ({n}/3):', { n: objs.length }) : t('no objects')));
  for (const id of objs) {
    oRow.append(cardEl(id, ctx, ks, { compact: true, extra: id === 'grimhold' ? 'grimhold' : '' }));
  }
  wrap.append(oRow);
  return wrap;
}

function sidePanel(view, s, ctx, ks) {
  const mine = ctx.seat === s.seat;
  const f = FACTION[s.faction] || { mark: '' };
  const side = sideName(s.faction);
  const active = (view.active || []).includes(s.seat);
  const sealed = SEALED.has(view.phase);
  const head = h(
    'div',
    { class: 'sc-side-head' },
    h('span', { class: 'fac-mark' }, f.mark),
    h('strong', {}, ` ${s.name}`),
    h('span', {}, ` — ${side}`),
    mine ? h('span', { class: 'badge mine-badge' }, t('yours')) : null,
    active ? h('span', { class: 'badge turn-badge' }, sealed ? t('choosing…') : t('▶ to act')) : null,
    sealed && s.submitted ? h('span', { class: 'badge sealed-badge' }, t('sealed ✓')) : null,
  );
  const n = (s.sorcerers || []).length;
  const facts = h('p', { class: 'muted' }, t('Hand {cards} (limit {limit}) · {sorcerers} in play', {
    cards: cards(s.hand_size), limit: s.hand_limit, sorcerers: n === 1 ? t('1 sorcerer') : t('{n} sorcerers', { n }),
  }));
  const row = h('div', { class: 'sc-play' });
  for (const so of s.sorcerers || []) {
    row.append(sorcererEl(view, so, ctx, ks));
  }
  return h(
    'section',
    { class: `sc-side fac-${s.faction}${mine ? ' mine' : ''}${active ? ' acting' : ''}`, 'aria-label': mine ? t('{name}, {side}, yours', { name: s.name, side }) : t('{name}, {side}', { name: s.name, side }) },
    head,
    facts,
    row,
  );
}

function tableFacts(view, ctx) {
  const g = view.grimhold || {};
  const m = view.markers || {};
  const items = [
    h('li', {}, h('strong', {}, t('Dave ')), `${m.dave || 0} / 7 `, h('span', { class: 'muted' }, t('({side} win at 7)', { side: sideName('merlinian') }))),
    h('li', {}, h('strong', {}, t('Morgana ')), `${m.morgana || 0} / 5 `, h('span', { class: 'muted' }, t('({side} win at 5)', { side: sideName('morganian') }))),
    h('li', {}, h('strong', {}, `${nm('grimhold')} `), g.on ? t('on {card} ({name})', { card: nm(g.on), name: seatName(view, g.controller, ctx.names) }) : t('unattached')),
    h('li', {}, h('strong', {}, t('Deck ')), cards(view.deck_size || 0)),
  ];
  if (view.moved_between_hands) {
    items.push(h('li', {}, h('strong', {}, t('Moved between hands ')), String(view.moved_between_hands)));
  }
  const gates = Object.entries(view.gates || {});
  if (gates.length) {
    items.push(
      h(
        'li',
        { class: 'gates' },
        h('strong', {}, t('{grimhold} gate: ', { grimhold: nm('grimhold') })),
        gates.map(([id, done], i) => [i ? t(', ') : '', done ? t('{card} ✓ recruited', { card: nm(id) }) : t('{card} ✗ not yet', { card: nm(id) })]),
      ),
    );
  }
  const title = view.result ? t('The table at the end') : phaseWords(view.phase);
  return section(title, 'sc-table', h('ul', { class: 'sc-facts' }, items));
}

function eventPanel(view, ctx, ks) {
  const ev = view.event;
  if (!ev) {
    return null;
  }
  const lines = [h('p', {}, t('Priority: '), h('strong', {}, seatName(view, ev.priority, ctx.names)))];
  if (ev.resolving) {
    lines.push(h('p', {}, t('Resolving: '), cardEl(ev.resolving, ctx, ks, { compact: true })));
  }
  if (ev.discard_left) {
    lines.push(h('p', {}, t('Cards still to discard: {n}', { n: ev.discard_left })));
  }
  lines.push(h('p', { class: 'muted' }, t('Activated this phase:')), cardRow(ev.activated, ctx, ks, { compact: true }, t('nothing yet')));
  return section(t('Event phase'), 'sc-event', ...lines);
}

// One slot of a revealed combo.
function slot(label, id, combo, ctx, ks) {
  const negated = id && (combo.negated || []).includes(id);
  return h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, label), id ? cardEl(id, ctx, ks, { compact: true, negated }) : h('div', { class: 'sc-empty' }, '—'));
}

function duelSide(view, seat, side, ctx, ks) {
  const duel = view.duel;
  const s = seatOf(view, seat) || {};
  const f = FACTION[s.faction] || { mark: '' };
  const winner = duel.outcome === 'winner' && duel.winner === seat;
  const loser = duel.outcome === 'winner' && duel.winner !== seat;
  const parts = [h('div', { class: 'duel-who' }, h('span', { class: 'fac-mark' }, f.mark), h('strong', {}, ` ${s.name || ''}`), ` — ${FACTION[s.faction] ? sideName(s.faction) : ''}`, winner ? h('span', { class: 'badge win-badge' }, t('★ winner')) : null, loser ? h('span', { class: 'badge lose-badge' }, t('loser')) : null)];
  if (side.sorcerer) {
    const changed = side.pick && side.pick !== side.sorcerer ? t(' (picked {card})', { card: nm(side.pick) }) : '';
    parts.push(h('p', {}, t('Duelist: '), h('strong', {}, nm(side.sorcerer)), `${changed}`));
  } else if (side.pick) {
    parts.push(h('p', {}, t('Picked: '), h('strong', {}, nm(side.pick))));
  } else {
    parts.push(h('p', { class: 'muted' }, t('No duelist')));
  }
  const combo = side.combo;
  if (combo) {
    const grid = h('div', { class: 'sc-combo' });
    grid.append(slot(t('Spell'), combo.spell, combo, ctx, ks), slot(t('Event'), combo.event, combo, ctx, ks));
    (combo.amplifiers || []).forEach((id, i) => grid.append(slot(t('Amplifier {k}', { k: i + 1 }), id, combo, ctx, ks)));
    if (combo.defense) {
      grid.append(slot(t('Defense'), combo.defense, combo, ctx, ks));
    }
    if (combo.protect) {
      grid.append(slot(t('Protect'), combo.protect, combo, ctx, ks));
    }
    parts.push(grid);
    const notes = [];
    if (combo.clear_mind) {
      notes.push(t('Clear your Mind: {n} discarded', { n: combo.clear_mind }));
    }
    if (combo.sacrifice) {
      notes.push(t('Sacrifice declared'));
    }
    if (combo.betray) {
      notes.push(t('betrayed {card}', { card: nm(combo.betray) }));
    }
    if (notes.length) {
      parts.push(h('p', { class: 'sc-combo-notes' }, notes.join(' · ')));
    }
    // Totals are counted once the reveal's negations have landed; before
    // that the view holds 0.
    const early = duel.outcome === 'pending' && !side.total && ['duel_clear_mind', 'duel_negate', 'object_overflow', 'grimhold_place'].includes(view.phase);
    parts.push(
      early
        ? h('p', { class: 'sc-total muted' }, t('Total power: counted after the negations'))
        : h('p', { class: 'sc-total' }, t('Total power '), h('strong', {}, String(side.total !== undefined ? side.total : '?'))),
    );
  } else if (duel.outcome === 'pending' && seat === ctx.seat && view.you && view.you.draft) {
    parts.push(draftPanel(view.you, ctx, ks, s.submitted));
  } else if (duel.outcome === 'pending') {
    const sealedNow = view.phase === 'duel_combo' && s.submitted;
    parts.push(h('div', { class: 'sc-sealed' }, sealedNow ? t('Combo sealed ✓ (hidden until both are in)') : view.phase === 'duel_combo' ? t('Building a combo in secret…') : t('Combo not built yet')));
  }
  return h('div', { class: `sc-duel-side fac-${s.faction || ''}${winner ? ' winner' : ''}${loser ? ' loser' : ''}` }, ...parts);
}

function duelPanel(view, ctx, ks) {
  const duel = view.duel;
  if (!duel) {
    return null;
  }
  if (duel.outcome === 'no_duel') {
    return section(t('Duel'), 'sc-duel past', h('p', { class: 'muted' }, t('No duel this turn.')));
  }
  let outcome = outcomeWords(duel.outcome);
  if (duel.outcome === 'winner') {
    const won = { name: seatName(view, duel.winner, ctx.names), n: duel.margin };
    outcome = duel.protected ? t('{name} won by {n}; the loser was protected', won) : t('{name} won by {n}', won);
  }
  const sides = h('div', { class: 'sc-duel-sides' });
  // In the same order as the sides below: the opponent first.
  const order = (duel.sides || []).map((side, seat) => seat);
  if (ctx.seat !== null && ctx.seat !== undefined) {
    order.sort((a, b) => (a === ctx.seat) - (b === ctx.seat));
  }
  for (const seat of order) {
    sides.append(duelSide(view, seat, duel.sides[seat] || {}, ctx, ks));
  }
  const extra = [];
  if (duel.destroy_morgana) {
    extra.push(h('p', { class: 'sc-alert' }, t('Morgana lost by 7 or more: Destroy Morgana is set for this turn.')));
  }
  if (view.steals_left) {
    extra.push(h('p', {}, t('Steals left: {n}', { n: view.steals_left })));
  }
  const current = view.phase.startsWith('duel_') || view.phase === 'encounter' || view.phase === 'object_overflow' || view.phase === 'grimhold_place';
  const title = current ? (duel.revealed ? t('Duel — revealed: {outcome}', { outcome }) : t('Duel — sealed: {outcome}', { outcome }))
    : duel.revealed ? t('Last duel — revealed: {outcome}', { outcome }) : t('Last duel — sealed: {outcome}', { outcome });
  return section(title, `sc-duel${current ? '' : ' past'}`, sides, ...extra);
}

// This seat's own combo while it is built (`sealed`: submitted, waiting
// for the other side); only this seat's view holds it.
function draftPanel(you, ctx, ks, sealed) {
  const d = you.draft;
  if (!d) {
    return null;
  }
  const grid = h('div', { class: 'sc-combo' });
  const empty = (label) => h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, label), h('div', { class: 'sc-empty' }, '—'));
  grid.append(d.spell ? h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, t('Spell')), cardEl(d.spell, ctx, ks, { compact: true })) : empty(t('Spell')));
  grid.append(d.event ? h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, t('Event')), cardEl(d.event, ctx, ks, { compact: true })) : empty(t('Event')));
  (d.amplifiers || []).forEach((id, i) => grid.append(h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, t('Amplifier {k}', { k: i + 1 })), cardEl(id, ctx, ks, { compact: true }))));
  const decl = [];
  if (d.sacrifice) {
    decl.push(t('Sacrifice'));
  }
  if (d.betray) {
    decl.push(t('betray {card}', { card: nm(d.betray) }));
  }
  return h(
    'div',
    { class: 'sc-draft' },
    h('h4', {}, sealed ? t('Your combo, sealed (only you see it until the reveal)') : t('Your combo, step {n} of 6 (only you see it)', { n: Math.min((d.steps || 0) + 1, 6) })),
    grid,
    decl.length ? h('p', {}, t('Declared: {what}', { what: decl.join(t(', ')) })) : null,
  );
}

function sealedAnswers(you) {
  const out = [];
  if (you.submitted_choice) {
    const c = you.submitted_choice;
    const what = c.choice === 'keep' ? t('keep the picked sorcerer') : `${choiceWords(c.choice)}: ${nm(c.sorcerer)}`;
    out.push(t('Your sealed encounter choice: {what}.', { what }));
  }
  if (you.submitted_negate) {
    // The targets chosen by this seat's negators in the spell and event
    // slots (null: that negator negates nothing or there is none).
    const n = you.submitted_negate;
    const bits = [];
    if ('spell_negator' in n) {
      bits.push(t('your spell negates {card}', { card: nm(n.spell_negator) }));
    }
    if ('event_negator' in n) {
      bits.push(t('your event negates {card}', { card: nm(n.event_negator) }));
    }
    out.push(t('Your sealed negations: {what}.', { what: bits.join(t('; ')) || t('none') }));
  }
  if ('submitted_defense' in you) {
    const d = you.submitted_defense;
    out.push(t('Your sealed defense: {what}.', { what: d ? nm(d) : t('none (pass)') }));
  }
  return out;
}

function youPanel(view, ctx, ks) {
  const you = view.you;
  if (!you) {
    return null;
  }
  const parts = [];
  parts.push(h('h4', {}, t('Your hand ({n}) ', { n: (you.hand || []).length }), h('span', { class: 'badge mine-badge' }, t('yours — hidden from the opponent'))));
  // Cards of the combo being built stay in the hand until the reveal.
  const d = you.draft || {};
  const inCombo = new Set([d.spell, d.event, ...(d.amplifiers || [])].filter(Boolean));
  const hand = h('div', { class: 'sc-row' });
  for (const id of you.hand || []) {
    hand.append(cardEl(id, ctx, ks, { badge: inCombo.has(id) ? t('in your combo') : '', extra: inCombo.has(id) ? 'in-combo' : '' }));
  }
  if (!(you.hand || []).length) {
    hand.append(h('p', { class: 'muted' }, t('empty')));
  }
  parts.push(hand);
  for (const line of sealedAnswers(you)) {
    parts.push(h('p', { class: 'sc-sealed-own' }, line));
  }
  const lists = [
    ['opponent_hand', t("The loser's hand (choose what to steal)"), false],
    ['scry', t("Opponent's hand, seen with {vision}", { vision: nm('vision') }), false],
    ['divination', t('Top of the deck, top first ({astrology})', { astrology: nm('astrology') }), true],
    ['track_list', t('The deck, in card-list order (choose one to take)'), true],
  ];
  for (const [key, title, compact] of lists) {
    if (Array.isArray(you[key])) {
      parts.push(h('h4', {}, t('{title} ({n})', { title, n: you[key].length })), cardRow(you[key], ctx, ks, { compact }, t('empty')));
    }
  }
  if (you.tracked) {
    parts.push(h('p', {}, t('Tracked from the deck: '), h('strong', {}, nm(you.tracked))));
  }
  if ((you.transfers || []).length) {
    parts.push(
      h('h4', {}, t('Cards moved between hands since the last encounter')),
      h('ul', {}, you.transfers.map((x) => h('li', {}, t('{card}: from {from} to {to}', { card: nm(x.card), from: seatName(view, x.from, ctx.names), to: seatName(view, x.to, ctx.names) })))),
    );
  }
  const f = FACTION[you.faction] || { mark: '' };
  return h('section', { class: `sc-panel sc-you mine fac-${you.faction}`, 'aria-label': t('Your hand and what only you see') },
    h('h3', {}, t('{mark} You play the {side}', { mark: f.mark, side: sideName(you.faction) })), ...parts);
}

function discardPanel(view, ctx, ks) {
  const pile = view.discard || [];
  const recent = pile.slice(-6).reverse();
  const older = pile.slice(0, -6).reverse();
  const parts = [h('p', { class: 'muted' }, pile.length ? t('Newest first.') : t('Empty.')), cardRow(recent, ctx, ks, { compact: true }, t('empty'))];
  if (older.length) {
    const n = older.length;
    parts.push(h('details', {}, h('summary', {}, n === 1 ? t('1 older card') : t('{n} older cards', { n })), cardRow(older, ctx, ks, { compact: true })));
  }
  return section(t('Discard pile ({n})', { n: pile.length }), 'sc-discard', ...parts);
}

// The end in one sentence; the app's end screen has the score rows.
function resultPanel(view, ctx) {
  if (!view.result) {
    return null;
  }
  return section(t('Game over'), 'sc-result', h('p', {}, status(view, ctx.seat, ctx.names)));
}

function logPanel(view) {
  const log = W.log(view);
  return log.length ? section(t('Last actions'), 'sc-log', h('ol', {}, log.map((l) => h('li', {}, l)))) : null;
}

// Draws the board of `view` into `root`.
export function render(root, view, ctx) {
  ctx = ctx || {};
  W.use(ctx);
  const ks = keyState(describe, view, ctx);
  const board = h('div', { class: 'sorcerers-board' });
  const you = view.you;
  const f = you && FACTION[you.faction];
  board.append(
    h(
      'header',
      { class: 'sc-header' },
      h('strong', {}, t('Sorcerers')),
      h('span', { class: 'muted' }, ` ${view.max_turns ? t('turn {n} of {max}', { n: view.turn, max: view.max_turns }) : t('turn {n}', { n: view.turn })}`),
      f ? h('span', { class: 'badge mine-badge' }, t('you play the {side} {mark}', { side: sideName(you.faction), mark: f.mark })) : h('span', { class: 'badge' }, t('spectating')),
    ),
  );
  const result = resultPanel(view, ctx);
  if (result) {
    board.append(result);
  }
  board.append(tableFacts(view, ctx));
  const event = eventPanel(view, ctx, ks);
  if (event) {
    board.append(event);
  }
  const duel = duelPanel(view, ctx, ks);
  if (duel) {
    board.append(duel);
  }
  // The opponent's side first, this seat's side next to its hand.
  const seats = [...(view.seats || [])];
  if (ctx.seat !== null && ctx.seat !== undefined) {
    seats.sort((a, b) => (a.seat === ctx.seat) - (b.seat === ctx.seat));
  }
  const sides = h('div', { class: 'sc-sides' });
  for (const s of seats) {
    sides.append(sidePanel(view, s, ctx, ks));
  }
  board.append(sides);
  const mine = youPanel(view, ctx, ks);
  if (mine) {
    board.append(mine);
  }
  board.append(discardPanel(view, ctx, ks));
  const log = logPanel(view);
  if (log) {
    board.append(log);
  }
  root.append(board);
}
