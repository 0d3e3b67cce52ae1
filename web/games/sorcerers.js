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
import { plural, seatName } from '../lib/words.js';
import { keyState, keyed } from './keys.js';
import { SORC_CARDS } from './sorcerers_texts.js';

const FACTION = {
  merlinian: { side: 'Merlinians', mark: '☀' },
  morganian: { side: 'Morganians', mark: '☾' },
};

const PHASE_WORDS = {
  lore_faust: 'Lore: Deal with the Devil',
  recruit: 'Recruit step',
  event: 'Event phase: activate an Event Ability or pass',
  event_track: 'Event: searching the deck for a card',
  event_discard: 'Event: discarding two cards',
  encounter: 'Encounter: keep the picked sorcerer or send another (sealed)',
  duel_combo: 'Duel: building the attack combos (sealed)',
  duel_clear_mind: 'Duel: Clear your Mind, discarding for power',
  duel_negate: 'Duel reveal: choosing negations (sealed)',
  duel_defense: 'Duel: playing Defense cards (sealed)',
  duel_protect: 'Duel: the loser may protect its sorcerer',
  duel_steal: "Duel: the winner steals from the loser's hand",
  object_overflow: 'Too many objects: discarding one',
  grimhold_place: 'Placing the Grimhold',
  end_discard: 'End: discarding down to the hand limit',
  over: 'Game over',
};

const SEALED = new Set(['encounter', 'duel_combo', 'duel_negate', 'duel_defense']);

const REASON_WORDS = {
  destroy_morgana: 'Morgan Le Fay was destroyed (lost a duel by 7 or more)',
  prime_merlinian_succession: "Dave's time marker reached 7",
  rising_spell: "Morgana's time marker reached 5",
  army_of_sorcerers: 'a side had 6 or more sorcerers more than the other',
  simultaneous: 'both sides qualified at once: a draw',
  turn_limit: 'the turn limit was reached: a draw',
};

const OUTCOME_WORDS = {
  pending: 'in progress',
  winner: 'won',
  tie: 'a tie',
  sacrifice: 'ended by a Sacrifice: no winner, both duelists leave play',
  no_duel: 'no duel this turn',
};

/* ---- Small helpers ---- */

function info(id) {
  return SORC_CARDS[id] || null;
}

// A card's printed name; unknown ids are shown readably, never raw.
function nm(id) {
  if (id === null || id === undefined) {
    return 'nothing';
  }
  const c = info(id);
  return c ? c.name : String(id).replace(/_/g, ' ');
}

function powerWords(id) {
  const c = info(id);
  return c && c.power !== null && c.power !== undefined ? `${c.power}P` : '–';
}

function seatOf(view, seat) {
  return (view.seats || []).find((s) => s.seat === seat) || null;
}

function sideWord(view, seat) {
  const s = seatOf(view, seat);
  return s && FACTION[s.faction] ? FACTION[s.faction].side : '';
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

/* ---- describe ---- */

// The effect of an Event Ability card in words, from its generated text.
function effectWords(id) {
  const c = info(id);
  const rule = c && c.rules.find((r) => r.startsWith('Event Ability'));
  return rule ? rule.replace(/^Event Ability: /, '').replace(/\.$/, '') : '';
}

function activateWords(a, view) {
  const name = nm(a.card);
  const keys = [`card:${a.card}`];
  if (a.target && a.to) {
    keys.push(`card:${a.target}`, `card:${a.to}`);
    return { label: `Activate ${name}: move ${nm(a.target)} from ${nm(carrierOf(view, a.target))} to ${nm(a.to)}`, keys };
  }
  if (a.target) {
    keys.push(`card:${a.target}`);
    const inPlay = carrierOf(view, a.target);
    const what = inPlay ? `discard ${nm(a.target)} from ${nm(inPlay)}` : `take ${nm(a.target)} from the discard pile`;
    return { label: `Activate ${name}: ${what}`, keys };
  }
  const effect = effectWords(a.card);
  return { label: `Activate ${name}${effect ? `: ${effect}` : ''}`, keys };
}

function comboWords(a, view) {
  const draft = (view.you && view.you.draft) || {};
  if (a.type === 'combo_declare') {
    const bits = ['Seal the combo'];
    if (a.sacrifice) {
      bits.push('declaring a Sacrifice');
    }
    if (a.betray) {
      bits.push(`betraying ${nm(a.betray)}`);
    }
    const keys = a.betray ? [`card:${a.betray}`] : [];
    return { group: 'Combo: seal', label: bits.join(', '), keys };
  }
  const slot = { combo_spell: 'spell', combo_event: 'event', combo_amp: 'amplifier' }[a.type];
  const group = `Combo: ${slot}`;
  let where = slot;
  if (a.type === 'combo_amp') {
    const k = (draft.amplifiers || []).length + 1;
    where = `amplifier ${Math.min(k, 3)} of 3`;
  }
  const Where = `${where[0].toUpperCase()}${where.slice(1)}`;
  if (!a.card) {
    return { group, label: `${Where}: none`, keys: [] };
  }
  const c = info(a.card);
  const as = c && c.type !== slot ? ` (a ${c.type} used as ${slot === 'amplifier' ? 'an' : 'a'} ${slot})` : '';
  const label = `${Where}: ${nm(a.card)}, ${powerWords(a.card)}${as}`;
  return { group, label, keys: [`card:${a.card}`] };
}

// Words for one legal action: {group, label, keys}. The keys name board
// elements (data-key) the action touches: every card is `card:<id>`.
export function describe(action, view, seat) {
  const a = action || {};
  const card = a.card ? [`card:${a.card}`] : [];
  switch (a.type) {
    case 'deal':
      return { group: 'Deal with the Devil', label: `Discard ${nm(a.card)}, to draw one more card when done`, keys: card };
    case 'done': {
      const words = {
        lore_faust: ['Deal with the Devil', 'Done dealing: draw as many cards as you discarded'],
        recruit: ['Done', 'End your recruit step'],
        duel_clear_mind: ['Clear your Mind', 'Stop discarding'],
      }[view.phase] || ['Done', 'Done'];
      return { group: words[0], label: words[1], keys: [] };
    }
    case 'recruit':
      return { group: 'Recruit', label: `Recruit ${nm(a.card)} (${powerWords(a.card)})`, keys: card };
    case 'equip':
      return { group: 'Equip', label: `Equip ${nm(a.card)} on ${nm(a.to)}`, keys: [...card, `card:${a.to}`] };
    case 'move_object':
      return {
        group: 'Move object',
        label: `Move ${nm(a.object)} from ${nm(carrierOf(view, a.object))} to ${nm(a.to)}`,
        keys: [`card:${a.object}`, `card:${a.to}`],
      };
    case 'discard_object':
      return {
        group: 'Discard object',
        label: `Discard ${nm(a.object)} from ${nm(carrierOf(view, a.object))}`,
        keys: [`card:${a.object}`],
      };
    case 'place_grimhold':
      return { group: 'Grimhold', label: `Place the Grimhold on ${nm(a.to)}`, keys: ['card:grimhold', `card:${a.to}`] };
    case 'activate': {
      const w = activateWords(a, view);
      return { group: 'Event Ability', label: w.label, keys: w.keys };
    }
    case 'pass': {
      const label = {
        event: 'Pass (activate nothing now)',
        duel_defense: 'Play no Defense card',
        duel_protect: 'Do not protect your sorcerer',
      }[view.phase] || 'Pass';
      return { group: 'Pass', label, keys: [] };
    }
    case 'track':
      return a.card
        ? { group: 'Track', label: `Take ${nm(a.card)} from the deck`, keys: card }
        : { group: 'Track', label: 'Take nothing (the deck is shuffled anyway)', keys: [] };
    case 'discard': {
      const why = view.phase === 'end_discard' ? 'hand limit' : view.event && view.event.resolving ? nm(view.event.resolving) : 'forced';
      return { group: 'Discard', label: `Discard ${nm(a.card)} (${why})`, keys: card };
    }
    case 'encounter': {
      const side = mySide(view, seat);
      if (a.choice === 'keep') {
        const pick = side && side.pick;
        return { group: 'Encounter', label: `Keep ${nm(pick)} in the duel`, keys: pick ? [`card:${pick}`] : [] };
      }
      if (a.choice === 'first_to_fight') {
        return { group: 'Encounter', label: `Send ${nm(a.sorcerer)} to fight instead (First to Fight)`, keys: [`card:${a.sorcerer}`] };
      }
      if (a.choice === 'martyr') {
        return { group: 'Encounter', label: `Play Martyr: ${nm(a.sorcerer)} fights instead`, keys: [`card:${a.sorcerer}`, 'card:martyr'] };
      }
      return { group: 'Encounter', label: `Encounter: ${String(a.choice || '').replace(/_/g, ' ')}`, keys: [] };
    }
    case 'combo_spell':
    case 'combo_event':
    case 'combo_amp':
    case 'combo_declare':
      return comboWords(a, view);
    case 'clear_mind':
      return { group: 'Clear your Mind', label: `Discard ${nm(a.card)} for +1P`, keys: card };
    case 'negate': {
      const choices = Array.isArray(a.choices) ? a.choices : [];
      const label = choices
        .map((c) => (c.target ? `${nm(c.card)} negates ${nm(c.target)}` : `${nm(c.card)} negates nothing`))
        .join('; ');
      const keys = choices.flatMap((c) => [`card:${c.card}`, c.target ? `card:${c.target}` : null]).filter(Boolean);
      return { group: 'Negate', label: label || 'Negate nothing', keys };
    }
    case 'defense':
      return { group: 'Defense', label: `Play ${nm(a.card)} against ${nm(a.target)}`, keys: [...card, `card:${a.target}`] };
    case 'protect': {
      const side = mySide(view, seat);
      const who = side && side.sorcerer ? nm(side.sorcerer) : 'your sorcerer';
      return { group: 'Protect', label: `Protect ${who} with ${nm(a.card)}`, keys: card };
    }
    case 'steal':
      return { group: 'Steal', label: `Steal ${nm(a.card)}`, keys: card };
    default: {
      const rest = Object.entries(a)
        .filter(([k]) => k !== 'type')
        .map(([k, v]) => `${k} ${typeof v === 'string' ? nm(v) : Array.isArray(v) ? v.length : v}`)
        .join(', ');
      return { group: 'Other', label: `${String(a.type || 'action').replace(/_/g, ' ')}${rest ? ` (${rest})` : ''}`, keys: [] };
    }
  }
}

/* ---- status and results ---- */

// One line: whose decision it is and what is being decided.
export function status(view, seat, names) {
  if (!view) {
    return '';
  }
  if (view.result || view.phase === 'over') {
    const r = view.result || {};
    const why = REASON_WORDS[r.reason] || r.reason || '';
    const won = (r.winners || []).map((w) => `${seatName(view, w, names)} (${sideWord(view, w)})`);
    return `Game over: ${why}.${won.length ? ` ${won.join(' and ')} won.` : ''}`;
  }
  const phase = PHASE_WORDS[view.phase] || view.phase;
  const active = view.active || [];
  const turn = `Turn ${view.turn}${view.max_turns ? ` of ${view.max_turns}` : ''}`;
  if (SEALED.has(view.phase)) {
    const parts = (view.seats || []).map((s) => {
      const who = s.seat === seat ? 'you' : seatName(view, s.seat, names);
      if (active.includes(s.seat)) {
        return `${who} ${s.seat === seat ? 'choose' : 'is choosing'}`;
      }
      return `${who} ${s.submitted ? (s.seat === seat ? 'have sealed' : 'has sealed') : 'is not asked'}`;
    });
    return `${turn}. ${phase}: ${parts.join(', ')}.`;
  }
  if (!active.length) {
    return `${turn}. ${phase}.`;
  }
  const who = active.map((a) => (a === seat ? 'your decision' : `${seatName(view, a, names)} (${sideWord(view, a)}) decides`));
  return `${turn}. ${phase}: ${who.join(', ')}.`;
}

// Score rows of the end screen.
export function results(view, names) {
  const r = (view && view.result) || {};
  const scores = r.scores || [];
  const why = REASON_WORDS[r.reason] || r.reason || '';
  return scores.map((score, seat) => {
    const won = (r.winners || []).includes(seat);
    const draw = !(r.winners || []).length;
    const detail = won || draw ? `${sideWord(view, seat)}: ${won ? 'won' : 'draw'}${why ? ` (${why})` : ''}` : `${sideWord(view, seat)}: lost`;
    return { seat, score, detail };
  });
}

/* ---- render ---- */


function typeLine(c) {
  if (!c) {
    return 'card';
  }
  const type = FACTION[c.type] ? `${FACTION[c.type].mark} ${c.type} sorcerer` : c.type;
  return c.classes && c.classes.length ? `${type} · ${c.classes.join(', ')}` : type;
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
  const note = c && c.note && c.note !== '-' ? c.note : '';
  const rules = c ? c.rules : [];
  const el = h(
    'div',
    { class: cls.join(' ') },
    h('div', { class: 'sc-head' }, h('span', { class: 'sc-name' }, nm(id)), h('span', { class: 'sc-power' }, powerWords(id))),
    h('div', { class: 'sc-type' }, typeLine(c)),
    note ? h('div', { class: 'sc-note' }, note) : null,
    !o.compact && rules.length ? h('ul', { class: 'sc-rules' }, rules.map((r) => h('li', {}, r))) : null,
    o.negated ? h('div', { class: 'sc-flag' }, '✗ negated') : null,
    o.badge ? h('div', { class: 'sc-flag' }, o.badge) : null,
  );
  const label = `${nm(id)}, ${typeLine(c)}, power ${powerWords(id)}${note ? `: ${note}` : ''}${rules.length ? `. ${rules.join(' ')}` : ''}${o.negated ? ' (negated)' : ''}`;
  el.title = label;
  return keyed(el, `card:${id}`, { short: nm(id) }, ctx, ks);
}

function cardRow(ids, ctx, ks, opts, empty) {
  const row = h('div', { class: `sc-row${opts && opts.compact ? ' compact-row' : ''}` });
  for (const id of ids || []) {
    row.append(cardEl(id, ctx, ks, opts));
  }
  if (!(ids || []).length) {
    row.append(h('p', { class: 'muted' }, empty || 'none'));
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
    badges.push('⚔ dueling');
  }
  if (s.first_to_fight_temp) {
    badges.push('First to Fight this turn');
  }
  const wrap = h('div', { class: `sc-sorcerer${dueling ? ' dueling' : ''}` });
  wrap.append(cardEl(s.card, ctx, ks, { extra: 'sorc', badge: badges.join(' · ') }));
  const objs = s.objects || [];
  const oRow = h('div', { class: 'sc-objects', 'aria-label': `objects of ${nm(s.card)}: ${objs.length}` });
  oRow.append(h('span', { class: 'muted small' }, objs.length ? `objects (${objs.length}/3):` : 'no objects'));
  for (const id of objs) {
    oRow.append(cardEl(id, ctx, ks, { compact: true, extra: id === 'grimhold' ? 'grimhold' : '' }));
  }
  wrap.append(oRow);
  return wrap;
}

function sidePanel(view, s, ctx, ks) {
  const mine = ctx.seat === s.seat;
  const f = FACTION[s.faction] || { side: s.faction, mark: '' };
  const active = (view.active || []).includes(s.seat);
  const sealed = SEALED.has(view.phase);
  const head = h(
    'div',
    { class: 'sc-side-head' },
    h('span', { class: 'fac-mark' }, f.mark),
    h('strong', {}, ` ${s.name}`),
    h('span', {}, ` — ${f.side}`),
    mine ? h('span', { class: 'badge mine-badge' }, 'yours') : null,
    active ? h('span', { class: 'badge turn-badge' }, sealed ? 'choosing…' : '▶ to act') : null,
    sealed && s.submitted ? h('span', { class: 'badge sealed-badge' }, 'sealed ✓') : null,
  );
  const facts = h('p', { class: 'muted' }, `Hand ${plural(s.hand_size, 'card')} (limit ${s.hand_limit}) · ${plural((s.sorcerers || []).length, 'sorcerer')} in play`);
  const row = h('div', { class: 'sc-play' });
  for (const so of s.sorcerers || []) {
    row.append(sorcererEl(view, so, ctx, ks));
  }
  return h(
    'section',
    { class: `sc-side fac-${s.faction}${mine ? ' mine' : ''}${active ? ' acting' : ''}`, 'aria-label': `${s.name}, ${f.side}${mine ? ', yours' : ''}` },
    head,
    facts,
    row,
  );
}

function tableFacts(view, ctx) {
  const g = view.grimhold || {};
  const m = view.markers || {};
  const items = [
    h('li', {}, h('strong', {}, 'Dave '), `${m.dave || 0} / 7 `, h('span', { class: 'muted' }, '(Merlinians win at 7)')),
    h('li', {}, h('strong', {}, 'Morgana '), `${m.morgana || 0} / 5 `, h('span', { class: 'muted' }, '(Morganians win at 5)')),
    h('li', {}, h('strong', {}, 'Grimhold '), g.on ? `on ${nm(g.on)} (${seatName(view, g.controller, ctx.names)})` : 'unattached'),
    h('li', {}, h('strong', {}, 'Deck '), plural(view.deck_size || 0, 'card')),
  ];
  if (view.moved_between_hands) {
    items.push(h('li', {}, h('strong', {}, 'Moved between hands '), String(view.moved_between_hands)));
  }
  const gates = Object.entries(view.gates || {});
  if (gates.length) {
    items.push(
      h(
        'li',
        { class: 'gates' },
        h('strong', {}, 'Grimhold gate: '),
        gates.map(([id, done], i) => [i ? ', ' : '', `${nm(id)} ${done ? '✓ recruited' : '✗ not yet'}`]),
      ),
    );
  }
  const title = view.result ? 'The table at the end' : PHASE_WORDS[view.phase] || view.phase;
  return section(title, 'sc-table', h('ul', { class: 'sc-facts' }, items));
}

function eventPanel(view, ctx, ks) {
  const ev = view.event;
  if (!ev) {
    return null;
  }
  const lines = [h('p', {}, 'Priority: ', h('strong', {}, seatName(view, ev.priority, ctx.names)))];
  if (ev.resolving) {
    lines.push(h('p', {}, 'Resolving: ', cardEl(ev.resolving, ctx, ks, { compact: true })));
  }
  if (ev.discard_left) {
    lines.push(h('p', {}, `Cards still to discard: ${ev.discard_left}`));
  }
  lines.push(h('p', { class: 'muted' }, 'Activated this phase:'), cardRow(ev.activated, ctx, ks, { compact: true }, 'nothing yet'));
  return section('Event phase', 'sc-event', ...lines);
}

// One slot of a revealed combo.
function slot(label, id, combo, ctx, ks) {
  const negated = id && (combo.negated || []).includes(id);
  return h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, label), id ? cardEl(id, ctx, ks, { compact: true, negated }) : h('div', { class: 'sc-empty' }, '—'));
}

function duelSide(view, seat, side, ctx, ks) {
  const duel = view.duel;
  const s = seatOf(view, seat) || {};
  const f = FACTION[s.faction] || { side: '', mark: '' };
  const winner = duel.outcome === 'winner' && duel.winner === seat;
  const loser = duel.outcome === 'winner' && duel.winner !== seat;
  const parts = [h('div', { class: 'duel-who' }, h('span', { class: 'fac-mark' }, f.mark), h('strong', {}, ` ${s.name || ''}`), ` — ${f.side}`, winner ? h('span', { class: 'badge win-badge' }, '★ winner') : null, loser ? h('span', { class: 'badge lose-badge' }, 'loser') : null)];
  if (side.sorcerer) {
    const changed = side.pick && side.pick !== side.sorcerer ? ` (picked ${nm(side.pick)})` : '';
    parts.push(h('p', {}, 'Duelist: ', h('strong', {}, nm(side.sorcerer)), `${changed}`));
  } else if (side.pick) {
    parts.push(h('p', {}, 'Picked: ', h('strong', {}, nm(side.pick))));
  } else {
    parts.push(h('p', { class: 'muted' }, 'No duelist'));
  }
  const combo = side.combo;
  if (combo) {
    const grid = h('div', { class: 'sc-combo' });
    grid.append(slot('Spell', combo.spell, combo, ctx, ks), slot('Event', combo.event, combo, ctx, ks));
    (combo.amplifiers || []).forEach((id, i) => grid.append(slot(`Amplifier ${i + 1}`, id, combo, ctx, ks)));
    if (combo.defense) {
      grid.append(slot('Defense', combo.defense, combo, ctx, ks));
    }
    if (combo.protect) {
      grid.append(slot('Protect', combo.protect, combo, ctx, ks));
    }
    parts.push(grid);
    const notes = [];
    if (combo.clear_mind) {
      notes.push(`Clear your Mind: ${combo.clear_mind} discarded`);
    }
    if (combo.sacrifice) {
      notes.push('Sacrifice declared');
    }
    if (combo.betray) {
      notes.push(`betrayed ${nm(combo.betray)}`);
    }
    if (notes.length) {
      parts.push(h('p', { class: 'sc-combo-notes' }, notes.join(' · ')));
    }
    // Totals are counted once the reveal's negations have landed; before
    // that the view holds 0.
    const early = duel.outcome === 'pending' && !side.total && ['duel_clear_mind', 'duel_negate', 'object_overflow', 'grimhold_place'].includes(view.phase);
    parts.push(
      early
        ? h('p', { class: 'sc-total muted' }, 'Total power: counted after the negations')
        : h('p', { class: 'sc-total' }, 'Total power ', h('strong', {}, String(side.total !== undefined ? side.total : '?'))),
    );
  } else if (duel.outcome === 'pending' && seat === ctx.seat && view.you && view.you.draft) {
    parts.push(draftPanel(view.you, ctx, ks, s.submitted));
  } else if (duel.outcome === 'pending') {
    const sealedNow = view.phase === 'duel_combo' && s.submitted;
    parts.push(h('div', { class: 'sc-sealed' }, sealedNow ? 'Combo sealed ✓ (hidden until both are in)' : view.phase === 'duel_combo' ? 'Building a combo in secret…' : 'Combo not built yet'));
  }
  return h('div', { class: `sc-duel-side fac-${s.faction || ''}${winner ? ' winner' : ''}${loser ? ' loser' : ''}` }, ...parts);
}

function duelPanel(view, ctx, ks) {
  const duel = view.duel;
  if (!duel) {
    return null;
  }
  if (duel.outcome === 'no_duel') {
    return section('Duel', 'sc-duel past', h('p', { class: 'muted' }, 'No duel this turn.'));
  }
  let outcome = OUTCOME_WORDS[duel.outcome] || duel.outcome;
  if (duel.outcome === 'winner') {
    outcome = `${seatName(view, duel.winner, ctx.names)} won by ${duel.margin}${duel.protected ? '; the loser was protected' : ''}`;
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
    extra.push(h('p', { class: 'sc-alert' }, 'Morgana lost by 7 or more: Destroy Morgana is set for this turn.'));
  }
  if (view.steals_left) {
    extra.push(h('p', {}, `Steals left: ${view.steals_left}`));
  }
  const current = view.phase.startsWith('duel_') || view.phase === 'encounter' || view.phase === 'object_overflow' || view.phase === 'grimhold_place';
  const title = `${current ? 'Duel' : 'Last duel'} — ${duel.revealed ? 'revealed' : 'sealed'}: ${outcome}`;
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
  grid.append(d.spell ? h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, 'Spell'), cardEl(d.spell, ctx, ks, { compact: true })) : empty('Spell'));
  grid.append(d.event ? h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, 'Event'), cardEl(d.event, ctx, ks, { compact: true })) : empty('Event'));
  (d.amplifiers || []).forEach((id, i) => grid.append(h('div', { class: 'sc-slot' }, h('div', { class: 'slot-label' }, `Amplifier ${i + 1}`), cardEl(id, ctx, ks, { compact: true }))));
  const decl = [];
  if (d.sacrifice) {
    decl.push('Sacrifice');
  }
  if (d.betray) {
    decl.push(`betray ${nm(d.betray)}`);
  }
  return h(
    'div',
    { class: 'sc-draft' },
    h('h4', {}, sealed ? 'Your combo, sealed (only you see it until the reveal)' : `Your combo, step ${Math.min((d.steps || 0) + 1, 6)} of 6 (only you see it)`),
    grid,
    decl.length ? h('p', {}, `Declared: ${decl.join(', ')}`) : null,
  );
}

function sealedAnswers(you) {
  const out = [];
  if (you.submitted_choice) {
    const c = you.submitted_choice;
    const what = c.choice === 'keep' ? 'keep the picked sorcerer' : `${String(c.choice).replace(/_/g, ' ')}: ${nm(c.sorcerer)}`;
    out.push(`Your sealed encounter choice: ${what}.`);
  }
  if (you.submitted_negate) {
    // The targets chosen by this seat's negators in the spell and event
    // slots (null: that negator negates nothing or there is none).
    const n = you.submitted_negate;
    const bits = [];
    if ('spell_negator' in n) {
      bits.push(`your spell negates ${nm(n.spell_negator)}`);
    }
    if ('event_negator' in n) {
      bits.push(`your event negates ${nm(n.event_negator)}`);
    }
    out.push(`Your sealed negations: ${bits.join('; ') || 'none'}.`);
  }
  if ('submitted_defense' in you) {
    const d = you.submitted_defense;
    out.push(`Your sealed defense: ${d ? nm(d) : 'none (pass)'}.`);
  }
  return out;
}

function youPanel(view, ctx, ks) {
  const you = view.you;
  if (!you) {
    return null;
  }
  const parts = [];
  parts.push(h('h4', {}, `Your hand (${(you.hand || []).length}) `, h('span', { class: 'badge mine-badge' }, 'yours — hidden from the opponent')));
  // Cards of the combo being built stay in the hand until the reveal.
  const d = you.draft || {};
  const inCombo = new Set([d.spell, d.event, ...(d.amplifiers || [])].filter(Boolean));
  const hand = h('div', { class: 'sc-row' });
  for (const id of you.hand || []) {
    hand.append(cardEl(id, ctx, ks, { badge: inCombo.has(id) ? 'in your combo' : '', extra: inCombo.has(id) ? 'in-combo' : '' }));
  }
  if (!(you.hand || []).length) {
    hand.append(h('p', { class: 'muted' }, 'empty'));
  }
  parts.push(hand);
  for (const line of sealedAnswers(you)) {
    parts.push(h('p', { class: 'sc-sealed-own' }, line));
  }
  const lists = [
    ['opponent_hand', "The loser's hand (choose what to steal)", false],
    ['scry', "Opponent's hand, seen with Vision", false],
    ['divination', 'Top of the deck, top first (Astrology)', true],
    ['track_list', 'The deck, in card-list order (choose one to take)', true],
  ];
  for (const [key, title, compact] of lists) {
    if (Array.isArray(you[key])) {
      parts.push(h('h4', {}, `${title} (${you[key].length})`), cardRow(you[key], ctx, ks, { compact }, 'empty'));
    }
  }
  if (you.tracked) {
    parts.push(h('p', {}, 'Tracked from the deck: ', h('strong', {}, nm(you.tracked))));
  }
  if ((you.transfers || []).length) {
    parts.push(
      h('h4', {}, 'Cards moved between hands since the last encounter'),
      h('ul', {}, you.transfers.map((t) => h('li', {}, `${nm(t.card)}: from ${seatName(view, t.from, ctx.names)} to ${seatName(view, t.to, ctx.names)}`))),
    );
  }
  const f = FACTION[you.faction] || { side: you.faction, mark: '' };
  return h('section', { class: `sc-panel sc-you mine fac-${you.faction}`, 'aria-label': 'Your hand and what only you see' }, h('h3', {}, `${f.mark} You play the ${f.side}`), ...parts);
}

function discardPanel(view, ctx, ks) {
  const pile = view.discard || [];
  const recent = pile.slice(-6).reverse();
  const older = pile.slice(0, -6).reverse();
  const parts = [h('p', { class: 'muted' }, pile.length ? 'Newest first.' : 'Empty.'), cardRow(recent, ctx, ks, { compact: true }, 'empty')];
  if (older.length) {
    parts.push(h('details', {}, h('summary', {}, plural(older.length, 'older card')), cardRow(older, ctx, ks, { compact: true })));
  }
  return section(`Discard pile (${pile.length})`, 'sc-discard', ...parts);
}

// The end in one sentence; the app's end screen has the score rows.
function resultPanel(view, ctx) {
  if (!view.result) {
    return null;
  }
  return section('Game over', 'sc-result', h('p', {}, status(view, ctx.seat, ctx.names)));
}

function logPanel(view) {
  const log = view.log || [];
  return log.length ? section('Last actions', 'sc-log', h('ol', {}, log.map((l) => h('li', {}, l)))) : null;
}

// Draws the board of `view` into `root`.
export function render(root, view, ctx) {
  ctx = ctx || {};
  const ks = keyState(describe, view, ctx);
  const board = h('div', { class: 'sorcerers-board' });
  const you = view.you;
  const f = you && FACTION[you.faction];
  board.append(
    h(
      'header',
      { class: 'sc-header' },
      h('strong', {}, 'Sorcerers'),
      h('span', { class: 'muted' }, ` turn ${view.turn}${view.max_turns ? ` of ${view.max_turns}` : ''}`),
      f ? h('span', { class: 'badge mine-badge' }, `you play the ${f.side} ${f.mark}`) : h('span', { class: 'badge' }, 'spectating'),
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
