// SPDX-License-Identifier: MIT
// The "new room" options form, built from the options schema the server
// sends in its hello reply, e.g.
//   {"variant": {"type":"enum","values":["standard","novice"],"default":"standard"},
//    "colours": {"type":"enum","values":[1,2,3,4],"default":4,"variant":"cooperative"},
//    "max_turns": {"type":"int","min":0,"max":10000,"default":100}}
// One control per option, named by the option's key. A schema member named
// after another option (here "colours" has "variant": "cooperative") makes
// the option apply only while that option has that value: it is hidden and
// left out of the request otherwise (the server refuses options that have
// no effect). At the end: the page's own display options (contrast).
// The schema's names and values are the server's English; the page
// writes those of the four games in the reader's language (serverWord()).

import { h, humanize } from './dom.js';
import { t } from './i18n.js';
import { loadDisplay, saveDisplay } from './storage.js';

const SCHEMA_WORDS = new Set(['type', 'values', 'default', 'min', 'max', 'label', 'description']);

function conditions(key, spec, schema) {
  return Object.entries(spec).filter(([k]) => !SCHEMA_WORDS.has(k) && k !== key && k in schema);
}

// The words of the games' options as the page writes them from the
// server's ("merlinian_seat" -> "Merlinian seat"), in the reader's
// language; a word the page does not know stays as it is.
function serverWord(english) {
  switch (english) {
    case 'Variant': return t('Variant');
    case 'Standard': return t('Standard');
    case 'Novice': return t('Novice');
    case 'Cooperative': return t('Cooperative');
    case 'Colours': return t('Colours');
    case 'Merlinian seat': return t('Merlinian seat');
    case 'Random': return t('Random');
    case 'Max turns': return t('Max turns');
    case 'Silver': return t('Silver');
    case 'None': return t('None');
    case 'Lightning': return t('Lightning');
    case 'Wood': return t('Wood');
    case 'Metal': return t('Metal');
    case 'Duel': return t('Duel');
    case 'Setup': return t('Setup');
    case 'First game': return t('First game');
    case 'Draft': return t('Draft');
    default: return english;
  }
}

// An option's name (its schema's label, else its key) in words.
export function optionLabel(key, spec = {}) {
  return serverWord(spec.label || humanize(key));
}

// An option's value in words.
export function optionValue(v) {
  if (v === true) return t('yes');
  if (v === false) return t('no');
  return serverWord(humanize(String(v)));
}

function control(key, spec) {
  const id = `opt-${key}`;
  const label = optionLabel(key, spec);
  if (spec.type === 'enum' && Array.isArray(spec.values)) {
    const values = spec.values;
    const isBool = values.length === 2 && values.includes(false) && values.includes(true);
    if (isBool) {
      return h('div', { class: 'field check', dataset: { option: key } },
        h('input', { type: 'checkbox', id, name: key, checked: spec.default === true }),
        h('label', { for: id }, label));
    }
    const select = h('select', { id, name: key },
      values.map((v, i) => h('option', { value: String(i), selected: v === spec.default }, optionValue(v))));
    return h('div', { class: 'field', dataset: { option: key } }, h('label', { for: id }, label), select);
  }
  if (spec.type === 'int') {
    const hint = Number.isInteger(spec.min) && Number.isInteger(spec.max) ? `${spec.min}–${spec.max}` : null;
    return h('div', { class: 'field', dataset: { option: key } },
      h('label', { for: id }, label, hint ? h('span', { class: 'hint' }, ` (${hint})`) : null),
      h('input', { type: 'number', id, name: key, step: 1, min: spec.min, max: spec.max,
                   value: spec.default !== undefined ? String(spec.default) : '', inputmode: 'numeric' }));
  }
  if (spec.type === 'bool') {
    return h('div', { class: 'field check', dataset: { option: key } },
      h('input', { type: 'checkbox', id, name: key, checked: spec.default === true }),
      h('label', { for: id }, label));
  }
  // A kind of option this page does not know: a text field, sent as typed.
  return h('div', { class: 'field', dataset: { option: key } },
    h('label', { for: id }, label),
    h('input', { type: 'text', id, name: key, value: spec.default !== undefined ? String(spec.default) : '' }));
}

// The typed value of option `key` as the form holds it now.
function currentValue(form, key, spec) {
  const el = form.elements.namedItem(key);
  if (!el) return spec.default;
  if (el.type === 'checkbox') return el.checked;
  if (spec.type === 'enum' && Array.isArray(spec.values)) return spec.values[Number(el.value)];
  if (spec.type === 'int') return el.value.trim() === '' ? spec.default : Number(el.value);
  return el.value;
}

function isActive(form, key, spec, schema) {
  return conditions(key, spec, schema).every(([other, want]) =>
    currentValue(form, other, schema[other]) === want);
}

// Hides the controls whose condition does not hold.
function refresh(form, schema) {
  for (const [key, spec] of Object.entries(schema)) {
    const wrap = form.querySelector(`[data-option="${CSS.escape(key)}"]`);
    if (!wrap) continue;
    const active = isActive(form, key, spec, schema);
    wrap.hidden = !active;
    for (const input of wrap.querySelectorAll('input, select')) input.disabled = !active;
  }
}

// Fills `fieldset` (the #options element, inside a form) for `schema`.
// `keep`: write the controls again (in another language) with the values
// they hold now.
export function buildOptions(fieldset, schema, keep = false) {
  const held = keep ? heldValues(fieldset) : null;
  for (const el of Array.from(fieldset.children)) if (el.tagName !== 'LEGEND') el.remove();
  const entries = Object.entries(schema || {});
  fieldset.hidden = entries.length === 0;
  for (const [key, spec] of entries) fieldset.appendChild(control(key, spec || {}));
  const form = fieldset.form || fieldset.closest('form');
  if (held) {
    for (const [name, v] of held) {
      const el = form.elements.namedItem(name);
      if (!el) continue;
      if (el.type === 'checkbox') el.checked = v;
      else el.value = v;
    }
  }
  fieldset.onchange = () => refresh(form, schema);
  refresh(form, schema);
}

// Each control's state as the form holds it: [[name, value or checked]].
function heldValues(fieldset) {
  return Array.from(fieldset.querySelectorAll('input, select'))
    .map((el) => [el.name, el.type === 'checkbox' ? el.checked : el.value]);
}

// The options object for `create`: every option that applies, typed as
// the schema's values are. Returns { options } or { error } for a number
// out of range (checked here so the message can name the field).
export function readOptions(fieldset, schema) {
  const form = fieldset.form || fieldset.closest('form');
  const options = {};
  for (const [key, spec] of Object.entries(schema || {})) {
    if (!isActive(form, key, spec, schema)) continue;
    const value = currentValue(form, key, spec);
    if (spec.type === 'int') {
      const option = optionLabel(key, spec);
      if (!Number.isInteger(value)) return { error: t('{option} must be a whole number', { option }) };
      if ((Number.isInteger(spec.min) && value < spec.min) || (Number.isInteger(spec.max) && value > spec.max)) {
        return { error: t('{option} must be between {min} and {max}', { option, min: spec.min, max: spec.max }) };
      }
    }
    options[key] = value;
  }
  return { options };
}

// ---- The page's display options ----

// The contrast control (#contrast): "auto" follows the system's
// prefers-contrast, "more" and "normal" hold whatever it says. The choice
// is kept in this browser; the theme is <html data-contrast="more">
// (style.css), set again whenever the system's setting changes.
export const CONTRASTS = ['auto', 'more', 'normal'];

export function contrastOf(choice, systemMore) {
  if (choice === 'more' || choice === 'normal') return choice;
  return systemMore ? 'more' : 'normal';
}

export function initDisplay(select, root, media = window.matchMedia('(prefers-contrast: more)')) {
  const saved = loadDisplay().contrast;
  select.value = CONTRASTS.includes(saved) ? saved : 'auto';
  const apply = () => {
    root.dataset.contrast = contrastOf(select.value, media.matches);
  };
  select.addEventListener('change', () => {
    saveDisplay({ ...loadDisplay(), contrast: select.value });
    apply();
  });
  media.addEventListener('change', apply);
  apply();
}
