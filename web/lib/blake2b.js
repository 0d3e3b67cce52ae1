// SPDX-License-Identifier: MIT
// BLAKE2b (RFC 7693), unkeyed, any digest length 1..64: what libsodium's
// crypto_generichash computes. The server hashes every view it sends and
// commits to the game's seed with it, so the page needs it to notice a
// view that went out of step and to check the seed at the end.
//
// 64-bit words are held as pairs of 32-bit halves (low, high) in a
// Uint32Array, since JavaScript numbers hold only 53 bits exactly.

const IV = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
];

const v = new Uint32Array(32); // working vector: 16 words
const m = new Uint32Array(32); // message block: 16 words

// v[a] += v[b] (64-bit; a, b index the low halves).
function add(a, b) {
  const lo = v[a] + v[b];
  v[a + 1] = v[a + 1] + v[b + 1] + (lo >= 0x100000000 ? 1 : 0);
  v[a] = lo;
}

// v[a] += m[i] (64-bit).
function addMsg(a, i) {
  const lo = v[a] + m[i];
  v[a + 1] = v[a + 1] + m[i + 1] + (lo >= 0x100000000 ? 1 : 0);
  v[a] = lo;
}

// v[d] = rotr64(v[d] ^ v[a], n) for the four rotations BLAKE2b uses.
function xorRot(d, a, n) {
  const lo = v[d] ^ v[a];
  const hi = v[d + 1] ^ v[a + 1];
  if (n === 32) {
    v[d] = hi;
    v[d + 1] = lo;
  } else if (n < 32) {
    v[d] = (lo >>> n) | (hi << (32 - n));
    v[d + 1] = (hi >>> n) | (lo << (32 - n));
  } else {
    const k = n - 32; // 63 -> rotate the swapped halves by 31
    v[d] = (hi >>> k) | (lo << (32 - k));
    v[d + 1] = (lo >>> k) | (hi << (32 - k));
  }
}

// The mixing function G on words a, b, c, d with message words x, y.
function mix(a, b, c, d, x, y) {
  add(a, b);
  addMsg(a, x);
  xorRot(d, a, 32);
  add(c, d);
  xorRot(b, c, 24);
  add(a, b);
  addMsg(a, y);
  xorRot(d, a, 16);
  add(c, d);
  xorRot(b, c, 63);
}

function compress(ctx, last) {
  for (let i = 0; i < 16; i++) {
    v[i] = ctx.h[i];
    v[i + 16] = IV[i];
  }
  v[24] ^= ctx.t; // low 32 bits of the byte counter
  v[25] ^= ctx.t / 0x100000000; // its next 32 bits
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let i = 0; i < 32; i++) {
    const j = i * 4;
    m[i] = ctx.b[j] | (ctx.b[j + 1] << 8) | (ctx.b[j + 2] << 16) | (ctx.b[j + 3] << 24);
  }
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r];
    mix(0, 8, 16, 24, s[0] * 2, s[1] * 2);
    mix(2, 10, 18, 26, s[2] * 2, s[3] * 2);
    mix(4, 12, 20, 28, s[4] * 2, s[5] * 2);
    mix(6, 14, 22, 30, s[6] * 2, s[7] * 2);
    mix(0, 10, 20, 30, s[8] * 2, s[9] * 2);
    mix(2, 12, 22, 24, s[10] * 2, s[11] * 2);
    mix(4, 14, 16, 26, s[12] * 2, s[13] * 2);
    mix(6, 8, 18, 28, s[14] * 2, s[15] * 2);
  }
  for (let i = 0; i < 16; i++) ctx.h[i] ^= v[i] ^ v[i + 16];
}

// The BLAKE2b digest (outlen bytes, default 32) of `data` (Uint8Array).
export function blake2b(data, outlen = 32) {
  if (!(outlen >= 1 && outlen <= 64)) throw new RangeError('BLAKE2b digest length must be 1..64');
  const ctx = { h: new Uint32Array(IV), b: new Uint8Array(128), t: 0 };
  ctx.h[0] ^= 0x01010000 ^ outlen; // parameter block: fanout 1, depth 1, no key
  let c = 0;
  for (let i = 0; i < data.length; i++) {
    if (c === 128) {
      ctx.t += 128;
      compress(ctx, false);
      c = 0;
    }
    ctx.b[c++] = data[i];
  }
  ctx.t += c;
  ctx.b.fill(0, c);
  compress(ctx, true);
  const out = new Uint8Array(outlen);
  for (let i = 0; i < outlen; i++) out[i] = ctx.h[i >> 2] >>> (8 * (i & 3));
  return out;
}

export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

// Hex string -> bytes, or null if it is not an even run of hex digits.
export function fromHex(hex) {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function blake2bHex(data, outlen = 32) {
  return toHex(blake2b(data, outlen));
}
