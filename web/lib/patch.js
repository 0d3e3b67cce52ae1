// SPDX-License-Identifier: MIT
// RFC 6902 JSON Patch and RFC 6901 JSON Pointer, applied exactly.
//
// applyPatch() never touches the document it is given: it works on a deep
// copy and returns that copy, so a patch that fails half way leaves the
// caller's view as it was (RFC 6902 section 5: a patch applies whole or not
// at all). A failure throws PatchError; the app then asks the server for a
// fresh view.

export class PatchError extends Error {}

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// "/a~1b/~0c" -> ["a/b", "~c"]; "" -> [] (the whole document).
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new PatchError('a path must be a string');
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new PatchError(`bad JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new PatchError(`bad escape in "${pointer}"`);
      // ~1 first, then ~0, so "~01" reads as "~1" and not as "/".
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

// An array index token: "0" or digits without a leading zero. `-` (past
// the end) only where `allowEnd` (an add).
function arrayIndex(arr, token, allowEnd) {
  if (token === '-' && allowEnd) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index "${token}"`);
  const i = Number(token);
  if (i > arr.length || (!allowEnd && i === arr.length)) {
    throw new PatchError(`array index ${i} out of range (length ${arr.length})`);
  }
  return i;
}

// Sets own property `key`, also when it is "__proto__" (plain assignment
// would change the object's prototype instead).
function setMember(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

// The container holding the last token of `tokens`.
function parentOf(doc, tokens) {
  let node = doc;
  for (let k = 0; k < tokens.length - 1; k++) node = child(node, tokens[k]);
  if (node === null || typeof node !== 'object') throw new PatchError('the parent is not a container');
  return node;
}

function child(node, token) {
  if (Array.isArray(node)) return node[arrayIndex(node, token, false)];
  if (isObject(node) && hasOwn(node, token)) return node[token];
  throw new PatchError(`no member "${token}"`);
}

export function getPointer(doc, pointer) {
  let node = doc;
  for (const token of parsePointer(pointer)) node = child(node, token);
  return node;
}

export function deepClone(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(deepClone);
  const out = {};
  for (const k of Object.keys(v)) setMember(out, k, deepClone(v[k]));
  return out;
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// Each operation takes the document and returns it (the root may change).

function opAdd(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else setMember(parent, last, value);
  return doc;
}

function opRemove(doc, tokens) {
  if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(parent, last, false), 1);
  } else {
    if (!hasOwn(parent, last)) throw new PatchError(`no member "${last}" to remove`);
    delete parent[last];
  }
  return doc;
}

function opReplace(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    parent[arrayIndex(parent, last, false)] = value;
  } else {
    if (!hasOwn(parent, last)) throw new PatchError(`no member "${last}" to replace`);
    setMember(parent, last, value);
  }
  return doc;
}

function valueAt(doc, tokens) {
  let node = doc;
  for (const t of tokens) node = child(node, t);
  return node;
}

function applyOne(doc, op) {
  if (!isObject(op) || typeof op.op !== 'string') throw new PatchError('an operation must be an object with "op"');
  const tokens = parsePointer(op.path);
  const needValue = () => {
    if (!hasOwn(op, 'value')) throw new PatchError(`"${op.op}" needs a value`);
    return deepClone(op.value);
  };
  switch (op.op) {
    case 'add':
      return opAdd(doc, tokens, needValue());
    case 'remove':
      return opRemove(doc, tokens);
    case 'replace':
      return opReplace(doc, tokens, needValue());
    case 'move': {
      const from = parsePointer(op.from);
      const isPrefix = from.length < tokens.length && from.every((t, i) => t === tokens[i]);
      if (isPrefix) throw new PatchError('cannot move a value into itself');
      const value = valueAt(doc, from);
      return opAdd(opRemove(doc, from), tokens, value);
    }
    case 'copy':
      return opAdd(doc, tokens, deepClone(valueAt(doc, parsePointer(op.from))));
    case 'test':
      if (!deepEqual(valueAt(doc, tokens), op.value)) throw new PatchError(`test failed at "${op.path}"`);
      return doc;
    default:
      throw new PatchError(`unknown patch operation "${op.op}"`);
  }
}

// Returns the patched copy of `doc`; throws PatchError if any operation
// fails (then nothing is changed).
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new PatchError('a patch must be an array');
  let out = deepClone(doc);
  for (const op of patch) out = applyOne(out, op);
  return out;
}
