// SPDX-License-Identifier: MIT
// The room panel: the code and its share link, one row per seat with who
// sits there and whether they are connected (in words and a symbol, not
// colour alone), the spectator count, and the host's start controls: for
// each open seat, and each seat kept for a player who is not connected (a
// rematch's seat waiting for its player), the level of the bot that would
// take it.

import { h, clear } from './dom.js';

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
  const kept = s.kind === 'human' ? `, if ${s.name || 'its player'} does not come back` : '';
  return h('select', {
    class: 'bot-level',
    'aria-label': `Bot level for seat ${s.seat + 1}${kept}`,
    dataset: { seat: s.seat },
    onchange: (e) => { chosen[s.seat] = e.target.value; },
  }, levels.map((l) => h('option', { value: l, selected: l === pick }, `${l} bot`)));
}

function seatRow(s, { host, seat, names, levels, chosen, picking }) {
  const kind = s.kind || 'empty';
  const name = s.name || names[s.seat] || '';
  const connected = kind === 'bot' ? true : Boolean(s.connected);
  const state =
    kind === 'empty' ? 'open seat' :
    kind === 'bot' ? (s.level ? `bot · ${s.level}` : 'bot') :
    connected ? 'connected' : 'not connected';
  const symbol = kind === 'empty' ? '○' : kind === 'bot' ? '⚙' : connected ? '●' : '◌';
  return h('li', {
    class: ['seat', `seat-${kind}`, s.seat === seat && 'mine'],
    dataset: { seat: s.seat, kind, connected: String(kind !== 'empty' && connected) },
  },
  h('span', { class: 'seat-symbol', 'aria-hidden': 'true' }, symbol),
  h('span', { class: 'seat-name' }, kind === 'empty' ? 'Waiting for a player' : name),
  s.seat === host && kind !== 'empty' ? h('span', { class: 'tag' }, 'host') : null,
  s.seat === seat ? h('span', { class: 'tag tag-you' }, 'you') : null,
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
  els.spectators.textContent = n ? `${n} watching${seat === null ? ' (you among them)' : ''}.` : '';
  els.hostControls.hidden = !(inLobby && isHost);
  const open = seats.filter((s) => s.kind === 'empty').length;
  const away = seats.filter((s) => s.kind === 'human' && !s.connected).map((s) => s.name || `seat ${s.seat + 1}`);
  if (inLobby && !isHost) {
    els.wait.hidden = false;
    const hostName = seats.find((s) => s.seat === info?.host)?.name || 'the host';
    els.wait.textContent = seat === null
      ? `You are watching. The game starts when ${hostName} starts it.`
      : `Waiting for ${hostName} to start the game${open ? ` (${open} seat${open === 1 ? '' : 's'} still open)` : ''}.`;
  } else if (inLobby && isHost) {
    els.wait.hidden = false;
    const awayText = away.length ? `Waiting for ${away.join(', ')} to come back (or a bot keeps the seat). ` : '';
    els.wait.textContent = awayText + (open
      ? `${open} seat${open === 1 ? '' : 's'} open: share the link, or start with bots.`
      : away.length ? 'Start with bots to play without them.' : 'Every seat is taken: you can start.');
  } else {
    els.wait.hidden = true;
  }
  els.share.hidden = phase === 'ended';
}
