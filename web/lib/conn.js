// SPDX-License-Identifier: MIT
// The WebSocket to conclaved (subprotocol conclave.v1, one JSON message per
// text frame), with request/reply matching by id, a keep-alive ping and
// reconnection with backoff.
//
// The connection knows nothing of rooms: after every (re)connect it calls
// `onOpen`, which says hello and resumes the seat; events go to `onEvent`.

import { t } from './i18n.js';

const PROTOCOL = 'conclave.v1';
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 15000;
const CONNECT_TIMEOUT_MS = 10000;

export function defaultUrl() {
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
}

export class Connection {
  // handlers: onOpen() (may return a promise; the connection counts as up
  // once it settles), onEvent(msg), onStatus('open'|'reconnecting'|'closed')
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> resolve
    this.attempt = 0;
    this.stopped = false;
    this.status = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastSent = 0;
    this.pingEveryMs = 30000;
    this.wasOpen = false; // the last socket got as far as onOpen
    addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.retryNow();
    });
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  // The hello reply's idle_timeout (seconds): ping at a quarter of it.
  setIdleTimeout(seconds) {
    if (Number.isInteger(seconds) && seconds > 0) this.pingEveryMs = Math.min(30000, (seconds * 1000) / 4);
  }

  connect() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.setStatus('reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.url, PROTOCOL);
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    const giveUp = setTimeout(() => ws.close(), CONNECT_TIMEOUT_MS);
    ws.onopen = async () => {
      clearTimeout(giveUp);
      this.lastSent = Date.now();
      this.startPing();
      try {
        await this.handlers.onOpen?.();
      } catch (e) {
        console.error('conclave: setting up the session failed', e);
      }
      if (this.ws === ws && ws.readyState === WebSocket.OPEN) {
        this.attempt = 0;
        this.wasOpen = true;
        this.setStatus('open');
      }
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      clearTimeout(giveUp);
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      this.failPending();
      if (this.stopped) this.setStatus('closed');
      else this.scheduleRetry();
    };
    ws.onerror = () => {}; // onclose follows and does the work
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      console.warn('conclave: a frame that is not JSON', text);
      return;
    }
    if (msg === null || typeof msg !== 'object') return;
    if (msg.re !== undefined && this.pending.has(msg.re)) {
      const resolve = this.pending.get(msg.re);
      this.pending.delete(msg.re);
      resolve(msg);
      return;
    }
    if (typeof msg.ev === 'string') this.handlers.onEvent?.(msg);
    // A reply without an id we know (e.g. a rate refusal of an unparsed
    // long line) is passed on as an event-like error for the page to show.
    else if (msg.ok === false) this.handlers.onEvent?.({ ev: 'error', error: msg.error });
  }

  // Sends {op, ...args} and resolves with the reply, ok or not. Never
  // rejects: when the socket is down or drops before the reply, resolves
  // with {ok:false, error:{code:'disconnected', ...}}.
  request(op, args = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve(disconnected());
    }
    const id = this.nextId++;
    const msg = { id, op, ...args };
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      try {
        ws.send(JSON.stringify(msg));
        this.lastSent = Date.now();
      } catch {
        this.pending.delete(id);
        resolve(disconnected());
      }
    });
  }

  failPending() {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const resolve of waiting) resolve(disconnected());
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastSent >= this.pingEveryMs) this.request('ping');
    }, 1000);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  scheduleRetry() {
    if (this.stopped || this.retryTimer) return;
    this.setStatus('reconnecting');
    // The first retry after a working connection goes at once; then the
    // wait doubles up to a ceiling, with jitter so that a restarted server
    // is not hit by every page in the same instant.
    const base = this.wasOpen && this.attempt === 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    const delay = base * (0.5 + Math.random() / 2);
    this.attempt++;
    this.wasOpen = false;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  // Skips the rest of a backoff wait (the network came back, the tab was
  // shown again, the user pressed "reconnect").
  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  // Closes for good (another window took the seat, or the server speaks
  // another protocol version): no more retries until resume() is called.
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.ws) this.ws.close();
    else this.setStatus('closed');
  }

  resume() {
    this.stopped = false;
    this.attempt = 0;
    this.connect();
  }

  // Drops the socket as a network failure would (used by the
  // "reconnect" button when a connection seems stuck).
  drop() {
    if (this.ws) this.ws.close();
  }
}

function disconnected() {
  return { ok: false, error: { code: 'disconnected', message: t('not connected to the server') } };
}
