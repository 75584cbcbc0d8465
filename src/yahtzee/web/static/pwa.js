// The installable app (issue 53): registers the service worker (/sw.js, which keeps the
// app for offline use) once the page has loaded, and offers each new version: when an
// updated worker is installed and waiting, "A new version is ready" with a Reload button,
// which tells that worker to take over; the page reloads once it has (controllerchange).
// No imports: any module may import this one.

const WORKER = "/sw.js";
const READY = "A new version is ready";

export function wirePwa() {
  if (!("serviceWorker" in navigator)) return;
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
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
  let registration;
  try {
    registration = await workers.register(WORKER, { scope: "/" });
  } catch {
    return;  // (a page served without a secure context: no worker, an online page only)
  }
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
  document.getElementById("update-text").textContent = READY;  // said once shown (a live region)
}
