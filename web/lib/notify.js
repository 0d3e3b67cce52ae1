// SPDX-License-Identifier: MIT
// Notices of a seat's turn away from the page: Web Push to this browser
// (through web/sw.js) and a webhook the server POSTs to. The server keeps
// both per seat (`op: notify`); this module only words its answers, checks
// what the player typed, and runs the browser's side of a push
// subscription. Nothing here touches the document or a global at import:
// the browser's objects come in as `win`, so that Node can check it all.

import { t } from './i18n.js';

// The hello reply's `notify.push` is the server's VAPID public key: an
// uncompressed P-256 point, 65 bytes starting with 4.
const VAPID_KEY_BYTES = 65;
const WEBHOOK_MAX = 1024; // bytes, as the server takes (docs/protocol.md "Notices")
// How long the browser's push service may take to subscribe. Offline, or
// where the service is blocked, subscribe() may never settle: the player
// is told rather than left waiting.
const SUBSCRIBE_MS = 30000;

// True when `win` can subscribe to push at all: a secure context with
// service workers, the Push API and notifications.
export function pushSupported(win) {
  return Boolean(
    win &&
      win.isSecureContext === true &&
      win.navigator &&
      win.navigator.serviceWorker &&
      typeof win.PushManager === 'function' &&
      typeof win.Notification === 'function',
  );
}

// base64url (RFC 4648 §5; padding allowed, not needed) -> Uint8Array.
// Throws a TypeError on anything else.
export function keyBytes(text) {
  const s = String(text ?? '').replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) {
    throw new TypeError('not base64url');
  }
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (const c of s) {
    acc = (acc << 6) | alphabet.indexOf(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  // The bits left over are padding and must be zero (one spelling per key).
  if (acc & ((1 << bits) - 1)) throw new TypeError('not base64url');
  return out;
}

// The server's key as subscribe() wants it, or null if it is no P-256 point.
export function vapidKey(text) {
  try {
    const bytes = keyBytes(text);
    return bytes.length === VAPID_KEY_BYTES && bytes[0] === 4 ? bytes : null;
  } catch {
    return null;
  }
}

// The line the box shows for a `notify` reply's `notify` member:
// {webhook: "https://..." or null, push: N}.
export function noticeSummary(n) {
  const webhook = typeof n?.webhook === 'string' && n.webhook ? n.webhook : null;
  const push = Number.isInteger(n?.push) && n.push > 0 ? n.push : 0;
  const browsers = push === 1 ? t('1 browser') : t('{n} browsers', { n: push });
  if (webhook && push) return t('Notices go to {webhook} and {browsers}', { webhook, browsers });
  if (webhook) return t('Notices go to {webhook}', { webhook });
  if (push) return t('Notices go to {browsers}', { browsers });
  return t('No notices');
}

// The typed webhook address: {url} when it is an http(s) address, else
// {error} in words. Whether the address is public is the server's call.
export function checkWebhook(text) {
  const s = String(text ?? '').trim();
  if (!s) return { error: t('Type the address the server should post to.') };
  if (new TextEncoder().encode(s).length > WEBHOOK_MAX) {
    return { error: t('That address is too long: the server takes at most {n} bytes.', { n: WEBHOOK_MAX }) };
  }
  let u;
  try {
    u = new URL(s);
  } catch {
    return { error: t('That is not a web address (it starts with https://).') };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { error: t('A webhook address starts with https://.') };
  }
  return { url: s };
}

// Registers the service worker (web/sw.js, for the whole page) and
// resolves with its registration once a worker is active.
export async function registerWorker(win) {
  // tests/meta/check_web_assets.py finds sw.js by this call's spelling.
  await win.navigator.serviceWorker.register('sw.js', { scope: './' });
  return win.navigator.serviceWorker.ready;
}

// At load: where notifications are already allowed, the worker is
// registered again so that a push finds it. Resolves with the
// registration, or null when there is nothing to do or it failed.
export async function registerIfGranted(win) {
  if (!pushSupported(win) || win.Notification.permission !== 'granted') return null;
  try {
    return await registerWorker(win);
  } catch {
    return null;
  }
}

function sameKey(a, b) {
  if (!a || !b) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

// Resolves or rejects as `promise` does, or rejects with `message` after ms.
function deadline(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function why(e) {
  return String(e?.message || e?.name || e || t('unknown error'));
}

// "Notify me when it is my turn": asks for permission (only when the
// browser has not been asked yet), registers the worker, subscribes this
// browser with the server's key (reusing a subscription made with that
// key) and sends it to the seat with `request('notify', {push})`.
// `request` resolves with the server's reply and never rejects (as
// Connection.request). Resolves with {ok: true, notify} (the reply's) or
// {ok: false, message} saying what failed; never rejects. `timeoutMs`:
// how long the worker and the push service may take.
export async function subscribePush(win, key, request, { timeoutMs = SUBSCRIBE_MS } = {}) {
  if (!pushSupported(win)) {
    return { ok: false, message: t('This browser cannot receive push notices here. A webhook still works.') };
  }
  const serverKey = vapidKey(key);
  if (!serverKey) return { ok: false, message: t('The server offers push notices with a key this page cannot read.') };
  let permission = win.Notification.permission;
  if (permission === 'default') {
    try {
      permission = await win.Notification.requestPermission();
    } catch (e) {
      return { ok: false, message: t('The browser did not ask about notifications: {why}.', { why: why(e) }) };
    }
  }
  if (permission !== 'granted') {
    return {
      ok: false,
      message: permission === 'denied'
        ? t('Notifications are blocked for this site: allow them in the browser’s site settings, then try again.')
        : t('Notifications were not allowed, so no notice can be shown.'),
    };
  }
  let sub;
  try {
    sub = await deadline((async () => {
      const reg = await registerWorker(win);
      let old = await reg.pushManager.getSubscription();
      if (old && !sameKey(old.options?.applicationServerKey, serverKey)) {
        // Made for another key (the server's was changed): it cannot be reused.
        await old.unsubscribe();
        old = null;
      }
      return old || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
    })(), timeoutMs, t('no answer from the push service in {s} s', { s: Math.round(timeoutMs / 1000) }));
  } catch (e) {
    return {
      ok: false,
      message: t('This browser could not subscribe to push notices ({why}). Its push service may be out of reach; a webhook still works.',
        { why: why(e) }),
    };
  }
  const reply = await request('notify', { push: sub.toJSON() });
  if (!reply?.ok) return { ok: false, message: replyError(reply) };
  return { ok: true, notify: reply.notify };
}

// A refused `notify` in words.
export function replyError(reply) {
  const err = reply?.error;
  return t('The server refused: {why}', { why: err?.message || err?.code || t('no reason given') });
}
