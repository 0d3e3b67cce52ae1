// SPDX-License-Identifier: MIT
// Words every board and panel shares: a count with its noun, and a seat's
// name, in the reader's language (lib/i18n.js). These are the ones several
// modules need, kept here once.

import { fill, t } from './i18n.js';

// A count with its noun, as one phrase: plural(n, t('{n} card'),
// t('{n} cards')) gives "1 card", "3 cards" in English and "3 张牌" in
// Chinese, which has no plural but a measure word English has not; so
// the phrases are whole, never a number glued to a noun. `one` and `many`
// are t() of a phrase with {n}, left unfilled. A bare English noun
// (plural(n, 'card'), `many` its plural, by default `one` + "s") is the
// older English-only form.
export function plural(n, one, many) {
  const form = n === 1 ? one : many ?? `${one}s`;
  return form.includes('{n}') ? fill(form, { n }) : `${n} ${form}`;
}

// What a seat is called when nobody has named it: "Seat 2".
export function seatLabel(seat) {
  return t('Seat {n}', { n: Number(seat) + 1 });
}

// Seat `seat`'s name: the page's names (the room's, ctx.names), else the
// view's seat list (by its `seat` member, else by place), else "Seat N".
export function seatName(view, seat, names) {
  if (names && typeof names[seat] === 'string' && names[seat]) return names[seat];
  const seats = view && Array.isArray(view.seats) ? view.seats : [];
  const s = seats.find((x) => x && x.seat === seat) || seats[seat];
  return s && typeof s.name === 'string' && s.name ? s.name : seatLabel(seat);
}
