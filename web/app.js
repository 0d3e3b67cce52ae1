// SPDX-License-Identifier: MIT
// Conclave in the browser: the lobby, the room, the game and its end.
//
// The page holds one connection and at most one room. The server owns the
// truth: the page keeps the seat's view (a `state`, then `diff`s applied in
// rev order and checked against the server's hash), asks for the legal
// actions whenever its seat is to act, and sends the one the player clicks.
// Anything it cannot follow (a rev skipped, a patch that does not apply, a
// hash that differs) it resolves by asking for a fresh `state` (`sync`).
// Each game's board module draws the view and words the actions; see
// games/generic.js for the interface. After the end the page offers a
// rematch (lib/rematch.js), and any finished game can be stepped through
// on the review screen (lib/review.js, #review/CODE or a record file),
// which lays itself over whatever room the page is in.

import { Connection, defaultUrl } from './lib/conn.js';
import { applyPatch } from './lib/patch.js';
import { viewHash } from './lib/viewhash.js';
import * as store from './lib/storage.js';
import { clear, h, keySelector, userText } from './lib/dom.js';
import { buildOptions, readOptions } from './lib/options.js';
import { fillGames, fillSeats, fillRooms, fillEnded, gameTitle as titleOf, playerRange } from './lib/lobby.js';
import { renderRoom, startBots } from './lib/roompanel.js';
import { loadBoard } from './lib/board.js';
import { attachActionKeys, describeAll, renderActions } from './lib/actions.js';
import { clockSeats, clocksRun, policyText } from './lib/clock.js';
import { MyGames, badgeIcon } from './lib/mygames.js';
import { Log, eventLine, roomChanges } from './lib/log.js';
import { renderEnd, downloadJson } from './lib/endscreen.js';
import { registerIfGranted } from './lib/notify.js';
import { NotifyBox } from './lib/notifybox.js';
import { renderRematch, rematchErrorText, offerRows } from './lib/rematch.js';
import { ReviewScreen, readRecordText, RECORD_MAX_BYTES } from './lib/review.js';
import { initDisplay } from './lib/options.js';
import { SHORTCUTS, attachBoardKeys, focusBoard, rove } from './games/keys.js';
import { plural, seatLabel } from './lib/words.js';
import { LANGS, initLang, lang, onLangChange, pieces, setLang, t } from './lib/i18n.js';
import { loadCatalogue } from './lib/messages.js';

const ROOMS_REFRESH_MS = 15000;
const BANNER_MS = 8000; // how long the "your turn" banner stays up
const LOG_LINES_KEPT = 40; // game log lines remembered per room for after a reload

// ---- State ----

const S = {
  name: '',
  games: [],
  gamesById: new Map(),
  phase: 'lobby', // lobby | room | game | ended
  undoRev: null, // the rev at which the server said our last move may come back
  room: null, // the room's code, as the server spells it
  game: null, // its game id
  seat: null, // this page's seat, or null when watching
  watching: false,
  info: null, // the last `room` event of this room
  botLevels: [], // the server's bot levels (hello)
  chosenLevels: {}, // seat -> the level the host picked for its bot
  view: null,
  rev: 0,
  hashChecks: true, // turned off if the server's hash of a full state disagrees with ours
  syncing: false, // a `sync` is out: diffs wait for the fresh state
  board: null, // the wrapped board module of S.game
  catalogue: null, // S.game's message catalogue (lib/messages.js), or null
  legal: [],
  legalRev: -1, // the rev `legal` was listed for
  legalAhead: null, // a listing for a rev the view has not reached yet
  legalBusy: false,
  legalAgain: false,
  minRev: 0, // after an accepted act: the listing must be at least this new
  acting: false, // an `act` is out
  retry: null, // a move refused as stale, to send again once the view has caught up
  focus: null, // the board key the player selected
  result: null, // the `ended` event's result
  wasActive: false,
  missed: null, // { fromRev, lines } while the page catches up after a reconnect
  started: false, // the first connection has been set up
  rematch: null, // the last `rematch` event of this (finished) room
  rematchStarted: false, // the server said the rematch has begun
  rematchBusy: false, // a `rematch` request is out
  reviewing: false, // the review screen is up (over the room, if any)
};

// Events that arrived for a room before the reply that put us in it.
const early = { room: new Map(), state: new Map() };

const body = document.body;
const E = {}; // elements by id, filled in init()
let log;
let conn;
let notifyBox;
let review;
let bannerTimer = null;

// ---- Small helpers ----

function isActive() {
  return (
    S.seat !== null &&
    S.view !== null &&
    !S.view.result &&
    Array.isArray(S.view.active) &&
    S.view.active.includes(S.seat)
  );
}

// The listed actions can be clicked: they are for the view on screen, no
// action is out, and the connection is up.
function legalUsable() {
  return (
    isActive() && !S.acting && S.legalRev === S.rev && S.rev >= S.minRev && conn.status === 'open'
  );
}

function names() {
  const out = [];
  const fromRoom = S.info?.seats || [];
  const fromView = Array.isArray(S.view?.seats) ? S.view.seats : [];
  const n = Math.max(fromRoom.length, fromView.length);
  for (let i = 0; i < n; i++) {
    out[i] = fromRoom[i]?.name || fromView[i]?.name || seatLabel(i);
  }
  return out;
}

// A game's title in the reader's language (lib/lobby.js).
function gameTitle(id) {
  return titleOf(id, S.gamesById.get(id));
}

// Room codes as the server reads them: case, spaces and dashes do not
// matter, I and L are 1, O is 0. Used to find a kept seat by a typed code.
function normCode(code) {
  return String(code || '')
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
}

function showError(err) {
  const text = typeof err === 'string' ? err : err?.message || err?.code || t('something went wrong');
  E.error.textContent = text;
  E.error.hidden = false;
  E.error.dataset.code = typeof err === 'object' && err?.code ? err.code : '';
}

function clearError() {
  E.error.hidden = true;
  E.error.textContent = '';
}

function setHash(hash) {
  const url = location.pathname + location.search + (hash ? `#${hash}` : '');
  history.replaceState(null, '', url);
}

function updateTitle() {
  let title;
  if (S.reviewing) title = t('Review · Conclave');
  else if (isActive()) title = t('▶ Your turn · Conclave');
  else if (S.phase === 'ended') title = t('Game over · {room} · Conclave', { room: S.room });
  else if (S.room) title = `${gameTitle(S.game)} · ${S.room} · Conclave`;
  else title = 'Conclave';
  // Rooms of this browser's other seats where it is our turn, and this one.
  const turns = (myGames ? myGames.yourTurns() : 0) + (isActive() ? 1 : 0);
  document.title = turns > 0 ? `(${turns}) ${title}` : title;
  if (E.favicon && E.favicon.dataset.turns !== String(turns)) {
    E.favicon.dataset.turns = String(turns);
    E.favicon.href = badgeIcon(turns);
  }
}

// ---- My games: this browser's other seats ----

let myGames = null;

function renderMyGames(list) {
  E['my-games-card'].hidden = list.length === 0;
  clear(E['my-games']);
  for (const g of list) {
    const li = h('li', { class: `my-game${g.state === 'your turn' ? ' your-turn' : ''}`, dataset: { room: g.room } },
      h('a', { href: `#${g.room}`, translate: 'no' }, g.room), ` ${gameTitle(g.game) || ''} · `,
      t('seat {n}', { n: g.seat + 1 }), ' · ',
      h('span', { class: 'my-game-state' }, lookWords(g.state)));
    E['my-games'].appendChild(li);
  }
  updateTitle();
}

// What a look at another room has seen (lib/mygames.js), in words.
function lookWords(state) {
  switch (state) {
    case 'your turn': return t('your turn');
    case 'waiting': return t('waiting');
    case 'in the lobby': return t('in the lobby');
    case 'over': return t('over');
    case 'gone': return t('gone');
    case 'connecting': return t('connecting');
    default: return state;
  }
}

function refreshMyGames() {
  if (myGames) myGames.update(store.listSeats(), S.room, S.name || 'Watcher');
}

// ---- Phases and layout ----

const PANELS = {
  lobby: ['lobby'],
  room: ['room', 'log-panel', 'chat-panel'],
  game: ['room', 'status-bar', 'board-panel', 'actions-panel', 'log-panel', 'chat-panel'],
  ended: ['room', 'status-bar', 'ended', 'board-panel', 'log-panel', 'chat-panel'],
  review: ['review'],
};
const ALL_PANELS = ['lobby', 'room', 'status-bar', 'ended', 'board-panel', 'actions-panel', 'log-panel', 'chat-panel', 'review'];

// Shows the panels of the phase, or of the review screen while it is up.
// A spectator has no moves: the board takes their place.
function layout() {
  const watching = S.room !== null && S.seat === null;
  const shown = S.reviewing ? 'review' : S.phase;
  body.dataset.watching = String(watching);
  body.dataset.phase = shown;
  for (const id of ALL_PANELS) {
    E[id].hidden = !PANELS[shown].includes(id) || (watching && id === 'actions-panel');
  }
}

function setPhase(phase) {
  const changed = S.phase !== phase;
  const hadFocus = focusInPage();
  S.phase = phase;
  layout();
  E['topbar-room'].hidden = !S.room;
  E['topbar-code'].textContent = S.room || '';
  E['topbar-game'].textContent = gameTitle(S.game);
  if (phase === 'lobby') refreshRooms();
  if (changed) refreshMyGames();
  if (changed && phase === 'ended' && !S.reviewing) E.ended.scrollIntoView({ block: 'nearest' });
  updateTurn();
  keepFocus(hadFocus);
}

// ---- Keyboard focus ----

// Whether the keyboard focus is on something of the page (not nowhere).
function focusInPage() {
  const a = document.activeElement;
  return Boolean(a && a !== body && a.isConnected);
}

// After a redraw that hid or removed the element that had the focus
// (`hadFocus`: it was somewhere before), puts it where the phase's work
// is, so that a keyboard never finds itself back at the top of the page.
function keepFocus(hadFocus) {
  const a = document.activeElement;
  if (!hadFocus || (a && a !== body && a.isConnected && a.getClientRects().length > 0)) return;
  if (S.reviewing) return E['review-title'].focus({ preventScroll: true });
  if (S.phase === 'game' && S.seat !== null) return focusActions();
  if (S.phase === 'game') return focusBoard(E.board);
  const to = { ended: E['ended-title'], room: E['room-title'] }[S.phase] || E.main;
  to.focus({ preventScroll: true });
}

// To the list of moves: its first move, else the list (which then says
// why there is none).
function focusActions() {
  if (E['actions-panel'].hidden) return false;
  const first = E.actions.querySelector('button.action');
  (first || E.actions).focus({ preventScroll: !first });
  if (!first) E['actions-panel'].scrollIntoView({ block: 'nearest' });
  return true;
}

// The page's keys: Escape clears the board's selection, SHORTCUTS jump to
// the moves and to the board, the review screen steps with its own.
function pageKey(e) {
  if (e.key === 'Escape' && S.focus !== null) return setFocus(null);
  const typing = e.target instanceof Element && e.target.matches('input, select, textarea, [contenteditable]');
  if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === SHORTCUTS.actions && !S.reviewing && focusActions()) return e.preventDefault();
  if (e.key === SHORTCUTS.board && focusBoard(S.reviewing ? E['review-board'] : E.board)) return e.preventDefault();
  reviewKey(e);
}

// ---- Lobby ----

function selectedGame() {
  return S.gamesById.get(E.game.value) || S.games[0];
}

// `keep`: the same game's form written again (in another language), as
// the player has filled it.
function onGameChosen(keep = false) {
  const g = selectedGame();
  if (!g) return;
  E['game-about'].textContent = playerRange(g);
  fillSeats(E['seat-count'], g, keep ? E['seat-count'].value : null);
  buildOptions(E.options, g.options || {}, keep);
}

let gamesJson = '';

function setGames(games) {
  // Every reconnect says hello again: keep the form as the player left it
  // unless the server's games have changed.
  const json = JSON.stringify(games || []);
  if (json === gamesJson) return;
  gamesJson = json;
  S.games = Array.isArray(games) ? games : [];
  S.gamesById = new Map(S.games.map((g) => [g.id, g]));
  const keep = E.game.value;
  fillGames(E.game, S.games, keep);
  onGameChosen();
}

let roomsTimer = null;
let lists = null; // the last `list` reply

// The lobby's lists of open rooms and finished games, from `lists`.
function fillLists() {
  if (!lists) return;
  fillRooms(E.rooms, E['rooms-empty'], lists.rooms, S.gamesById, (code) => joinRoom(code), (code) => watchRoom(code));
  fillEnded(E['ended-games'], E['ended-empty'], Array.isArray(lists.ended) ? lists.ended : [], S.gamesById);
}

async function refreshRooms() {
  clearTimeout(roomsTimer);
  roomsTimer = null;
  if (S.phase !== 'lobby') return;
  if (conn.status === 'open' || S.started) {
    const r = await conn.request('list');
    if (r.ok && Array.isArray(r.rooms) && S.phase === 'lobby') {
      lists = r;
      fillLists();
    }
  }
  if (S.phase === 'lobby') roomsTimer = setTimeout(refreshRooms, ROOMS_REFRESH_MS);
}

function checkName(raw) {
  const name = String(raw || '').trim();
  if ([...name].length < 1 || [...name].length > 32) return { error: t('A name is 1 to 32 characters.') };
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return { error: t('A name cannot hold control characters.') };
  return { name };
}

async function saveName() {
  const { name, error } = checkName(E.name.value);
  if (error) {
    showError(error);
    E.name.focus();
    return false;
  }
  if (name === S.name) return true;
  const r = await conn.request('hello', { proto: 1, name });
  if (!r.ok && r.error?.code !== 'disconnected') {
    showError(r.error);
    return false;
  }
  S.name = name;
  store.saveName(name);
  nameSaved = true;
  nameHint();
  clearError();
  return true;
}

let nameSaved = false; // the hint under the name says it was saved

function nameHint() {
  if (nameSaved) E['name-hint'].replaceChildren(...pieces(t('Saved: you are “{name}”.'), { name: userText(S.name) }));
}

async function createRoom() {
  clearError();
  if (!(await saveName())) return;
  const g = selectedGame();
  if (!g) return;
  const { options, error } = readOptions(E.options, g.options || {});
  if (error) return showError(error);
  if (E.public.checked) options.public = true;
  if (E.clock.value) options.clock = { ...JSON.parse(E.clock.value), timeout: E.timeout.value };
  E.create.disabled = true;
  const r = await conn.request('create', { game: g.id, seats: Number(E['seat-count'].value), options });
  E.create.disabled = false;
  if (!r.ok) return showError(r.error);
  enterRoom(r, false);
}

async function joinRoom(code) {
  clearError();
  E['join-prompt'].hidden = true;
  const typed = String(code || '').trim();
  if (!typed) {
    showError(t('Type the room code first.'));
    E['join-code'].focus();
    return;
  }
  if (!(await saveName())) return;
  // A seat this browser already holds there is taken back, not joined anew.
  const kept = store.loadSeat(normCode(typed));
  if (kept) {
    resetRoom();
    S.room = normCode(typed);
    S.game = kept.game || null;
    return resumeSeat();
  }
  const r = await conn.request('join', { room: typed });
  if (r.ok) return enterRoom(r, false);
  if (followElsewhere(r.error, typed, false)) return;
  showError(r.error);
  if (r.error?.code === 'already_started' || r.error?.code === 'room_full') {
    offerWatch(typed);
  }
}

// The room lives on another server of the fleet: the page moves to that
// server's own page, whose link (#CODE or #CODE/watch) then joins or
// watches as usual, with that server's WebSocket and saved seats; the
// player's name goes along (?name=), as that page has none saved.
function followElsewhere(err, code, watch) {
  if (err?.code !== 'room_elsewhere' || typeof err.web !== 'string') return false;
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(err.web)) return false;
  showError(t('Room {room} is on another server of this site; going there…', { room: normCode(code) }));
  const name = encodeURIComponent(S.name || '');
  location.assign(`${location.protocol}//${err.web}/?name=${name}#${normCode(code)}${watch ? '/watch' : ''}`);
  return true;
}

function offerWatch(code) {
  E['join-prompt-text'].replaceChildren(...pieces(t('No seat for you in room {room} now. You can watch the game instead.'),
    { room: userText(code.toUpperCase()) }));
  E['join-prompt'].hidden = false;
  E['watch-instead'].onclick = () => watchRoom(code);
  E['watch-instead'].focus();
}

async function watchRoom(code) {
  clearError();
  E['join-prompt'].hidden = true;
  const typed = String(code || '').trim();
  if (!typed) {
    showError(t('Type the room code first.'));
    return;
  }
  const r = await conn.request('spectate', { room: typed });
  if (!r.ok) return followElsewhere(r.error, typed, true) || showError(r.error);
  enterRoom(r, true);
}

// ---- Entering and leaving a room ----

function resetRoom() {
  S.room = null;
  S.chosenLevels = {};
  S.game = null;
  S.seat = null;
  S.watching = false;
  S.info = null;
  S.view = null;
  S.rev = 0;
  S.syncing = false;
  S.board = null;
  S.catalogue = null;
  S.legal = [];
  S.legalRev = -1;
  S.legalAhead = null;
  S.minRev = 0;
  S.acting = false;
  S.retry = null;
  S.focus = null;
  S.result = null;
  S.wasActive = false;
  S.missed = null;
  S.rematch = null;
  S.rematchStarted = false;
  S.rematchBusy = false;
  log.reset();
  clear(E['chat-messages']);
  clear(E.board);
  clear(E.actions);
  E.notice.hidden = true;
  E['turn-banner'].hidden = true;
  notifyBox.update({ room: null, seat: null, phase: 'lobby', online: false });
}

// After a successful create/join/spectate reply.
function enterRoom(reply, watching) {
  const room = reply.room;
  resetRoom();
  S.room = room;
  S.game = reply.game || early.room.get(room)?.game || null;
  S.watching = watching;
  S.seat = watching || !(reply.seat >= 0) ? null : reply.seat;
  if (!watching && reply.token) {
    store.saveSeat(room, { token: reply.token, seat: reply.seat, game: S.game, rev: 0, log: [] });
  }
  setHash(watching ? `${room}/watch` : room);
  const seat = S.seat;
  log.add(() => (watching ? pieces(t('You are watching room {room}.'), { room: userText(room) })
    : pieces(t('You sit in seat {n} of room {room}.'), { n: seat + 1, room: userText(room) })), 'info');
  setPhase('room');
  replayEarly(room);
  if (S.game) ensureBoard();
  renderRoomPanel();
  updateTitle();
}

function replayEarly(room) {
  const info = early.room.get(room);
  const state = early.state.get(room);
  early.room.clear();
  early.state.clear();
  if (info) onRoom(info);
  if (state) onState(state);
}

function toLobby(message) {
  clearTimeout(leaveArm);
  resetRoom();
  setHash('');
  setPhase('lobby');
  updateTitle();
  if (message) showError(message);
}

let leaveArm = null;

// Leaving a running game hands the seat to a bot until we come back, so
// it takes a second click to confirm.
async function leaveRoom() {
  if (S.phase === 'game' && S.seat !== null && !E.leave.dataset.armed) {
    E.leave.dataset.armed = '1';
    E.leave.textContent = t('Really leave? A bot plays your seat until you return. Click again');
    leaveArm = setTimeout(() => {
      delete E.leave.dataset.armed;
      E.leave.textContent = t('Leave room');
    }, 6000);
    return;
  }
  delete E.leave.dataset.armed;
  E.leave.textContent = t('Leave room');
  const room = S.room;
  const running = S.phase === 'game';
  await conn.request('leave');
  // In a running game the token still opens the seat: opening the link
  // again takes it back from the bot. Otherwise the seat is gone.
  if (!running) store.forgetSeat(room);
  toLobby();
}

// ---- Session (every connect and reconnect) ----

async function sayHello() {
  let r = await conn.request('hello', { proto: 1, name: S.name });
  if (!r.ok && r.error?.code === 'bad_name') {
    S.name = guestName();
    E.name.value = S.name;
    store.saveName(S.name);
    r = await conn.request('hello', { proto: 1, name: S.name });
  }
  if (!r.ok) {
    if (r.error?.code === 'proto_unsupported') {
      conn.stop();
      showError(t('This page speaks protocol 1 and the server does not: {why}', { why: r.error.message }));
    } else if (r.error?.code !== 'disconnected') {
      showError(r.error);
    }
    return false;
  }
  conn.setIdleTimeout(r.idle_timeout);
  S.botLevels = Array.isArray(r.bot_levels) ? r.bot_levels : [];
  notifyBox.setOffer(r.notify);
  setGames(r.games);
  return true;
}

async function onOpen() {
  notifyBox.forget();
  if (!(await sayHello())) return;
  if (S.room && S.watching) {
    await respectate();
  } else if (S.room) {
    await resumeSeat();
  } else if (!S.started) {
    await followHash();
  }
  S.started = true;
  if (S.phase === 'lobby') refreshRooms();
  if (S.reviewing) review.retry();
}

// Binds this connection to the seat kept for S.room. With a view in hand
// the server sends the diffs we missed; otherwise a full state.
async function resumeSeat() {
  const room = S.room;
  const kept = store.loadSeat(room);
  if (!kept) return toLobby(t('This browser holds no seat in room {room}.', { room }));
  const args = { token: kept.token };
  const haveView = S.view !== null && S.rev > 0;
  if (haveView) args.rev = S.rev;
  S.missed = { fromRev: haveView ? S.rev : Number.isInteger(kept.rev) ? kept.rev : null, lines: [] };
  if (!haveView && log.entries.length === 0) log.restore(kept.log, kept.logKeys);
  const r = await conn.request('resume', args);
  if (!r.ok) {
    S.missed = null;
    if (r.error?.code === 'disconnected') return;
    store.forgetSeat(room);
    return toLobby(t('Your seat in room {room} is no longer open: {why}', { room, why: r.error?.message || r.error?.code }));
  }
  if (r.room && r.room !== room) {
    // The code was typed in another spelling: keep the seat under the
    // server's.
    store.forgetSeat(room);
    store.saveSeat(r.room, kept);
    S.room = r.room;
  }
  S.seat = r.seat >= 0 ? r.seat : null;
  S.game = r.game || S.game || kept.game || null;
  S.watching = false;
  store.saveSeat(S.room, { seat: S.seat, game: S.game });
  setHash(S.room);
  if (S.phase === 'lobby') setPhase(r.status && r.status !== 'lobby' && S.view ? 'game' : 'room');
  replayEarly(S.room);
  if (S.game) ensureBoard();
  // Replies come in request order, after every event queued before them:
  // once this ping is answered, whatever the resume brought is in.
  await conn.request('ping');
  reportMissed();
  // A listing that was out when the connection dropped never came back:
  // ask again if nothing that arrived since has done so.
  if (S.view) needLegal();
  renderAll();
}

async function respectate() {
  const r = await conn.request('spectate', { room: S.room });
  if (!r.ok) {
    if (r.error?.code !== 'disconnected') toLobby(t('Cannot watch room {room} any more: {why}', { room: S.room, why: r.error?.message }));
    return;
  }
  S.syncing = false;
  replayEarly(S.room);
}

// The link's #CODE (join, or take back the seat this browser holds there),
// #CODE/watch (spectate), #review/CODE (review a finished game) or #review
// (the review screen, to open a record file).
function parseHash() {
  let hash = '';
  try {
    hash = decodeURIComponent(location.hash || '');
  } catch {
    return null;
  }
  const r = /^#?review(?:\/([0-9A-Za-z -]{6,20}))?$/i.exec(hash);
  if (r) return { review: true, code: r[1] && /^[0-9A-Z]{6}$/.test(normCode(r[1])) ? normCode(r[1]) : null };
  const m = /^#?([0-9A-Za-z -]{6,20})(\/watch)?$/.exec(hash);
  if (!m || !/^[0-9A-Z]{6}$/.test(normCode(m[1]))) return null;
  return { code: m[1].trim(), watch: Boolean(m[2]) };
}

async function followHash() {
  const target = parseHash();
  if (!target) return;
  if (target.review) return openReview(target.code);
  if (S.room && normCode(target.code) === normCode(S.room)) return;
  if (target.watch) await watchRoom(target.code);
  else await joinRoom(target.code);
  if (!S.room && !location.hash.endsWith('/watch')) setHash('');
}

// Says what happened while the page was away: how many revisions passed
// and which log lines are new.
function reportMissed() {
  const m = S.missed;
  S.missed = null;
  if (!m || m.fromRev === null || !S.view) {
    if (conn.status !== 'open') return;
    return;
  }
  const n = S.rev - m.fromRev;
  if (n <= 0) return;
  E['notice-text'].textContent = n === 1 ? t('Reconnected: 1 move happened while you were away.')
    : t('Reconnected: {n} moves happened while you were away.', { n });
  clear(E['notice-list']);
  for (const line of m.lines.slice(-12)) E['notice-list'].appendChild(h('li', {}, line));
  E.notice.hidden = false;
}

function dismissNotice() {
  E.notice.hidden = true;
  log.clearMissed();
}

// ---- Events ----

function onEvent(msg) {
  const room = typeof msg.room === 'string' ? msg.room : null;
  if (room && room !== S.room) {
    // Not (yet) our room: keep the latest in case a join reply follows.
    if (msg.ev === 'room') early.room.set(room, msg);
    if (msg.ev === 'state') early.state.set(room, msg);
    return;
  }
  switch (msg.ev) {
    case 'room':
      return onRoom(msg);
    case 'state':
      return onState(msg);
    case 'diff':
      return onDiff(msg);
    case 'chat':
      return onChat(msg);
    case 'timeout':
    case 'undo': {
      const seat = S.seat;
      return log.add(() => eventLine(msg, seat, true), 'room');
    }
    case 'ended':
      return onEnded(msg);
    case 'rematch':
      return onRematch(msg);
    case 'replaced':
      return onReplaced();
    case 'error':
      return showError(msg.error || t('the server reported an error'));
    default:
      return; // unknown events are ignored (forward compatibility)
  }
}

function onRoom(msg) {
  for (const line of roomChanges(S.info, msg, S.seat)) log.add(line, 'room');
  S.info = msg;
  if (msg.game && !S.game) {
    S.game = msg.game;
    ensureBoard();
  }
  if (msg.status === 'lobby' && S.phase !== 'room') setPhase('room');
  renderRoomPanel();
  if (S.view) renderGame();
}

function onState(msg) {
  if (!msg.view || typeof msg.view !== 'object') return;
  if (S.hashChecks && typeof msg.hash === 'string' && viewHash(msg.view) !== msg.hash) {
    // A full state cannot be out of step, so our hash must differ from the
    // server's: stop checking rather than asking for states forever.
    console.warn('conclave: the view hash is computed differently here; hash checks are off');
    S.hashChecks = false;
  }
  S.view = msg.view;
  S.rev = Number.isInteger(msg.rev) ? msg.rev : 0;
  // The view's clock times were taken clock_ms before the server sent it.
  S.clockAt = performance.now() - (Number.isInteger(msg.clock_ms) ? msg.clock_ms : 0);
  S.syncing = false;
  if (Number.isInteger(msg.seat)) S.seat = msg.seat >= 0 ? msg.seat : null;
  if (typeof msg.view.game === 'string' && S.game !== msg.view.game) {
    S.game = msg.view.game;
    S.board = null;
    S.catalogue = null;
  }
  onViewChanged();
}

function onDiff(msg) {
  if (!S.view || S.syncing) return; // a full state is on its way
  if (!Number.isInteger(msg.rev) || msg.rev <= S.rev) return; // seen already
  if (msg.rev !== S.rev + 1) return requestSync(`expected rev ${S.rev + 1}, got ${msg.rev}`);
  let next;
  try {
    next = applyPatch(S.view, msg.patch);
  } catch (e) {
    return requestSync(`a patch did not apply: ${e.message}`);
  }
  if (S.hashChecks && typeof msg.hash === 'string' && viewHash(next) !== msg.hash) {
    return requestSync('the view hash differs from the server’s');
  }
  S.view = next;
  S.rev = msg.rev;
  S.clockAt = performance.now(); // a diff's clock times are as of now
  onViewChanged();
}

async function requestSync(why) {
  if (S.syncing) return;
  console.info(`conclave: asking for a fresh view (${why})`);
  S.syncing = true;
  const r = await conn.request('sync');
  if (!r.ok) S.syncing = false; // a reconnect will bring a state
}

function onViewChanged() {
  const fresh = log.mergeGame(S.view.log, { missed: Boolean(S.missed), keys: S.view.log_keys });
  if (S.missed) S.missed.lines.push(...fresh);
  rememberProgress();
  if (S.view.result) {
    S.result = S.result || S.view.result;
    if (S.phase !== 'ended') setPhase('ended');
  } else if (S.phase !== 'game') {
    setPhase('game');
  }
  if (!S.board) ensureBoard();
  needLegal();
  renderAll();
  retryIfStale();
}

// Keeps the rev and the last log lines with the seat, for the "while you
// were away" report after a reload: at most once a second while moves
// come in, and when the page goes away.
let progressTimer = null;

function rememberProgress(now = false) {
  if (!now) {
    if (!progressTimer) progressTimer = setTimeout(() => rememberProgress(true), 1000);
    return;
  }
  clearTimeout(progressTimer);
  progressTimer = null;
  if (S.room && S.seat !== null && S.view && store.loadSeat(S.room)) {
    store.saveSeat(S.room, { rev: S.rev, log: log.gameLines(LOG_LINES_KEPT), logKeys: log.gameKeys(LOG_LINES_KEPT) });
  }
}

function onChat(msg) {
  const you = S.seat !== null ? msg.seat === S.seat : msg.seat === -1 && msg.name === S.name;
  const who = msg.name ? userText(msg.name, 'span', { class: 'chat-name' })
    : h('span', { class: 'chat-name' }, msg.seat >= 0 ? seatLabel(msg.seat) : t('A spectator'));
  const list = E['chat-messages'];
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.appendChild(h('li', { class: you ? 'mine' : null },
    who,
    msg.seat === -1 ? h('span', { class: 'tag' }, t('watching')) : null,
    t(': '), userText(msg.text, 'span', { class: 'chat-text' })));
  while (list.children.length > 300) list.firstChild.remove();
  if (atBottom || you) list.scrollTop = list.scrollHeight;
}

function onEnded(msg) {
  S.result = msg.result || S.result;
  if (S.phase !== 'ended' && S.view) setPhase('ended');
  renderAll();
}

// Someone offered a rematch of this finished room, or answered it: the
// log says what changed, the end screen shows every seat's answer.
function onRematch(msg) {
  if (typeof msg.rematch !== 'string') return;
  const before = new Map(offerRows(S.rematch, S.seat).map((r) => [r.seat, r.answer]));
  if (!S.rematch || S.rematch.rematch !== msg.rematch) {
    log.add(() => pieces(t('{who} offers a rematch in room {room}.'),
      { who: msg.by ? userText(msg.by) : t('A player'), room: userText(msg.rematch) }), 'room');
  }
  for (const r of offerRows(msg, S.seat)) {
    if (r.answer === before.get(r.seat) || (r.answer !== 'yes' && r.answer !== 'no')) continue;
    if (!before.size && r.name === msg.by) continue;
    const yes = r.answer === 'yes';
    if (r.mine) log.add(() => (yes ? t('You joined the rematch.') : t('You declined the rematch.')), 'room');
    else {
      log.add(() => pieces(yes ? t('{who} joined the rematch.') : t('{who} declined the rematch.'),
        { who: userText(r.name) }), 'room');
    }
  }
  S.rematch = msg;
  renderEnded();
}

// Offers a rematch (nobody has yet) or joins the one offered: the reply is
// a join's, for the new room, and the page moves there; or declines it,
// staying here.
async function answerRematch(accept) {
  const old = S.room;
  const offered = !S.rematch;
  clearError();
  S.rematchBusy = true;
  renderEnded();
  const r = await conn.request('rematch', accept ? {} : { accept: false });
  S.rematchBusy = false;
  if (S.room !== old) return;
  if (!r.ok) {
    if (r.error?.code === 'already_started') S.rematchStarted = true;
    showError(rematchErrorText(r.error, S.rematch));
    return renderEnded();
  }
  if (!accept) return renderEnded();
  // The finished room's seat is done with; its game stays reviewable.
  store.forgetSeat(old);
  enterRoom(r, false);
  log.add(() => pieces(offered ? t('You offered a rematch of room {room}: the others are asked to join.')
    : t('You joined the rematch of room {room}.'), { room: userText(old) }), 'info');
}

function onReplaced() {
  conn.stop();
  showError(t('This seat is now played from another window or tab. Use “Reconnect now” to play it here again.'));
}

// The connection's state in words.
function statusWords(status) {
  switch (status) {
    case 'open': return t('Connected');
    case 'reconnecting': return S.started ? t('Connection lost, reconnecting…') : t('Connecting…');
    case 'closed': return t('Disconnected');
    default: return status;
  }
}

function onStatus(status) {
  body.dataset.connection = status;
  E['connection-text'].textContent = statusWords(status);
  E.reconnect.hidden = status === 'open' || (status === 'reconnecting' && !S.started && conn.attempt === 0);
  if (status === 'open') {
    if (E.error.dataset.code === 'disconnected') clearError();
    renderAll();
  } else {
    renderActionsPanel();
    updateTurn();
  }
}

// ---- Legal actions and acting ----

function needLegal() {
  if (!isActive()) {
    S.legal = [];
    S.legalRev = S.rev;
    S.legalAhead = null;
    return;
  }
  if (S.legalAhead && S.legalAhead.rev === S.rev) {
    S.legal = S.legalAhead.actions;
    S.legalRev = S.rev;
    S.legalAhead = null;
    return;
  }
  if (S.legalRev !== S.rev) fetchLegal();
}

async function fetchLegal() {
  if (S.legalBusy) {
    S.legalAgain = true;
    return;
  }
  S.legalBusy = true;
  const r = await conn.request('legal');
  S.legalBusy = false;
  const again = S.legalAgain;
  S.legalAgain = false;
  if (r.ok && Array.isArray(r.actions) && Number.isInteger(r.rev)) {
    if (r.rev === S.rev) {
      S.legal = r.actions;
      S.legalRev = r.rev;
    } else if (r.rev > S.rev) {
      S.legalAhead = { rev: r.rev, actions: r.actions };
    }
  }
  if ((again || r.ok) && isActive() && S.legalRev !== S.rev && !(S.legalAhead && S.legalAhead.rev > S.rev)) {
    if (conn.status === 'open' || r.ok) fetchLegal();
  }
  renderActionsPanel();
  renderBoard();
  updateTurn();
  retryIfStale();
}

async function pick(index) {
  if (!legalUsable()) return;
  const action = S.legal[index];
  if (!action) return;
  S.acting = true;
  clearError();
  E['turn-banner'].hidden = true;
  if (!E.notice.hidden) dismissNotice();
  renderActionsPanel();
  updateTurn();
  const r = await conn.request('act', { action, rev: S.rev });
  S.acting = false;
  if (r.ok) {
    S.minRev = Math.max(S.minRev, Number.isInteger(r.rev) ? r.rev : S.rev + 1);
    S.undoRev = r.undo ? r.rev : null;
    S.focus = null;
  } else if (r.error?.code === 'stale' && !S.retry) {
    // Another seat's move (a sealed choice made at the same time) came in
    // between: once the view has caught up, the same move is sent again if
    // it is still offered, else the player is told to choose again.
    S.retry = action;
    S.minRev = Math.max(S.minRev, staleRev(r.error) ?? S.rev + 1);
  } else {
    S.retry = null;
    showError(r.error);
  }
  renderAll();
  retryIfStale();
}

// The rev a `stale` refusal names ("the room is at rev 19"), if it does.
function staleRev(error) {
  const m = /rev (\d+)/.exec(error?.message || '');
  return m ? Number(m[1]) : null;
}

function retryIfStale() {
  if (!S.retry || !legalUsable()) return;
  const text = JSON.stringify(S.retry);
  S.retry = null;
  const index = S.legal.findIndex((a) => JSON.stringify(a) === text);
  if (index >= 0) pick(index);
  else showError(t('The game moved on before your move arrived, and it is no longer possible: choose again.'));
}

// ctx.pick(a): `a` is one of ctx.legal (the same object, or an equal one).
function pickAction(action) {
  let index = S.legal.indexOf(action);
  if (index < 0) {
    const text = JSON.stringify(action);
    index = S.legal.findIndex((a) => JSON.stringify(a) === text);
  }
  if (index >= 0) pick(index);
}

function setFocus(key) {
  S.focus = key === undefined || key === '' ? null : key;
  renderBoard();
  renderActionsPanel();
  if (S.focus !== null) E['focus-bar'].hidden = false;
  // Said, as the list changes out of sight of a keyboard on the board.
  const n = E.actions.querySelectorAll('button.action').length;
  const moves = plural(n, t('{n} move'), t('{n} moves'));
  log.announce(S.focus === null ? t('Selection cleared: {moves}.', { moves })
    : t('{what} selected: {moves}.', { what: focusWords(S.focus), moves }));
}

// ---- Drawing ----

async function ensureBoard() {
  const game = S.game;
  if (!game || (S.board && S.board.game === game)) return;
  const [board, cat] = await Promise.all([loadBoard(game), loadCatalogue(game)]);
  if (S.game !== game) return;
  S.board = board;
  S.catalogue = cat;
  log.setCatalogue(cat);
  renderAll();
}

function boardContext() {
  return {
    seat: S.seat,
    names: names(),
    legal: legalUsable() ? S.legal : [],
    pick: pickAction,
    focus: S.focus,
    setFocus,
    catalogue: S.catalogue, // the game's lang/<game>.json, or null
  };
}

function renderBoard() {
  if (!S.board || !S.view) return;
  // The keyboard focus stays on the board across the redraw (keys.js).
  const hadFocus = E.board.contains(document.activeElement);
  clear(E.board);
  E.board.dataset.game = S.game || '';
  S.board.render(E.board, S.view, boardContext());
  rove(E.board, hadFocus);
}

function renderStatus() {
  if (!S.view || !S.board) {
    E.status.textContent = S.phase === 'room' ? '' : t('Waiting for the game…');
    return;
  }
  let text;
  if (S.view.result || S.phase === 'ended') text = t('Game over.');
  else text = S.board.status(S.view, S.seat, names()) || '';
  E.status.textContent = text;
  const n = names();
  if (S.seat === null) E['seat-info'].textContent = t('You are watching.');
  else E['seat-info'].replaceChildren(...pieces(t('You are {name}, seat {n}.'), { name: userText(n[S.seat] || S.name), n: S.seat + 1 }));
  renderClocks();
}

// Each seat's time, ticked once a second while a clock runs; nothing is
// asked of the server between its diffs.
function renderClocks() {
  const seats = S.view && !S.view.result ? clockSeats(S.view, names(), performance.now() - (S.clockAt || 0)) : [];
  E.clocks.hidden = seats.length === 0;
  E['clock-policy'].hidden = seats.length === 0;
  E['clock-policy'].textContent = policyText(S.view);
  clear(E.clocks);
  seats.forEach((c, i) => {
    const name = userText(c.name);
    const li = h('li', { class: `clock${c.running ? ' running' : ''}${c.flag ? ' flag' : ''}` },
      i === S.seat ? pieces(t('{name} (you)'), { name }) : name, t(': '), c.text, c.running ? ' ⏱' : '');
    E.clocks.appendChild(li);
  });
  clearTimeout(S.clockTick);
  if (seats.length && clocksRun(S.view)) S.clockTick = setTimeout(renderClocks, 1000);
}

function actionsMessage() {
  if (S.seat === null) return t('You are watching this game.');
  if (S.view?.result) return t('The game is over.');
  if (conn.status !== 'open') return t('Reconnecting… your moves come back with the connection.');
  if (!isActive()) {
    const n = names();
    const waiting = (S.view?.active || []).map((s) => n[s]).filter(Boolean);
    return waiting.length ? t('Waiting for {names}.', { names: waiting.join(t(', ')) }) : t('Waiting…');
  }
  if (S.acting) return t('Sending your move…');
  if (!legalUsable()) return t('Loading your moves…');
  if (S.legal.length === 0) return t('Nothing for you to choose right now.');
  return null;
}

// Takes back the seat's last move, which the server said it may.
async function undoMove() {
  E.undo.disabled = true;
  clearError();
  const r = await conn.request('undo', {});
  E.undo.disabled = false;
  S.undoRev = r.ok && r.undo ? r.rev : null;
  if (r.ok) S.minRev = Math.max(S.minRev, Number.isInteger(r.rev) ? r.rev : S.rev + 1);
  else showError(r.error);
  renderAll();
}

function renderActionsPanel() {
  // Only while the view is the one the server's reply said may go back.
  E.undo.hidden = !(S.undoRev !== null && S.rev === S.undoRev && !S.view?.result);
  if (!S.board || !S.view) {
    clear(E.actions);
    return;
  }
  const message = actionsMessage();
  const items = message ? [] : describeAll(S.legal, S.board, S.view, S.seat);
  renderActions(E.actions, { items, focus: S.focus, message, onPick: pick, boardEl: E.board });
  E['focus-bar'].hidden = S.focus === null;
  E['focus-text'].textContent = S.focus === null ? '' : t('Moves involving {what}.', { what: focusWords(S.focus) });
  E['actions-title'].textContent = S.seat === null ? t('Moves') : t('Your moves');
}

// The selected board element in words: its short name on the board
// (keys.js, data-words) if it has one, else the key itself.
function focusWords(key) {
  const el = E.board.querySelector(`.keyed${keySelector(key)}`) || E.board.querySelector(keySelector(key));
  let words = (el?.dataset.words || el?.getAttribute('aria-label') || el?.textContent || '').trim();
  if (words.length > 60) {
    // A long description: its head ("Tile Tn: top left yellow, ..." -> "Tile Tn").
    const head = words.split(/[:,(]/)[0].trim();
    words = head.length >= 3 && head.length <= 60 ? head : `${words.slice(0, 57)}…`;
  }
  return `“${words || key}”`;
}

function renderRoomPanel() {
  notifyBox.update({ room: S.room, seat: S.seat, phase: S.phase, online: conn.status === 'open' });
  if (!S.room) return;
  renderRoom(
    {
      code: E['room-code'],
      game: E['room-game'],
      link: E['room-link'],
      watchLink: E['watch-link'],
      seats: E.seats,
      spectators: E.spectators,
      hostControls: E['host-controls'],
      wait: E['room-wait'],
      share: E['room-share'],
    },
    {
      info: S.info, room: S.room, gameTitle: gameTitle(S.game), seat: S.seat, names: names(),
      phase: S.phase, levels: S.botLevels, chosen: S.chosenLevels,
    },
  );
  E['topbar-game'].textContent = gameTitle(S.game);
}

function renderEnded() {
  if (S.phase !== 'ended') return;
  renderRematch(
    { box: E['rematch-box'], offer: E['rematch-offer'], seats: E['rematch-seats'], ask: E.rematch,
      join: E['rematch-join'], decline: E['rematch-decline'], watch: E['rematch-watch'] },
    { offer: S.rematch, seat: S.seat, started: S.rematchStarted, busy: S.rematchBusy },
  );
  E['review-game'].href = `#review/${S.room}`;
  if (!S.board) return;
  renderEnd(
    { winners: E.winners, reason: E['end-reason'], tbody: E.scores.tBodies[0], seed: E['seed-check'] },
    { view: S.view, result: S.result, names: names(), seat: S.seat, board: S.board, catalogue: S.catalogue },
  );
}

function renderGame() {
  renderStatus();
  renderBoard();
  renderActionsPanel();
  renderEnded();
}

function renderAll() {
  const hadFocus = focusInPage();
  layout();
  renderRoomPanel();
  if (S.view) renderGame();
  updateTurn();
  keepFocus(hadFocus);
}

// The turn cue: body[data-your-turn] says the seat's moves are on screen
// and clickable; when the seat becomes active the title changes and a
// banner says so (in words, not by colour).
function updateTurn() {
  const active = isActive();
  const canAct = active && legalUsable() && S.legal.length > 0;
  body.dataset.yourTurn = String(canAct);
  E['jump-moves'].hidden = !canAct;
  if (active && !S.wasActive) {
    const words = S.board && S.view ? String(S.board.status(S.view, S.seat, names()) || '') : '';
    E['turn-banner'].textContent = saysYourTurn(words) ? words : t('Your turn. {status}', { status: words }).trim();
    E['turn-banner'].hidden = false;
    // The banner is the cue; the highlighted status bar stays for the rest
    // of the turn.
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => (E['turn-banner'].hidden = true), BANNER_MS);
  } else if (!active) {
    E['turn-banner'].hidden = true;
  }
  S.wasActive = active;
  updateTitle();
}

// Whether a board's status line says already that it is the seat's turn
// ("Your turn: ..."), in the reader's language.
function saysYourTurn(words) {
  return words.toLowerCase().startsWith(t('Your turn').toLowerCase());
}

// ---- Chat, record, misc ----

async function sendChat() {
  const text = E['chat-input'].value.trim();
  if (!text) return;
  const r = await conn.request('chat', { text });
  if (r.ok) E['chat-input'].value = '';
  else showError(r.error);
}

async function downloadRecord() {
  const r = await conn.request('record');
  if (!r.ok) return showError(r.error);
  downloadJson(`conclave-${S.room}-${S.game || 'game'}.json`, r.record);
}

async function copyLink() {
  const link = E['room-link'].href;
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    // No clipboard API (an insecure origin): select the link so that the
    // usual copy keys work.
    const range = document.createRange();
    range.selectNodeContents(E['room-link']);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    try {
      document.execCommand('copy');
    } catch {
      /* left selected for the player to copy */
    }
  }
  E['copy-link'].textContent = t('Copied');
  setTimeout(() => (E['copy-link'].textContent = t('Copy link')), 2000);
}

async function startGame() {
  clearError();
  E.start.disabled = true;
  const bots = E.bots.checked && S.botLevels.length ? startBots(S.info, S.botLevels, S.chosenLevels) : E.bots.checked;
  const r = await conn.request('start', { bots });
  E.start.disabled = false;
  if (!r.ok) showError(r.error);
}

function guestName() {
  return t('Guest {n}', { n: Math.floor(1000 + Math.random() * 9000) });
}

// ---- Review ----

// Puts the review screen up, for room `code`'s finished game, or (no
// code) to open a record file; a record already on screen stays.
function openReview(code) {
  clearError();
  S.reviewing = true;
  if (code) review.openRoom(code);
  else if (!review.source?.text) review.openEmpty();
  layout();
  updateTitle();
  E.review.scrollIntoView({ block: 'start' });
}

// Back to the room the page is in, or to the lobby. `setUrl`: put the
// room's link back in the address (not when the address has just changed).
function closeReview(setUrl = true) {
  S.reviewing = false;
  review.reset(null);
  if (setUrl) setHash(S.room ? (S.watching ? `${S.room}/watch` : S.room) : '');
  setPhase(S.phase);
  if (S.view) renderAll();
}

async function openRecordFile(input) {
  const file = input.files?.[0];
  if (!file) return;
  const text = file.size <= RECORD_MAX_BYTES ? await file.text() : '';
  const { error } = readRecordText(text, file.size);
  input.value = '';
  if (error) return review.say(error, true);
  setHash('review');
  review.openRecord(text, file.name);
}

// Arrows step back and forward, Home and End go to the ends; the slider
// and the other controls keep their own keys.
function reviewKey(e) {
  if (!S.reviewing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  if (e.target instanceof Element && e.target.matches('input, select, textarea, .board *')) return;
  const to = { ArrowLeft: -1, ArrowRight: 1, Home: 'first', End: 'last' }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  review.go(to);
}

// ---- Language ----

// Writes again, in the language just picked, what the page wrote and
// renderAll() does not: the lobby's form and lists, this browser's other
// games, the connection, the name's hint, the buttons the code labels,
// the notice box and the review screen. Lines already said (the log's
// room lines excepted, Log.relabel()), the chat and any error stay.
function relabel() {
  const keep = E.game.value;
  fillGames(E.game, S.games, keep);
  onGameChosen(true);
  fillLists();
  renderMyGames(myGames ? myGames.list() : []);
  E['connection-text'].textContent = statusWords(conn.status);
  nameHint();
  if (!E.leave.dataset.armed) E.leave.textContent = t('Leave room');
  E['copy-link'].textContent = t('Copy link');
  notifyBox.relabel();
  review.relabel();
  renderEnded();
  updateTitle();
}

// ---- Start ----

function init() {
  // First: the language of everything written from here on.
  initLang(document.body);
  for (const el of document.querySelectorAll('[id]')) E[el.id] = el;
  log = new Log(E.log, E.announce);
  notifyBox = new NotifyBox({
    box: E['notify-box'], summary: E['notify-summary'], push: E['notify-push'], pushHint: E['notify-push-hint'],
    form: E['notify-form'], webhook: E['notify-webhook'], off: E['notify-off'], error: E['notify-error'],
  }, (op, args) => conn.request(op, args));
  // Where notifications are allowed already, the worker is registered
  // at once, so that a push finds it even before the button is used.
  registerIfGranted(window).catch(() => {});

  S.name = store.loadName();
  // A name brought from another server of the fleet (followElsewhere).
  const brought = checkName(new URLSearchParams(location.search).get('name') || '').name;
  if (brought) {
    S.name = brought;
    store.saveName(brought);
    history.replaceState(null, '', location.pathname + location.hash);
  }
  if (!checkName(S.name).name) {
    S.name = guestName();
    store.saveName(S.name);
  }
  E.name.value = S.name;

  E['name-form'].addEventListener('submit', (e) => {
    e.preventDefault();
    saveName();
  });
  E.name.addEventListener('change', () => saveName());
  E.game.addEventListener('change', onGameChosen);
  E['create-form'].addEventListener('submit', (e) => {
    e.preventDefault();
    createRoom();
  });
  E['join-form'].addEventListener('submit', (e) => {
    e.preventDefault();
    joinRoom(E['join-code'].value);
  });
  E.watch.addEventListener('click', () => watchRoom(E['join-code'].value));
  E['join-prompt-close'].addEventListener('click', () => (E['join-prompt'].hidden = true));
  E['rooms-refresh'].addEventListener('click', () => refreshRooms());
  E.start.addEventListener('click', startGame);
  E.leave.addEventListener('click', leaveRoom);
  E.undo.addEventListener('click', undoMove);
  E['copy-link'].addEventListener('click', copyLink);
  E['chat-form'].addEventListener('submit', (e) => {
    e.preventDefault();
    sendChat();
  });
  E['download-record'].addEventListener('click', downloadRecord);
  E.rematch.addEventListener('click', () => answerRematch(true));
  E['rematch-join'].addEventListener('click', () => answerRematch(true));
  E['rematch-decline'].addEventListener('click', () => answerRematch(false));
  review = new ReviewScreen({
    root: E.review, title: E['review-title'], seats: E['review-seats'], message: E['review-message'],
    first: E['review-first'], back: E['review-back'], forward: E['review-forward'], last: E['review-last'],
    slider: E['review-slider'], at: E['review-at'], lastRev: E['review-last-rev'], step: E['review-step'],
    status: E['review-status'], seed: E['review-seed'], hashes: E['review-hashes'],
    hashSummary: E['review-hash-summary'], as: E['review-as'], board: E['review-board'], hands: E['review-hands'],
  }, { request: (op, args) => conn.request(op, args), loadBoard, gameTitle });
  E['review-file'].addEventListener('change', () => openRecordFile(E['review-file']));
  E['review-close'].addEventListener('click', () => closeReview());
  E['back-to-lobby'].addEventListener('click', async () => {
    await conn.request('leave');
    store.forgetSeat(S.room);
    toLobby();
  });
  E['clear-focus'].addEventListener('click', () => setFocus(null));
  // In-page links move focus without touching the URL's hash, which holds
  // the room code (a reload goes back to the room by it).
  document.querySelector('.skip-link').addEventListener('click', (e) => {
    e.preventDefault();
    E.main.scrollIntoView({ block: 'start' });
    E.main.focus({ preventScroll: true });
  });
  E['jump-moves'].addEventListener('click', (e) => {
    e.preventDefault();
    E['actions-panel'].scrollIntoView({ block: 'start' });
    focusActions();
  });
  E['notice-close'].addEventListener('click', dismissNotice);
  E.reconnect.addEventListener('click', () => {
    if (conn.stopped) conn.resume();
    else if (conn.ws) conn.drop();
    else conn.retryNow();
  });
  document.addEventListener('keydown', pageKey);
  attachBoardKeys(E.board);
  attachActionKeys(E.actions);
  initDisplay(E.contrast, document.documentElement);
  for (const l of LANGS) E.lang.append(h('option', { value: l.id, lang: l.id }, l.name));
  E.lang.value = lang();
  E.lang.addEventListener('change', () => setLang(E.lang.value));
  onLangChange(() => {
    log.relabel();
    relabel();
    renderAll();
  });
  addEventListener('pagehide', () => rememberProgress(true));
  addEventListener('hashchange', () => {
    const target = parseHash();
    if (target?.review) return followHash();
    if (S.reviewing) closeReview(false);
    if (target && (!S.room || normCode(target.code) !== normCode(S.room))) followHash();
  });

  conn = new Connection(defaultUrl(), { onOpen, onEvent, onStatus });
  myGames = new MyGames(defaultUrl(), renderMyGames);
  setPhase('lobby');
  refreshMyGames();
  conn.connect();
}

init();
