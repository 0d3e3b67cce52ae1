// SPDX-License-Identifier: MIT
// Turn clocks on the page: the view's "clock" (each seat's time when the
// server last charged the clocks) and how long ago that was give each
// seat's time now, ticked locally between diffs without asking the server.

import { t } from './i18n.js';
import { seatLabel } from './words.js';

// "1:02:03", "4:05", "0:09", or "2d 03:04:05" for ms (rounded down).
export function clockText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n) => String(n).padStart(2, '0');
  if (s >= 86400) {
    const time = `${two(Math.floor(s / 3600) % 24)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
    return t('{days}d {time}', { days: Math.floor(s / 86400), time });
  }
  if (s >= 3600) return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

// Each seat's clock `since` ms after the view's times were taken:
// [{ name, left, free, running, flag, text }]; [] without a clock. A
// running clock spends its turn's free time (a time bank's) first.
export function clockSeats(view, names, since) {
  const clock = view && view.clock;
  if (!clock || !Array.isArray(clock.seats)) return [];
  return clock.seats.map((s, i) => {
    let left = s.left;
    let free = s.free || 0;
    if (s.running) {
      const fromFree = Math.min(since, free);
      free -= fromFree;
      left = Math.max(0, left - (since - fromFree));
    }
    const text = s.flag ? t('out of time') : clockText(left) + (s.running && free > 0 ? ` (+${clockText(free)})` : '');
    return { name: names[i] || seatLabel(i), left, free, running: Boolean(s.running), flag: Boolean(s.flag), text };
  });
}

// Whether any clock of the view runs (the page ticks only then).
export function clocksRun(view) {
  return Boolean(view && view.clock && Array.isArray(view.clock.seats) && view.clock.seats.some((s) => s.running));
}

// What a seat's time running out does in this room (the clock's "timeout").
export function policyText(view) {
  const policy = view && view.clock && view.clock.timeout;
  if (policy === 'lose') return t('Out of time, a seat loses.');
  if (policy === 'skip') return t('Out of time, a seat\'s turn is skipped.');
  return t('Out of time, a bot plays the seat of a player who is away.');
}
