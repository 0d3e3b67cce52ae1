// SPDX-License-Identifier: MIT
// The end screen: winners by name (from the server's `ended` result),
// the board's score rows, why it ended, and the fair-randomness check: the
// seed revealed at the end must hash (BLAKE2b-256) to the `seed_commit`
// every view showed from the start.

import { h, clear, humanize } from './dom.js';
import { blake2bHex, fromHex } from './blake2b.js';
import { seatLabel } from './words.js';

// { ok: true|false|null, text } ; ok null when there is nothing to check.
export function seedCheck(view, result) {
  const seed = result?.seed;
  const commit = view?.seed_commit;
  if (typeof seed !== 'string' || typeof commit !== 'string') {
    return { ok: null, text: 'No seed to check: the server did not reveal one.' };
  }
  const bytes = fromHex(seed);
  if (!bytes || bytes.length !== 32) return { ok: false, text: `The revealed seed "${seed}" is not 32 bytes of hex.` };
  const got = blake2bHex(bytes, 32);
  const short = (x) => `${x.slice(0, 12)}…`;
  if (got === commit.toLowerCase()) {
    return {
      ok: true,
      text: `Seed check passed: the seed revealed now (${short(seed)}) hashes to the commitment shown since the start (${short(commit)}), so every shuffle and draw was fixed before the first move.`,
    };
  }
  return {
    ok: false,
    text: `Seed check FAILED: the revealed seed hashes to ${short(got)}, not to the commitment ${short(commit)} shown at the start.`,
  };
}

// els: { winners, reason, tbody, seed }
export function renderEnd(els, { view, result, names, seat, board }) {
  const r = result || view?.result || {};
  const winners = Array.isArray(r.winners) ? r.winners : [];
  const who = (s) => `${names[s] || seatLabel(s)}${s === seat ? ' (you)' : ''}`;
  clear(els.winners);
  if (winners.length === 0) {
    els.winners.append(h('strong', {}, 'No winner'), ': nobody won this game.');
  } else {
    const youWon = seat !== null && winners.includes(seat);
    els.winners.append(
      winners.length > 1 ? 'Winners: ' : 'Winner: ',
      h('strong', {}, winners.map(who).join(', ')),
      youWon ? ' — you won!' : '');
  }
  els.reason.textContent = typeof r.reason === 'string' ? `Why it ended: ${humanize(r.reason).toLowerCase()}.` : '';

  clear(els.tbody);
  let rows = [];
  try {
    rows = view ? board.results(view, names) || [] : [];
  } catch {
    rows = [];
  }
  if (!rows.length && Array.isArray(r.scores)) rows = r.scores.map((score, s) => ({ seat: s, score, detail: '' }));
  for (const row of rows) {
    const won = winners.includes(row.seat);
    els.tbody.appendChild(h('tr', { class: won ? 'winner' : null },
      h('th', { scope: 'row' }, who(row.seat), won ? h('span', { class: 'tag-winner' }, ' ★ winner') : null),
      h('td', {}, row.score === undefined || row.score === null ? '—' : String(row.score)),
      h('td', {}, row.detail ? String(row.detail) : '')));
  }

  const check = seedCheck(view, r);
  els.seed.textContent = (check.ok === true ? '✓ ' : check.ok === false ? '✗ ' : '') + check.text;
  els.seed.dataset.ok = String(check.ok);
}

// Saves `record` as a JSON file through a temporary link.
export function downloadJson(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 1) + '\n'], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename, class: 'visually-hidden' }, filename);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
