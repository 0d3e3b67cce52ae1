// SPDX-License-Identifier: MIT
// Small DOM helpers. Text always goes in as text nodes (never innerHTML),
// so names, chat and server messages can never become markup; and no
// inline style attribute is ever written (the page's CSP forbids them).

// The one element helper of the page and its boards:
// h('button', { class: 'action', dataset: { index: 3 }, onclick: f }, 'Cast')
// Attributes: `class` (a string, or an array whose false members drop
// out), `dataset` (object), `on<event>` (listener), boolean true -> empty
// attribute, false/null/undefined -> left out, anything else ->
// setAttribute. Children: strings, numbers, nodes, arrays, null.
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

// The same for an SVG element: svg('circle', { cx: 5, cy: 5, r: 4 }).
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function isSvg(el) {
  return el.namespaceURI === SVG_NS;
}

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'dataset') {
      for (const [dk, dv] of Object.entries(value)) el.dataset[dk] = String(dv);
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      // setAttribute: an SVG element's className is not a string.
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'value' && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA')) {
      el.value = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// Words for screen readers only (class visually-hidden): what the eye
// reads from a colour, a place or a heading nearby.
export function srOnly(text) {
  return h('span', { class: 'visually-hidden' }, text);
}

// A player's words (a name, a room code, a chat line) in an element that
// a browser's page translator leaves as it is (translate="no").
export function userText(text, tag = 'span', attrs = {}) {
  return h(tag, { ...attrs, translate: 'no' }, String(text ?? ''));
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function $all(selector, root = document) {
  return Array.from(root.querySelectorAll(selector));
}

// Shows or hides with the `hidden` attribute (styled display:none).
export function show(el, visible) {
  el.hidden = !visible;
}

// A CSS attribute selector for [data-key="..."] whatever the key holds.
export function keySelector(key) {
  const esc = window.CSS && CSS.escape ? CSS.escape(key) : String(key).replace(/["\\]/g, '\\$&');
  return `[data-key="${esc}"]`;
}

// "merlinian_seat" -> "Merlinian seat"
export function humanize(word) {
  const s = String(word).replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
