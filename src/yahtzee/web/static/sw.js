// The page's service worker, served at /sw.js for the whole site (scope "/").
// It keeps the app for offline use (issue 53): the server writes this release's version
// and the addresses to keep into the RELEASE line below (src/yahtzee/web/shell.py); any
// change to a page file makes a new version, so a new worker, which the page offers as
// "A new version is ready" (pwa.js). And it shows the server's "your turn" pushes (Web
// Push: the server encrypts, the browser's push service delivers, the browser decrypts)
// and opens the table on a tap.
//
// A push's text is JSON: {title, body, url, tag, count} (docs/protocol.md, "Web Push").
// One tag for every "your turn": a new notification replaces the one shown.

const RELEASE = { version: null, fresh: [], kept: [] };  // written by the server
const CACHE_PREFIX = "yahtzee-app-";
const CACHE = CACHE_PREFIX + RELEASE.version;
const PAGE = "/";
const VERSIONED = "/static/" + RELEASE.version + "/";
// Asked from the server first, the kept copy when it cannot answer: the page and the
// app's answers. Answered from the cache: the page's files under this version and the
// other versioned addresses (the same bytes for good).
const FRESH = new Set(RELEASE.fresh);
const KEPT = new Set(RELEASE.kept);

self.addEventListener("install", (event) => {
  // Everything of this version, or nothing: a failed fetch fails the install (the browser
  // tries again at its next update check) and the worker before it stays.
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([
      ...RELEASE.fresh.map((address) => new Request(address, { cache: "no-cache" })),
      ...RELEASE.kept.map((address) => new Request(address)),  // the browser's copy will do
    ]);
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page's "Reload" on "A new version is ready": this waiting worker takes over now.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === PAGE) event.respondWith(networkFirst(request, PAGE));
    return;  // (a printable scorepad and the like: the browser's own)
  }
  const address = url.pathname + url.search;
  if (KEPT.has(address) || url.pathname.startsWith(VERSIONED)) {
    event.respondWith(cacheFirst(request));
  } else if (FRESH.has(address)) {
    event.respondWith(networkFirst(request, address));
  }
  // Anything else (the other /api/ answers, the WebSocket, /static/NAME): untouched.
});

// The server's answer, kept for the next time offline; the kept one if there is none.
// A page naming another version's files (the server has a new one, whose worker waits) is
// not kept: this worker's cache holds this version's files only.
async function networkFirst(request, key) {
  try {
    const response = await fetch(request);
    if (response.ok && (key !== PAGE || (await response.clone().text()).includes(VERSIONED))) {
      const cache = await caches.open(CACHE);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await caches.match(key, { cacheName: CACHE });
    if (kept) return kept;
    throw error;
  }
}

// The kept copy; the server's for a request that asks past every cache (the page fetches
// a table file that failed its checksum again with cache: "reload"), which replaces it.
async function cacheFirst(request) {
  const past = request.cache === "reload" || request.cache === "no-cache" || request.cache === "no-store";
  const kept = past ? undefined : await caches.match(request, { cacheName: CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  if (past && response.ok) await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

const ICON = "/static/favicon.svg";

self.addEventListener("push", (event) => {
  let note = {};
  try { note = event.data ? event.data.json() : {}; } catch { note = {}; }
  const title = typeof note.title === "string" && note.title ? note.title : "Your turn";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof note.body === "string" ? note.body : "",
    tag: typeof note.tag === "string" && note.tag ? note.tag : "yahtzee-your-turn",
    renotify: true,  // a replacement alerts again: another game is waiting
    icon: ICON,
    data: { url: sameSite(note.url) },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});

// The address to open: a page of this site only (anything else opens the home page).
function sameSite(address) {
  try {
    const url = new URL(typeof address === "string" ? address : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
}
