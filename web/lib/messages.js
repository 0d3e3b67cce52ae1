// SPDX-License-Identifier: MIT
// A game's log in the reader's language. The view's `log` holds each line
// in English and `log_keys` the same line as a message, [key, arg, ...];
// lang/<game>.json holds each key's template per language, the words its
// arguments may be (terms) and the cards' names. A line whose message is
// missing or unknown is shown as the view has it.

const catalogues = new Map(); // game id -> Promise of the catalogue, or of null

export function loadCatalogue(game) {
  if (!/^[a-z0-9_-]+$/.test(game)) return Promise.resolve(null);
  if (!catalogues.has(game)) {
    catalogues.set(game, fetch(`lang/${game}.json`)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null));
  }
  return catalogues.get(game);
}

// English card name -> the card's entry, per catalogue.
const byName = new WeakMap();

function cardByName(cat, name) {
  if (!byName.has(cat)) {
    const m = new Map();
    for (const card of Object.values(cat.cards || {})) m.set(card.en, card);
    byName.set(cat, m);
  }
  return byName.get(cat).get(name);
}

// A term of the views, `value` of the catalogue's terms[type], in the
// reader's language where the catalogue has it, else `fallback`.
export function termText(cat, type, value, lang, fallback = value) {
  if (lang === 'en') return fallback;
  const v = cat?.terms?.[type]?.[value];
  return typeof v === 'string' && v ? v : fallback;
}

// An argument as the reader reads it: a card's or a term's name in the
// reader's language where the catalogue has it, else as it is.
function argument(cat, value, type, lang) {
  if (!type || lang === 'en') return value;
  if (type === 'card') return cardByName(cat, value)?.[lang] || value;
  return termText(cat, type, value, lang);
}

// One line: `msg` is the view's [key, arg, ...], `line` the English line.
export function messageText(cat, msg, line, lang) {
  if (!cat || lang === 'en' || !Array.isArray(msg) || msg.length === 0) return line;
  const tmpl = cat.messages?.[msg[0]]?.[lang];
  if (typeof tmpl !== 'string') return line;
  let missing = false;
  const text = tmpl.replace(/\{(\d+)(?::([a-z_]+))?\}/g, (m, i, type) => {
    const v = msg[Number(i) + 1];
    if (typeof v !== 'string') {
      missing = true;
      return m;
    }
    return argument(cat, v, type, lang);
  });
  return missing ? line : text;
}

// The view's log in the reader's language, line for line.
export function logText(cat, view, lang) {
  const lines = Array.isArray(view?.log) ? view.log.map(String) : [];
  const keys = Array.isArray(view?.log_keys) ? view.log_keys : [];
  return lines.map((line, i) => messageText(cat, keys[i], line, lang));
}

// A card's name by id in the reader's language, or `fallback`.
export function cardName(cat, id, lang, fallback) {
  const card = cat?.cards?.[id];
  return (card && card[lang]) || fallback;
}
