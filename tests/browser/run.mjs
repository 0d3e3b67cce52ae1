#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Browser test of Conclave's web client: whole games played by clicking,
// in headless Chromium, against a real conclaved.
//
// Usage:
//   node tests/browser/run.mjs CONCLAVED OUTDIR [--web-dir DIR] [--url URL] [--only GAME]
//
//   CONCLAVED   path to the conclaved binary (e.g. build/server/conclaved)
//   OUTDIR      where screenshots, game records and server logs go (created)
//   --web-dir   serve the page from DIR (conclaved --web-dir) instead of
//               the files embedded in the binary
//   --url       play against an already running server at URL instead of
//               starting one (the TLS check, which needs its own, is skipped)
//   --only      play only this game (sorcerers or stones; "none": no game,
//               only the lobby and TLS checks)
//
// Environment: CHROMIUM (browser binary, default /usr/bin/chromium),
// SEED (the clicking RNG's seed, default 20261201), GAME_MINUTES (deadline
// per game, default 20), TURN_SECONDS (longest wait for one's turn,
// default 240).
//
// What it does: starts conclaved on ephemeral loopback ports with a fresh
// data directory and reads its "http on http://..." line. Then, per game,
// in three browser contexts: a host creates the room from the lobby, a
// second player joins by opening the share link, a third watches (typing
// the code and pressing Watch). Both players play the whole game by
// clicking a random action button whenever body[data-your-turn=true]; one
// of them reloads the page in mid-game and must come back to the same seat
// and play on. At the end #ended must show on all three pages, with the
// seed check passed and a downloadable record. Screenshots of each board
// at 1366x768 and 390x844 go to OUTDIR. Finally a second conclaved with a
// self-signed certificate serves the page over https, and the page must
// connect over wss and create a room. A fleet check: a player on a second
// server's page joins a room of the first; the page must follow the
// room_elsewhere answer to the first server's page and take the seat.
// Notices: with notifications allowed the page registers its service
// worker at load, and a push delivered to it through DevTools shows as a
// notification with the notice's title and text; a seated player's notice
// box saves a webhook, keeps it over a reload, shows the server's refusal
// of a loopback address, turns notices off, and says why the push button
// could not subscribe (there is no push service offline). After the game:
// a short game of Sorcerers played by two pages, a rematch offered,
// declined and then joined (both pages in the new room, the seats moved
// round), the finished game found under Recently finished and reviewed
// step by step (each step's view hashes on the page equal to the server's,
// the seed check good), and its downloaded record opened in review.
//
// Accessibility: axe-core (tests/browser/node_modules, pinned) runs its
// WCAG 2.1 A and AA rules on the lobby, each board in mid-game, the end
// screen and the review screen, and none may fail. One game of each of
// the four is played by keyboard alone against a bot, from the lobby's
// form to the end screen (Tab, arrows, Enter, Space and the page's keys,
// no click): the moves chosen in the list, and every few moves on the
// board (b, the arrow keys to an element a move touches, Enter, then a
// and Enter). The high-contrast theme follows prefers-contrast and the
// page's Contrast option; prefers-reduced-motion stops the animations.
//
// Languages: a page whose browser prefers Chinese and an English one play
// a few moves at one table; the first shows the lobby, the room, its
// status and the game's log in Chinese (each log line the catalogue's
// zh-CN template filled from the view's log_keys), the other in English,
// both following every diff; a switch to English and back rewrites it.
// Each keyboard game's board is switched to Chinese in mid-game and back:
// its moves, its elements' names, a card's name (the catalogue's) and axe.
//
// One line per check on stdout ("ok - ..."); on a failure "FAIL - ..." and
// exit status 1. Every wait is for an event with a generous deadline, never
// a fixed sleep: a busy two-core machine must not fail for being slow.

import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

// ---- Arguments ----

function usage(message) {
  console.error(`run.mjs: ${message}`);
  console.error('usage: node tests/browser/run.mjs CONCLAVED OUTDIR [--web-dir DIR] [--url URL] [--only GAME]');
  process.exit(2);
}

const argv = process.argv.slice(2);
const positional = [];
const flags = {};
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) {
    if (i + 1 >= argv.length) usage(`${argv[i]} needs a value`);
    flags[argv[i].slice(2)] = argv[++i];
  } else {
    positional.push(argv[i]);
  }
}
if (positional.length !== 2) usage('expected the conclaved binary and an output directory');
const CONCLAVED = path.resolve(positional[0]);
const OUTDIR = path.resolve(positional[1]);
if (!fs.existsSync(CONCLAVED)) usage(`no such file: ${CONCLAVED}`);
fs.mkdirSync(OUTDIR, { recursive: true });

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SEED = Number(process.env.SEED || 20261201) >>> 0;
const GAME_MS = Number(process.env.GAME_MINUTES || 20) * 60000;
const TURN_MS = Number(process.env.TURN_SECONDS || 240) * 1000;
const STEP_MS = 120000; // one page step (load, a reply, a screen change)

const DESKTOP = { width: 1366, height: 768 };
// Width and height only: puppeteer reloads the page when isMobile or
// hasTouch change, and the layout answers to the width alone.
const PHONE = { width: 390, height: 844 };

// The games. Stones: 2 seats, default options (a random game by clicking
// is ~500-1100 actions, well within the deadline). Sorcerers: its turn
// limit brought down from 100 to 12 turns: a random game by clicking
// often runs to the limit (over 2000 actions at 100), and with 12 it is
// still a whole game that ends by the rules (a victory at the end of a
// turn, or the turn-limit draw), in about 150-350 actions.
const GAMES = [
  { id: 'sorcerers', options: { max_turns: '12' }, public: false },
  // Sorcerer & Stones in its Novice variant (the rulebook's own shorter
  // game): a random game by clicking takes about 900 actions there
  // against about 1,900 in the standard game, which kept this suite near
  // ten minutes. Every variant's rules are covered by the rules, property
  // and integration suites.
  { id: 'stones', options: { variant: 'novice' }, public: true },
];

// The games played by keyboard alone, each against a bot of a server
// whose bots move at once: short ones (Sorcerers of one turn, Sorcerer &
// Stones' Novice game; a Res Arcana game against a bot is some 50 to 200
// moves of the player's). `prefer`: the move the player picks every other
// time it is offered (in Element, a player who ends the turn at once is
// caught sooner: some 30 to 90 moves rather than up to 300).
const KEY_GAMES = [
  { id: 'sorcerers', options: { max_turns: '1' } },
  { id: 'stones', options: { variant: 'novice' } },
  { id: 'arcana', options: {} },
  { id: 'element', options: {}, prefer: /^End the turn/ },
];
const AXE_SOURCE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// ---- Reporting ----

let failed = false;
const cleanups = [];
const genericBoards = new Set(); // games whose board module the server lacks

function ok(what) {
  console.log(`ok - ${what}`);
}

class CheckFailed extends Error {}

function fail(what, detail) {
  throw new CheckFailed(`${what}${detail ? `: ${detail}` : ''}`);
}

function check(cond, what, detail) {
  if (!cond) fail(what, detail);
  ok(what);
}

// mulberry32: a small seeded generator, so a failing run can be repeated.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- The server ----

// Starts conclaved and resolves with { url, addr, proc } once it prints
// its http line (addr: its protocol listener, HOST:PORT).
function startServer(name, extra = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `conclave-browser-${name}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const args = ['--listen', '127.0.0.1:0', '--http', '127.0.0.1:0', '--data-dir', dataDir, ...extra];
  if (flags['web-dir']) args.push('--web-dir', path.resolve(flags['web-dir']));
  const proc = spawn(CONCLAVED, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const logFile = fs.createWriteStream(path.join(OUTDIR, `conclaved-${name}.log`));
  cleanups.push(() => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    let text = '';
    let waiting = true;
    const timer = setTimeout(() => reject(new Error(`conclaved (${name}) printed no "http on" line in 30 s:\n${text}`)), 30000);
    // The address lines go to stdout, the log to stderr: watch both.
    const take = (chunk) => {
      logFile.write(chunk);
      if (!waiting) return;
      text += chunk;
      const m = /http on (https?:\/\/\S+)/.exec(text);
      if (m) {
        waiting = false;
        clearTimeout(timer);
        const addr = /listening on (\S+)/.exec(text)?.[1];
        resolve({ url: m[1].endsWith('/') ? m[1] : `${m[1]}/`, addr, proc });
      }
    };
    proc.stdout.on('data', take);
    proc.stderr.on('data', take);
    proc.on('exit', (code, sig) => {
      clearTimeout(timer);
      if (waiting) reject(new Error(`conclaved (${name}) exited (${code ?? sig}) before serving:\n${text}`));
    });
  });
}

// ---- Page helpers ----

// A page in a fresh browser context, or in `shared` (the browser's
// default context: the Push API works only there, not in the incognito
// ones createBrowserContext() makes).
async function newPlayer(browser, label, viewport = DESKTOP, shared = null) {
  const context = shared || await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  await page.setViewport(viewport);
  page.label = label;
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e.message || e)));
  page.syncs = [];
  page.on('console', (m) => {
    // A failed load is judged by its response below, where the URL is known.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) page.errors.push(m.text());
    // The page says so when it lost track of its view and asked for a
    // fresh one (a patch that failed, a rev skipped, a hash that differs).
    if (/asking for a fresh view|hash is computed differently/.test(m.text())) page.syncs.push(m.text());
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (r.status() < 400) return;
    // A game without a board module of its own yet is drawn by the generic
    // board; its missing games/<game>.js is expected, not an error.
    const board = /\/games\/([a-z0-9_-]+)\.js$/.exec(url.pathname);
    if (board && board[1] !== 'generic') {
      genericBoards.add(board[1]);
      return;
    }
    page.errors.push(`HTTP ${r.status()} for ${url.pathname}`);
  });
  // Every refusal the page shows in #error, for the report: clicking only
  // what the page offers should never be refused.
  await page.evaluateOnNewDocument(() => {
    window.__refusals = [];
    addEventListener('DOMContentLoaded', () => {
      const el = document.getElementById('error');
      if (!el) return;
      new MutationObserver(() => {
        if (!el.hidden && el.textContent) window.__refusals.push(el.textContent);
      }).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
    });
  });
  return { context, page };
}

async function waitOpen(page, timeout = STEP_MS) {
  await page.waitForSelector('body[data-connection="open"]', { timeout });
}

async function typeInto(page, selector, text) {
  await page.click(selector, { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type(selector, text);
}

const bodyData = (page, key) => page.evaluate((k) => document.body.dataset[k], key);
const textOf = (page, selector) => page.$eval(selector, (el) => el.textContent.trim());
const isShown = (page, selector) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    return Boolean(el && !el.hidden && el.getClientRects().length > 0);
  }, selector);

async function mySeat(page) {
  return page.evaluate(() => document.querySelector('.seat.mine')?.dataset.seat ?? null);
}

async function screenshot(page, file, viewport) {
  const old = page.viewport();
  if (viewport) await page.setViewport(viewport);
  await page.screenshot({ path: path.join(OUTDIR, file), fullPage: false });
  if (viewport) await page.setViewport(old);
  ok(`screenshot ${file}`);
}

// ---- One game ----

async function createRoom(page, base, game) {
  await page.goto(base, { waitUntil: 'load' });
  await waitOpen(page);
  await typeInto(page, '#name', 'Ann');
  await page.waitForSelector(`#game option[value="${game.id}"]`);
  await page.select('#game', game.id);
  for (const [key, value] of Object.entries(game.options)) {
    const control = `#options [name="${key}"]`;
    const tag = await page.$eval(control, (el) => el.tagName);
    if (tag === 'SELECT') {
      // A choice is picked by the words it shows, as a person does.
      const choice = await page.$eval(control, (el, v) =>
        [...el.options].find((o) => o.textContent.trim().toLowerCase() === v.toLowerCase())?.value ?? null, value);
      if (choice === null) fail(`${game.id}: the ${key} control offers ${value}`, 'no such choice');
      await page.select(control, choice);
    } else {
      await typeInto(page, control, value);
    }
  }
  if (game.public) await page.click('#public');
  await page.click('#create');
  await page.waitForFunction(() => document.body.dataset.phase === 'room' && document.querySelector('#room-code').textContent.trim().length === 6);
  const code = await textOf(page, '#room-code');
  const link = await page.$eval('#room-link', (a) => a.href || a.value);
  return { code, link };
}

// On the lobby page `name` is saved, then the room's share `link` is
// opened: the page joins room `code` by itself.
async function joinByLink(page, base, link, code, name) {
  await page.goto(base, { waitUntil: 'load' });
  await waitOpen(page);
  await typeInto(page, '#name', name);
  await page.click('#name-save');
  await page.waitForFunction((n) => document.querySelector('#name-hint').textContent.includes(n), {}, name);
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForFunction((c) => document.body.dataset.phase === 'room' &&
    document.querySelector('#room-code').textContent.trim() === c, { timeout: STEP_MS }, code);
}

// Plays until the game ends: wait for one's turn, click a random action.
// `reloadAt`: after that many clicks, reload the page and check the seat.
async function play(page, game, random, { reloadAt = -1, deadline }) {
  let clicks = 0;
  let reloaded = false;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) fail(`${game}: ${page.label} finishes in time`, `${clicks} clicks so far`);
    try {
      await page.waitForFunction(
        () => document.body.dataset.phase === 'ended' ||
          (document.body.dataset.yourTurn === 'true' && document.querySelector('#actions button.action')),
        { timeout: Math.min(left, TURN_MS), polling: 'mutation' });
    } catch (e) {
      const status = await textOf(page, '#status').catch(() => '?');
      const err = await textOf(page, '#error').catch(() => '');
      fail(`${game}: ${page.label} gets its turn or the end`, `waited ${Math.round(Math.min(left, TURN_MS) / 1000)} s; status "${status}"; error "${err}"; after ${clicks} clicks`);
    }
    if ((await bodyData(page, 'phase')) === 'ended') break;
    const buttons = await page.$$('#actions button.action');
    if (buttons.length === 0) continue; // redrawn under us: look again
    const pick = buttons[Math.floor(random() * buttons.length)];
    try {
      await pick.click();
      clicks++;
    } catch {
      continue; // the list was redrawn between the look and the click
    }
    if (clicks === reloadAt && !reloaded) {
      reloaded = true;
      await reloadAndCheck(page, game);
    }
  }
  return clicks;
}

async function reloadAndCheck(page, game) {
  const seatBefore = await mySeat(page);
  const codeBefore = await textOf(page, '#room-code');
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(
    () => document.body.dataset.connection === 'open' &&
      (document.body.dataset.phase === 'game' || document.body.dataset.phase === 'ended'),
    { timeout: STEP_MS });
  await page.waitForFunction(() => document.querySelector('.seat.mine'), { timeout: STEP_MS });
  const seatAfter = await mySeat(page);
  const codeAfter = await textOf(page, '#room-code');
  check(seatBefore !== null && seatAfter === seatBefore && codeAfter === codeBefore,
    `${game}: ${page.label} reloads mid-game and is back in seat ${Number(seatBefore) + 1} of ${codeBefore}`,
    `before seat ${seatBefore} room ${codeBefore}, after seat ${seatAfter} room ${codeAfter}`);
  if (await isShown(page, '#notice')) console.log(`   (${page.label} sees: ${await textOf(page, '#notice-text')})`);
}

async function playGame(browser, base, game, seed) {
  const random = rng(seed);
  const deadline = Date.now() + GAME_MS;
  const host = await newPlayer(browser, 'host');
  const guest = await newPlayer(browser, 'guest');
  const watcher = await newPlayer(browser, 'spectator');
  const pages = [host.page, guest.page, watcher.page];
  try {
    const { code, link } = await createRoom(host.page, base, game);
    check(/^[0-9A-HJKMNP-TV-Z]{6}$/.test(code) && link.endsWith(`#${code}`),
      `${game.id}: host creates a room (code ${code}, link ${link})`);
    await screenshot(host.page, `${game.id}-room-desktop.png`);

    // The second player, on the lobby page with a name typed in, opens the
    // share link: the page joins by itself.
    await joinByLink(guest.page, base, link, code, 'Bo');
    check((await mySeat(guest.page)) === '1' && (await textOf(guest.page, '.seat.mine .seat-name')) === 'Bo',
      `${game.id}: the link seats the second player (Bo) in seat 2`);
    await host.page.waitForFunction(() => document.querySelectorAll('.seat[data-connected="true"]').length === 2);
    ok(`${game.id}: the host sees both seats taken and connected`);

    // The spectator finds the room (in the public list, when it is public)
    // and presses Watch.
    await watcher.page.goto(base, { waitUntil: 'load' });
    await waitOpen(watcher.page);
    if (game.public) {
      await watcher.page.waitForSelector(`#rooms .room[data-room="${code}"]`, { timeout: STEP_MS });
      ok(`${game.id}: the public room list shows ${code}`);
    }
    await typeInto(watcher.page, '#join-code', code.toLowerCase().replace(/^(...)/, '$1-'));
    await watcher.page.click('#watch');
    await watcher.page.waitForFunction((c) => document.querySelector('#room-code').textContent.trim() === c, {}, code);
    ok(`${game.id}: a third page watches ${code} (typed in lower case with a dash)`);

    // Chat before the start reaches everyone.
    await typeInto(host.page, '#chat-input', 'good luck');
    await host.page.click('#chat-send');
    for (const p of [guest.page, watcher.page]) {
      await p.waitForFunction(() => [...document.querySelectorAll('#chat-messages li')].some((li) => li.textContent.includes('good luck')));
    }
    ok(`${game.id}: chat reaches the other player and the spectator`);

    await host.page.click('#start');
    for (const p of pages) {
      await p.waitForFunction(() => document.body.dataset.phase === 'game' && document.querySelector('#board').children.length > 0, { timeout: STEP_MS });
    }
    ok(`${game.id}: the game starts and the board shows on all three pages`);
    check((await bodyData(watcher.page, 'yourTurn')) === 'false' &&
      (await watcher.page.$$('#actions button.action')).length === 0,
      `${game.id}: the spectator has no moves to click`);

    // Screenshots of the board early in the game, at both sizes.
    let shots = false;
    const takeShots = async () => {
      if (shots) return;
      shots = true;
      await screenshot(watcher.page, `${game.id}-board-desktop.png`);
      await screenshot(watcher.page, `${game.id}-board-phone.png`, PHONE);
    };

    const [hostClicks, guestClicks] = await Promise.all([
      play(host.page, game.id, rng(seed ^ 0x9e3779b9), { deadline }),
      (async () => {
        const n = await play(guest.page, game.id, random, { reloadAt: 6, deadline });
        return n;
      })(),
      (async () => {
        // Once a few moves are in, the spectator's page shows a game under way.
        await watcher.page.waitForFunction(() => document.querySelectorAll('#log li').length >= 6 || document.body.dataset.phase === 'ended', { timeout: GAME_MS, polling: 'mutation' });
        await takeShots();
      })(),
    ]);
    ok(`${game.id}: played to the end by clicking (${hostClicks} + ${guestClicks} clicks)`);

    for (const p of pages) {
      await p.waitForFunction(() => {
        const el = document.querySelector('#ended');
        return el && !el.hidden && el.getClientRects().length > 0 && document.querySelector('#winners').textContent.trim();
      }, { timeout: STEP_MS });
    }
    const winners = await textOf(host.page, '#winners');
    ok(`${game.id}: #ended shows on all three pages (${winners})`);
    const seedOk = await host.page.$eval('#seed-check', (el) => el.dataset.ok);
    check(seedOk === 'true', `${game.id}: the seed check passes`, await textOf(host.page, '#seed-check'));
    await screenshot(host.page, `${game.id}-ended-desktop.png`);
    await screenshot(guest.page, `${game.id}-ended-phone.png`, PHONE);

    // The record downloads as a file and holds every move.
    const record = await downloadRecord(host, `${game.id}-record.json`);
    // No bots play, so every action recorded came from a click.
    check(Object.entries(game.options).every(([k, v]) => String(record.options?.[k]) === String(v)),
      `${game.id}: the room was made with the options chosen in the form (${JSON.stringify(game.options)})`,
      JSON.stringify(record.options));
    check(record.game === game.id && Array.isArray(record.actions) && record.actions.length > 0 &&
      record.actions.length <= hostClicks + guestClicks &&
      /^[0-9a-f]{64}$/.test(record.seed),
      `${game.id}: #download-record saves the record (${record.actions?.length} actions)`);
    // The terminal client, when built beside the server, replays it.
    const cli = path.join(path.dirname(path.dirname(CONCLAVED)), 'client-cli', 'conclave');
    if (fs.existsSync(cli)) {
      let out = '';
      try {
        out = execFileSync(cli, ['replay', path.join(OUTDIR, `${game.id}-record.json`)], { encoding: 'utf8' });
      } catch (e) {
        fail(`${game.id}: conclave replay accepts the downloaded record`, `${e.status}: ${e.stdout}${e.stderr}`);
      }
      check(out.includes(`all ${record.actions.length} actions accepted`),
        `${game.id}: conclave replay accepts the downloaded record`, out.trim());
    }

    for (const p of [host.page, guest.page]) {
      const refusals = await p.evaluate(() => window.__refusals);
      check(refusals.length === 0, `${game.id}: no click of ${p.label}'s was refused`, refusals.slice(0, 5).join(' | '));
    }
    for (const p of pages) {
      if (p.syncs.length) fail(`${game.id}: ${p.label}'s page follows every diff`, p.syncs.slice(0, 3).join(' | '));
    }
    ok(`${game.id}: every diff applied on all three pages with the server's hash (no resync)`);
    for (const p of pages) {
      if (p.errors.length) fail(`${game.id}: ${p.label}'s page runs without script errors`, p.errors.slice(0, 5).join(' | '));
    }
    ok(`${game.id}: no script errors on any page`);
  } catch (e) {
    for (const p of pages) {
      await p.screenshot({ path: path.join(OUTDIR, `FAILED-${game.id}-${p.label}.png`) }).catch(() => {});
    }
    throw e;
  } finally {
    for (const c of [host, guest, watcher]) await c.context.close().catch(() => {});
  }
}

// Clicks the end screen's #download-record on `player`'s page and moves
// the file it saves to OUTDIR/name. Resolves with the record.
async function downloadRecord(player, name) {
  const dir = fs.mkdtempSync(path.join(OUTDIR, 'download-'));
  const cdp = await player.page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir, browserContextId: player.context.id });
  await player.page.click('#download-record');
  const file = await waitForFile(dir, 60000);
  const record = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.renameSync(file, path.join(OUTDIR, name));
  fs.rmSync(dir, { recursive: true, force: true });
  await cdp.detach().catch(() => {});
  return record;
}

async function waitForFile(dir, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const done = fs.readdirSync(dir).filter((f) => !f.endsWith('.crdownload'));
    if (done.length) return path.join(dir, done[0]);
    if (Date.now() > end) fail('the record download finishes', `nothing in ${dir}`);
    await new Promise((r) => setTimeout(r, 200)); // polling a directory: no event to wait for
  }
}

// ---- TLS ----

// Loads the https page in `browser` and creates a room over wss. Returns
// null when that works, else what went wrong.
async function tlsRoom(browser, url) {
  const { context, page } = await newPlayer(browser, 'tls');
  try {
    const sockets = [];
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketCreated', (e) => sockets.push(e.url));
    const failures = [];
    page.on('requestfailed', (r) => failures.push(`${new URL(r.url()).pathname}: ${r.failure()?.errorText}`));
    const protocols = new Set();
    cdp.on('Network.responseReceived', (e) => protocols.add(e.response.protocol || '?'));
    await page.goto(url, { waitUntil: 'load' });
    try {
      await waitOpen(page, 60000);
    } catch {
      return `the WebSocket never opened in 60 s; requests that failed: ${failures.join(', ') || 'none'}; ` +
        `response protocols: ${[...protocols].join(', ')}; WebSockets: ${sockets.join(', ') || 'none'}`;
    }
    if (!sockets.some((u) => u.startsWith('wss://'))) return `no wss WebSocket (${sockets.join(', ')})`;
    await page.select('#game', 'stones');
    await page.click('#create');
    await page.waitForFunction(() => document.querySelector('#room-code').textContent.trim().length === 6);
    const link = await page.$eval('#room-link', (a) => a.href);
    if (!link.startsWith('https://')) return `the share link is not https: ${link}`;
    return null;
  } catch (e) {
    return String(e.message || e);
  } finally {
    await context.close().catch(() => {});
  }
}

async function tlsCheck(browser) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conclave-tls-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const { url } = await startServer('tls', ['--tls-cert', cert, '--tls-key', key]);
  check(url.startsWith('https://'), `TLS: conclaved with a certificate serves ${url}`);
  const problem = await tlsRoom(browser, url);
  if (problem) {
    // Tell a fault of the server's HTTP/2 from one of TLS or the page: the
    // same steps again in a browser that speaks only HTTP/1.1.
    const http1 = await puppeteer.launch({
      executablePath: CHROMIUM, headless: true, acceptInsecureCerts: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--ignore-certificate-errors', '--disable-gpu', '--disable-http2'],
    });
    const again = await tlsRoom(http1, url);
    await http1.close().catch(() => {});
    fail('TLS: the page loads over https, connects over wss and creates a room', `${problem}` +
      (again ? `; with HTTP/2 off in the browser it fails too: ${again}`
        : '; with HTTP/2 off in the browser it works: the server\'s HTTP/2 is at fault'));
  }
  ok('TLS: the page loads over https, connects over wss and creates a room');
}

// ---- Bots ----

// A host alone picks a level for each open seat by its words, starts with
// bots, and the seats show those bots and their levels.
// Ann opens a Sorcerer & Stones room of `seats` from the lobby's form, the
// clock `clock` picked (its option's value, '' for none) with timeout
// policy `timeout`.
async function openStonesRoom(page, base, seats, clock = '', timeout = 'bot') {
  await page.goto(base, { waitUntil: 'load' });
  await waitOpen(page);
  await typeInto(page, '#name', 'Ann');
  await page.waitForSelector('#game option[value="stones"]');
  await page.select('#game', 'stones');
  await page.select('#seat-count', String(seats));
  await page.select('#clock', clock);
  await page.select('#timeout', timeout);
  await page.click('#create');
  await page.waitForFunction(() => document.body.dataset.phase === 'room');
}

async function botSeats(browser, base) {
  const { context, page } = await newPlayer(browser, 'bots');
  try {
    await openStonesRoom(page, base, 3);
    const pickers = await page.$$eval('select.bot-level', (ss) => ss.map((s) => ({
      seat: s.dataset.seat, value: s.value, choices: [...s.options].map((o) => o.textContent.trim()),
    })));
    check(pickers.length === 2 && pickers.every((p) => p.value === 'normal') &&
      pickers[0].choices.join(',') === 'random bot,easy bot,normal bot,hard bot',
      `bots: each open seat offers the server's levels, normal first chosen (${JSON.stringify(pickers)})`);
    await page.select('select.bot-level[data-seat="1"]', 'easy');
    await page.select('select.bot-level[data-seat="2"]', 'random');
    await page.click('#bots');
    await page.click('#start');
    await page.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });
    await page.waitForFunction(() => document.querySelector('.seat[data-seat="2"] .seat-state')?.textContent === 'bot · random');
    const states = await page.$$eval('.seat .seat-state', (ss) => ss.map((s) => s.textContent));
    check(states[1] === 'bot · easy' && states[2] === 'bot · random',
      `bots: the seats show the bots at the levels picked (${states.join(', ')})`);
    check((await page.$$('select.bot-level')).length === 0, 'bots: no level to pick once the game runs');
  } finally {
    await context.close();
  }
}

// Element's placement in two steps (docs/rules/element.md 4.6), by
// clicking against a bot: after a draw the moves offer a pick of each
// stone in hand and no square; after a pick, that stone's squares only;
// a placement is then played and logged.
async function elementPick(browser, base) {
  const { context, page } = await newPlayer(browser, 'element');
  const labels = () => page.$$eval('#actions button.action', (bs) => bs.map((b) => b.textContent.trim()));
  const myTurn = () => page.waitForFunction(() => document.body.dataset.yourTurn === 'true' &&
    document.querySelector('#actions button.action'), { timeout: TURN_MS, polling: 'mutation' });
  const clickLabel = async (re) => {
    const buttons = await page.$$('#actions button.action');
    for (const b of buttons) {
      if (re.test(await b.evaluate((el) => el.textContent.trim()))) {
        await b.click();
        return true;
      }
    }
    return false;
  };
  try {
    await page.goto(base, { waitUntil: 'load' });
    await waitOpen(page);
    await typeInto(page, '#name', 'Ann');
    await page.waitForSelector('#game option[value="element"]');
    await page.select('#game', 'element');
    await page.click('#create');
    await page.waitForFunction(() => document.body.dataset.phase === 'room');
    await page.click('#bots');
    await page.click('#start');
    await page.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });
    await myTurn();
    if (!(await clickLabel(/^Draw 2 stones/))) fail('element: a draw of two is offered', JSON.stringify(await labels()));
    await page.waitForFunction(() => [...document.querySelectorAll('#actions button.action')]
      .some((b) => b.textContent.trim().startsWith('Pick ')), { timeout: TURN_MS, polling: 'mutation' });
    let shown = await labels();
    check(shown.some((l) => l.startsWith('Pick ')) && !shown.some((l) => l.startsWith('Place ')),
      `element: after the draw the moves pick a stone, no square yet (${shown.filter((l) => l.startsWith('Pick ')).join('; ')})`);
    const picked = shown.find((l) => l.startsWith('Pick ')).replace(/^Pick (\S+) .*$/, '$1');
    await clickLabel(new RegExp(`^Pick ${picked} `));
    await page.waitForFunction((w) => [...document.querySelectorAll('#actions button.action')]
      .some((b) => b.textContent.trim().startsWith(`Place ${w} on `)), { timeout: TURN_MS, polling: 'mutation' }, picked);
    shown = await labels();
    const places = shown.filter((l) => l.startsWith('Place '));
    check(places.length > 0 && places.every((l) => l.startsWith(`Place ${picked} on `)),
      `element: after picking ${picked} the moves place it alone (${places.length} squares)`);
    check(await page.$eval('.picked', (el) => el.textContent.includes('(picked)')).catch(() => false),
      `element: the hand marks ${picked} as picked`);
    const square = places[0].replace(/^Place \S+ on (\S+).*$/, '$1');
    await clickLabel(new RegExp(`^Place ${picked} on ${square}`));
    await page.waitForFunction((w, sq) => document.querySelector('#log')?.textContent.includes(`places ${w.toLowerCase()} on ${sq}`),
      { timeout: TURN_MS, polling: 'mutation' }, picked, square);
    ok(`element: ${picked} placed on ${square} by a pick and a square`);
  } finally {
    await context.close();
  }
}

// Two players at a table of Sorcerer & Stones: the one to move places,
// the Take back button appears (the server's reply says the move may come
// back), a click takes the move back for both (the log says so, the turn
// and the list of moves are as before), and the button goes away.
async function undoMove(browser, base) {
  const ann = await newPlayer(browser, 'undo-ann');
  const bo = await newPlayer(browser, 'undo-bo');
  try {
    await openStonesRoom(ann.page, base, 2);
    const code = await textOf(ann.page, '#room-code');
    await bo.page.goto(base, { waitUntil: 'load' });
    await waitOpen(bo.page);
    await typeInto(bo.page, '#name', 'Bo');
    await typeInto(bo.page, '#join-code', code.toLowerCase());
    await bo.page.click('#join');
    await bo.page.waitForFunction(() => document.body.dataset.phase === 'room');
    await ann.page.waitForFunction(() => !document.querySelector('#start').disabled);
    await ann.page.click('#start');
    for (const p of [ann.page, bo.page]) {
      await p.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });
    }
    // The seat to move is the page whose moves come on screen: both pages
    // say "not your turn" until their `legal` reply is in.
    const mover = await new Promise((resolve, reject) => {
      let left = 2;
      for (const pl of [ann, bo]) {
        pl.page.waitForFunction(() => document.body.dataset.yourTurn === 'true', { timeout: STEP_MS })
          .then(() => resolve(pl), (e) => { if (--left === 0) reject(e); });
      }
    });
    const other = mover === ann ? bo : ann;
    await mover.page.waitForSelector('#actions button.action');
    const moves = await mover.page.$$eval('#actions button.action', (bs) => bs.map((b) => b.textContent));
    check(await isShown(mover.page, '#undo') === false, 'undo: no Take back button before a move');
    await (await mover.page.$('#actions button.action')).click();
    await mover.page.waitForFunction(() => !document.querySelector('#undo').hidden, { timeout: STEP_MS });
    await mover.page.click('#undo');
    await mover.page.waitForFunction(() => document.querySelector('#undo').hidden &&
      document.body.dataset.yourTurn === 'true' && /You took back a move/.test(document.querySelector('#log').textContent),
    { timeout: STEP_MS });
    await other.page.waitForFunction(() => /took back a move/.test(document.querySelector('#log').textContent),
      { timeout: STEP_MS });
    await mover.page.waitForSelector('#actions button.action');
    const again = await mover.page.$$eval('#actions button.action', (bs) => bs.map((b) => b.textContent));
    check(JSON.stringify(again) === JSON.stringify(moves),
      `undo: the move taken back, the same moves are offered again (${again.length} of ${moves.length})`);
  } finally {
    await ann.context.close();
    await bo.context.close();
  }
}

// ---- Languages ----

const CJK = /[\u3400-\u9fff]/;

// Line `msg` of a view's log_keys ([key, arg, ...]) in catalogue `cat`'s
// language `l`, as lang/README.md says: {i} is argument i, {i:type} the
// argument looked up in terms[type] (cards by their English name).
function catalogueLine(cat, msg, l) {
  const tmpl = cat.messages?.[msg?.[0]]?.[l];
  if (typeof tmpl !== 'string') return null;
  return tmpl.replace(/\{(\d+)(?::([a-z_]+))?\}/g, (m, i, type) => {
    const v = msg[Number(i) + 1];
    if (!type) return v;
    if (type === 'card') return Object.values(cat.cards || {}).find((c) => c.en === v)?.[l] || v;
    return cat.terms?.[type]?.[v] || v;
  });
}

// Two pages at one table of Sorcerer & Stones: Ann's browser prefers
// Simplified Chinese (navigator.languages), Bo's English. Ann's page is in
// Chinese from the lobby on; a few moves are made by clicking; each page
// shows the game's log lines in its reader's language: on Ann's page the
// catalogue's zh-CN template filled from the view's log_keys, on Bo's the
// view's own English line. Both follow every diff with the server's hash.
// Ann switches to English and back: her log is rewritten line for line.
async function languages(browser, base) {
  const ann = await newPlayer(browser, 'lang-zh');
  const bo = await newPlayer(browser, 'lang-en');
  const pages = [ann.page, bo.page];
  try {
    await ann.page.evaluateOnNewDocument(() => {
      Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['zh-CN', 'zh'] });
      Object.defineProperty(Navigator.prototype, 'language', { get: () => 'zh-CN' });
    });
    await ann.page.goto(base, { waitUntil: 'load' });
    await waitOpen(ann.page);
    await ann.page.waitForSelector('#game option[value="stones"]');
    const lobby = await ann.page.evaluate(() => ({
      lang: document.documentElement.lang, pick: document.querySelector('#lang').value,
      create: document.querySelector('#create').textContent, connection: document.querySelector('#connection-text').textContent,
      game: document.querySelector('#game option[value="stones"]').textContent,
    }));
    check(lobby.lang === 'zh-CN' && lobby.pick === 'zh-CN' && [lobby.create, lobby.connection, lobby.game].every((x) => CJK.test(x)),
      `languages: a browser that prefers Chinese gets the lobby in Chinese (${lobby.create}, ${lobby.connection}, ${lobby.game})`);
    const { code, link } = await createRoom(ann.page, base, { id: 'stones', options: {} });
    await joinByLink(bo.page, base, link, code, 'Bo');
    await ann.page.waitForFunction(() => document.querySelectorAll('.seat[data-connected="true"]').length === 2);
    const room = await ann.page.evaluate(() => [document.querySelector('.seat.mine .seat-state').textContent,
      document.querySelector('#room-wait').textContent, document.querySelector('#log li').textContent]);
    check(room.every((x) => CJK.test(x)), `languages: the room in Chinese (${room.join(' | ')})`);
    check(await textOf(bo.page, '.seat.mine .seat-state') === 'connected' && (await bodyData(bo.page, 'phase')) === 'room' &&
      await bo.page.evaluate(() => document.documentElement.lang) === 'en', 'languages: the English page\'s room in English');
    await ann.page.click('#start');
    for (const p of pages) await p.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });

    // A few moves, by whichever page has its turn.
    const random = rng(SEED + 271);
    for (let n = 0; n < 8; n++) {
      const turns = pages.map((p) => p.waitForFunction(() => document.body.dataset.yourTurn === 'true' &&
        document.querySelector('#actions button.action'), { timeout: TURN_MS, polling: 'mutation' }).then(() => p));
      for (const w of turns) w.catch(() => {});
      const p = await Promise.any(turns);
      const buttons = await p.$$('#actions button.action');
      if (buttons.length) await buttons[Math.floor(random() * buttons.length)].click().catch(() => {});
    }
    const status = await ann.page.evaluate(() => [document.querySelector('#seat-info').textContent,
      document.querySelector('#actions-title').textContent]);
    check(status.every((x) => CJK.test(x)), `languages: the game's status in Chinese (${status.join(' | ')})`);

    // The room's view as a spectator reads it, and the catalogue.
    const { view, cat } = await bo.page.evaluate(async (room) => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`, 'conclave.v1');
      const state = new Promise((resolve, reject) => {
        ws.onerror = () => reject(new Error('the WebSocket failed'));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.ev === 'state') resolve(m.view);
        };
      });
      await new Promise((resolve) => { ws.onopen = resolve; });
      ws.send(JSON.stringify({ id: 1, op: 'hello', proto: 1, name: 'Checker' }));
      ws.send(JSON.stringify({ id: 2, op: 'spectate', room }));
      const v = await state;
      ws.close();
      return { view: v, cat: await (await fetch('lang/stones.json')).json() };
    }, code);
    const lines = (view.log || []).map((en, i) => ({ en, zh: catalogueLine(cat, view.log_keys?.[i], 'zh-CN') }))
      .filter((x) => x.zh !== null);
    check(lines.length > 0 && lines.every((x) => CJK.test(x.zh)), `languages: the view's ${lines.length} log lines have Chinese messages`);
    const shows = (p, texts) => p.waitForFunction((want) => {
      const have = new Set([...document.querySelectorAll('#log li.log-game')].map((li) => li.textContent));
      return want.every((w) => have.has(w));
    }, { timeout: STEP_MS }, texts);
    await shows(ann.page, lines.map((x) => x.zh));
    await shows(bo.page, lines.map((x) => x.en));
    ok(`languages: each line in each reader's language: "${lines[lines.length - 1].zh}" / "${lines[lines.length - 1].en}"`);

    await ann.page.select('#lang', 'en');
    await shows(ann.page, lines.map((x) => x.en));
    await ann.page.waitForFunction(() => document.documentElement.lang === 'en' && /^You are /.test(document.querySelector('#seat-info').textContent));
    await ann.page.select('#lang', 'zh-CN');
    await shows(ann.page, lines.map((x) => x.zh));
    ok('languages: a switch to English and back writes the log and the status again');

    for (const p of pages) {
      if (p.syncs.length) fail(`languages: ${p.label}'s page follows every diff`, p.syncs.slice(0, 3).join(' | '));
      if (p.errors.length) fail(`languages: ${p.label}'s page runs without script errors`, p.errors.slice(0, 5).join(' | '));
    }
    ok('languages: both pages applied every diff with the server\'s hash (no resync), no script errors');
  } catch (e) {
    for (const p of pages) await p.screenshot({ path: path.join(OUTDIR, `FAILED-languages-${p.label}.png`) }).catch(() => {});
    throw e;
  } finally {
    await ann.context.close().catch(() => {});
    await bo.context.close().catch(() => {});
  }
}

// ---- After the game: rematch, history and review ----

// The server's own review of `room`, every rev, from a connection of its
// own opened in `page` (so that it works with --url too): [{rev, hash,
// hashes, step}].
function serverReviews(page, room) {
  return page.evaluate(async (code) => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`, 'conclave.v1');
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error('the WebSocket did not open'));
    });
    const waiting = new Map();
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      waiting.get(m.re)?.(m);
      waiting.delete(m.re);
    };
    let id = 0;
    const req = (op, args) => new Promise((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, op, ...args }));
    });
    await req('hello', { proto: 1, name: 'Checker' });
    const last = await req('review', { room: code });
    if (!last.ok) throw new Error(`review ${code}: ${JSON.stringify(last.error)}`);
    const out = [];
    for (let rev = last.review.first; rev <= last.review.last; rev++) {
      const r = (await req('review', { room: code, rev })).review;
      out.push({ rev, hash: r.hash, hashes: r.hashes, step: r.step });
    }
    ws.close();
    return out;
  }, room);
}

// What the review screen shows: its rev, the checks and the hashes the
// page computed (the public view's first, then each seat's).
const reviewShown = (page) => page.evaluate(() => {
  const root = document.querySelector('#review');
  return {
    state: root.dataset.state, rev: Number(root.dataset.rev), last: Number(root.dataset.last),
    step: document.querySelector('#review-step').textContent,
    title: document.querySelector('#review-title').textContent,
    seed: document.querySelector('#review-seed').dataset.ok,
    views: document.querySelector('#review-hash-summary').dataset.ok,
    hashes: [...document.querySelectorAll('#review-hashes li')].map((li) => ({ seat: li.dataset.seat, hash: li.dataset.hash, ok: li.dataset.ok })),
    board: document.querySelector('#review-board').children.length,
    hands: document.querySelectorAll('#review-hands .review-hand').length,
    message: document.querySelector('#review-message').hidden ? '' : document.querySelector('#review-message').textContent,
  };
});

async function waitReviewRev(page, rev) {
  await page.waitForFunction((r) => {
    const root = document.querySelector('#review');
    return root.dataset.state === 'shown' && Number(root.dataset.rev) === r;
  }, { timeout: STEP_MS }, rev);
}

// The page's hashes of one step against the server's: null when they
// agree, else what differs.
function hashesDiffer(shown, server) {
  const want = [server.hash, ...server.hashes];
  if (shown.hashes.length !== want.length) return `${shown.hashes.length} hashes shown, ${want.length} sent`;
  const bad = shown.hashes.filter((x, i) => x.hash !== want[i] || x.ok !== 'true');
  return bad.length ? bad.map((x) => `${x.seat}: ${x.hash}`).join(', ') : null;
}

// Two players finish a game of Sorcerers of one turn by clicking. Ann
// offers a rematch; Bo sees the offer, declines, then joins after all;
// both pages end in the new room under their names, the seats moved round
// by one, Ann hosting. A third page finds the game under "Recently
// finished", follows its Review link and steps through every rev with the
// Forward button: each step's views hash, on the page, to what the server
// sent during play, and the seed check passes; keys and the slider move
// too. The record Bo downloaded opens in the review screen at its last
// step, as the room's review ends.
async function afterGame(browser, base) {
  const ann = await newPlayer(browser, 'after-ann');
  const bo = await newPlayer(browser, 'after-bo');
  const eve = await newPlayer(browser, 'after-review');
  const pages = [ann.page, bo.page, eve.page];
  try {
    const { code, link } = await createRoom(ann.page, base, { id: 'sorcerers', options: { max_turns: '1' }, public: true });
    await joinByLink(bo.page, base, link, code, 'Bo');
    await ann.page.waitForFunction(() => document.querySelectorAll('.seat[data-connected="true"]').length === 2);
    await ann.page.click('#start');
    const deadline = Date.now() + GAME_MS;
    const clicks = await Promise.all([ann, bo].map((p, i) => play(p.page, 'after', rng(SEED + 31 * i), { deadline })));
    ok(`after: a game of Sorcerers of one turn, ${code}, played to its end (${clicks.join(' + ')} clicks)`);
    const record = await downloadRecord(bo, 'after-record.json');
    const recordFile = path.join(OUTDIR, 'after-record.json');

    // The rematch.
    check(await isShown(ann.page, '#rematch') && await ann.page.$eval('#review-game', (a) => a.getAttribute('href')) === `#review/${code}`,
      'rematch: the end screen offers a Rematch button and links to the review of the game');
    await ann.page.click('#rematch');
    await ann.page.waitForFunction((old) => document.body.dataset.phase === 'room' &&
      /^[0-9A-Z]{6}$/.test(document.querySelector('#room-code').textContent.trim()) &&
      document.querySelector('#room-code').textContent.trim() !== old, { timeout: STEP_MS }, code);
    const fresh = await textOf(ann.page, '#room-code');
    await bo.page.waitForFunction(() => !document.querySelector('#rematch-decline').hidden, { timeout: STEP_MS });
    const offer = await bo.page.$$eval('#rematch-seats li', (ls) => ls.map((l) => `${l.dataset.seat}>${l.dataset.to}:${l.dataset.answer}`));
    check(offer.join(' ') === '0>1:yes 1>0:waiting' && /^Ann offers a rematch in room /.test(await textOf(bo.page, '#rematch-offer')),
      `rematch: Ann offers one (room ${fresh}); Bo sees the offer, Ann joined and moved to seat 2, Bo waited for in seat 1 (${offer.join(' ')})`);
    await screenshot(bo.page, 'rematch-offer-desktop.png');
    await bo.page.click('#rematch-decline');
    await bo.page.waitForFunction(() => document.querySelector('#rematch-box').dataset.answer === 'no' &&
      document.querySelector('#rematch-seats li[data-seat="1"]').dataset.answer === 'no', { timeout: STEP_MS });
    await ann.page.waitForFunction(() => document.querySelector('.seat[data-seat="0"]')?.dataset.kind === 'empty', { timeout: STEP_MS });
    check(await bodyData(bo.page, 'phase') === 'ended' && await textOf(bo.page, '#rematch-seats li[data-seat="1"] .rematch-answer') === 'declined',
      'rematch: Bo declines, stays at the end screen, which says so; the seat kept for him opens in the new room');
    // The end screen's review link, and back.
    await bo.page.click('#review-game');
    await bo.page.waitForFunction(() => document.body.dataset.phase === 'review' &&
      document.querySelector('#review').dataset.state === 'shown', { timeout: STEP_MS });
    await bo.page.click('#review-close');
    await bo.page.waitForFunction((c) => document.body.dataset.phase === 'ended' && location.hash === `#${c}` &&
      !document.querySelector('#rematch-join').hidden, { timeout: STEP_MS }, code);
    ok('review: the end screen\'s link opens the review of the game; Close review goes back to the end screen');
    await bo.page.click('#rematch-join');
    await bo.page.waitForFunction((c) => document.body.dataset.phase === 'room' &&
      document.querySelector('#room-code').textContent.trim() === c, { timeout: STEP_MS }, fresh);
    await ann.page.waitForFunction(() => document.querySelectorAll('.seat[data-connected="true"]').length === 2, { timeout: STEP_MS });
    const seatsOf = (p) => p.$$eval('.seat', (ss) => ss.map((x) => `${x.dataset.seat}:${x.querySelector('.seat-name').textContent}`).join(' '));
    const seats = [await seatsOf(ann.page), await seatsOf(bo.page)];
    check(await mySeat(ann.page) === '1' && await mySeat(bo.page) === '0' && seats.every((x) => x === '0:Bo 1:Ann') &&
      await isShown(ann.page, '#host-controls') && !(await isShown(bo.page, '#host-controls')),
    `rematch: Bo joins after all; both pages are in room ${fresh}, seats moved round (${seats[0]}), Ann hosts`);
    await bo.page.reload({ waitUntil: 'load' });
    await bo.page.waitForFunction((c) => document.body.dataset.connection === 'open' && document.body.dataset.phase === 'room' &&
      document.querySelector('#room-code').textContent.trim() === c && document.querySelector('.seat.mine'), { timeout: STEP_MS }, fresh);
    check(await mySeat(bo.page) === '0', `rematch: after a reload Bo is back in seat 1 of ${fresh}`);

    // History, and the review of the finished game.
    await eve.page.goto(base, { waitUntil: 'load' });
    await waitOpen(eve.page);
    const server = await serverReviews(eve.page, code);
    const entry = `#ended-games li[data-room="${code}"]`;
    await eve.page.waitForSelector(`${entry} a.review-link`, { timeout: STEP_MS });
    const listed = await eve.page.$eval(`${entry} .hint`, (el) => el.textContent);
    check(/^Ann, Bo · ended /.test(listed), `history: the lobby lists ${code} under Recently finished (${listed})`);
    await eve.page.$eval('#ended-card', (el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(eve.page, 'history-desktop.png');
    await eve.page.click(`${entry} a.review-link`);
    const last = server.length;
    await waitReviewRev(eve.page, last);
    let shown = await reviewShown(eve.page);
    check(shown.last === last && shown.seed === 'true' && shown.board > 0 && shown.hands === 2,
      `review: the Review link opens ${code} at its last step (${last}), the board and both hands drawn, the seed check passed`,
      JSON.stringify(shown));
    await eve.page.keyboard.press('Home');
    await waitReviewRev(eve.page, 1);
    for (let rev = 1; ; rev++) {
      shown = await reviewShown(eve.page);
      const differ = hashesDiffer(shown, server[rev - 1]);
      if (differ || shown.views !== 'true' || shown.seed !== 'true' || shown.board === 0) {
        fail(`review: step ${rev}'s views hash on the page to the server's`, differ || JSON.stringify(shown));
      }
      if (rev === last) break;
      await eve.page.click('#review-forward');
      await waitReviewRev(eve.page, rev + 1);
    }
    check(await eve.page.$eval('#review-forward', (b) => b.disabled),
      `review: Forward steps through all ${last} steps; at each the public view's and both seats' hashes computed on the page equal the server's, the seed check good`);
    await eve.page.keyboard.press('ArrowLeft');
    await waitReviewRev(eve.page, last - 1);
    await eve.page.$eval('#review-slider', (el) => {
      el.value = '2';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitReviewRev(eve.page, 2);
    await eve.page.keyboard.press('End');
    await waitReviewRev(eve.page, last);
    const roomLast = await reviewShown(eve.page);
    ok('review: the left arrow steps back, the slider goes to step 2, End to the last step');
    await axeCheck(eve.page, 'the review screen');
    await screenshot(eve.page, 'review-desktop.png');
    await screenshot(eve.page, 'review-phone.png', PHONE);

    // The downloaded record, opened as a file.
    const input = await eve.page.$('#review-file');
    await input.uploadFile(recordFile);
    await eve.page.waitForFunction(() => document.querySelector('#review').dataset.state === 'shown' &&
      /after-record\.json/.test(document.querySelector('#review-title').textContent), { timeout: STEP_MS });
    shown = await reviewShown(eve.page);
    check(shown.rev === last && shown.last === last && shown.step === roomLast.step && shown.seed === 'true' &&
      shown.views === 'true' && !hashesDiffer(shown, server[last - 1]),
      `review: the downloaded record (${record.actions.length} actions) opens at its last step, the room's last (${shown.step})`,
      JSON.stringify(shown));

    for (const p of pages) {
      const refusals = await p.evaluate(() => window.__refusals);
      if (refusals.length) fail(`after: nothing refused on ${p.label}'s page`, refusals.slice(0, 5).join(' | '));
      if (p.errors.length) fail(`after: ${p.label}'s page runs without script errors`, p.errors.slice(0, 5).join(' | '));
    }
    ok('after: nothing refused, no script errors on the three pages');
  } catch (e) {
    for (const p of pages) await p.screenshot({ path: path.join(OUTDIR, `FAILED-after-${p.label}.png`) }).catch(() => {});
    throw e;
  } finally {
    for (const c of [ann, bo, eve]) await c.context.close().catch(() => {});
  }
}

// A clocked room: the clock picked at create shows each seat's time, and
// the running one ticks down on the page between the server's diffs.
async function clockRoom(browser, base) {
  const { context, page } = await newPlayer(browser, 'clock');
  try {
    await openStonesRoom(page, base, 2, '{"type":"fischer","base":300,"increment":3}', 'skip');
    await page.click('#bots');
    await page.click('#start');
    await page.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });
    await page.waitForFunction(() => !document.querySelector('#clocks').hidden &&
      document.querySelectorAll('#clocks li').length === 2, { timeout: STEP_MS });
    // The bot places first; then Ann's clock runs, from 5:00, and ticks down.
    await page.waitForFunction(() => /^Ann \(you\)/.test(document.querySelector('#clocks li.running')?.textContent || ''),
      { timeout: STEP_MS });
    const first = await page.$eval('#clocks li.running', (li) => li.textContent);
    await page.waitForFunction((t) => {
      const li = document.querySelector('#clocks li.running');
      return li && li.textContent !== t && /^Ann \(you\): 4:5\d/.test(li.textContent);
    }, { timeout: STEP_MS }, first);
    const texts = await page.$$eval('#clocks li', (ls) => ls.map((l) => l.textContent));
    check(/^Ann \(you\): (5:00|4:5\d) ⏱$/.test(first) && /^Ann \(you\): 4:5\d ⏱$/.test(texts[0]) &&
      /^Bot 1: 5:0\d$/.test(texts[1]),
      `clock: each seat's time, the running one ticking on the page (${first} → ${texts.join(' | ')})`);
    const policy = await page.$eval('#clock-policy', (p) => (p.hidden ? '' : p.textContent));
    check(/turn is skipped/.test(policy), `clock: the room says a turn out of time is skipped (${policy})`);
    // A second tab of the same browser, in the lobby: "My games" has the
    // room, Ann's turn there, and the title counts it.
    const code = await page.$eval('#room-code', (el) => el.textContent);
    const other = await context.newPage();
    other.setDefaultTimeout(STEP_MS);
    await other.goto(base, { waitUntil: 'load' });
    await other.waitForFunction((c) => document.querySelector(`#my-games li[data-room="${c}"] .my-game-state`)?.textContent === 'your turn',
      { timeout: STEP_MS }, code);
    await other.waitForFunction(() => document.title.startsWith('(1) '), { timeout: STEP_MS });
    const icon = await other.$eval('#favicon', (l) => l.getAttribute('href'));
    check(!(await other.$eval('#my-games-card', (c) => c.hidden)) && icon.startsWith('data:image/svg+xml'),
      `my games: another tab lists room ${code} as your turn, title "${await other.title()}", a badge on the icon`);
  } finally {
    await context.close();
  }
}

// ---- Notices ----

// Resolves as `promise` does, or fails the check `what` after `ms`.
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`${what}: nothing after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// The notifications the page's service worker shows, as plain objects.
const shownNotices = (page) => page.evaluate(async () => {
  const reg = await navigator.serviceWorker.ready;
  return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
});

// Delivers a push through DevTools until a notification titled `title`
// shows. A delivery may be lost on a busy browser (the worker stopping as
// it comes), so it is sent again every 15 s, up to STEP_MS; the same tag
// replaces the notice, so repeats add none. Resolves with the count sent.
async function pushUntilShown(cdp, page, target, data, title) {
  const end = Date.now() + STEP_MS;
  for (let sent = 1; ; sent++) {
    await cdp.send('ServiceWorker.deliverPushMessage', { ...target, data });
    try {
      await page.waitForFunction(async (t) => {
        const reg = await navigator.serviceWorker.ready;
        return (await reg.getNotifications()).some((n) => n.title === t);
      }, { timeout: Math.max(1000, Math.min(15000, end - Date.now())), polling: 250 }, title);
      return sent;
    } catch (e) {
      if (Date.now() >= end) fail(`push: a notice titled "${title}" shows`, `${sent} deliveries, none shown`);
    }
  }
}

// With notifications allowed, the page registers web/sw.js at load; a push
// delivered to it (through DevTools: there is no push service offline)
// shows the notice's title and text, tagged by room, keeping its link; a
// push whose data is not JSON still shows a generic notice.
async function pushNotice(browser, base) {
  const { context, page } = await newPlayer(browser, 'push');
  try {
    const origin = new URL(base).origin;
    const script = new URL('sw.js', base).href;
    await context.overridePermissions(origin, ['notifications']);
    const cdp = await page.createCDPSession();
    const activated = new Promise((resolve) => {
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        const v = versions.find((x) => x.scriptURL === script && x.status === 'activated');
        if (v) resolve(v.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await page.goto(base, { waitUntil: 'load' });
    await waitOpen(page);
    const registrationId = await within(activated, STEP_MS, 'push: the page registers sw.js at load');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    check(scope === base, `push: with notifications allowed the page registers sw.js at load (scope ${scope})`);

    const notice = {
      content: 'Your turn in Sorcerer & Stones, room ABC123.', event: 'turn', game: 'stones', name: 'Ann',
      room: 'ABC123', seat: 0, text: 'Your turn in Sorcerer & Stones, room ABC123.', title: 'Conclave: your turn',
      url: `${base}#ABC123`,
    };
    const target = { origin, registrationId };
    const sent = await pushUntilShown(cdp, page, target, JSON.stringify(notice), notice.title);
    const shown = (await shownNotices(page)).find((n) => n.title === notice.title);
    check(shown.body === notice.text && shown.data?.url === notice.url && shown.tag.includes('ABC123'),
      `push: a pushed notice shows as "${shown.title}: ${shown.body}", for room ABC123 with its link` +
      ` (${sent} deliver${sent === 1 ? 'y' : 'ies'})`, JSON.stringify(shown));

    const again = await pushUntilShown(cdp, page, target, 'not JSON {', 'Conclave');
    ok(`push: a push whose data is not JSON shows a generic "Conclave" notice (${again} deliver${again === 1 ? 'y' : 'ies'})`);
    if (page.errors.length) fail('push: no script errors', page.errors.slice(0, 5).join(' | '));
    await cdp.send('ServiceWorker.disable').catch(() => {});
  } finally {
    await context.close();
  }
}

// A seated player sees the notice box (the server's hello offers
// notices), saves a webhook and sees where notices go; an address the
// server refuses is said in the box, not in the page's banner; "Off"
// clears it; the push button, with no push service to reach offline,
// either subscribes or says clearly why it could not.
async function notifyBox(browser, base) {
  const { context, page } = await newPlayer(browser, 'notices', DESKTOP, browser.defaultBrowserContext());
  try {
    await context.overridePermissions(new URL(base).origin, ['notifications']);
    await openStonesRoom(page, base, 2);
    await page.waitForFunction(() => {
      const box = document.querySelector('#notify-box');
      return box && !box.hidden && /^(No notices|Notices go to)/.test(document.querySelector('#notify-summary').textContent);
    }, { timeout: STEP_MS });
    check(await textOf(page, '#notify-summary') === 'No notices', 'notices: a seated player sees the notice box, with no notices yet');

    const hook = 'https://hooks.example.net/x';
    await typeInto(page, '#notify-webhook', hook);
    await page.click('#notify-save');
    await page.waitForFunction((t) => document.querySelector('#notify-summary').textContent === t,
      { timeout: STEP_MS }, `Notices go to ${hook}`);
    ok(`notices: saving ${hook} shows "Notices go to ${hook}"`);
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction((t) => document.body.dataset.connection === 'open' &&
      document.querySelector('#notify-summary').textContent === t, { timeout: STEP_MS }, `Notices go to ${hook}`);
    check(await page.$eval('#notify-webhook', (el) => el.value) === hook,
      'notices: after a reload the box shows the webhook the server keeps for the seat');

    await typeInto(page, '#notify-webhook', 'http://127.0.0.1/x');
    await page.click('#notify-save');
    await page.waitForFunction(() => !document.querySelector('#notify-error').hidden, { timeout: STEP_MS });
    const refusal = await textOf(page, '#notify-error');
    const banner = await isShown(page, '#error');
    const focused = await page.evaluate(() => document.activeElement?.id);
    check(/refused/.test(refusal) && !banner && focused === 'notify-webhook' &&
      await textOf(page, '#notify-summary') === `Notices go to ${hook}`,
    `notices: a loopback address is refused in the box, the field focused, the old webhook kept (${refusal})`);

    await page.click('#notify-off');
    await page.waitForFunction(() => document.querySelector('#notify-summary').textContent === 'No notices', { timeout: STEP_MS });
    ok('notices: "Off" leaves no notices');

    if (await isShown(page, '#notify-push')) {
      await page.click('#notify-push');
      // The page gives the push service 30 s before it says it is out of reach.
      await page.waitForFunction(() => document.querySelector('#notify-box').getAttribute('aria-busy') === 'false' &&
        (!document.querySelector('#notify-error').hidden ||
          /^Notices go to .*\d browsers?$/.test(document.querySelector('#notify-summary').textContent)),
      { timeout: STEP_MS });
      const summary = await textOf(page, '#notify-summary');
      const error = await page.$eval('#notify-error', (el) => (el.hidden ? '' : el.textContent));
      check(/ 1 browser$/.test(summary) || /could not subscribe/.test(error),
        `notices: the push button subscribes or says why not (${error || summary})`);
    } else {
      console.log('# notices: the server offers no push key: the push button is hidden');
    }
    await screenshot(page, 'notices-desktop.png');
    if (page.errors.length) fail('notices: no script errors', page.errors.slice(0, 5).join(' | '));
  } finally {
    await page.close();
    await context.clearPermissionOverrides();
  }
}

// ---- A fleet ----

// A room on server A, a player on server B's page: B answers the join with
// room_elsewhere (it asks a stand-in of the Agones allocator service, plain
// HTTP here: the mTLS client is tested in tests/integration/test_fleet.py),
// and the page goes to A's page by itself and takes the seat there.
async function fleetJoin(browser) {
  const a = await startServer('fleet-a', ['--bot-max-level', 'random']);
  let room = null;
  const alloc = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      let want = null;
      try {
        want = JSON.parse(body).gameServerSelectors[0].lists.rooms.containsValue;
      } catch { /* answered as no match */ }
      const web = new URL(a.url);
      if (req.url === '/gameserverallocation' && want && want === room) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ gameServerName: 'conclave-a', address: '127.0.0.1', ports: [
          { name: 'game', port: Number(a.addr.split(':').pop()) },
          { name: 'http', port: Number(web.port) }] }));
      } else {
        res.writeHead(429, { 'Content-Type': 'text/plain' });
        res.end('there is no available GameServer to allocate');
      }
    });
  });
  await new Promise((resolve) => alloc.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => alloc.close());
  const b = await startServer('fleet-b', ['--agones-allocator', `http://127.0.0.1:${alloc.address().port}`]);
  const host = await newPlayer(browser, 'fleet-host');
  const guest = await newPlayer(browser, 'fleet-guest');
  try {
    await host.page.goto(a.url, { waitUntil: 'load' });
    await waitOpen(host.page);
    await typeInto(host.page, '#name', 'Ann');
    await host.page.waitForSelector('#game option[value="sorcerers"]');
    await host.page.select('#game', 'sorcerers');
    await host.page.click('#create');
    await host.page.waitForFunction(() => document.body.dataset.phase === 'room');
    room = await textOf(host.page, '#room-code');

    await guest.page.goto(b.url, { waitUntil: 'load' });
    await waitOpen(guest.page);
    await typeInto(guest.page, '#name', 'Bo');
    await typeInto(guest.page, '#join-code', room.toLowerCase());
    await guest.page.click('#join');
    await guest.page.waitForFunction((origin) => location.origin === origin && document.body.dataset.phase === 'room',
      { timeout: STEP_MS }, new URL(a.url).origin);
    await guest.page.waitForSelector('.seat.mine');
    check(await mySeat(guest.page) === '1', `fleet: the guest's page went to the room's server and took seat 1 (${guest.page.url()})`);
    await host.page.waitForFunction(() => [...document.querySelectorAll('.seat[data-seat="1"] .seat-name')]
      .some((el) => el.textContent === 'Bo'), { timeout: STEP_MS });
    ok('fleet: the host sees the guest who came through the other server');
  } finally {
    await guest.context.close();
    await host.context.close();
  }
}

// ---- Accessibility ----

// Runs axe-core's WCAG 2.1 A and AA rules on `page` as it is now (the
// script is evaluated over DevTools, which the page's CSP does not stop);
// fails naming each violation, its elements and its help.
async function axeCheck(page, what) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
      targets: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ').trim()})` : ''}`),
    }));
  }, AXE_TAGS);
  check(violations.length === 0, `axe: ${what}: no violation of the WCAG 2.1 A and AA rules`,
    violations.map((v) => `${v.id} [${v.impact}, ${v.count} element${v.count === 1 ? '' : 's'}]: ${v.help}: ${v.targets.join(' | ')}`).join(' ;; '));
}

// The board of `page` in mid-game, the player to move, switched to
// Chinese in the top bar and back to English: every move's words and
// group and every board element's name hold Chinese; a card shows the
// name the game's catalogue gives it in zh-CN (Element, which has no
// cards, a stone's word among its terms); axe finds nothing on the
// Chinese board. The select is set without taking the keyboard's focus.
async function chineseBoard(page, game) {
  await page.select('#lang', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && document.querySelector('#actions button.action') &&
    [...document.querySelectorAll('#actions button.action')].every((b) => /[\u3400-\u9fff]/.test(b.textContent)), { timeout: STEP_MS });
  const shown = await page.evaluate(async (id) => {
    const name = (el) => (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim();
    const cat = await (await fetch(`lang/${id}.json`)).json();
    // A card on the board: its element, the key that names it, where its name is.
    const where = {
      arcana: ['.ar-card', /^card:(.+)$/, '.ar-name'],
      sorcerers: ['.sc-card', /^card:(.+)$/, '.sc-name'],
      stones: ['.st-art', /^art:(.+)$/, '.art-name'],
    }[id];
    let card = null;
    if (where) {
      const el = [...document.querySelectorAll(`#board ${where[0]}`)].find((x) => where[1].test(x.dataset.key || ''));
      const cid = el ? where[1].exec(el.dataset.key)[1] : null;
      card = el ? { id: cid, shown: el.querySelector(where[2]).textContent.trim(), want: cat.cards?.[cid]?.['zh-CN'] } : null;
    } else {
      const el = document.querySelector('#board .el-bag .el-chip.st-fire b');
      card = el ? { id: 'fire', shown: el.textContent.trim(), want: cat.terms?.stone?.fire } : null;
    }
    return {
      groups: [...document.querySelectorAll('#actions .action-group h3')].map((x) => x.textContent.trim()),
      elements: [...document.querySelectorAll('#board .keyed')].map(name),
      card,
    };
  }, game.id);
  const labels = await page.$$eval('#actions button.action', (bs) => bs.map((b) => b.textContent.trim()));
  const foreign = [...labels, ...shown.groups, ...shown.elements].filter((x) => !CJK.test(x));
  check(labels.length > 0 && shown.groups.length > 0 && shown.elements.length > 0 && foreign.length === 0,
    `languages: the ${game.id} board in Chinese: ${labels.length} moves ("${labels[0]}"), ${shown.groups.length} groups and ${shown.elements.length} board elements ("${shown.elements[0]}") in Chinese`,
    `without Chinese: ${foreign.slice(0, 5).join(' | ')}`);
  check(shown.card && shown.card.want && shown.card.shown === shown.card.want,
    `languages: ${game.id}: ${shown.card ? shown.card.id : 'a card'} is shown as the catalogue names it in zh-CN (${shown.card ? `${shown.card.shown} / ${shown.card.want}` : 'none on the board'})`);
  await axeCheck(page, `the ${game.id} board in mid-game, in Chinese`);
  await page.select('#lang', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('#actions button.action') &&
    [...document.querySelectorAll('#actions button.action')].every((b) => !/[\u3400-\u9fff]/.test(b.textContent)), { timeout: STEP_MS });
}

// What has the keyboard focus, in words for a report.
const focusedWords = (page) => page.evaluate(() => {
  const a = document.activeElement;
  if (!a || a === document.body) return 'nothing (the body)';
  return `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}${a.dataset.key ? `[data-key=${a.dataset.key}]` : ''} "${(a.getAttribute('aria-label') || a.textContent || '').trim().slice(0, 60)}"`;
});
const focusMatches = (page, selector) => page.evaluate((s) => Boolean(document.activeElement?.matches(s)), selector);

// Presses Tab until the focus is on `selector`.
async function tabTo(page, selector, max = 80) {
  for (let i = 0; i < max; i++) {
    if (await focusMatches(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  fail(`keyboard: Tab reaches ${selector}`, `after ${max} presses the focus is on ${await focusedWords(page)}`);
}

// Tabs to the <select> `selector` and chooses the option whose value is
// `value`, or whose words are `words`, with Home and the Down arrow.
async function selectByKeys(page, selector, { value, words }) {
  await tabTo(page, selector);
  const options = await page.$eval(selector, (el) => [...el.options].map((o) => ({ value: o.value, words: o.textContent.trim().toLowerCase() })));
  const at = options.findIndex((o) => (value !== undefined ? o.value === value : o.words === words.toLowerCase()));
  if (at < 0) fail(`keyboard: ${selector} offers ${value ?? words}`, JSON.stringify(options));
  await page.keyboard.press('Home');
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
  const got = await page.$eval(selector, (el) => el.value);
  if (got !== options[at].value) fail(`keyboard: the arrow keys choose ${value ?? words} in ${selector}`, `it holds ${got}`);
}

// A room option by keyboard: a choice by its words, a number typed over.
async function optionByKeys(page, key, value) {
  const selector = `#options [name="${key}"]`;
  if ((await page.$eval(selector, (el) => el.tagName)) === 'SELECT') return selectByKeys(page, selector, { words: value });
  await tabTo(page, selector);
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type(value);
}

// The moves' list: `a` puts the focus on its first move, the Down arrow
// moves it `k` moves on (at random, or to the first `prefer` names every
// other time), Enter plays the move. Resolves with its words.
async function pickFromList(page, random, prefer) {
  await page.keyboard.press('a');
  if (!(await focusMatches(page, '#actions button.action'))) return null; // redrawn meanwhile: look again
  const labels = await page.$$eval('#actions button.action', (bs) => bs.map((b) => b.textContent.trim()));
  const preferred = prefer ? labels.findIndex((l) => prefer.test(l)) : -1;
  const k = preferred >= 0 && random() < 0.5 ? preferred : Math.floor(random() * labels.length);
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowDown');
  const words = await page.evaluate(() => document.activeElement?.textContent.trim());
  await page.keyboard.press('Enter');
  return words;
}

// The board: `b` puts the focus on it, Home and the Right arrow walk to
// an element a move touches (one of them at random), Enter selects it
// (the list then holds only its moves), `a` and Enter play the first of
// them. With `escape`, Escape clears the selection in between and Enter
// selects again. Resolves with the element's key, or null when there was
// nothing to do.
async function pickOnBoard(page, random, escape) {
  await page.keyboard.press('b');
  if (!(await focusMatches(page, '#board .keyed'))) return null;
  await page.keyboard.press('Home');
  // How far along the board the elements a move touches are (reading the
  // page, as the eye does, to know how often to press the arrow).
  const places = await page.evaluate(() => [...document.querySelectorAll('#board .keyed')]
    .filter((el) => el.getClientRects().length > 0)
    .flatMap((el, i) => (el.classList.contains('target') ? [i] : [])));
  if (!places.length) return null;
  const steps = places[Math.floor(random() * places.length)];
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
  const key = await page.evaluate(() => (document.activeElement?.matches('#board .keyed.target') ? document.activeElement.dataset.key : null));
  if (!key) return null; // redrawn meanwhile
  if (escape) check(await focusMatches(page, ':focus-visible'), `keyboard: the board element ${key} shows the focus (:focus-visible)`);
  const selected = () => page.evaluate((k) => {
    const el = document.activeElement;
    return el?.dataset.key === k && el.getAttribute('aria-pressed') === 'true' && !document.querySelector('#focus-bar').hidden;
  }, key);
  await page.keyboard.press('Enter');
  if (!(await selected())) return null; // the view moved on under the key
  if (escape) {
    await page.keyboard.press('Escape');
    check(await page.evaluate((k) => document.querySelector('#focus-bar').hidden &&
      document.activeElement?.dataset.key === k && document.activeElement.getAttribute('aria-pressed') === 'false', key),
    `keyboard: Escape clears the selection of ${key}, the focus stays on it`);
    await page.keyboard.press('Enter');
    if (!(await selected())) return null;
  }
  const narrowed = await page.$$eval('#actions button.action', (bs) => bs.length);
  await page.keyboard.press('a');
  if (!(await focusMatches(page, '#actions button.action')) || narrowed === 0) return null;
  await page.keyboard.press('Enter');
  return key;
}

// One game of `game` by keyboard alone against a bot: the room made and
// started from the lobby's form, every move chosen by keys, to the end
// screen; axe on the board in mid-game and on the end screen.
async function keyboardGame(browser, base, game, seed) {
  const random = rng(seed);
  const { context, page } = await newPlayer(browser, `keys-${game.id}`);
  const deadline = Date.now() + GAME_MS;
  try {
    await page.goto(base, { waitUntil: 'load' });
    await waitOpen(page);
    await page.waitForSelector(`#game option[value="${game.id}"]`);
    await selectByKeys(page, '#game', { value: game.id });
    for (const [key, value] of Object.entries(game.options)) await optionByKeys(page, key, value);
    await tabTo(page, '#create');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.dataset.phase === 'room', { timeout: STEP_MS });
    await tabTo(page, '#bots');
    await page.keyboard.press('Space');
    await tabTo(page, '#start');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.dataset.phase === 'game', { timeout: STEP_MS });
    ok(`keyboard: ${game.id}: a room made with ${JSON.stringify(game.options)}, a bot seated and the game started by keys`);
    let moves = 0;
    let onBoard = 0;
    let escaped = false;
    let axed = false;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) fail(`keyboard: ${game.id} is played to its end in time`, `${moves} moves so far`);
      try {
        await page.waitForFunction(() => document.body.dataset.phase === 'ended' ||
          (document.body.dataset.yourTurn === 'true' && document.querySelector('#actions button.action')),
        { timeout: Math.min(left, TURN_MS), polling: 'mutation' });
      } catch {
        fail(`keyboard: ${game.id}: the player gets its turn or the end`, `status "${await textOf(page, '#status').catch(() => '?')}" after ${moves} moves`);
      }
      if ((await bodyData(page, 'phase')) === 'ended') break;
      if (!axed && moves >= 4) {
        axed = true;
        await axeCheck(page, `the ${game.id} board in mid-game, the player to move`);
        // The same in the high-contrast theme, which the system's
        // prefers-contrast turns on (emulated over DevTools).
        const cdp = await page.createCDPSession();
        await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-contrast', value: 'more' }] });
        await page.waitForFunction(() => document.documentElement.dataset.contrast === 'more', { timeout: STEP_MS });
        await axeCheck(page, `the ${game.id} board in mid-game, high contrast`);
        await cdp.send('Emulation.setEmulatedMedia', { features: [] });
        await cdp.detach().catch(() => {});
        await chineseBoard(page, game);
      }
      // Every third move on the board, the others from the list; until one
      // is chosen on the board, every move tries the board first (a game
      // of one turn has few moves, and a move may offer nothing there).
      const key = onBoard === 0 || moves % 3 === 1 ? await pickOnBoard(page, random, !escaped) : null;
      if (key) {
        escaped = true;
        onBoard++;
      } else if (!(await pickFromList(page, random, game.prefer))) {
        continue;
      }
      moves++;
    }
    await page.waitForFunction(() => !document.querySelector('#ended').hidden && document.querySelector('#winners').textContent.trim(),
      { timeout: STEP_MS });
    check(moves > 0 && onBoard > 0, `keyboard: ${game.id} played to its end by keyboard alone (${moves} moves, ${onBoard} of them chosen on the board; ${await textOf(page, '#winners')})`);
    check(await page.evaluate(() => document.activeElement && document.activeElement !== document.body),
      `keyboard: ${game.id}: at the end the focus is still on the page (${await focusedWords(page)})`);
    await axeCheck(page, `the end screen of ${game.id}`);
    const refusals = await page.evaluate(() => window.__refusals);
    check(refusals.length === 0, `keyboard: ${game.id}: no move chosen by keys was refused`, refusals.slice(0, 5).join(' | '));
    if (page.errors.length) fail(`keyboard: ${game.id}: no script errors`, page.errors.slice(0, 5).join(' | '));
  } catch (e) {
    await page.screenshot({ path: path.join(OUTDIR, `FAILED-keys-${game.id}.png`) }).catch(() => {});
    throw e;
  } finally {
    await context.close().catch(() => {});
  }
}

// The display: prefers-contrast: more turns the high-contrast theme on,
// the page's Contrast option overrides the system both ways and is kept
// over a reload; prefers-reduced-motion stops the connection dot's pulse.
// The media features are emulated over DevTools (puppeteer's
// emulateMediaFeatures knows no prefers-contrast); each call sets both.
async function displayPrefs(browser, base) {
  const { context, page } = await newPlayer(browser, 'display');
  const cdp = await page.createCDPSession();
  const media = { 'prefers-contrast': 'no-preference', 'prefers-reduced-motion': 'no-preference' };
  const emulate = (name, value) => {
    media[name] = value;
    return cdp.send('Emulation.setEmulatedMedia', { features: Object.entries(media).map(([n, v]) => ({ name: n, value: v })) });
  };
  const theme = () => page.evaluate(() => ({
    contrast: document.documentElement.dataset.contrast,
    bg: getComputedStyle(document.body).backgroundColor,
  }));
  try {
    await emulate('prefers-contrast', 'no-preference');
    await page.goto(base, { waitUntil: 'load' });
    await waitOpen(page);
    const plain = await theme();
    await emulate('prefers-contrast', 'more');
    await page.waitForFunction(() => document.documentElement.dataset.contrast === 'more');
    const more = await theme();
    check(plain.contrast === 'normal' && more.bg === 'rgb(255, 255, 255)' && plain.bg !== more.bg,
      `display: prefers-contrast: more switches the high-contrast theme on (${plain.bg} -> ${more.bg})`);
    await axeCheck(page, 'the lobby in the high-contrast theme');
    await selectByKeys(page, '#contrast', { value: 'normal' });
    await page.waitForFunction(() => document.documentElement.dataset.contrast === 'normal');
    await emulate('prefers-contrast', 'no-preference');
    await selectByKeys(page, '#contrast', { value: 'more' });
    await page.waitForFunction(() => document.documentElement.dataset.contrast === 'more');
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.contrast === 'more' && document.querySelector('#contrast').value === 'more');
    ok('display: the Contrast option overrides the system both ways and is kept over a reload');
    await selectByKeys(page, '#contrast', { value: 'auto' });
    await page.waitForFunction(() => document.documentElement.dataset.contrast === 'normal');

    // The one animation: the connection dot's pulse while reconnecting
    // (the state set by hand: the connection is up).
    const pulse = () => page.evaluate(() => {
      document.body.dataset.connection = 'reconnecting';
      const name = getComputedStyle(document.querySelector('.conn-dot')).animationName;
      document.body.dataset.connection = 'open';
      return name;
    });
    await emulate('prefers-reduced-motion', 'no-preference');
    const moving = await pulse();
    await emulate('prefers-reduced-motion', 'reduce');
    const still = await pulse();
    const moves = await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => {
      const cs = getComputedStyle(el);
      return cs.animationName !== 'none' || parseFloat(cs.transitionDuration) > 0;
    }).length);
    check(moving === 'pulse' && still === 'none' && moves === 0,
      `display: prefers-reduced-motion: reduce stops the animations (the dot's "${moving}" -> "${still}"; ${moves} element moving)`);
    if (page.errors.length) fail('display: no script errors', page.errors.slice(0, 5).join(' | '));
    await cdp.detach().catch(() => {});
  } finally {
    await context.close();
  }
}

// ---- Main ----

async function main() {
  console.log(`# seed ${SEED}; output in ${OUTDIR}`);
  let base = flags.url;
  if (!base) {
    const server = await startServer('games');
    base = server.url;
    ok(`conclaved serves ${base}`);
  }
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    acceptInsecureCerts: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--ignore-certificate-errors', '--disable-gpu'],
  });
  cleanups.unshift(() => browser.close().catch(() => {}));

  // The lobby at both sizes, once.
  {
    const { context, page } = await newPlayer(browser, 'lobby');
    await page.goto(base, { waitUntil: 'load' });
    await waitOpen(page);
    await page.waitForSelector('#game option');
    const games = await page.$$eval('#game option', (os) => os.map((o) => o.value));
    check(GAMES.every((g) => games.includes(g.id)), `the lobby lists the server's games (${games.join(', ')})`);
    await screenshot(page, 'lobby-desktop.png');
    await screenshot(page, 'lobby-phone.png', PHONE);
    await axeCheck(page, 'the lobby');
    await context.close();
  }
  await displayPrefs(browser, base);

  const only = flags.only;
  let n = 0;
  for (const game of GAMES) {
    if (only && game.id !== only) continue;
    await playGame(browser, base, game, (SEED + 7919 * n++) >>> 0);
  }

  // The keyboard games, on a server whose bots move at once.
  const keysBase = flags.url ? base : (await startServer('keys', ['--bot-delay', '0'])).url;
  for (const [i, game] of KEY_GAMES.entries()) {
    if (only && game.id !== only) continue;
    await keyboardGame(browser, keysBase, game, (SEED + 104729 * (i + 1)) >>> 0);
  }

  await pushNotice(browser, base);
  await notifyBox(browser, base);
  await botSeats(browser, base);
  await elementPick(browser, base);
  await undoMove(browser, base);
  await languages(browser, base);
  await afterGame(browser, base);
  await clockRoom(browser, base);
  if (!flags.url) await fleetJoin(browser);

  if (genericBoards.size) console.log(`# no board module yet (the generic board stood in): ${[...genericBoards].join(', ')}`);
  if (flags.url) console.log('# TLS check skipped: --url given');
  else await tlsCheck(browser);
}

const watchdog = setTimeout(() => {
  console.log('FAIL - the whole run finishes within its deadline');
  process.exit(1);
}, GAME_MS * (GAMES.length + KEY_GAMES.length) + 10 * 60000);

try {
  await main();
  console.log('# all checks passed');
} catch (e) {
  failed = true;
  console.log(`FAIL - ${e instanceof CheckFailed ? e.message : e.stack || e}`);
} finally {
  clearTimeout(watchdog);
  for (const c of cleanups) {
    try {
      await c();
    } catch {
      /* cleaning up after a failure must not hide it */
    }
  }
}
process.exit(failed ? 1 : 0);
