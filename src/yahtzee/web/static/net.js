// The connection to the server: the WebSocket, its reconnections, and intents that are
// always answered: each carries an id, and one not answered in time (or cut off by a lost
// connection) is sent again with the same id, which the server applies once.

import { $, el, state } from "./state.js";

// Close codes after which trying again cannot help: say why and stop.
const FATAL = {
  4401: "This table or seat is not known to the server: the link is wrong, or the table has ended and is gone.",
  4403: "The server refused this page: open the game at the address the server prints.",
  4409: "The host handed your seat to a bot: you no longer play at this table.",
  4429: "Too many connections: close other tabs or devices showing this game, then try again.",
};
const RESEND_MS = 4000;
let intentCounter = 0;
let hooks = { receive: () => {}, lostWhileShowing: () => {} };

export function onMessages(receive, redraw) { hooks = { receive, lostWhileShowing: redraw }; }

export function connect() {
  clearTimeout(state.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(state.table)}`);
  state.socket = socket;
  socket.onopen = () => {
    const hello = state.token ? { type: "hello", token: state.token } : { type: "hello", watch: state.watch };
    socket.send(JSON.stringify({ v: 1, ...hello }));
  };
  socket.onmessage = (event) => {
    let message = null;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message && typeof message === "object") hooks.receive(message);
  };
  socket.onerror = () => {};  // onclose follows and says what happened
  socket.onclose = (event) => { if (state.socket === socket) lost(event.code); };
}

export function disconnect() {
  if (!state.socket) return;
  const old = state.socket;
  state.socket = null;
  old.close();
}

function lost(code) {
  state.online = false;
  clearTimeout(state.pending && state.pending.timer);  // sent again once connected
  if (FATAL[code]) {
    state.fatal = code;
    state.pending = null;
    if (code === 4409) localStorage.removeItem(`yahtzee:${state.table}`);
    const actions = [newTableLink()];
    if (code === 4429) {
      const again = el("button", { type: "button", id: "retry" }, "Try again");
      again.onclick = () => { state.fatal = null; hideBanner(); connect(); };
      actions.unshift(again);
    }
    showBanner(FATAL[code], actions);
    if (!state.lobby) $("turn").textContent = "Not connected";
    if (state.lobby) hooks.lostWhileShowing();
    return;
  }
  const wait = Math.min(5000, 250 * 2 ** state.retry++);
  showBanner("Connection lost. Reconnecting...", []);
  if (state.lobby) hooks.lostWhileShowing();
  state.retryTimer = setTimeout(connect, wait);
}

export function newTableLink() { return el("a", { href: "/", class: "button-link" }, "New table"); }

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
