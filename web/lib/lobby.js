// SPDX-License-Identifier: MIT
// The lobby's lists: the games the server offers (from `hello`), the seat
// count choices of the chosen game, and the public rooms (from `list`).
// The server names its games and their options in English; the page
// writes the four games' titles and their options' words in the reader's
// language (gameTitle(), lib/options.js).

import { h, clear, humanize, userText } from './dom.js';
import { lang, pieces, t } from './i18n.js';
import { optionLabel, optionValue } from './options.js';

// The title of each game the page knows, in the reader's language.
function knownTitle(id) {
  switch (id) {
    case 'stones': return t('Sorcerer & Stones');
    case 'arcana': return t('Res Arcana');
    case 'sorcerers': return t('Sorcerers');
    case 'element': return t('Element');
    default: return null;
  }
}

// Game `id`'s title: in English the server's (`game`, its hello entry),
// in another language the page's own for the games it knows; a game it
// does not know keeps the server's title, else its id in words.
export function gameTitle(id, game) {
  const served = game?.title || (id ? humanize(id) : '');
  return (lang() !== 'en' && knownTitle(id)) || served;
}

export function playerRange(game) {
  const lo = Number.isInteger(game.min_players) ? game.min_players : 2;
  const hi = Number.isInteger(game.max_players) ? game.max_players : lo;
  return lo === hi ? playerCount(lo) : t('{lo}–{hi} players', { lo, hi });
}

function playerCount(n) {
  return n === 1 ? t('1 player') : t('{n} players', { n });
}

export function fillGames(select, games, keep) {
  clear(select);
  for (const g of games) select.appendChild(h('option', { value: g.id }, gameTitle(g.id, g)));
  if (keep && games.some((g) => g.id === keep)) select.value = keep;
}

// Seat counts from the game's minimum to its maximum; the preselected one
// is the smallest table of two or more (the server's own default), or
// `keep` when the list has it.
export function fillSeats(select, game, keep = null) {
  const lo = Number.isInteger(game.min_players) ? game.min_players : 2;
  const hi = Number.isInteger(game.max_players) ? game.max_players : Math.max(lo, 2);
  clear(select);
  for (let n = lo; n <= hi; n++) {
    select.appendChild(h('option', { value: String(n) }, playerCount(n)));
  }
  const k = Number(keep);
  select.value = String(Number.isInteger(k) && k >= lo && k <= hi ? k : Math.min(hi, Math.max(lo, 2)));
  select.disabled = lo === hi;
}

// A room's options in words: "variant novice, colours 4".
function optionWords(options) {
  return Object.entries(options || {})
    .filter(([k]) => k !== 'public')
    .map(([k, v]) => t('{option} {value}', { option: optionLabel(k).toLowerCase(), value: optionValue(v) }))
    .join(t(', '));
}

// rooms: [{room, game, seats, taken, host, options}]
export function fillRooms(list, emptyNote, rooms, gamesById, onJoin, onWatch) {
  clear(list);
  emptyNote.hidden = rooms.length > 0;
  for (const r of rooms) {
    const title = gameTitle(r.game, gamesById.get(r.game));
    const free = Math.max(0, (r.seats || 0) - (r.taken || 0));
    const extra = optionWords(r.options);
    list.appendChild(h('li', { class: 'room', dataset: { room: r.room, game: r.game } },
      h('div', { class: 'room-what' },
        h('strong', {}, title), ' ', userText(r.room, 'code'),
        h('div', { class: 'hint' },
          pieces(t('hosted by {host}'), { host: userText(r.host || '?') }), ' · ',
          t('{taken}/{seats} seated · {free} free', { taken: r.taken, seats: r.seats, free }),
          extra ? ` · ${extra}` : '')),
      h('div', { class: 'inline' },
        h('button', { type: 'button', class: 'small join-room', disabled: free === 0,
                      'aria-label': t('Join {game} room {room}', { game: title, room: r.room }), onclick: () => onJoin(r.room) }, t('Join')),
        h('button', { type: 'button', class: 'small secondary watch-room',
                      'aria-label': t('Watch {game} room {room}', { game: title, room: r.room }), onclick: () => onWatch(r.room) }, t('Watch')))));
  }
}

// "just now", "5 minutes ago", "3 hours ago", "2 days ago" for `seconds`.
export function agoText(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  if (s < 60) return t('just now');
  if (s < 3600) {
    const n = Math.floor(s / 60);
    return n === 1 ? t('1 minute ago') : t('{n} minutes ago', { n });
  }
  if (s < 86400) {
    const n = Math.floor(s / 3600);
    return n === 1 ? t('1 hour ago') : t('{n} hours ago', { n });
  }
  const n = Math.floor(s / 86400);
  return n === 1 ? t('1 day ago') : t('{n} days ago', { n });
}

// ended: [{room, game, seats: [names], ago}], the `list` reply's recently
// finished public games, each with a link to its review.
export function fillEnded(list, emptyNote, ended, gamesById) {
  clear(list);
  emptyNote.hidden = ended.length > 0;
  for (const g of ended) {
    const title = gameTitle(g.game, gamesById.get(g.game));
    const seats = Array.isArray(g.seats) ? g.seats.join(t(', ')) : '';
    list.appendChild(h('li', { class: 'room ended-game', dataset: { room: g.room, game: g.game } },
      h('div', { class: 'room-what' },
        h('strong', {}, title), ' ', userText(g.room, 'code'),
        h('div', { class: 'hint' }, seats ? userText(seats) : t('nobody'), ' · ', t('ended {ago}', { ago: agoText(g.ago) }))),
      h('a', { class: 'review-link', href: `#review/${g.room}`, 'aria-label': t('Review {game} room {room}', { game: title, room: g.room }) }, t('Review'))));
  }
}
