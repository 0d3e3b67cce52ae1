// SPDX-License-Identifier: MIT
// The view hash the server sends with every `state` and `diff`
// (PROTOCOL.md section 5): BLAKE2b-256 of the view serialised canonically,
// i.e. object keys sorted by their UTF-8 bytes, no whitespace, strings as
// raw UTF-8 with only `"` and `\` escaped, integers only. A held view whose
// hash differs has gone out of step, and the app asks for a fresh one.

import { blake2bHex } from './blake2b.js';

// Code point order is UTF-8 byte order; JavaScript's default sort compares
// UTF-16 units, which puts U+E000..U+FFFF after the astral planes.
export function compareUtf8(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i);
    const y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++; // both took a surrogate pair
  }
  return a.length - b.length;
}

export function canonicalJson(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isInteger(value)) throw new TypeError('views hold integers only');
      return String(value);
    case 'string':
      return '"' + value.replace(/["\\]/g, '\\$&') + '"';
    case 'object':
      if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
      return (
        '{' +
        Object.keys(value)
          .sort(compareUtf8)
          .map((k) => canonicalJson(k) + ':' + canonicalJson(value[k]))
          .join(',') +
        '}'
      );
    default:
      throw new TypeError(`cannot serialise a ${typeof value}`);
  }
}

const encoder = new TextEncoder();

export function viewHash(view) {
  return blake2bHex(encoder.encode(canonicalJson(view)), 32);
}
