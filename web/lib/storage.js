// SPDX-License-Identifier: MIT
// What the page keeps in localStorage: the player's name, and per room the
// resume token of the seat this browser holds there (so that a reload, or
// a lost connection, comes back to the same seat) with the last rev and
// log lines seen (so that the page can say what was missed meanwhile).
// Storage may be unavailable (private modes, quotas): everything here
// degrades to "nothing remembered" rather than throwing.

const NAME_KEY = 'conclave.name';
const SEATS_KEY = 'conclave.seats';
const MAX_ROOMS = 20; // seats remembered; the oldest are forgotten first

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* not kept: the page still works, it just forgets */
  }
}

export function loadName() {
  const n = read(NAME_KEY, '');
  return typeof n === 'string' ? n : '';
}

export function saveName(name) {
  write(NAME_KEY, name);
}

function allSeats() {
  const s = read(SEATS_KEY, {});
  return s && typeof s === 'object' && !Array.isArray(s) ? s : {};
}

// { token, seat, game, rev, log, at } for the room, or null.
export function loadSeat(room) {
  const s = allSeats()[room];
  return s && typeof s.token === 'string' ? s : null;
}

// Merges `fields` into the room's record (creating it).
export function saveSeat(room, fields) {
  const seats = allSeats();
  seats[room] = { ...(seats[room] || {}), ...fields, at: Date.now() };
  const rooms = Object.keys(seats).sort((a, b) => (seats[b].at || 0) - (seats[a].at || 0));
  for (const old of rooms.slice(MAX_ROOMS)) delete seats[old];
  write(SEATS_KEY, seats);
}

// Every seat kept: [{ room, seat, game }], the most recently used first.
export function listSeats() {
  const seats = allSeats();
  return Object.keys(seats)
    .filter((room) => typeof seats[room].token === 'string' && Number.isInteger(seats[room].seat))
    .sort((a, b) => (seats[b].at || 0) - (seats[a].at || 0))
    .map((room) => ({ room, seat: seats[room].seat, game: seats[room].game || '' }));
}

export function forgetSeat(room) {
  const seats = allSeats();
  delete seats[room];
  write(SEATS_KEY, seats);
}

// The page's own display options ({ contrast: 'auto' | 'more' | 'normal',
// lang: 'en' | 'zh-CN' }).
const DISPLAY_KEY = 'conclave.display';

export function loadDisplay() {
  const d = read(DISPLAY_KEY, {});
  return d && typeof d === 'object' ? d : {};
}

export function saveDisplay(display) {
  write(DISPLAY_KEY, display);
}
