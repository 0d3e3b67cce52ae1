// SPDX-License-Identifier: MIT
// The page's service worker: it shows the server's push notices (a seat's
// turn, the end of a game, a mention in chat) and, on a click, brings the
// room's page forward or opens it. It caches nothing and answers no fetch:
// the page always comes from the server.
//
// A push's data is the notice as JSON: {title, text, url, room, event,
// game, name, seat, content}. Data that is not such JSON still shows a
// notification (a push the user was promised must be shown), a generic one.

const GENERIC = { title: 'Conclave', text: 'Something happened in one of your games.', url: './', room: '' };

function notice(data) {
  let n = null;
  try {
    n = data ? data.json() : null;
  } catch {
    n = null;
  }
  if (!n || typeof n !== 'object') return GENERIC;
  const str = (v, fallback) => (typeof v === 'string' && v ? v : fallback);
  return {
    title: str(n.title, GENERIC.title),
    text: str(n.text, str(n.content, GENERIC.text)),
    url: str(n.url, GENERIC.url),
    room: str(n.room, ''),
    event: str(n.event, ''),
  };
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  const n = notice(event.data);
  // One notification per room: a newer notice replaces the older one, and
  // a turn notice alerts again.
  event.waitUntil(self.registration.showNotification(n.title, {
    body: n.text,
    tag: n.room ? `conclave-${n.room}` : 'conclave',
    renotify: Boolean(n.room),
    data: { url: n.url, room: n.room, event: n.event },
  }));
});

// The room's address on this site: a notice never sends the click to
// another origin (behind a proxy the server may name itself otherwise;
// the room's page here is then the scope's #ROOM).
function target(data) {
  const here = self.registration.scope + (/^[0-9A-Z]{6}$/.test(data?.room || '') ? `#${data.room}` : '');
  try {
    const u = new URL(data?.url, self.registration.scope);
    return u.origin === self.location.origin ? u.href : here;
  } catch {
    return here;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = target(event.notification.data);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = open.find((c) => c.url === url) ||
      open.find((c) => new URL(c.url).pathname === new URL(url).pathname);
    if (same) {
      // A tab of the page on another room follows the link itself
      // (app.js listens to hashchange).
      if (same.url !== url && 'navigate' in same) {
        try {
          await same.navigate(url);
        } catch {
          /* an uncontrolled tab cannot be navigated: it is focused as it is */
        }
      }
      return same.focus();
    }
    return self.clients.openWindow(url);
  })());
});
