// SPDX-License-Identifier: MIT
// The room panel: the code and its share link, one row per seat with who
// sits there and whether they are connected (in words and a symbol, not
// colour alone), the spectator count, and the host's start controls: for
// each open seat, and each seat kept for a player who is not connected (a
// rematch's seat waiting for its player), the level of the bot that would
// take it.

import { h, clear, userText } from './dom.js';
import { pieces, t } from './i18n.js';

export function shareLink(room, watch = false) {
  return `${location.origin}${location.pathname}#${room}${watch ? '/watch' : ''}`;
}

// The level picker of an open seat: the server's levels, the host's pick
// kept in `chosen` (seat -> level) across redraws.
function defaultLevel(levels) {
  return levels.includes('normal') ? 'normal' : levels[levels.length - 1];
}

// A seat a bot takes when the host starts with bots: an open one, or one
// kept for a player who is not connected (the bot keeps it for them).
function fillable(s) {
  return !s.kind || s.kind === 'empty' || (s.kind === 'human' && !s.connected);
}

function levelPicker(s, levels, chosen) {
  const pick = chosen[s.seat] || defaultLevel(levels);
  chosen[s.seat] = pick;
  const n = s.seat + 1;
  const label = s.kind !== 'human' ? t('Bot level for seat {n}', { n })
    : s.name ? t('Bot level for seat {n}, if {name} does not come back', { n, name: s.name })
      : t('Bot level for seat {n}, if its player does not come back', { n });
  return h('select', {
    class: 'bot-level',
    'aria-label': label,
    dataset: { seat: s.seat },
    onchange: (e) => { chosen[s.seat] = e.target.value; },
  }, levels.map((l) => h('option', { value: l, selected: l === pick }, levelWords(l))));
}

// A bot level the server names ("easy") in words: "easy bot".
function levelWords(level) {
  switch (level) {
    case 'random': return t('random bot');
    case 'easy': return t('easy bot');
    case 'normal': return t('normal bot');
    case 'hard': return t('hard bot');
    default: return t('{level} bot', { level });
  }
}

// A bot level alone ("easy"), as a seat's state shows it.
function levelName(level) {
  switch (level) {
    case 'random': return t('random');
    case 'easy': return t('easy');
    case 'normal': return t('normal');
    case 'hard': return t('hard');
    default: return level;
  }
}

function seatRow(s, { host, seat, names, levels, chosen, picking }) {
  const kind = s.kind || 'empty';
  const name = s.name || names[s.seat] || '';
  const connected = kind === 'bot' ? true : Boolean(s.connected);
  const state =
    kind === 'empty' ? t('open seat') :
    kind === 'bot' ? (s.level ? t('bot · {level}', { level: levelName(s.level) }) : t('bot')) :
    connected ? t('connected') : t('not connected');
  const symbol = kind === 'empty' ? '○' : kind === 'bot' ? '⚙' : connected ? '●' : '◌';
  return h('li', {
    class: ['seat', `seat-${kind}`, s.seat === seat && 'mine'],
    dataset: { seat: s.seat, kind, connected: String(kind !== 'empty' && connected) },
  },
  h('span', { class: 'seat-symbol', 'aria-hidden': 'true' }, symbol),
  kind === 'empty' ? h('span', { class: 'seat-name' }, t('Waiting for a player')) : userText(name, 'span', { class: 'seat-name' }),
  s.seat === host && kind !== 'empty' ? h('span', { class: 'tag' }, t('host')) : null,
  s.seat === seat ? h('span', { class: 'tag tag-you' }, t('you')) : null,
  h('span', { class: 'seat-state' }, state),
  picking && fillable(s) && levels.length ? levelPicker(s, levels, chosen) : null);
}

// The `bots` of a start: one level per fillable seat as picked, null for
// the seats taken.
export function startBots(info, levels, chosen) {
  return (info?.seats || []).map((s) => (fillable(s) ? chosen[s.seat] || defaultLevel(levels) : null));
}

// els: { code, game, link, watchLink, seats, spectators, hostControls, wait, share }
export function renderRoom(els, { info, room, gameTitle, seat, names, phase, levels = [], chosen = {} }) {
  els.code.textContent = room;
  els.game.textContent = gameTitle ? `· ${gameTitle}` : '';
  const link = shareLink(room);
  els.link.href = link;
  els.link.textContent = link;
  els.watchLink.href = shareLink(room, true);
  els.watchLink.textContent = shareLink(room, true);
  clear(els.seats);
  const seats = info?.seats || [];
  const inLobby = (info?.status || 'lobby') === 'lobby';
  const isHost = seat !== null && info && info.host === seat;
  const picking = inLobby && isHost;
  for (const s of seats) {
    els.seats.appendChild(seatRow(s, { host: info.host, seat, names, levels, chosen, picking }));
  }
  const n = info?.spectators || 0;
  els.spectators.textContent = !n ? '' : seat === null ? t('{n} watching (you among them).', { n }) : t('{n} watching.', { n });
  els.hostControls.hidden = !(inLobby && isHost);
  const open = seats.filter((s) => s.kind === 'empty').length;
  const away = seats.filter((s) => s.kind === 'human' && !s.connected).map((s) => s.name || t('seat {n}', { n: s.seat + 1 }));
  if (inLobby && !isHost) {
    els.wait.hidden = false;
    const hostName = seats.find((s) => s.seat === info?.host)?.name;
    const host = hostName ? userText(hostName) : t('the host');
    let line;
    if (seat === null) line = pieces(t('You are watching. The game starts when {host} starts it.'), { host });
    else if (!open) line = pieces(t('Waiting for {host} to start the game.'), { host });
    else if (open === 1) line = pieces(t('Waiting for {host} to start the game (1 seat still open).'), { host });
    else line = pieces(t('Waiting for {host} to start the game ({n} seats still open).'), { host, n: open });
    els.wait.replaceChildren(...line);
  } else if (inLobby && isHost) {
    els.wait.hidden = false;
    const awayText = away.length
      ? [...pieces(t('Waiting for {names} to come back (or a bot keeps the seat).'), { names: userText(away.join(t(', '))) }), ' ']
      : [];
    const next = open === 1 ? t('1 seat open: share the link, or start with bots.')
      : open ? t('{n} seats open: share the link, or start with bots.', { n: open })
        : away.length ? t('Start with bots to play without them.') : t('Every seat is taken: you can start.');
    els.wait.replaceChildren(...awayText, next);
  } else {
    els.wait.hidden = true;
  }
  els.share.hidden = phase === 'ended';
}
