// The installable app (issue 53): registers the service worker (/sw.js, which keeps the
// app for offline use) once the page has loaded, and offers each new version: when an
// updated worker is installed and waiting, "A new version is ready" with a Reload button,
// which tells that worker to take over; the page reloads once it has (controllerchange).
// And the install offer: Chromium's `beforeinstallprompt` kept, and an "Install app" button
// that shows its prompt; none where the app already runs on its own (display-mode
// standalone) or once it is installed (`appinstalled`).
// Imports only i18n.js: any module may import this one (notify.js takes its registration).

import { t } from "./i18n.js";

const WORKER = "/sw.js";

let registering = null;

// The page's worker registration, made once the page has loaded (its own first fetches go
// first); null where there is none (no service workers, or a page without a secure context).
export function registered() {
  if (registering === null) registering = afterLoad().then(register).catch(() => null);
  return registering;
}

export function wirePwa() {
  registered();
  wireInstall();
}

const STANDALONE = "(display-mode: standalone)";

function wireInstall() {
  const offer = document.getElementById("install-offer");
  let kept = null;  // Chromium's event: its prompt() may be shown once
  const withdraw = () => { kept = null; offer.hidden = true; };
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();  // offered by the page's button, not the browser's own bar
    if (matchMedia(STANDALONE).matches) return;
    kept = event;
    offer.hidden = false;
  });
  window.addEventListener("appinstalled", withdraw);
  matchMedia(STANDALONE).addEventListener("change", (query) => { if (query.matches) withdraw(); });
  document.getElementById("install").addEventListener("click", async () => {
    const event = kept;
    withdraw();  // a dismissed prompt: Chromium offers it again later, by a new event
    if (event === null) return;
    try {
      await event.prompt();
      await event.userChoice;
    } catch {
      // (a prompt the browser will not show now: nothing to tell)
    }
  });
}

function afterLoad() {
  if (!("serviceWorker" in navigator)) return Promise.reject(new Error("no service workers"));
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
}

async function register() {
  const workers = navigator.serviceWorker;
  // A page that had a worker when it opened reloads when another one takes over (its own
  // Reload, or another tab's): its files are of the version before.
  let reloadOnChange = workers.controller !== null;
  let reloading = false;
  workers.addEventListener("controllerchange", () => {
    if (!reloadOnChange || reloading) return;
    reloading = true;
    location.reload();
  });
  const registration = await workers.register(WORKER, { scope: "/" });  // refused: online only
  const offer = (worker) => {
    if (worker && workers.controller) showUpdate(worker, () => { reloadOnChange = true; });
  };
  offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener("statechange", () => {
      if (installing.state === "installed") offer(installing);
    });
  });
  // A page left open for long asks for a new version when it is looked at again.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
  return registration;
}

function showUpdate(worker, pressed) {
  const bar = document.getElementById("update");
  const button = document.getElementById("update-reload");
  button.onclick = () => {
    pressed();
    button.disabled = true;
    worker.postMessage({ type: "skip-waiting" });
  };
  button.disabled = false;
  bar.hidden = false;
  document.getElementById("update-text").textContent = t("A new version is ready");  // said once shown (a live region)
}
