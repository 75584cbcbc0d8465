// "Notify me when it's my turn": with the page's service worker (/sw.js, which shows the
// pushes; pwa.js registers it), on a tap, asks the browser's permission, subscribes to
// push with the server's application server key and gives the subscription to the server
// for the signed-in account (docs/protocol.md, "Web Push"). A second tap stops them on this browser.
// Not offered at a table of this device (state.lobby.device): nobody else moves there, and the
// server knows nothing of it.

import { $, api, state } from "./state.js";
import { registered } from "./pwa.js";
import { t } from "./i18n.js";


function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// The key in base64url -> the bytes PushManager.subscribe takes.
function keyBytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

function show(button, on) {
  button.textContent = on ? t("Stop turn notifications") : t("Notify me when it's my turn");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  $("notify-part").dataset.offered = "";  // this browser can have them
  drawNotify();
}

// The part shown where this browser can have notifications and the table is the server's.
export function drawNotify() {
  const part = $("notify-part");
  part.hidden = !("offered" in part.dataset) || !!(state.lobby && state.lobby.device);
}

function tell(text) {
  $("notify-note").textContent = text;
}

export async function wireNotify() {
  const button = $("notify");
  if (!supported()) return;
  const registration = await registered();
  if (registration === null) return;  // (a page served without a secure context: no worker, no button)
  const current = await registration.pushManager.getSubscription();
  show(button, current !== null && Notification.permission === "granted");
  button.onclick = () => toggle(button, registration);
}

async function toggle(button, registration) {
  const current = await registration.pushManager.getSubscription();
  if (current !== null && button.getAttribute("aria-pressed") === "true") {
    await fetch("/api/push/subscriptions", {
      method: "DELETE", headers: { "content-type": "application/json" },
      body: JSON.stringify({ endpoint: current.endpoint }),
    });
    await current.unsubscribe();
    show(button, false);
    tell(t("Turn notifications are off on this device."));
    return;
  }
  if (await Notification.requestPermission() !== "granted") {
    tell(t("Notifications are blocked for this site: allow them in the browser's settings."));
    return;
  }
  try {
    const { key } = await api("/api/push/key");
    const subscription = current || await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(key),
    });
    await api("/api/push/subscriptions", subscription.toJSON());
    show(button, true);
    tell(t("You will be notified when it's your turn and this table is not open."));
  } catch (error) {
    tell(t("Turn notifications could not be set up: {error}", { error: error.message }));
  }
}
