// SPDX-License-Identifier: MIT
// "My games": every seat this browser keeps (storage.js), each room looked
// at from outside, as a spectator (no token leaves the page), to say whose
// turn it is there. The count of rooms where it is ours goes into the
// title and the favicon, so that a tab in the background still says it.

import { Connection } from './conn.js';
import { applyPatch } from './patch.js';

// What a look at one room has seen so far.
class Look {
  constructor(url, room, seat, name, onChange) {
    this.room = room;
    this.seat = seat;
    this.state = 'connecting'; // 'your turn', 'waiting', 'in the lobby', 'over', 'gone'
    this.game = '';
    this.view = null;
    this.rev = 0;
    this.conn = new Connection(url, {
      onOpen: async () => {
        const hello = await this.conn.request('hello', { proto: 1, name });
        if (!hello.ok) return;
        const r = await this.conn.request('spectate', { room });
        if (!r.ok) {
          this.state = r.error?.code === 'room_not_found' ? 'gone' : 'connecting';
          if (this.state === 'gone') this.conn.stop();
          onChange();
        }
      },
      onEvent: (m) => {
        if (m.room !== room) return;
        if (m.ev === 'room') {
          this.game = m.game || this.game;
          if (m.status === 'lobby') this.state = 'in the lobby';
          if (m.status === 'ended') this.state = 'over';
        } else if (m.ev === 'state' && m.view) {
          this.view = m.view;
          this.rev = m.rev;
        } else if (m.ev === 'diff' && this.view && m.rev === this.rev + 1) {
          try {
            this.view = applyPatch(this.view, m.patch);
            this.rev = m.rev;
          } catch {
            this.conn.request('sync');
          }
        } else if (m.ev === 'ended') {
          this.state = 'over';
        } else {
          return;
        }
        this.judge();
        onChange();
      },
    });
    this.conn.connect();
  }

  judge() {
    if (!this.view || this.state === 'over' || this.state === 'gone') return;
    if (this.view.result) this.state = 'over';
    else this.state = (this.view.active || []).includes(this.seat) ? 'your turn' : 'waiting';
  }

  stop() {
    this.conn.stop();
  }
}

export class MyGames {
  // onChange(list): [{ room, seat, game, state }], newest first.
  constructor(url, onChange) {
    this.url = url;
    this.onChange = onChange;
    this.looks = new Map(); // room -> Look
    this.order = [];
  }

  // seats: [{ room, seat, game }] kept in this browser, newest first; the
  // room this page plays in is not looked at (the page has it).
  update(seats, current, name) {
    const want = seats.filter((s) => s.room !== current);
    for (const [room, look] of this.looks) {
      if (!want.some((s) => s.room === room)) {
        look.stop();
        this.looks.delete(room);
      }
    }
    for (const s of want) {
      if (!this.looks.has(s.room)) {
        const look = new Look(this.url, s.room, s.seat, name, () => this.changed());
        look.game = s.game || '';
        this.looks.set(s.room, look);
      }
    }
    this.order = want.map((s) => s.room);
    this.changed();
  }

  list() {
    return this.order.filter((r) => this.looks.has(r)).map((r) => {
      const l = this.looks.get(r);
      return { room: r, seat: l.seat, game: l.game, state: l.state };
    });
  }

  yourTurns() {
    return this.list().filter((g) => g.state === 'your turn').length;
  }

  changed() {
    this.onChange(this.list());
  }
}

// A favicon with `n` on it (nothing but the plain mark when 0), as an SVG
// data URL.
export function badgeIcon(n) {
  const mark = '<rect width="64" height="64" rx="14" fill="#3b5bdb"/><text x="32" y="44" font-size="36" text-anchor="middle" fill="#fff" font-family="sans-serif">C</text>';
  const badge = n > 0
    ? `<circle cx="46" cy="18" r="18" fill="#e03131"/><text x="46" y="26" font-size="${n > 9 ? 18 : 24}" text-anchor="middle" fill="#fff" font-family="sans-serif">${n > 99 ? '99' : n}</text>`
    : '';
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${mark}${badge}</svg>`)}`;
}
