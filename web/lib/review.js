// SPDX-License-Identifier: MIT
// The review screen: a finished game stepped through rev by rev, from the
// server's `review` replies (PROTOCOL.md "After the game"), for a room by
// its code (the `review` op over the connection) or for a record file
// (POST /review over HTTP: a record may be longer than a request line).
//
// Each rev shows the public view on the game's own board, drawn as a
// spectator's (no moves to click), or as one seat saw it; the step that
// made the rev in words; and every seat's hand then. Two checks run on
// every reply: the seed the server reveals must hash to the commitment
// every view showed, and the page's own hash of the public view and of
// each seat's whole view (the view with that seat's `you`) must equal the
// hashes the server sent with that rev during play. The screen computes
// nothing else: what it shows is what the replies hold.

import { h, append, clear } from './dom.js';
import { viewHash } from './viewhash.js';
import { seedCheck } from './endscreen.js';
import { eventLine } from './log.js';
import { clockText } from './clock.js';
import { tree } from '../games/generic.js';
import { attachBoardKeys, rove } from '../games/keys.js';
import { seatLabel } from './words.js';

export const RECORD_MAX_BYTES = 4 * 1024 * 1024; // what POST /review takes
const CACHE_REVS = 64; // replies kept, so that stepping back asks nothing

// ---- Pure helpers ----

function seatName(names, seat) {
  return (Array.isArray(names) && names[seat]) || seatLabel(seat);
}

// The review's seat names, "Seat N" where a seat has none.
export function reviewNames(review) {
  return (Array.isArray(review?.seats) ? review.seats : []).map((s, i) => (typeof s?.name === 'string' && s.name) || seatLabel(i));
}

// Seat `seat`'s whole view at the review's rev: the public view with the
// seat's `you`, as its `state` or `diff` carried it during play.
export function seatView(review, seat) {
  const you = review.hands?.[seat];
  return you === undefined || you === null ? review.view : { ...review.view, you };
}

// The step that made the rev, in words. `describe(action, seat)` words an
// action (the board's), returning a string.
export function stepText(step, names, describe) {
  const who = (s) => seatName(names, s);
  switch (step?.t) {
    case 'start':
      return 'The game starts.';
    case 'act':
      return `${who(step.seat)}: ${describe(step.action, step.seat)}`;
    case 'undo':
      return `${who(step.seat)} took back a move.`;
    case 'timeout':
      return eventLine({ ev: 'timeout', seat: step.seat, do: step.do, name: who(step.seat) }, null);
    case 'clock':
      return `The running clocks were charged (${clockText(Number(step.ms) || 0)} of play).`;
    default:
      return `A step the page does not know (${String(step?.t || 'no type')}).`;
  }
}

// The fair-randomness check of a review: the revealed seed hashes to
// `seed_commit`, which is also the commitment the views showed.
export function reviewSeedCheck(review) {
  const shown = review?.view?.seed_commit;
  const given = review?.seed_commit;
  if (typeof shown === 'string' && typeof given === 'string' && shown.toLowerCase() !== given.toLowerCase()) {
    return {
      ok: false,
      text: `Seed check FAILED: the review's commitment ${given.slice(0, 12)}… is not the one the views showed (${shown.slice(0, 12)}…).`,
    };
  }
  return seedCheck({ seed_commit: given }, { seed: review?.seed });
}

// The page's hashes of the review's views against the server's:
// { ok, rows: [{ seat (null: the public view), got, want, ok }] }.
export function reviewHashCheck(review) {
  const rows = [];
  const row = (seat, view, want) => {
    let got;
    try {
      got = viewHash(view);
    } catch (e) {
      got = `(cannot hash: ${e.message})`;
    }
    rows.push({ seat, got, want: typeof want === 'string' ? want : '(none sent)', ok: got === want });
  };
  row(null, review.view, review.hash);
  const hashes = Array.isArray(review.hashes) ? review.hashes : [];
  const seats = Math.max(hashes.length, Array.isArray(review.seats) ? review.seats.length : 0);
  for (let i = 0; i < seats; i++) row(i, seatView(review, i), hashes[i]);
  return { ok: rows.every((r) => r.ok), rows };
}

// A refusal of `review` in words.
export function reviewErrorText(error, room) {
  const code = error?.code;
  const message = error?.message || code || 'something went wrong';
  switch (code) {
    case 'room_not_found':
      return `The server holds no game under the code ${room}: it may have been forgotten, or the code is mistyped.`;
    case 'game_not_over':
      return `The game in room ${room} is still being played: it can be reviewed once it is over (watch it meanwhile).`;
    case 'bad_action':
    case 'illegal_action':
      return `The record does not replay: ${message}.`;
    case 'disconnected':
      return 'Not connected to the server: the review loads when the connection is back.';
    default:
      return `The server could not review this game: ${message}.`;
  }
}

// A record file's text checked before it is sent: { record } or { error }.
export function readRecordText(text, size = text.length) {
  if (size > RECORD_MAX_BYTES) return { error: `The file is ${Math.ceil(size / 1048576)} MiB; a review takes records of up to 4 MiB.` };
  if (!text.trim()) return { error: 'The file is empty.' };
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    return { error: `The file is not JSON: ${e.message}.` };
  }
  if (!record || typeof record !== 'object' || typeof record.game !== 'string' || !Array.isArray(record.actions)) {
    return { error: 'The file is not a game record (it lacks "game" and "actions"): download one from the end of a game.' };
  }
  return { record };
}

// POST /review?rev=N with the record's text: the server's JSON answer, or
// an error shaped as one.
export async function postReview(text, rev) {
  const query = Number.isInteger(rev) ? `?rev=${rev}` : '';
  let res;
  try {
    res = await fetch(`review${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
  } catch (e) {
    return { ok: false, error: { code: 'disconnected', message: `the server could not be reached (${e.message})` } };
  }
  if (!(res.headers.get('content-type') || '').includes('application/json')) {
    return { ok: false, error: { code: 'http', message: `the server answered ${res.status} ${res.statusText}` } };
  }
  try {
    return await res.json();
  } catch {
    return { ok: false, error: { code: 'http', message: 'the server\'s answer was not JSON' } };
  }
}

// ---- The screen ----

// els: { root, title, seats, message, first, back, forward, last, slider,
// at, lastRev, step, status, seed, hashes, hashSummary, as, board, hands }
// deps: { request(op, args) -> reply, loadBoard(game) -> board,
// gameTitle(id) -> words }.
export class ReviewScreen {
  constructor(els, deps) {
    this.els = els;
    this.deps = deps;
    this.source = null; // { room } or { text, file }
    this.cache = new Map(); // rev -> review
    this.shown = null; // the review on screen
    this.want = null; // the rev asked for last (null: the last one)
    this.busy = false;
    this.board = null;
    this.as = ''; // '' the public view, else the seat index the board is drawn for
    attachBoardKeys(els.board);
    els.first.addEventListener('click', () => this.go('first'));
    els.back.addEventListener('click', () => this.go(-1));
    els.forward.addEventListener('click', () => this.go(1));
    els.last.addEventListener('click', () => this.go('last'));
    els.slider.addEventListener('input', () => this.go(Number(els.slider.value)));
    els.as.addEventListener('change', () => {
      this.as = els.as.value;
      this.drawBoard();
    });
  }

  // Reviews the finished game of room `code`, from its last rev.
  openRoom(code) {
    this.reset({ room: code });
    this.els.title.textContent = `Review of room ${code}`;
    this.fetch(null);
  }

  // Reviews a record, given as its file's text.
  openRecord(text, file) {
    this.reset({ text, file });
    this.els.title.textContent = `Review of the record ${file}`;
    this.fetch(null);
  }

  // Nothing to review yet: the screen says how to open a record.
  openEmpty() {
    this.reset(null);
    this.els.title.textContent = 'Review a game';
    this.say('Open a record file (“Download record” at the end of a game saves one), or follow a Review link from the lobby.');
  }

  reset(source) {
    this.source = source;
    this.cache.clear();
    this.shown = null;
    this.want = null;
    this.busy = false; // a request still out for the old source is dropped when it comes
    this.board = null;
    this.as = '';
    this.els.root.dataset.rev = '';
    this.els.root.dataset.loaded = 'false';
    this.els.root.dataset.state = source ? 'loading' : 'empty';
    for (const el of [this.els.seats, this.els.step, this.els.status, this.els.seed, this.els.hashSummary]) el.textContent = '';
    for (const el of [this.els.hashes, this.els.board, this.els.hands, this.els.as]) clear(el);
    this.els.seed.dataset.ok = '';
    this.els.hashSummary.dataset.ok = '';
    this.controls();
    this.say(source ? 'Loading…' : '');
  }

  say(text, isError = false) {
    this.els.message.textContent = text;
    this.els.message.hidden = !text;
    this.els.message.classList.toggle('review-error', isError);
  }

  // Asks again for what is wanted (after a reconnect).
  retry() {
    if (this.source && !this.busy && (!this.shown || this.want !== this.shown.rev)) this.fetch(this.want);
  }

  // `to`: 'first', 'last', a step (-1, 1) from the rev on screen, or a rev.
  go(to) {
    const r = this.shown;
    if (!r) return;
    let rev;
    if (to === 'first') rev = r.first;
    else if (to === 'last') rev = r.last;
    else if (to === 1 || to === -1) rev = (this.want ?? r.rev) + to;
    else rev = to;
    rev = Math.min(r.last, Math.max(r.first, Math.trunc(rev)));
    if (!Number.isInteger(rev)) return;
    this.fetch(rev);
  }

  // Shows `rev` (null: the last), from the cache or the server. Requests
  // go one at a time; a newer wish replaces an older one that waits.
  async fetch(rev) {
    this.want = rev;
    if (rev !== null) {
      this.els.slider.value = String(rev);
      this.els.at.textContent = String(rev);
    }
    if (this.busy) return;
    this.busy = true;
    const source = this.source;
    try {
      for (;;) {
        const want = this.want;
        if (want !== null && this.shown && this.shown.rev === want) break;
        let reply = want !== null && this.cache.get(want);
        if (!reply) {
          const r = await this.ask(source, want);
          if (this.source !== source) return;
          if (!r.ok || !r.review) {
            this.say(reviewErrorText(r.error, source.room), true);
            this.els.root.dataset.state = 'error';
            break;
          }
          reply = r.review;
          this.keep(reply);
        }
        if (this.want === want || this.want === null) {
          this.want = reply.rev;
          await this.show(reply);
          if (this.source !== source) return;
        }
      }
    } finally {
      if (this.source === source) this.busy = false;
    }
  }

  ask(source, rev) {
    if (source.room) {
      const args = { room: source.room };
      if (rev !== null) args.rev = rev;
      return this.deps.request('review', args);
    }
    return postReview(source.text, rev ?? undefined);
  }

  keep(review) {
    this.cache.set(review.rev, review);
    while (this.cache.size > CACHE_REVS) this.cache.delete(this.cache.keys().next().value);
  }

  async show(review) {
    const first = !this.shown;
    this.shown = review;
    const els = this.els;
    this.say('');
    const names = reviewNames(review);
    if (first) {
      const game = this.deps.gameTitle(review.game);
      const where = review.room ? `room ${review.room}` : `the record ${this.source.file}`;
      els.title.textContent = `Review of ${where} · ${game}`;
      els.seats.textContent = `Players: ${review.seats.map((s, i) => `${names[i]}${s.kind === 'bot' ? ' (bot)' : ''}`).join(', ')}.`;
      append(els.as, [h('option', { value: '' }, 'Everyone (the public view)'),
        names.map((n, i) => h('option', { value: String(i) }, `${n}, with their hand`))]);
      els.slider.min = String(review.first);
      els.slider.max = String(review.last);
      els.lastRev.textContent = String(review.last);
      this.board = await this.deps.loadBoard(review.game);
      if (this.shown !== review) return;
    }
    els.root.dataset.loaded = 'true';
    els.root.dataset.rev = String(review.rev);
    els.root.dataset.last = String(review.last);
    els.root.dataset.state = 'shown';
    els.slider.value = String(review.rev);
    els.at.textContent = String(review.rev);
    this.controls();

    const describe = (action, seat) => this.board.describe(action, review.view, seat).label;
    els.step.textContent = `Step ${review.rev}: ${stepText(review.step, names, describe)}`;
    els.status.textContent = review.rev === review.last && review.view?.result
      ? 'The game is over.'
      : String(this.board.status(review.view, null, names) || '');

    const seed = reviewSeedCheck(review);
    els.seed.textContent = (seed.ok === true ? '✓ ' : seed.ok === false ? '✗ ' : '') + seed.text;
    els.seed.dataset.ok = String(seed.ok);

    const check = reviewHashCheck(review);
    const bad = check.rows.filter((r) => !r.ok);
    els.hashSummary.dataset.ok = String(check.ok);
    els.hashSummary.textContent = check.ok
      ? `✓ Views check: the public view and each seat's view at step ${review.rev} hash to what the server sent during play.`
      : `✗ Views check FAILED at step ${review.rev}: ${bad.map((r) => (r.seat === null ? 'the public view' : `${names[r.seat]}'s view`)).join(', ')} hash${bad.length === 1 ? 'es' : ''} differently from what the server sent.`;
    if (!check.ok) els.hashes.closest('details')?.setAttribute('open', '');
    clear(els.hashes);
    for (const r of check.rows) {
      els.hashes.append(h('li', {
        class: r.ok ? 'hash-ok' : 'hash-bad',
        dataset: { seat: r.seat === null ? 'public' : r.seat, hash: r.got, want: r.want, ok: String(r.ok) },
      }, `${r.ok ? '✓' : '✗'} ${r.seat === null ? 'Public view' : names[r.seat]}: `, h('code', {}, r.got.slice(0, 16)),
      r.ok ? '' : [' ≠ server ', h('code', {}, r.want.slice(0, 16))]));
    }

    this.drawBoard();
    clear(els.hands);
    (Array.isArray(review.hands) ? review.hands : []).forEach((you, i) => {
      els.hands.append(h('section', { class: 'review-hand', dataset: { seat: i } },
        h('h4', {}, names[i]),
        you === null || you === undefined ? h('p', { class: 'hint' }, 'Nothing of its own.') : tree(you, `/review-hand/${i}`)));
    });
  }

  drawBoard() {
    const r = this.shown;
    if (!r || !this.board) return;
    const seat = this.as === '' ? null : Number(this.as);
    const view = seat === null ? r.view : seatView(r, seat);
    const hadFocus = this.els.board.contains(document.activeElement);
    clear(this.els.board);
    this.els.board.dataset.game = r.game;
    this.board.render(this.els.board, view, {
      seat, names: reviewNames(r), legal: [], pick: () => {}, focus: null, setFocus: () => {},
    });
    rove(this.els.board, hadFocus);
  }

  controls() {
    const r = this.shown;
    const at = r ? r.rev : 0;
    this.els.first.disabled = !r || at <= r.first;
    this.els.back.disabled = !r || at <= r.first;
    this.els.forward.disabled = !r || at >= r.last;
    this.els.last.disabled = !r || at >= r.last;
    this.els.slider.disabled = !r;
    if (!r) {
      this.els.at.textContent = '–';
      this.els.lastRev.textContent = '–';
    }
  }
}
