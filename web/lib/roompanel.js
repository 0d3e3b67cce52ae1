// SPDX-License-Identifier: MIT
// The room panel: the code and its share link, one row per seat with who
// sits there and whether they are connected (in words and a symbol, not
// colour alone), the spectator count, and the host's start controls: for
// each open seat, the level of the bot that would take it.

import { h, clear } from './dom.js';

export function shareLink(room, watch = false) {
  return `${location.origin}${location.pathname}#${room}${watch ? '/watch' : ''}`;
}

// The level picker of an open seat: the server's levels, the host's pick
// kept in `chosen` (seat -> level) across redraws.
function defaultLevel(levels) {
  return levels.includes('normal') ? 'normal' : levels[levels.length - 1];
}

function levelPicker(s, levels, chosen) {
  const pick = chosen[s.seat] || defaultLevel(levels);
  chosen[s.seat] = pick;
  return h('select', {
    class: 'bot-level',
    'aria-label': `Bot level for seat ${s.seat + 1}`,
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
  picking && kind === 'empty' && levels.length ? levelPicker(s, levels, chosen) : null);
}

// The `bots` of a start: one level per open seat as picked, null for the
// seats taken.
export function startBots(info, levels, chosen) {
  return (info?.seats || []).map((s) => (s.kind === 'empty' ? chosen[s.seat] || defaultLevel(levels) : null));
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
  if (inLobby && !isHost) {
    els.wait.hidden = false;
    const hostName = seats.find((s) => s.seat === info?.host)?.name || 'the host';
    els.wait.textContent = seat === null
      ? `You are watching. The game starts when ${hostName} starts it.`
      : `Waiting for ${hostName} to start the game${open ? ` (${open} seat${open === 1 ? '' : 's'} still open)` : ''}.`;
  } else if (inLobby && isHost) {
    els.wait.hidden = false;
    els.wait.textContent = open
      ? `${open} seat${open === 1 ? '' : 's'} open: share the link, or start with bots.`
      : 'Every seat is taken: you can start.';
  } else {
    els.wait.hidden = true;
  }
  els.share.hidden = phase === 'ended';
}
