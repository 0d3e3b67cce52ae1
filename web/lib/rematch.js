// SPDX-License-Identifier: MIT
// The rematch box of the end screen: the Rematch button of a seated
// player, and once someone has offered one (the server's `rematch` event,
// PROTOCOL.md "After the game") who offered it, where each seat of the
// finished game sits in the new room and how it answered, with Join and
// Decline for a seat that has not answered. A spectator gets a link to
// watch the rematch. The answers shown are the server's, never guessed.

import { h, clear, userText } from './dom.js';
import { pieces, t } from './i18n.js';
import { seatLabel } from './words.js';

// A seat's answer in words.
function answerWords(answer) {
  switch (answer) {
    case 'yes': return t('joined');
    case 'no': return t('declined');
    case 'waiting': return t('has not answered');
    case 'bot': return t('a bot, plays again');
    default: return String(answer || '?');
  }
}

// One row per seat of the finished game: { seat, to, name, answer, words,
// mine }, in the finished game's seat order.
export function offerRows(offer, mySeat) {
  const seats = Array.isArray(offer?.seats) ? offer.seats : [];
  return seats.map((s) => ({
    seat: s.seat,
    to: s.to,
    name: s.name || seatLabel(s.seat),
    answer: s.answer,
    words: answerWords(s.answer),
    mine: mySeat !== null && mySeat !== undefined && s.seat === mySeat,
  }));
}

// This seat's answer to the offer: 'none' (no offer yet), or the answer
// the event gives ('yes', 'no', 'waiting', 'bot').
export function myAnswer(offer, mySeat) {
  if (!offer) return 'none';
  return offerRows(offer, mySeat).find((r) => r.mine)?.answer || 'none';
}

// A refusal of `rematch` in words.
export function rematchErrorText(error, offer) {
  const code = error?.code;
  const room = offer?.rematch;
  switch (code) {
    case 'game_not_over':
      return t('The game is not over yet: a rematch can be asked for once it ends.');
    case 'not_in_game':
    case 'not_in_room':
      return t('Only the players of this game can ask for a rematch or answer one; you can watch it.');
    case 'already_started':
      return room ? t('The rematch (room {room}) has already begun without you: you can watch it.', { room })
        : t('The rematch has already begun without you: you can watch it.');
    case 'room_full':
      return room ? t('Every seat of the rematch (room {room}) is taken.', { room }) : t('Every seat of the rematch is taken.');
    case 'bad_request':
      return t('Nobody has offered a rematch to decline.');
    case 'disconnected':
      return t('Not connected to the server: try again when the connection is back.');
    default:
      return t('The rematch could not be made: {why}.', { why: error?.message || code || t('something went wrong') });
  }
}

// els: { box, offer, seats, ask, join, decline, watch }
// state: { offer (the last `rematch` event or null), seat (null when
// watching), started (the server said the rematch has begun), busy }
export function renderRematch(els, { offer, seat, started, busy }) {
  const seated = seat !== null && seat !== undefined;
  const answer = myAnswer(offer, seat);
  els.ask.hidden = !seated || Boolean(offer);
  els.join.hidden = !seated || !offer || started || answer === 'yes' || answer === 'bot';
  els.decline.hidden = !seated || !offer || started || answer !== 'waiting';
  els.join.textContent = answer === 'no' ? t('Join the rematch after all') : t('Join rematch');
  for (const b of [els.ask, els.join, els.decline]) b.disabled = Boolean(busy);
  // A seat that joined holds the new room's seat: its link takes it back.
  const watchable = offer && (!seated || started);
  els.watch.hidden = !(watchable || answer === 'yes');
  if (offer) {
    els.watch.href = answer === 'yes' ? `#${offer.rematch}` : `#${offer.rematch}/watch`;
    els.watch.textContent = answer === 'yes' ? t('Go to the rematch (room {room})', { room: offer.rematch })
      : t('Watch the rematch (room {room})', { room: offer.rematch });
  }
  els.box.dataset.answer = answer;
  els.box.dataset.rematch = offer?.rematch || '';
  clear(els.seats);
  if (!offer) {
    els.offer.textContent = seated
      ? t('Play again? A rematch opens a new room for the same game, each seat moved round by one.')
      : '';
    return;
  }
  els.offer.replaceChildren(...pieces(t('{who} offers a rematch in room {room}, each seat moved round by one:'),
    { who: offer.by ? userText(offer.by) : t('A player'), room: userText(offer.rematch) }));
  for (const r of offerRows(offer, seat)) {
    els.seats.append(h('li', { class: ['rematch-seat', `answer-${r.answer}`], dataset: { seat: r.seat, to: r.to, answer: r.answer } },
      userText(r.name, 'span', { class: 'seat-name' }), r.mine ? h('span', { class: 'tag tag-you' }, t('you')) : null,
      ' ', t('seat {from} → seat {to}:', { from: Number(r.seat) + 1, to: Number(r.to) + 1 }), ' ',
      h('span', { class: 'rematch-answer' }, r.words)));
  }
}
