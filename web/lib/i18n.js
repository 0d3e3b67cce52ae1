// SPDX-License-Identifier: MIT
// The page's language: English or Simplified Chinese (zh-CN). The English
// phrase is its own key, as a gettext msgid is: a phrase no table has is
// shown in English rather than not at all. The language comes from the
// browser's preferred languages until the reader picks one in the page;
// the pick is kept with the page's display options.
//
// t('Seat {n}', { n: 2 }) writes a phrase of the code (pieces() the same
// with nodes among its values); translateStatic()
// writes the phrases of index.html (its text and its aria-label, title,
// placeholder and alt attributes), skipping anything under translate="no".
// The page's phrases are in web/i18n/zh-CN.js; a board adds its own with
// addPhrases() when it loads.

import { zhCN } from '../i18n/zh-CN.js';
import { loadDisplay, saveDisplay } from './storage.js';

export const LANGS = [
  { id: 'en', name: 'English' },
  { id: 'zh-CN', name: '简体中文' },
];
const CATALOGUES = { 'zh-CN': { ...zhCN } };
const ATTRS = ['aria-label', 'title', 'placeholder', 'alt'];

let current = 'en';
const listeners = new Set();
let statics = null; // [{ node, attr|null, en }] of index.html, taken once

// The language for a list of BCP 47 tags, most preferred first: any
// Chinese reads Simplified Chinese (the only Chinese the page has),
// English or anything else English.
export function detect(tags) {
  for (const tag of tags || []) {
    const low = String(tag).toLowerCase();
    if (low === 'zh' || low.startsWith('zh-')) return 'zh-CN';
    if (low === 'en' || low.startsWith('en-')) return 'en';
  }
  return 'en';
}

export function lang() {
  return current;
}

export function t(msgid, params) {
  const cat = CATALOGUES[current];
  const text = (cat && Object.prototype.hasOwnProperty.call(cat, msgid) && cat[msgid]) || msgid;
  return params ? fill(text, params) : text;
}

// 'Seat {n}' with { n: 2 } -> 'Seat 2'; a name without a value stays.
export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A phrase of t() as pieces for h(): each {name} replaced by its value as
// it is, so that a value may be a node (a player's name or a room code in a
// translate="no" element, dom.js userText()):
// pieces(t('{who} took seat {n}.'), { who: userText(name), n: 2 }).
export function pieces(text, params) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!(m[1] in params)) continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    const v = params[m[1]];
    out.push(v !== null && typeof v === 'object' ? v : String(v));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// Adds a module's phrases for `l` (a board's, when it loads).
export function addPhrases(l, table) {
  if (CATALOGUES[l]) Object.assign(CATALOGUES[l], table);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Takes the language at page load: the reader's pick, else the browser's.
export function initLang(root = document.body) {
  const pick = loadDisplay().lang;
  const l = LANGS.some((x) => x.id === pick) ? pick : detect(navigator.languages || [navigator.language]);
  statics = collect(root);
  apply(l);
}

// Switches the page to `l` and keeps the pick. Listeners redraw what the
// code wrote.
export function setLang(l) {
  if (!LANGS.some((x) => x.id === l)) return;
  saveDisplay({ ...loadDisplay(), lang: l });
  apply(l);
  for (const fn of listeners) fn(l);
}

function apply(l) {
  const before = current;
  current = l;
  if (typeof document === 'undefined') return; // the unit checks, in Node
  document.documentElement.lang = l;
  if (statics) translateStatic(before);
}

// Under translate="no", or a key's name (<kbd>), the same in every language.
function untranslated(el) {
  return el.closest && el.closest('[translate="no"], kbd');
}

// A text's words with its runs of white space as one space.
function words(text) {
  return text.replace(/\s+/g, ' ').trim();
}

// The index.html phrases that have a translation, as they are at load.
function collect(root) {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.currentNode; n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) {
      const en = words(n.nodeValue);
      if (en && zhCN[en] && !untranslated(n.parentElement)) found.push({ node: n, attr: null, en, raw: n.nodeValue });
    } else if (!untranslated(n)) {
      for (const attr of ATTRS) {
        const en = n.getAttribute(attr);
        if (en && zhCN[en]) found.push({ node: n, attr, en, raw: en });
      }
    }
  }
  return found;
}

// Rewrites each phrase of index.html the code has not replaced since: in
// English as index.html has it, in another language with the white space
// it had around it.
function translateStatic(before) {
  for (const s of statics) {
    const was = before === 'en' ? s.en : (CATALOGUES[before] || {})[s.en] || s.en;
    if (s.attr) {
      if (s.node.getAttribute(s.attr) === was) s.node.setAttribute(s.attr, t(s.en));
    } else if (words(s.node.nodeValue) === was) {
      const lead = /^\s/.test(s.raw) ? ' ' : '';
      const trail = /\s$/.test(s.raw) ? ' ' : '';
      s.node.nodeValue = current === 'en' ? s.raw : lead + t(s.en) + trail;
    }
  }
}
