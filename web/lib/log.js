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
// when the language changes; so is a room line, given as a function that
// writes it (each time in the language of the moment).

import { h, clear, userText } from './dom.js';
import { seatLabel } from './words.js';
import { fill, lang, pieces, t } from './i18n.js';
import { messageText } from './messages.js';

const MAX_ENTRIES = 400;
const ANNOUNCED_KEPT = 8; // lines left in the live region (it only grows)
const ANNOUNCE_BATCH = 3; // of many new lines at once, the last few are said

export class Log {
  constructor(listEl, announceEl = null) {
    this.el = listEl;
    this.announceEl = announceEl;
    // { text, msg, kind: 'game'|'room'|'info', missed }: a game line's
    // text is the view's; a room or info line's is a string, or a function
    // returning the line (a string or pieces for h()).
    this.entries = [];
    this.catalogue = null; // the game's, for its lines' messages
  }

  // A line as the reader reads it: a game line from its message, a room
  // line written now.
  shown(entry) {
    if (entry.kind === 'game') return messageText(this.catalogue, entry.msg, entry.text, lang());
    return typeof entry.text === 'function' ? entry.text() : entry.text;
  }

  // Takes the game's catalogue (null: lines as the view has them) and
  // writes every line again, as after a change of language.
  setCatalogue(cat) {
    this.catalogue = cat;
    this.relabel();
  }

  row(entry) {
    return h('li', { class: ['log-' + entry.kind, entry.missed && 'missed'] },
      entry.missed ? h('span', { class: 'tag-new' }, t('new'), ' ') : null,
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

  // Says `text` (a string or pieces for h()) in the live region.
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

  // A room or info line: `text` a string, or a function that writes it
  // (again after a change of language).
  add(text, kind = 'room') {
    const entry = { text, kind, missed: false };
    this.push(entry);
    this.announce(this.shown(entry));
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

// Lines for what changed between two `room` events, each a function
// that writes it (Log.add()), the players' names as their own words.
export function roomChanges(prev, next, mySeat) {
  const out = [];
  const nameOf = (s) => userText(s.name || seatLabel(s.seat));
  if (!prev) return out;
  const before = new Map((prev.seats || []).map((s) => [s.seat, s]));
  for (const s of next.seats || []) {
    const p = before.get(s.seat) || { kind: 'empty', connected: false };
    const n = s.seat + 1;
    // Written anew each time: a node goes into one place only.
    const who = () => (s.seat === mySeat ? pieces(t('{name} (you)'), { name: nameOf(s) }) : nameOf(s));
    if (p.kind === 'empty' && s.kind === 'human') out.push(() => pieces(t('{who} took seat {n}.'), { who: who(), n }));
    else if (p.kind !== 'empty' && s.kind === 'empty') out.push(() => pieces(t('{name} left seat {n}.'), { name: nameOf(p), n }));
    else if (p.kind === 'human' && s.kind === 'bot') out.push(() => pieces(t('A bot now plays seat {n} ({name} left).'), { name: nameOf(p), n }));
    else if (p.kind === 'bot' && s.kind === 'human') out.push(() => pieces(t('{who} is back in seat {n}.'), { who: who(), n }));
    else if (p.kind === 'empty' && s.kind === 'bot') out.push(() => pieces(t('{who} (bot) takes seat {n}.'), { who: who(), n }));
    else if (s.kind === 'human' && p.connected && !s.connected) out.push(() => pieces(t('{who} lost the connection.'), { who: who() }));
    else if (s.kind === 'human' && !p.connected && s.connected) out.push(() => pieces(t('{who} is connected again.'), { who: who() }));
  }
  if (prev.host !== next.host && next.seats?.[next.host]) {
    const host = next.seats[next.host];
    out.push(() => pieces(t('{name} is now the host.'), { name: nameOf(host) }));
  }
  if ((prev.spectators || 0) !== (next.spectators || 0)) {
    const n = next.spectators || 0;
    out.push(() => (n === 0 ? t('Nobody is watching.') : t('{n} watching.', { n })));
  }
  if (prev.status !== next.status) {
    if (next.status === 'playing') out.push(() => t('The game has started.'));
    else if (next.status === 'ended') out.push(() => t('The game has ended.'));
  }
  return out;
}

// What a seat's time running out did, by the `timeout` event's `do`.
function timeoutWords(what) {
  switch (what) {
    case 'bot': return t('a bot plays the seat');
    case 'plays_on': return t('plays on without a clock');
    case 'lose': return t('the seat loses');
    case 'skip': return t('the turn is skipped');
    default: return t('out of time');
  }
}

// The log's line for a server event about a seat: a timeout (what it did)
// or an undo; null for another event. A string; with `nodes`, pieces for
// h() with the player's name as their own words (userText()).
export function eventLine(msg, mySeat, nodes = false) {
  const me = msg.seat === mySeat;
  const name = msg.name || seatLabel(msg.seat);
  const line = (text, params) => (nodes ? pieces(text, { ...params, who: userText(name) }) : fill(text, { ...params, who: name }));
  if (msg.ev === 'undo') return me ? t('You took back a move.') : line(t('{who} took back a move.'), {});
  if (msg.ev !== 'timeout') return null;
  const did = timeoutWords(msg.do);
  return me ? t('You ran out of time: {did}.', { did }) : line(t('{who} ran out of time: {did}.'), { did });
}
