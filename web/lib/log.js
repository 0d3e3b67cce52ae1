// SPDX-License-Identifier: MIT
// The log panel: the game's own log lines (the view holds only the last
// few, so the page keeps what it has seen) interleaved with room events
// (who joined, left, lost or regained the connection, who hosts, the game
// starting and ending). Each new line is also said in a visually hidden
// live region (#announce, role log), for screen readers: the moves as they
// come, but not a backlog (the lines remembered from before a reload, or
// those missed while away, which the reconnect notice sums up). A game
// line is shown in the reader's language from its message (the view's
// log_keys and the game's catalogue, lib/messages.js), and shown again
// when the language changes.

import { h, clear } from './dom.js';
import { seatLabel } from './words.js';
import { lang } from './i18n.js';
import { messageText } from './messages.js';

const MAX_ENTRIES = 400;
const ANNOUNCED_KEPT = 8; // lines left in the live region (it only grows)
const ANNOUNCE_BATCH = 3; // of many new lines at once, the last few are said

export class Log {
  constructor(listEl, announceEl = null) {
    this.el = listEl;
    this.announceEl = announceEl;
    this.entries = []; // { text, msg, kind: 'game'|'room'|'info', missed }
    this.catalogue = null; // the game's, for its lines' messages
  }

  // A game line as the reader reads it; others are written in words.
  shown(entry) {
    return entry.kind === 'game' ? messageText(this.catalogue, entry.msg, entry.text, lang()) : entry.text;
  }

  // Takes the game's catalogue (null: lines as the view has them) and
  // writes every line again, as after a change of language.
  setCatalogue(cat) {
    this.catalogue = cat;
    this.relabel();
  }

  row(entry) {
    return h('li', { class: ['log-' + entry.kind, entry.missed && 'missed'] },
      entry.missed ? h('span', { class: 'tag-new' }, 'new ') : null,
      entry.kind === 'room' ? h('span', { class: 'tag-room', 'aria-hidden': 'true' }, '» ') : null,
      this.shown(entry));
  }

  relabel() {
    const rows = Array.from(this.el.children);
    if (rows.length !== this.entries.length) return;
    this.entries.forEach((e, i) => rows[i].replaceWith(this.row(e)));
  }

  reset() {
    this.entries = [];
    clear(this.el);
    if (this.announceEl) clear(this.announceEl);
  }

  // Says `text` in the live region.
  announce(text) {
    const el = this.announceEl;
    if (!el) return;
    el.appendChild(h('p', {}, text));
    while (el.childElementCount > ANNOUNCED_KEPT) el.firstElementChild.remove();
  }

  // The game lines seen so far, newest last (to remember across reloads),
  // and their messages.
  gameLines(n) {
    return this.entries.filter((e) => e.kind === 'game').slice(-n).map((e) => e.text);
  }

  gameKeys(n) {
    return this.entries.filter((e) => e.kind === 'game').slice(-n).map((e) => e.msg || []);
  }

  // Takes the view's log (a window onto the last lines) and appends the
  // lines not yet seen: the longest tail of what we hold that is a head of
  // `lines` is the overlap; `keys` are the lines' messages. Returns the
  // new lines as the reader reads them.
  mergeGame(lines, { missed = false, keys = [] } = {}) {
    if (!Array.isArray(lines)) return [];
    const held = this.gameLines(lines.length);
    let overlap = 0;
    for (let k = Math.min(held.length, lines.length); k > 0; k--) {
      if (held.slice(held.length - k).every((t, i) => t === lines[i])) {
        overlap = k;
        break;
      }
    }
    const fresh = lines.slice(overlap).map((text, i) => ({
      text: String(text), msg: Array.isArray(keys) ? keys[overlap + i] : undefined, kind: 'game', missed,
    }));
    for (const e of fresh) this.push(e);
    const said = fresh.map((e) => this.shown(e));
    if (!missed) for (const text of said.slice(-ANNOUNCE_BATCH)) this.announce(text);
    return said;
  }

  add(text, kind = 'room') {
    this.push({ text, kind, missed: false });
    this.announce(text);
  }

  push(entry) {
    const atBottom = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    this.entries.push(entry);
    this.el.appendChild(this.row(entry));
    while (this.entries.length > MAX_ENTRIES) {
      this.entries.shift();
      this.el.firstChild?.remove();
    }
    if (atBottom) this.el.scrollTop = this.el.scrollHeight;
  }

  // Seeds the log with lines remembered from before a reload.
  restore(lines, keys = []) {
    (lines || []).forEach((text, i) => this.push({ text: String(text), msg: keys?.[i], kind: 'game', missed: false }));
  }

  clearMissed() {
    for (const e of this.entries) e.missed = false;
    for (const li of this.el.querySelectorAll('.missed')) {
      li.classList.remove('missed');
      li.querySelector('.tag-new')?.remove();
    }
  }
}

// Lines for what changed between two `room` events.
export function roomChanges(prev, next, mySeat) {
  const out = [];
  const nameOf = (s) => s.name || seatLabel(s.seat);
  if (!prev) return out;
  const before = new Map((prev.seats || []).map((s) => [s.seat, s]));
  for (const s of next.seats || []) {
    const p = before.get(s.seat) || { kind: 'empty', connected: false };
    const who = nameOf(s) + (s.seat === mySeat ? ' (you)' : '');
    if (p.kind === 'empty' && s.kind === 'human') out.push(`${who} took seat ${s.seat + 1}.`);
    else if (p.kind !== 'empty' && s.kind === 'empty') out.push(`${nameOf(p)} left seat ${s.seat + 1}.`);
    else if (p.kind === 'human' && s.kind === 'bot') out.push(`A bot now plays seat ${s.seat + 1} (${nameOf(p)} left).`);
    else if (p.kind === 'bot' && s.kind === 'human') out.push(`${who} is back in seat ${s.seat + 1}.`);
    else if (p.kind === 'empty' && s.kind === 'bot') out.push(`${who} (bot) takes seat ${s.seat + 1}.`);
    else if (s.kind === 'human' && p.connected && !s.connected) out.push(`${who} lost the connection.`);
    else if (s.kind === 'human' && !p.connected && s.connected) out.push(`${who} is connected again.`);
  }
  if (prev.host !== next.host && next.seats?.[next.host]) {
    out.push(`${nameOf(next.seats[next.host])} is now the host.`);
  }
  if ((prev.spectators || 0) !== (next.spectators || 0)) {
    const n = next.spectators || 0;
    out.push(n === 0 ? 'Nobody is watching.' : `${n} watching.`);
  }
  if (prev.status !== next.status) {
    if (next.status === 'playing') out.push('The game has started.');
    else if (next.status === 'ended') out.push('The game has ended.');
  }
  return out;
}

// The log's line for a server event about a seat: a timeout (what it did)
// or an undo; null for another event.
export function eventLine(msg, mySeat) {
  const who = msg.seat === mySeat ? 'You' : (msg.name || seatLabel(msg.seat));
  if (msg.ev === 'undo') return `${who} took back a move.`;
  if (msg.ev !== 'timeout') return null;
  const did = {
    bot: 'a bot plays the seat',
    plays_on: 'plays on without a clock',
    lose: 'the seat loses',
    skip: 'the turn is skipped',
  }[msg.do] || 'out of time';
  return `${who} ran out of time: ${did}.`;
}
