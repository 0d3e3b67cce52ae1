// SPDX-License-Identifier: MIT
// Words every board and panel shares: a count with its noun, and a seat's
// name. The page's English lives in each module's own tables; these are
// the ones several modules need, kept here once.

// "1 card", "3 cards"; `many` for a plural that is not `one` + "s".
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// What a seat is called when nobody has named it.
export function seatLabel(seat) {
  return `Seat ${Number(seat) + 1}`;
}

// Seat `seat`'s name: the page's names (the room's, ctx.names), else the
// view's seat list (by its `seat` member, else by place), else "Seat N".
export function seatName(view, seat, names) {
  if (names && typeof names[seat] === 'string' && names[seat]) return names[seat];
  const seats = view && Array.isArray(view.seats) ? view.seats : [];
  const s = seats.find((x) => x && x.seat === seat) || seats[seat];
  return s && typeof s.name === 'string' && s.name ? s.name : seatLabel(seat);
}
