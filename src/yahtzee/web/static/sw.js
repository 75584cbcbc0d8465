// The page's service worker, served at /sw.js for the whole site (scope "/").
// It shows the server's "your turn" pushes (Web Push: the server encrypts, the browser's
// push service delivers, the browser decrypts) and opens the table on a tap.
// Kept small and on its own: issue 53 (offline play) extends this same worker.
//
// A push's text is JSON: {title, body, url, tag, count} (docs/protocol.md, "Web Push").
// One tag for every "your turn": a new notification replaces the one shown.

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
