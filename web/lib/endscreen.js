// SPDX-License-Identifier: MIT
// The end screen: winners by name (from the server's `ended` result),
// the board's score rows, why it ended, and the fair-randomness check: the
// seed revealed at the end must hash (BLAKE2b-256) to the `seed_commit`
// every view showed from the start.

import { h, clear, humanize, userText } from './dom.js';
import { blake2bHex, fromHex } from './blake2b.js';
import { lang, pieces, t } from './i18n.js';
import { seatLabel } from './words.js';

// { ok: true|false|null, text } ; ok null when there is nothing to check.
export function seedCheck(view, result) {
  const seed = result?.seed;
  const commit = view?.seed_commit;
  if (typeof seed !== 'string' || typeof commit !== 'string') {
    return { ok: null, text: t('No seed to check: the server did not reveal one.') };
  }
  const bytes = fromHex(seed);
  if (!bytes || bytes.length !== 32) return { ok: false, text: t('The revealed seed "{seed}" is not 32 bytes of hex.', { seed }) };
  const got = blake2bHex(bytes, 32);
  const short = (x) => `${x.slice(0, 12)}…`;
  if (got === commit.toLowerCase()) {
    return {
      ok: true,
      text: t('Seed check passed: the seed revealed now ({seed}) hashes to the commitment shown since the start ({commit}), so every shuffle and draw was fixed before the first move.',
        { seed: short(seed), commit: short(commit) }),
    };
  }
  return {
    ok: false,
    text: t('Seed check FAILED: the revealed seed hashes to {got}, not to the commitment {commit} shown at the start.',
      { got: short(got), commit: short(commit) }),
  };
}

// Why a game ended, from the result's `reason`: in the reader's language
// where the game's catalogue has the word (lang/<game>.json, terms.reason),
// else the server's word.
export function reasonWords(reason, catalogue, l = lang()) {
  if (l !== 'en' && typeof catalogue?.terms?.reason?.[reason] === 'string') return catalogue.terms.reason[reason];
  return humanize(reason).toLowerCase();
}

// els: { winners, reason, tbody, seed }; `catalogue`: the game's messages
// (lib/messages.js), or null.
export function renderEnd(els, { view, result, names, seat, board, catalogue = null }) {
  const r = result || view?.result || {};
  const winners = Array.isArray(r.winners) ? r.winners : [];
  const name = (s) => userText(names[s] || seatLabel(s));
  const who = (s) => (s === seat ? pieces(t('{name} (you)'), { name: name(s) }) : name(s));
  clear(els.winners);
  if (winners.length === 0) {
    els.winners.append(...pieces(t('{none}: nobody won this game.'), { none: h('strong', {}, t('No winner')) }));
  } else {
    const youWon = seat !== null && winners.includes(seat);
    const strong = h('strong', {}, winners.flatMap((s, i) => (i ? [t(', '), who(s)] : [who(s)])));
    const line = winners.length === 1 ? t('Winner: {names}') : t('Winners: {names}');
    els.winners.append(...pieces(youWon ? t('{line} — you won!', { line }) : line, { names: strong }));
  }
  els.reason.textContent = typeof r.reason === 'string' ? t('Why it ended: {reason}.', { reason: reasonWords(r.reason, catalogue) }) : '';

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
      h('th', { scope: 'row' }, who(row.seat), won ? h('span', { class: 'tag-winner' }, ' ★ ', t('winner')) : null),
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
