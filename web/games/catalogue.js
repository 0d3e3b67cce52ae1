// SPDX-License-Identifier: MIT
// catalogue.js - the words a board shares with its game's log: the
// cards' names and the terms of the views (phases, stones, essences,
// colours...) as the game's catalogue, lang/<game>.json, has them in the
// reader's language (lib/messages.js), so that the board and the log say
// the same word. A board takes the catalogue from its render context
// (ctx.catalogue); until it has drawn once it loads the catalogue itself,
// since describe() and status() may come first (the moves list, the
// review screen). In English the board's own words are kept as they are.

import { lang } from '../lib/i18n.js';
import { cardName, loadCatalogue, logText, termText } from '../lib/messages.js';

// The words of game `game`: { use(ctx), card(id, english), term(type,
// value, english), log(view), local() }.
export function gameWords(game) {
  let cat = null;
  if (typeof document !== 'undefined') {
    loadCatalogue(game).then((c) => {
      cat = cat || c;
    });
  }
  return {
    // Takes the catalogue of a render context, when it has one.
    use(ctx) {
      if (ctx && ctx.catalogue) cat = ctx.catalogue;
    },
    // A card's name by id: the catalogue's in the reader's language, else
    // `english` (the board's own name of the card).
    card(id, english) {
      return lang() === 'en' ? english : cardName(cat, id, lang(), english);
    },
    // A term of the views, `value` of the catalogue's terms[type]: in
    // the reader's language, else `english` (by default the value).
    term(type, value, english = value) {
      return termText(cat, type, value, lang(), english);
    },
    // The view's log lines in the reader's language (from their messages).
    log(view) {
      return logText(cat, view, lang());
    },
    // Whether the page is in a language other than English.
    local() {
      return lang() !== 'en';
    },
  };
}

// A text with "@{id}" for another card's name (the card texts' Chinese,
// web/games/*_texts.js), each filled in by `name(id)`.
export function fillCards(text, name) {
  return String(text).replace(/@\{([a-z0-9_]+)\}/g, (m, id) => name(id));
}
