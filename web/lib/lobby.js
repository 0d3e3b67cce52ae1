// SPDX-License-Identifier: MIT
// The lobby's lists: the games the server offers (from `hello`), the seat
// count choices of the chosen game, and the public rooms (from `list`).

import { h, clear, humanize } from './dom.js';

export function playerRange(game) {
  const lo = Number.isInteger(game.min_players) ? game.min_players : 2;
  const hi = Number.isInteger(game.max_players) ? game.max_players : lo;
  return lo === hi ? `${lo} players` : `${lo}–${hi} players`;
}

export function fillGames(select, games, keep) {
  clear(select);
  for (const g of games) select.appendChild(h('option', { value: g.id }, g.title || g.id));
  if (keep && games.some((g) => g.id === keep)) select.value = keep;
}

// Seat counts from the game's minimum to its maximum; the preselected one
// is the smallest table of two or more (the server's own default).
export function fillSeats(select, game) {
  const lo = Number.isInteger(game.min_players) ? game.min_players : 2;
  const hi = Number.isInteger(game.max_players) ? game.max_players : Math.max(lo, 2);
  clear(select);
  for (let n = lo; n <= hi; n++) {
    select.appendChild(h('option', { value: String(n) }, n === 1 ? '1 player' : `${n} players`));
  }
  select.value = String(Math.min(hi, Math.max(lo, 2)));
  select.disabled = lo === hi;
}

function optionWords(options) {
  return Object.entries(options || {})
    .filter(([k]) => k !== 'public')
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${v === true ? 'yes' : v === false ? 'no' : v}`)
    .join(', ');
}

// rooms: [{room, game, seats, taken, host, options}]
export function fillRooms(list, emptyNote, rooms, gamesById, onJoin, onWatch) {
  clear(list);
  emptyNote.hidden = rooms.length > 0;
  for (const r of rooms) {
    const title = gamesById.get(r.game)?.title || r.game;
    const free = Math.max(0, (r.seats || 0) - (r.taken || 0));
    const extra = optionWords(r.options);
    list.appendChild(h('li', { class: 'room', dataset: { room: r.room, game: r.game } },
      h('div', { class: 'room-what' },
        h('strong', {}, title), ' ', h('code', {}, r.room),
        h('div', { class: 'hint' },
          `hosted by ${r.host || '?'} · ${r.taken}/${r.seats} seated · ${free} free`,
          extra ? ` · ${extra}` : '')),
      h('div', { class: 'inline' },
        h('button', { type: 'button', class: 'small join-room', disabled: free === 0,
                      'aria-label': `Join ${title} room ${r.room}`, onclick: () => onJoin(r.room) }, 'Join'),
        h('button', { type: 'button', class: 'small secondary watch-room',
                      'aria-label': `Watch ${title} room ${r.room}`, onclick: () => onWatch(r.room) }, 'Watch'))));
  }
}

// "just now", "5 minutes ago", "3 hours ago", "2 days ago" for `seconds`.
export function agoText(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  const unit = (n, word) => `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (s < 60) return 'just now';
  if (s < 3600) return unit(Math.floor(s / 60), 'minute');
  if (s < 86400) return unit(Math.floor(s / 3600), 'hour');
  return unit(Math.floor(s / 86400), 'day');
}

// ended: [{room, game, seats: [names], ago}], the `list` reply's recently
// finished public games, each with a link to its review.
export function fillEnded(list, emptyNote, ended, gamesById) {
  clear(list);
  emptyNote.hidden = ended.length > 0;
  for (const g of ended) {
    const title = gamesById.get(g.game)?.title || g.game;
    const seats = Array.isArray(g.seats) ? g.seats.join(', ') : '';
    list.appendChild(h('li', { class: 'room ended-game', dataset: { room: g.room, game: g.game } },
      h('div', { class: 'room-what' },
        h('strong', {}, title), ' ', h('code', {}, g.room),
        h('div', { class: 'hint' }, `${seats || 'nobody'} · ended ${agoText(g.ago)}`)),
      h('a', { class: 'review-link', href: `#review/${g.room}`, 'aria-label': `Review ${title} room ${g.room}` }, 'Review')));
  }
}
