// The connection to the server: the WebSocket, its reconnections, and intents that are
// always answered: each carries an id, and one not answered in time (or cut off by a lost
// connection) is sent again with the same id, which the server applies once.
// A path that dies silently (nothing closes; everything sent is swallowed) is found by
// pings: the page pings every 2 s and the server answers each at once, so a connection
// that brings nothing for 4 s is dead: the banner says so and the page reconnects.

import { $, el, state } from "./state.js";
import { isDeviceTable, openLocalSocket } from "./local_table.js";
import { t } from "./i18n.js";

// Close codes after which trying again cannot help: say why and stop (in words made when
// said: the language is chosen after this module is loaded).
const FATAL = {
  4401: () => t("This table or seat is not known to the server: the link is wrong, or the table has ended and is gone."),
  4403: () => t("The server refused this page: open the game at the address the server prints."),
  4409: () => t("The host handed your seat to a bot: you no longer play at this table."),
  4429: () => t("Too many connections: close other tabs or devices showing this game, then try again."),
};
const deviceUnknown = () => t("This game is not on this device (it was played in another browser, or deleted).");
const RESEND_MS = 4000;
const PING_MS = 2000;  // a ping this often (the server counts a seat silent for 5 s as away)
const SILENT_MS = 4000;  // nothing from the server this long, a ping out 2 s: dead
const ANSWER_MS = 10000;  // a new connection's first answer (a moving table waits up to 6 s)
const WATCH_MS = 250;
let intentCounter = 0;
let watching = null;
let hooks = { receive: () => {}, lostWhileShowing: () => {} };

export function onMessages(receive, redraw) { hooks = { receive, lostWhileShowing: redraw }; }

// The table's connection: the server's WebSocket, or for a table of this device its local
// room (local_table.js), which speaks the same messages.
export function openSocket(tableId) {
  if (isDeviceTable(tableId)) return openLocalSocket(tableId);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
}

export function connect() {
  clearTimeout(state.retryTimer);
  const socket = openSocket(state.table);
  state.socket = socket;
  state.heard = state.asked = Date.now();  // (connecting asks too)
  state.answered = false;
  state.pinged = 0;
  if (!watching) {
    watching = setInterval(watch, WATCH_MS);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) { state.pinged = 0; watch(); } });
  }
  socket.onopen = () => {
    const hello = state.token ? { type: "hello", token: state.token } : { type: "hello", watch: state.watch };
    socket.send(JSON.stringify({ v: 1, ...hello }));
  };
  socket.onmessage = (event) => {
    state.heard = Date.now();
    state.asked = null;
    state.answered = true;
    let message = null;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message && typeof message === "object") hooks.receive(message);
  };
  socket.onerror = () => {};  // onclose follows and says what happened
  socket.onclose = (event) => { if (state.socket === socket) lost(event.code, event.reason); };
}

// Four times a second: a ping when one is due, and a connection that has not answered in
// time given up (as if it had closed) and made again. A ping is due every 2 s, and at once
// when the page is shown again (a phone woken up); a page in the background whose timers
// the browser slows down only counts pings it could send.
function watch() {
  const socket = state.socket;
  if (!socket || socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED) return;
  const now = Date.now();
  const wait = state.answered ? SILENT_MS : ANSWER_MS;
  if (state.asked !== null && now - state.asked >= PING_MS && now - state.heard >= wait) {
    socket.onopen = socket.onmessage = socket.onclose = null;  // nothing more from it
    state.socket = null;
    socket.close();
    lost(1006);  // (as the browser says of a connection closed without a close frame)
    return;
  }
  if (socket.readyState === WebSocket.OPEN && now - state.pinged >= PING_MS) {
    state.pinged = now;
    if (state.asked === null) state.asked = now;
    send({ type: "ping" });
  }
}

export function disconnect() {
  if (!state.socket) return;
  const old = state.socket;
  state.socket = null;
  old.close();
}

function lost(code, reason = "") {
  state.online = false;
  clearTimeout(state.pending && state.pending.timer);  // sent again once connected
  if (FATAL[code]) {
    // a device table's room says why itself (no such game here, a damaged record)
    const why = isDeviceTable(state.table) && code === 4401 ? reason || deviceUnknown() : FATAL[code]();
    state.fatal = code;
    state.pending = null;
    if (code === 4409) localStorage.removeItem(`yahtzee:${state.table}`);
    const actions = [newTableLink()];
    if (code === 4429) {
      const again = el("button", { type: "button", id: "retry" }, t("Try again"));
      again.onclick = () => { state.fatal = null; hideBanner(); connect(); };
      actions.unshift(again);
    }
    showBanner(why, actions);
    if (!state.lobby) $("turn").textContent = t("Not connected");
    if (state.lobby) hooks.lostWhileShowing();
    return;
  }
  const wait = Math.min(5000, 250 * 2 ** state.retry++);
  showBanner(t("Connection lost. Reconnecting..."), []);
  if (state.lobby) hooks.lostWhileShowing();
  state.retryTimer = setTimeout(connect, wait);
}

export function newTableLink() { return el("a", { href: "/", class: "button-link" }, t("New table")); }

export function showBanner(message, actions) {
  $("banner-text").textContent = message;
  $("banner-actions").replaceChildren(...actions);
  $("banner").hidden = false;
}
export function hideBanner() { $("banner").hidden = true; }

export function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  state.socket.send(JSON.stringify({ v: 1, ...message }));
  return true;
}

// One intent at a time, each with an id: a double click never acts twice, and a click is
// never dropped: until its answer comes, the intent is sent again (same id) every few
// seconds and after every reconnection.
export function act(message) {
  if (state.pending) return false;
  const id = `i${Date.now().toString(36)}-${++intentCounter}`;
  state.pending = { id, message: { ...message, id }, timer: null };
  resendPending();
  return true;
}

export function resendPending() {
  const pending = state.pending;
  if (!pending) return;
  clearTimeout(pending.timer);
  send(pending.message);
  pending.timer = setTimeout(resendPending, RESEND_MS);
}

// The answer to the intent with this id came (an ack, an error, or the state it led to).
export function answered(id) {
  const pending = state.pending;
  if (!pending || (id !== undefined && id !== null && id !== pending.id)) return false;
  clearTimeout(pending.timer);
  state.pending = null;
  return true;
}
