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

import { h, append, clear, userText } from './dom.js';
import { pieces, t } from './i18n.js';
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
      return t('The game starts.');
    case 'act':
      return t('{who}: {move}', { who: who(step.seat), move: describe(step.action, step.seat) });
    case 'undo':
      return t('{who} took back a move.', { who: who(step.seat) });
    case 'timeout':
      return eventLine({ ev: 'timeout', seat: step.seat, do: step.do, name: who(step.seat) }, null);
    case 'clock':
      return t('The running clocks were charged ({time} of play).', { time: clockText(Number(step.ms) || 0) });
    default:
      return t('A step the page does not know ({type}).', { type: String(step?.t || t('no type')) });
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
      text: t('Seed check FAILED: the review\'s commitment {given}… is not the one the views showed ({shown}…).',
        { given: given.slice(0, 12), shown: shown.slice(0, 12) }),
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
      got = t('(cannot hash: {why})', { why: e.message });
    }
    rows.push({ seat, got, want: typeof want === 'string' ? want : t('(none sent)'), ok: got === want });
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
  const message = error?.message || code || t('something went wrong');
  switch (code) {
    case 'room_not_found':
      return t('The server holds no game under the code {room}: it may have been forgotten, or the code is mistyped.', { room });
    case 'game_not_over':
      return t('The game in room {room} is still being played: it can be reviewed once it is over (watch it meanwhile).', { room });
    case 'bad_action':
    case 'illegal_action':
      return t('The record does not replay: {why}.', { why: message });
    case 'disconnected':
      return t('Not connected to the server: the review loads when the connection is back.');
    default:
      return t('The server could not review this game: {why}.', { why: message });
  }
}

// A record file's text checked before it is sent: { record } or { error }.
export function readRecordText(text, size = text.length) {
  if (size > RECORD_MAX_BYTES) {
    return { error: t('The file is {n} MiB; a review takes records of up to 4 MiB.', { n: Math.ceil(size / 1048576) }) };
  }
  if (!text.trim()) return { error: t('The file is empty.') };
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    return { error: t('The file is not JSON: {why}.', { why: e.message }) };
  }
  if (!record || typeof record !== 'object' || typeof record.game !== 'string' || !Array.isArray(record.actions)) {
    return { error: t('The file is not a game record (it lacks "game" and "actions"): download one from the end of a game.') };
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
    return { ok: false, error: { code: 'disconnected', message: t('the server could not be reached ({why})', { why: e.message }) } };
  }
  if (!(res.headers.get('content-type') || '').includes('application/json')) {
    return { ok: false, error: { code: 'http', message: t('the server answered {status}', { status: `${res.status} ${res.statusText}`.trim() }) } };
  }
  try {
    return await res.json();
  } catch {
    return { ok: false, error: { code: 'http', message: t('the server\'s answer was not JSON') } };
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
    this.heading();
    this.fetch(null);
  }

  // Reviews a record, given as its file's text.
  openRecord(text, file) {
    this.reset({ text, file });
    this.heading();
    this.fetch(null);
  }

  // Nothing to review yet: the screen says how to open a record.
  openEmpty() {
    this.reset(null);
    this.heading();
  }

  // The title (and, with nothing to review, how to open a record) until
  // a review is on screen.
  heading() {
    const src = this.source;
    const title = this.els.title;
    if (src?.room) title.replaceChildren(...pieces(t('Review of room {room}'), { room: userText(src.room) }));
    else if (src) title.replaceChildren(...pieces(t('Review of the record {file}'), { file: userText(src.file) }));
    else {
      title.textContent = t('Review a game');
      this.say(t('Open a record file (“Download record” at the end of a game saves one), or follow a Review link from the lobby.'));
    }
  }

  // Writes the screen again in the language of the moment: the review on
  // screen, else its heading (a message said stays as it was).
  relabel() {
    const state = this.els.root.dataset.state;
    if (this.shown && this.board) {
      this.show(this.shown, true);
    } else if (state === 'loading') {
      this.heading();
      this.say(t('Loading…'));
    } else if (!this.source) {
      this.heading();
    }
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
    this.say(source ? t('Loading…') : '');
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

  // `again`: the same review written again (in another language).
  async show(review, again = false) {
    const first = !this.shown;
    this.shown = review;
    const els = this.els;
    if (!again) this.say('');
    const names = reviewNames(review);
    if (first || again) {
      const game = this.deps.gameTitle(review.game);
      els.title.replaceChildren(...(review.room
        ? pieces(t('Review of room {room} · {game}'), { room: userText(review.room), game })
        : pieces(t('Review of the record {file} · {game}'), { file: userText(this.source.file), game })));
      const players = review.seats.flatMap((s, i) => [i ? t(', ') : '',
        s.kind === 'bot' ? pieces(t('{name} (bot)'), { name: userText(names[i]) }) : userText(names[i])]);
      els.seats.replaceChildren(...pieces(t('Players: {names}.'), { names: h('span', {}, players) }));
      clear(els.as);
      append(els.as, [h('option', { value: '' }, t('Everyone (the public view)')),
        names.map((n, i) => h('option', { value: String(i) }, t('{name}, with their hand', { name: n })))]);
      els.as.value = this.as;
      els.slider.min = String(review.first);
      els.slider.max = String(review.last);
      els.lastRev.textContent = String(review.last);
      if (first) this.board = await this.deps.loadBoard(review.game);
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
    els.step.textContent = t('Step {n}: {step}', { n: review.rev, step: stepText(review.step, names, describe) });
    els.status.textContent = review.rev === review.last && review.view?.result
      ? t('The game is over.')
      : String(this.board.status(review.view, null, names) || '');

    const seed = reviewSeedCheck(review);
    els.seed.textContent = (seed.ok === true ? '✓ ' : seed.ok === false ? '✗ ' : '') + seed.text;
    els.seed.dataset.ok = String(seed.ok);

    const check = reviewHashCheck(review);
    const bad = check.rows.filter((r) => !r.ok);
    els.hashSummary.dataset.ok = String(check.ok);
    const which = bad.map((r) => (r.seat === null ? t('the public view') : t('{name}\'s view', { name: names[r.seat] }))).join(t(', '));
    els.hashSummary.textContent = check.ok
      ? t('✓ Views check: the public view and each seat\'s view at step {n} hash to what the server sent during play.', { n: review.rev })
      : bad.length === 1
        ? t('✗ Views check FAILED at step {n}: {which} hashes differently from what the server sent.', { n: review.rev, which })
        : t('✗ Views check FAILED at step {n}: {which} hash differently from what the server sent.', { n: review.rev, which });
    if (!check.ok) els.hashes.closest('details')?.setAttribute('open', '');
    clear(els.hashes);
    for (const r of check.rows) {
      els.hashes.append(h('li', {
        class: r.ok ? 'hash-ok' : 'hash-bad',
        dataset: { seat: r.seat === null ? 'public' : r.seat, hash: r.got, want: r.want, ok: String(r.ok) },
      }, `${r.ok ? '✓' : '✗'} `, r.seat === null ? t('Public view') : userText(names[r.seat]), t(': '), h('code', {}, r.got.slice(0, 16)),
      r.ok ? '' : [' ≠ ', t('server'), ' ', h('code', {}, r.want.slice(0, 16))]));
    }

    this.drawBoard();
    clear(els.hands);
    (Array.isArray(review.hands) ? review.hands : []).forEach((you, i) => {
      els.hands.append(h('section', { class: 'review-hand', dataset: { seat: i } },
        userText(names[i], 'h4'),
        you === null || you === undefined ? h('p', { class: 'hint' }, t('Nothing of its own.')) : tree(you, `/review-hand/${i}`)));
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
