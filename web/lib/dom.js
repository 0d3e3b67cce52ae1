// SPDX-License-Identifier: MIT
// Small DOM helpers. Text always goes in as text nodes (never innerHTML),
// so names, chat and server messages can never become markup; and no
// inline style attribute is ever written (the page's CSP forbids them).

// h('button', { class: 'action', dataset: { index: 3 }, onclick: f }, 'Cast')
// Attributes: `class`, `dataset` (object), `on<event>` (listener), boolean
// true -> empty attribute, false/null/undefined -> left out, anything else
// -> setAttribute. Children: strings, numbers, nodes, arrays, null.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'dataset') {
      for (const [dk, dv] of Object.entries(value)) el.dataset[dk] = String(dv);
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    } else if (key === 'value' && (tag === 'input' || tag === 'select' || tag === 'textarea')) {
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
