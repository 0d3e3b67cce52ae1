#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Unit checks of the page's pure modules, in Node (no browser, no server):
// web/lib/patch.js against the examples of RFC 6902 appendix A and the
// pointer rules of RFC 6901, web/lib/blake2b.js against RFC 7693's test
// vector, web/lib/viewhash.js's canonical form (key order by UTF-8 bytes,
// only `"` and `\` escaped), web/lib/notify.js's helpers and its push
// subscription steps against a stand-in browser, the review screen's
// checks and words (web/lib/review.js), the rematch box's (rematch.js),
// the lobby's "ended ... ago" and the bots a start asks for; the boards'
// shared words (lib/words.js), their words from the games' catalogues
// (games/catalogue.js) and the card texts' Chinese, which keys the legal
// actions touch (games/keys.js) and the contrast the display option sets; the page's
// words in English and in Simplified Chinese (lib/i18n.js and the helpers
// that write them).
//
// Usage: node tests/browser/unit.mjs   (one line per check; exit 1 on failure)

import { applyPatch, parsePointer, getPointer, PatchError, deepEqual } from '../../web/lib/patch.js';
import { blake2bHex } from '../../web/lib/blake2b.js';
import { canonicalJson, viewHash } from '../../web/lib/viewhash.js';
import { clockSeats, clockText, clocksRun, policyText } from '../../web/lib/clock.js';
import { eventLine } from '../../web/lib/log.js';
import { checkWebhook, keyBytes, noticeSummary, pushSupported, subscribePush, vapidKey } from '../../web/lib/notify.js';
import { readRecordText, reviewErrorText, reviewHashCheck, reviewNames, reviewSeedCheck, seatView, stepText } from '../../web/lib/review.js';
import { myAnswer, offerRows, rematchErrorText } from '../../web/lib/rematch.js';
import { agoText, gameTitle, playerRange } from '../../web/lib/lobby.js';
import { startBots } from '../../web/lib/roompanel.js';
import { addPhrases, detect, fill, lang, pieces, setLang, t } from '../../web/lib/i18n.js';
import { cardName, logText, messageText } from '../../web/lib/messages.js';
import { readFileSync } from 'node:fs';
import { plural, seatLabel, seatName } from '../../web/lib/words.js';
import { keyState } from '../../web/games/keys.js';
import { fillCards, gameWords } from '../../web/games/catalogue.js';
import { CARDS } from '../../web/games/arcana_texts.js';
import { SORC_CARDS } from '../../web/games/sorcerers_texts.js';
import { contrastOf, optionLabel, optionValue } from '../../web/lib/options.js';
import { reasonWords } from '../../web/lib/endscreen.js';

let failures = 0;

function check(cond, what, detail = '') {
  if (cond) {
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`FAIL - ${what}${detail ? `: ${detail}` : ''}`);
  }
}

function patched(doc, patch, want, what) {
  let got;
  try {
    got = applyPatch(doc, patch);
  } catch (e) {
    return check(false, what, `threw ${e.message}`);
  }
  check(deepEqual(got, want), what, JSON.stringify(got));
}

function refused(doc, patch, what) {
  const before = JSON.stringify(doc);
  let error = null;
  try {
    applyPatch(doc, patch);
  } catch (e) {
    error = e;
  }
  check(error instanceof PatchError && JSON.stringify(doc) === before, what,
    error ? `threw ${error}` : 'applied');
}

// ---- RFC 6902 appendix A ----

patched({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }, 'A.1 add an object member');
patched({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }, 'A.2 add an array element');
patched({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }, 'A.3 remove an object member');
patched({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }, 'A.4 remove an array element');
patched({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }, 'A.5 replace a value');
patched({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
  [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
  { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }, 'A.6 move a value');
patched({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
  { foo: ['all', 'cows', 'eat', 'grass'] }, 'A.7 move an array element');
patched({ baz: 'qux', foo: ['a', 2, 'c'] },
  [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }],
  { baz: 'qux', foo: ['a', 2, 'c'] }, 'A.8 test a value: success');
refused({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], 'A.9 test a value: error');
patched({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }],
  { foo: 'bar', child: { grandchild: {} } }, 'A.10 add a nested member object');
patched({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' },
  'A.11 ignore unrecognised elements');
refused({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], 'A.12 add to a nonexistent target');
patched({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] },
  'A.16 add an array value (path "-")');
patched({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }, 'A.14 ~ escape ordering');
refused({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }], 'A.15 comparing strings and numbers');

// ---- More of RFC 6902 and 6901 ----

patched({ a: 1 }, [{ op: 'copy', from: '/a', path: '/b' }], { a: 1, b: 1 }, 'copy');
patched({ a: [1] }, [{ op: 'replace', path: '', value: [2] }], [2], 'replace the whole document');
patched({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a' }], { a: { b: 1 } }, 'move onto itself');
refused({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], 'move into its own child');
refused({ a: [1, 2] }, [{ op: 'add', path: '/a/3', value: 0 }], 'add past the end of an array');
refused({ a: [1, 2] }, [{ op: 'remove', path: '/a/2' }], 'remove past the end of an array');
refused({ a: [1, 2] }, [{ op: 'replace', path: '/a/01', value: 0 }], 'a leading zero is no array index');
refused({ a: [1, 2] }, [{ op: 'remove', path: '/a/-' }], '"-" names no element to remove');
refused({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }], 'replace a missing member');
refused({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/c' }],
  'a failing op leaves the whole patch unapplied');
refused({ a: 1 }, [{ op: 'frobnicate', path: '/a' }], 'an unknown op');
{
  const doc = { list: [{ x: 1 }] };
  const out = applyPatch(doc, [{ op: 'replace', path: '/list/0/x', value: 2 }]);
  check(doc.list[0].x === 1 && out.list[0].x === 2, 'the patched view is a copy: the old one is untouched');
}
{
  const out = applyPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]);
  check(({}).polluted === undefined && Object.keys(out).includes('__proto__') && Object.getPrototypeOf(out) === Object.prototype,
    '"__proto__" is an ordinary member');
}
check(JSON.stringify(parsePointer('/a~1b/~0c/')) === '["a/b","~c",""]', 'pointer tokens unescape ~1 and ~0');
check(getPointer({ '': { ' ': 7 } }, '// ') === 7, 'pointer tokens may be empty or spaces');

// ---- BLAKE2b and the view hash ----

const enc = new TextEncoder();
check(blake2bHex(enc.encode('abc'), 64) ===
  'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
'BLAKE2b-512("abc"), RFC 7693 appendix A');
check(blake2bHex(new Uint8Array(0), 32) === '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
  'BLAKE2b-256 of nothing');
{
  const big = new Uint8Array(1000).map((_, i) => (i * 31 + 7) & 255);
  check(blake2bHex(big, 32) === blake2bHex(big.slice(), 32) && blake2bHex(big, 32) !== blake2bHex(big.subarray(1), 32),
    'BLAKE2b over several blocks is deterministic');
}

const sample = { z: false, '😀': 0, 'é': true, a: [1, -2, 'x\\"y'], b: null, '～': 1 };
const canon = '{"a":[1,-2,"x\\\\\\"y"],"b":null,"z":false,"é":true,"～":1,"😀":0}';
check(canonicalJson(sample) === canon, 'canonical JSON: keys in UTF-8 byte order, only " and \\ escaped',
  canonicalJson(sample));
check(viewHash(sample) === 'ee62a4663d69b595c9e6da49cf14b8203c300c05031decbddeebc3c71d765aba',
  'view hash of the canonical form');
{
  let threw = false;
  try {
    canonicalJson({ a: 1.5 });
  } catch {
    threw = true;
  }
  check(threw, 'a real number is no view');
}


// Clocks: the view's times, less what ran since they were taken.
check(clockText(65500) === '1:05' && clockText(3723000) === '1:02:03' && clockText(-5) === '0:00' &&
        clockText(2 * 86400000 + 3723000) === '2d 01:02:03',
      'clock texts: m:ss, h:mm:ss, days, never negative');
const clockView = { clock: { type: 'bank', seats: [
  { left: 60000, free: 30000, running: true, flag: false },
  { left: 45000, free: 30000, running: false, flag: false },
  { left: 0, free: 0, running: false, flag: true }] } };
const ticked = clockSeats(clockView, ['Ann', 'Bo'], 40000);
check(ticked[0].left === 50000 && ticked[0].free === 0 && ticked[0].text === '0:50',
      'a running bank clock spends its free time first', JSON.stringify(ticked[0]));
check(ticked[1].left === 45000 && ticked[1].text === '0:45', 'a stopped clock keeps its time',
      JSON.stringify(ticked[1]));
check(ticked[2].name === 'Seat 3' && ticked[2].text === 'out of time', 'a flagged seat is out of time');
check(clockSeats(clockView, [], 10000)[0].text === '1:00 (+0:20)', 'free time left is shown beside the time');
check(clocksRun(clockView) && !clocksRun({}) && clockSeats({}, [], 0).length === 0, 'no clock, no ticking');
check(/loses/.test(policyText({ clock: { timeout: 'lose' } })) && /skipped/.test(policyText({ clock: { timeout: 'skip' } })) &&
        /bot/.test(policyText({ clock: { timeout: 'bot' } })),
      'the room says what running out of time does');

// ---- Notices (web/lib/notify.js) ----

{
  const bytes = (s) => Array.from(keyBytes(s)).join(',');
  check(bytes('') === '' && bytes('AA') === '0' && bytes('_-8') === '255,239' && bytes('AQID') === '1,2,3' &&
          bytes('AQI=') === '1,2' && bytes('-_-_') === '251,255,191',
        'keyBytes: base64url, URL alphabet, with or without padding');
  const throws = (s) => {
    try {
      keyBytes(s);
      return false;
    } catch (e) {
      return e instanceof TypeError;
    }
  };
  check(throws('AQ+D') && throws('AQ/D') && throws('A') && throws('AQ D') && throws('AB'),
        'keyBytes refuses the other alphabet, a lone character and non-zero padding bits');
  // A P-256 point: 0x04 then 64 bytes; 87 characters without padding.
  const point = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 37 + 11) & 255));
  const b64url = Buffer.from(point).toString('base64url');
  const key = vapidKey(b64url);
  check(b64url.length === 87 && key instanceof Uint8Array && key.length === 65 && key.every((v, i) => v === point[i]),
        'vapidKey reads a 65-byte point as its bytes');
  check(vapidKey(b64url.slice(0, 86)) === null && vapidKey(Buffer.from(point.subarray(1)).toString('base64url')) === null &&
          vapidKey(Buffer.from(new Uint8Array(65).fill(5)).toString('base64url')) === null && vapidKey(undefined) === null,
        'vapidKey refuses a short key, a 64-byte one and a point not starting with 4');
}
check(noticeSummary({ webhook: 'https://ntfy.sh/t', push: 1 }) === 'Notices go to https://ntfy.sh/t and 1 browser' &&
        noticeSummary({ webhook: 'https://ntfy.sh/t', push: 0 }) === 'Notices go to https://ntfy.sh/t' &&
        noticeSummary({ webhook: null, push: 3 }) === 'Notices go to 3 browsers' &&
        noticeSummary({ webhook: null, push: 0 }) === 'No notices' && noticeSummary(undefined) === 'No notices' &&
        noticeSummary({ webhook: '', push: -1 }) === 'No notices',
      'noticeSummary words where the seat\'s notices go');
check(checkWebhook(' https://hooks.example.net/x ').url === 'https://hooks.example.net/x' &&
        checkWebhook('http://hooks.example.net/x').url === 'http://hooks.example.net/x' &&
        Boolean(checkWebhook('').error) && Boolean(checkWebhook('hooks.example.net').error) &&
        Boolean(checkWebhook('ftp://example.net/').error) && Boolean(checkWebhook('javascript:alert(1)').error) &&
        Boolean(checkWebhook(`https://e.net/${'x'.repeat(1100)}`).error),
      'checkWebhook takes an http(s) address and refuses the rest in words');

// A stand-in browser: permission state, a worker registry and a push
// manager whose subscribe() succeeds or fails as told.
function fakeWindow({ permission = 'default', answer = 'granted', subscribeError = null, existing = null } = {}) {
  const calls = [];
  const sub = (key) => ({
    options: { applicationServerKey: key.buffer },
    toJSON: () => ({ endpoint: 'https://push.example.net/1', keys: { p256dh: 'P', auth: 'A' } }),
    unsubscribe: async () => {
      calls.push('unsubscribe');
      return true;
    },
  });
  const reg = {
    pushManager: {
      getSubscription: async () => (existing ? sub(existing) : null),
      subscribe: async (opts) => {
        calls.push(['subscribe', opts.userVisibleOnly, opts.applicationServerKey.length]);
        if (subscribeError) throw subscribeError;
        return sub(opts.applicationServerKey);
      },
    },
  };
  function Notification() {}
  Notification.permission = permission;
  Notification.requestPermission = async () => {
    calls.push('ask');
    Notification.permission = answer;
    return answer;
  };
  const win = {
    isSecureContext: true,
    PushManager: function PushManager() {},
    Notification,
    navigator: {
      serviceWorker: {
        register: async (url, opts) => {
          calls.push(['register', url, opts.scope]);
          return reg;
        },
        ready: Promise.resolve(reg),
      },
    },
  };
  return { win, calls };
}
check(pushSupported(fakeWindow().win) && !pushSupported({ ...fakeWindow().win, isSecureContext: false }) &&
        !pushSupported({ ...fakeWindow().win, PushManager: undefined }) && !pushSupported({ navigator: {} }) &&
        !pushSupported(undefined),
      'pushSupported needs a secure context, a service worker container, the Push API and notifications');
{
  const point = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : i));
  const key = Buffer.from(point).toString('base64url');
  const sent = [];
  const request = async (op, args) => {
    sent.push({ op, ...args });
    return { ok: true, notify: { webhook: null, push: 1 } };
  };
  const { win, calls } = fakeWindow();
  const r = await subscribePush(win, key, request);
  check(r.ok && r.notify.push === 1 && JSON.stringify(calls) === '["ask",["register","sw.js","./"],["subscribe",true,65]]' &&
          JSON.stringify(sent) === '[{"op":"notify","push":{"endpoint":"https://push.example.net/1","keys":{"p256dh":"P","auth":"A"}}}]',
        'subscribePush asks once, registers sw.js for the page, subscribes with the key and sends the subscription',
        JSON.stringify({ r, calls, sent }));

  const granted = fakeWindow({ permission: 'granted', existing: point });
  sent.length = 0;
  const again = await subscribePush(granted.win, key, request);
  check(again.ok && JSON.stringify(granted.calls) === '[["register","sw.js","./"]]' && sent.length === 1,
        'with permission given and a subscription for the same key, nothing is asked and the subscription is sent again',
        JSON.stringify(granted.calls));

  const rekeyed = fakeWindow({ permission: 'granted', existing: new Uint8Array(65).fill(4) });
  await subscribePush(rekeyed.win, key, request);
  check(JSON.stringify(rekeyed.calls) === '[["register","sw.js","./"],"unsubscribe",["subscribe",true,65]]',
        'a subscription made for another key is dropped and made anew', JSON.stringify(rekeyed.calls));

  sent.length = 0;
  const denied = fakeWindow({ answer: 'denied' });
  const no = await subscribePush(denied.win, key, request);
  check(!no.ok && /blocked/.test(no.message) && sent.length === 0 && !denied.calls.some((c) => c[0] === 'subscribe'),
        'a refused permission says so and subscribes nothing', JSON.stringify(no));

  const blocked = fakeWindow({ permission: 'denied' });
  const no2 = await subscribePush(blocked.win, key, request);
  check(!no2.ok && blocked.calls.length === 0, 'permission denied before: the browser is not asked again');

  const offline = fakeWindow({ subscribeError: Object.assign(new Error('Registration failed - push service error'), { name: 'AbortError' }) });
  const down = await subscribePush(offline.win, key, request);
  check(!down.ok && /could not subscribe/.test(down.message) && /push service error/.test(down.message) && sent.length === 0,
        'a subscribe() that fails (no push service) gives a clear message', JSON.stringify(down));

  const stuck = fakeWindow({ permission: 'granted' });
  stuck.win.navigator.serviceWorker.ready.then((reg) => {
    reg.pushManager.subscribe = () => new Promise(() => {});
  });
  await stuck.win.navigator.serviceWorker.ready;
  const hung = await subscribePush(stuck.win, key, request, { timeoutMs: 20 });
  check(!hung.ok && /could not subscribe/.test(hung.message) && /no answer from the push service/.test(hung.message),
        'a subscribe() that never settles (offline) ends in a clear message', JSON.stringify(hung));

  const refusing = async () => ({ ok: false, error: { code: 'bad_request', message: 'push notices are off' } });
  const refused = await subscribePush(fakeWindow({ permission: 'granted' }).win, key, refusing);
  check(!refused.ok && refused.message === 'The server refused: push notices are off',
        'a server refusal of the subscription is passed on in words', JSON.stringify(refused));

  const badKey = await subscribePush(fakeWindow({ permission: 'granted' }).win, 'AQID', request);
  check(!badKey.ok && /key/.test(badKey.message), 'a server key that is no P-256 point is refused before subscribing');
}

check(eventLine({ ev: 'timeout', seat: 1, name: 'Bo', do: 'skip' }, 0) === 'Bo ran out of time: the turn is skipped.' &&
        eventLine({ ev: 'timeout', seat: 0, name: 'Ann', do: 'lose' }, 0) === 'You ran out of time: the seat loses.' &&
        eventLine({ ev: 'undo', seat: 1, name: 'Bo' }, 0) === 'Bo took back a move.' && eventLine({ ev: 'chat' }, 0) === null,
      'the log says what a timeout did and who took back a move');
// ---- Review ----

{
  const seed = '01'.repeat(32);
  const commit = blake2bHex(new Uint8Array(32).fill(1), 32);
  const view = { game: 'g', seed_commit: commit, phase: 'play', seats: [{ name: 'Ann' }, { name: 'Bo' }] };
  const hands = [{ hand: ['a', 'b'] }, null];
  const review = {
    room: 'K7QF2M', game: 'g', seats: [{ name: 'Ann', kind: 'human' }, { name: '', kind: 'bot' }], rev: 3, first: 1, last: 9,
    step: { t: 'act', seat: 0, action: { type: 'cast' } }, view, hash: viewHash(view), hands,
    hashes: [viewHash({ ...view, you: hands[0] }), viewHash(view)], seed, seed_commit: commit,
  };
  check(JSON.stringify(reviewNames(review)) === '["Ann","Seat 2"]', 'review: seat names, "Seat N" for a seat without one');
  check(seatView(review, 0).you === hands[0] && seatView(review, 1) === view && !('you' in view),
    "review: a seat's whole view is the public view with its `you` (none: the public view), the public view untouched");
  const good = reviewHashCheck(review);
  check(good.ok && good.rows.length === 3 && good.rows[0].seat === null && good.rows[2].got === review.hashes[1],
    'review: the public view and each seat\'s view hash to the hashes the server sent', JSON.stringify(good));
  const bad = reviewHashCheck({ ...review, hashes: [review.hashes[0], '00'.repeat(32)] });
  check(!bad.ok && bad.rows.filter((r) => !r.ok).map((r) => r.seat).join() === '1',
    'review: a seat\'s hash that differs is found, and only that one');
  const badPublic = reviewHashCheck({ ...review, view: { ...view, phase: 'end' } });
  check(!badPublic.ok && !badPublic.rows[0].ok, 'review: a public view that is not the one hashed is found');
  check(reviewSeedCheck(review).ok === true, 'review: the revealed seed hashes to seed_commit');
  check(reviewSeedCheck({ ...review, seed: '02'.repeat(32) }).ok === false, 'review: a seed that does not hash to seed_commit fails');
  const other = blake2bHex(new Uint8Array(32).fill(2), 32);
  check(reviewSeedCheck({ ...review, seed: '02'.repeat(32), seed_commit: other }).ok === false,
    'review: a commitment other than the one the views showed fails, even with a seed that matches it');
  check(reviewSeedCheck({ ...review, seed: undefined }).ok === null, 'review: no seed, nothing to check');

  const names = ['Ann', 'Bo'];
  const describe = (a, s) => `${a.type} by seat ${s}`;
  const steps = [
    [{ t: 'start' }, 'The game starts.'],
    [{ t: 'act', seat: 1, action: { type: 'cast' } }, 'Bo: cast by seat 1'],
    [{ t: 'undo', seat: 0 }, 'Ann took back a move.'],
    [{ t: 'timeout', seat: 1, ms: 0, do: 'skip' }, 'Bo ran out of time: the turn is skipped.'],
    [{ t: 'clock', ms: 600000 }, 'The running clocks were charged (10:00 of play).'],
    [{ t: 'act', seat: 5, action: { type: 'pass' } }, 'Seat 6: pass by seat 5'],
  ];
  const words = steps.map(([st]) => stepText(st, names, describe));
  check(words.every((w, i) => w === steps[i][1]), 'review: each kind of step in words', JSON.stringify(words));
  check(/no type/.test(stepText({}, names, describe)), 'review: a step of no known kind is said so');

  check(/no game under the code K7QF2M/.test(reviewErrorText({ code: 'room_not_found' }, 'K7QF2M')) &&
          /still being played/.test(reviewErrorText({ code: 'game_not_over' }, 'K7QF2M')) &&
          /does not replay: step 4 is refused\.$/.test(reviewErrorText({ code: 'illegal_action', message: 'step 4 is refused' })) &&
          /could not review this game: odd\.$/.test(reviewErrorText({ code: 'internal', message: 'odd' })),
        'review: refusals in words');
  check(readRecordText('{"game":"stones","actions":[]}').record?.game === 'stones' &&
          /not JSON/.test(readRecordText('{').error) && /not a game record/.test(readRecordText('{"a":1}').error) &&
          /empty/.test(readRecordText('  ').error) && /up to 4 MiB/.test(readRecordText('', 5 * 1048576).error),
        'review: a record file is checked before it is sent: JSON, a record, not empty, at most 4 MiB');
}

// ---- Rematch, lobby, start ----

{
  const offer = {
    ev: 'rematch', room: 'K7QF2M', rematch: 'T4KD9B', by: 'Ann',
    seats: [{ seat: 0, name: 'Ann', to: 2, answer: 'yes' }, { seat: 1, name: 'Bo', to: 0, answer: 'waiting' },
      { seat: 2, name: 'Bot 1', to: 1, answer: 'bot' }],
  };
  const rows = offerRows(offer, 1);
  check(rows.map((r) => `${r.seat}>${r.to} ${r.words}${r.mine ? ' (me)' : ''}`).join('; ') ===
          '0>2 joined; 1>0 has not answered (me); 2>1 a bot, plays again',
        'rematch: each seat, where it sits in the new room, its answer in words', JSON.stringify(rows));
  check(myAnswer(null, 1) === 'none' && myAnswer(offer, 1) === 'waiting' && myAnswer(offer, 0) === 'yes' &&
          myAnswer(offer, null) === 'none',
        'rematch: this seat\'s answer, none without an offer or a seat');
  check(/has already begun without you/.test(rematchErrorText({ code: 'already_started' }, offer)) &&
          /T4KD9B/.test(rematchErrorText({ code: 'room_full' }, offer)) &&
          /not over yet/.test(rematchErrorText({ code: 'game_not_over' })) &&
          /Only the players/.test(rematchErrorText({ code: 'not_in_game' })) &&
          /Nobody has offered/.test(rematchErrorText({ code: 'bad_request' })),
        'rematch: refusals in words');
  check([0, 59, 60, 3599, 7200, 86400 * 3].map(agoText).join('|') === 'just now|just now|1 minute ago|59 minutes ago|2 hours ago|3 days ago',
    'lobby: how long ago a game ended');
  const info = { seats: [{ seat: 0, kind: 'human', connected: false, name: 'Bo' }, { seat: 1, kind: 'human', connected: true },
    { seat: 2, kind: 'empty' }, { seat: 3, kind: 'bot' }] };
  check(JSON.stringify(startBots(info, ['easy', 'normal'], { 2: 'easy' })) === '["normal",null,"easy",null]',
    'start: a bot for each open seat and each seat whose player is not connected (a rematch seat nobody came back to)');
}

// ---- The boards' shared helpers ----

check(plural(1, 'card') === '1 card' && plural(0, 'card') === '0 cards' && plural(2, 'Wood', 'Woods') === '2 Woods',
  'words: a count with its noun, regular or not');
{
  const view = { seats: [{ seat: 0, name: 'Ann' }, { seat: 1 }, { name: 'Cy' }] };
  check(seatName(view, 0, ['Ana']) === 'Ana' && seatName(view, 0, []) === 'Ann' && seatName(view, 1, null) === 'Seat 2' &&
          seatName(view, 2, null) === 'Cy' && seatName(null, 5) === 'Seat 6' && seatLabel(0) === 'Seat 1',
  "words: a seat's name from the page's names, else the view's seats (by member or place), else Seat N");
}
{
  const describe = (a) => ({ keys: a.keys });
  const legal = [{ keys: ['card:a', 'sq:e5'] }, { keys: ['card:b', 'sq:e6'] }, { keys: ['card:a', 'sq:e7'] }];
  const ks = keyState(describe, {}, { legal, focus: 'card:a', seat: 0 });
  check([...ks.targets].sort().join() === 'card:a,card:b,sq:e5,sq:e6,sq:e7' &&
          [...ks.related].sort().join() === 'card:a,sq:e5,sq:e7' && ks.selected === 'card:a',
  "keys: the keys the moves touch, and those the selected element's moves touch");
  const none = keyState(describe, {}, { legal: [], focus: null });
  check(none.targets.size === 0 && none.related.size === 0 && none.selected === null, 'keys: no moves, nothing to choose');
}
check(contrastOf('auto', true) === 'more' && contrastOf('auto', false) === 'normal' &&
        contrastOf('more', false) === 'more' && contrastOf('normal', true) === 'normal' && contrastOf('junk', true) === 'more',
'display: the contrast follows the system unless the option holds one');

// The page's language and the log in it.
{
  check(detect(['zh-TW', 'en']) === 'zh-CN' && detect(['zh']) === 'zh-CN' && detect(['en-GB', 'zh-CN']) === 'en' &&
          detect(['fr', 'de']) === 'en' && detect([]) === 'en',
    'language: any Chinese first reads Simplified Chinese, English or anything else English');
  check(fill('Seat {n} of {m}', { n: 2 }) === 'Seat 2 of {m}', 'language: {names} filled, an unknown one left');
  check(lang() === 'en' && t('Create room') === 'Create room' && t('Seat {n}', { n: 3 }) === 'Seat 3',
    'language: English is the phrase itself');
  setLang('zh-CN');
  addPhrases('zh-CN', { 'Seat {n}': '{n} 号座位' });
  check(lang() === 'zh-CN' && t('Create room') === '创建房间' && t('Seat {n}', { n: 3 }) === '3 号座位' &&
          t('A phrase no table has') === 'A phrase no table has',
    'language: Chinese from the page\'s and a board\'s tables, English where none has the phrase');
  setLang('xx');
  check(lang() === 'zh-CN', 'language: an unknown language is not taken');
  setLang('en');

  const cat = JSON.parse(readFileSync(new URL('../../lang/stones.json', import.meta.url), 'utf8'));
  const key = Object.keys(cat.messages).find((k) => /\{1:tile\}/.test(cat.messages[k].en) &&
                                                   /^\{0\}/.test(cat.messages[k].en));
  const tile = Object.keys(cat.terms.tile)[0];
  const msg = [key, 'Ann', tile, '1', '2', '3', '4', '5'];
  const zh = messageText(cat, msg, 'the English line', 'zh-CN');
  check(key && zh !== 'the English line' && zh.includes('Ann') && zh.includes(cat.terms.tile[tile]) && !zh.includes('{'),
    'log: a line in Chinese from its message, its terms in Chinese', `${key}: ${zh}`);
  check(messageText(cat, msg, 'the English line', 'en') === 'the English line' &&
          messageText(cat, ['no_such_key', 'Ann'], 'line', 'zh-CN') === 'line' &&
          messageText(cat, [], 'line', 'zh-CN') === 'line' && messageText(cat, [key], 'line', 'zh-CN') === 'line' &&
          messageText(null, msg, 'line', 'zh-CN') === 'line',
    'log: the line as the view has it in English, and for no message, an unknown key, missing arguments or no catalogue');
  const view = { log: ['a', 'b'], log_keys: [msg] };
  const lines = logText(cat, view, 'zh-CN');
  check(lines.length === 2 && lines[0] === zh && lines[1] === 'b', 'log: line for line, a line without a message as it is');
  const [id, card] = Object.entries(cat.cards)[0];
  check(cardName(cat, id, 'zh-CN', 'x') === card['zh-CN'] && cardName(cat, 'nope', 'zh-CN', 'x') === 'x',
    'cards: a name in Chinese by id, else the name given');
}

// The page's own words in both languages: each helper in English, then
// in Chinese, then in English again.
{
  const words = () => ({
    plural: [plural(1, t('{n} move'), t('{n} moves')), plural(3, t('{n} move'), t('{n} moves')), plural(2, 'card')],
    seat: [seatLabel(0), seatName({ seats: [] }, 1, null)],
    ago: [0, 120, 7200, 86400].map(agoText),
    players: [playerRange({ min_players: 2, max_players: 4 }), playerRange({ min_players: 1, max_players: 1 })],
    clock: [clockText(90061000), clockSeats({ clock: { seats: [{ left: 0, flag: true }] } }, ['Ann'], 0)[0].text,
      policyText({ clock: { timeout: 'skip' } })],
    log: [eventLine({ ev: 'timeout', seat: 1, name: 'Bo', do: 'skip' }, 0), eventLine({ ev: 'undo', seat: 0 }, 0)],
    notice: [noticeSummary({ webhook: 'https://x.example/h', push: 2 }), checkWebhook('ftp://x').error],
    review: [stepText({ t: 'start' }, [], null), stepText({ t: 'clock', ms: 60000 }, [], null),
      reviewErrorText({ code: 'game_not_over' }, 'K7QF2M'), readRecordText('  ').error],
    rematch: [offerRows({ seats: [{ seat: 0, name: 'Ann', to: 1, answer: 'yes' }] }, null)[0].words,
      rematchErrorText({ code: 'room_full' }, { rematch: 'T4KD9B' })],
    options: [optionLabel('merlinian_seat'), optionValue('first_game'), optionValue(true), optionLabel('made_up')],
    titles: [gameTitle('stones', { title: 'Sorcerer & Stones' }), gameTitle('arcana', { title: 'Res Arcana' }),
      gameTitle('sorcerers', { title: 'Sorcerers' }), gameTitle('element', { title: 'Element' }), gameTitle('newgame', null)],
    reason: [reasonWords('turn_limit', { terms: { reason: { turn_limit: '回合上限' } } })],
  });
  const en = words();
  check(JSON.stringify(en) === JSON.stringify({
    plural: ['1 move', '3 moves', '2 cards'],
    seat: ['Seat 1', 'Seat 2'],
    ago: ['just now', '2 minutes ago', '2 hours ago', '1 day ago'],
    players: ['2–4 players', '1 player'],
    clock: ['1d 01:01:01', 'out of time', 'Out of time, a seat\'s turn is skipped.'],
    log: ['Bo ran out of time: the turn is skipped.', 'You took back a move.'],
    notice: ['Notices go to https://x.example/h and 2 browsers', 'A webhook address starts with https://.'],
    review: ['The game starts.', 'The running clocks were charged (1:00 of play).',
      'The game in room K7QF2M is still being played: it can be reviewed once it is over (watch it meanwhile).', 'The file is empty.'],
    rematch: ['joined', 'Every seat of the rematch (room T4KD9B) is taken.'],
    options: ['Merlinian seat', 'First game', 'yes', 'Made up'],
    titles: ['Sorcerer & Stones', 'Res Arcana', 'Sorcerers', 'Element', 'Newgame'],
    reason: ['turn limit'],
  }), 'words: the page\'s helpers in English', JSON.stringify(en));
  setLang('zh-CN');
  const zh = words();
  check(JSON.stringify(zh) === JSON.stringify({
    plural: ['1 步', '3 步', '2 cards'],
    seat: ['1 号座位', '2 号座位'],
    ago: ['刚刚', '2 分钟前', '2 小时前', '1 天前'],
    players: ['2–4 名玩家', '1 名玩家'],
    clock: ['1天 01:01:01', '超时', '超时的座位跳过该回合。'],
    log: ['Bo超时了：跳过该回合。', '你撤回了一步。'],
    notice: ['提醒发送到 https://x.example/h 和 2 个浏览器', '网络钩子地址以 https:// 开头。'],
    review: ['游戏开始。', '正在走的计时器已扣时（对局用时 1:00）。',
      '房间 K7QF2M 的对局仍在进行：结束后才能复盘（现在可以观看）。', '文件是空的。'],
    rematch: ['已加入', '新一局（房间 T4KD9B）的座位已满。'],
    options: ['梅林派座位', '入门局', '是', 'Made up'],
    titles: ['御石仙人', 'Res Arcana', '巫师', '元素', 'Newgame'],
    reason: ['回合上限'],
  }), 'words: the same helpers in Chinese (a bare English noun, a word the page does not know stay English)', JSON.stringify(zh));
  check(JSON.stringify(pieces(t('{who} took seat {n}.'), { who: { node: 'Ann' }, n: 2 })) === '[{"node":"Ann"},"坐上了 ","2"," 号座位。"]' &&
          JSON.stringify(pieces('{a} and {b}', { a: 1 })) === '["1"," and {b}"]',
    'language: a phrase as pieces, a node kept as it is, a name without a value left');
  setLang('en');
  check(JSON.stringify(words()) === JSON.stringify(en), 'words: back in English, the same as before');
}

// The boards' words from their game's catalogue (games/catalogue.js), and
// the card texts' Chinese (games/*_texts.js): each card's words in both
// languages, line for line, every "@{id}" a card of the game.
{
  const w = gameWords('stones');
  w.use({ catalogue: { cards: { 'SPIN-1': { en: 'SPIN-1', 'zh-CN': '旋转-1' } }, terms: { tile: { Tn: '北砖' } } } });
  const said = () => [w.card('SPIN-1', 'SPIN-1'), w.card('FLY-1', 'FLY-1'), w.term('tile', 'Tn'), w.term('tile', 'Tx'), w.term('stone', 'Y', 'yellow')];
  const en = said();
  setLang('zh-CN');
  const zh = said();
  setLang('en');
  check(en.join() === 'SPIN-1,FLY-1,Tn,Tx,yellow' && zh.join() === '旋转-1,FLY-1,北砖,Tx,yellow',
    `boards: card names and terms from the catalogue in Chinese, the board's own words in English and where it has none (${zh.join(', ')})`);
  check(fillCards('可与@{artificer}、@{dragon_bridle}累积', (id) => `<${id}>`) === '可与<artificer>、<dragon_bridle>累积',
    'boards: a card text\'s "@{id}" filled with the card\'s name');
  const refs = (texts, known) => texts.flatMap((x) => [...String(x).matchAll(/@\{([a-z0-9_]+)\}/g)].map((m) => m[1])).filter((id) => !known[id]);
  const arcana = Object.entries(CARDS).filter(([, c]) => !c.zh || c.zh.lines.length !== c.lines.length || c.zh.notes.length !== c.notes.length ||
    Object.keys(c.zh.powers).join() !== Object.keys(c.powers).join() || !c.zh.type || (c.side && !c.zh.side) || (c.ignore && !c.zh.ignore) ||
    refs([...c.zh.lines, ...c.zh.notes, c.zh.side || ''], CARDS).length);
  check(arcana.length === 0, `boards: every one of ${Object.keys(CARDS).length} Res Arcana cards has its words in Chinese, line for line`, arcana.map(([id]) => id).join(' '));
  const sorc = Object.entries(SORC_CARDS).filter(([, c]) => !c.zh || c.zh.rules.length !== c.rules.length || !c.zh.type ||
    c.zh.classes.length !== c.classes.length || Boolean(c.zh.note) !== Boolean(c.note) || refs(c.zh.rules, SORC_CARDS).length);
  check(sorc.length === 0, `boards: every one of ${Object.keys(SORC_CARDS).length} Sorcerers cards has its words in Chinese, rule for rule`, sorc.map(([id]) => id).join(' '));
}

if (failures) {
  console.log(`# ${failures} failed`);
  process.exit(1);
}
console.log('# all unit checks passed');
