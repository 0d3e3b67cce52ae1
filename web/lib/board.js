// SPDX-License-Identifier: MIT
// Finds the board module of a game: games/<game>.js if it loads and has
// the four functions of the board interface, else games/generic.js. Also
// wraps each function so that a board that throws on some view does not
// take the page down: the generic board stands in for that call.

import * as generic from '../games/generic.js';

const cache = new Map(); // game id -> Promise of the wrapped module

function hasInterface(mod) {
  return mod && ['render', 'describe', 'status', 'results'].every((f) => typeof mod[f] === 'function');
}

// Adds games/<game>.css once; a game without a stylesheet costs one 404.
function addStylesheet(game) {
  const id = `game-css-${game}`;
  if (document.getElementById(id)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.id = id;
  link.href = `games/${game}.css`;
  link.onerror = () => link.remove();
  document.head.appendChild(link);
}

function guarded(mod, name) {
  const fn = mod[name];
  return (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      console.error(`conclave: the board's ${name}() failed; showing the generic board`, e);
      if (name === 'render') args[0].replaceChildren(); // start the stand-in on an empty root
      return generic[name](...args);
    }
  };
}

function wrap(mod, game, isGeneric) {
  return {
    game,
    isGeneric,
    render: guarded(mod, 'render'),
    describe: (a, view, seat) => {
      const d = guarded(mod, 'describe')(a, view, seat) || {};
      // Normalise what the app relies on.
      const g = generic.describe(a);
      return {
        group: typeof d.group === 'string' && d.group ? d.group : g.group,
        label: typeof d.label === 'string' && d.label ? d.label : g.label,
        keys: Array.isArray(d.keys) ? d.keys.map(String) : [],
      };
    },
    status: guarded(mod, 'status'),
    results: guarded(mod, 'results'),
  };
}

export function loadBoard(game) {
  if (!/^[a-z0-9_-]+$/.test(game)) return Promise.resolve(wrap(generic, game, true));
  if (!cache.has(game)) {
    cache.set(game, import(`../games/${game}.js`).then(
      (mod) => {
        if (!hasInterface(mod)) throw new Error(`games/${game}.js lacks the board interface`);
        addStylesheet(game);
        return wrap(mod, game, false);
      }).catch((e) => {
        console.info(`conclave: no board for ${game} (${e.message}); using the generic board`);
        return wrap(generic, game, true);
      }));
  }
  return cache.get(game);
}
