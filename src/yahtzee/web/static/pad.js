// The page as a pad at the table: several seats taken on one device (one phone passed
// around). The page keeps each of its seats' tokens (local storage, never the address
// bar) and connects as whichever of its seats is to move; a placement taken back by a
// seat that is not connected goes through a connection of its own.

import { api, playerName, readJson, remember, saved, state } from "./state.js";
import { connect, disconnect, openSocket } from "./net.js";
import { t } from "./i18n.js";

const key = (tableId) => `yahtzee-pad:${tableId}`;

// Every seat of the table this device holds: its own (the one it came with) first.
export function padSeats(tableId = state.table) {
  const own = saved(tableId);
  const more = readJson(localStorage, key(tableId));
  const seats = own && own.token ? [own] : [];
  for (const s of Array.isArray(more) ? more : []) {
    if (s && typeof s.token === "string" && Number.isInteger(s.seat) && !seats.some((kept) => kept.seat === s.seat)) seats.push(s);
  }
  return seats;
}

export function isPad() { return padSeats().length > 1; }
export function heldHere(seat) { return seat !== null && seat !== undefined && padSeats().some((s) => s.seat === seat); }

export function addPadSeat(tableId, seat, token, name) {
  const own = saved(tableId);
  if (!own || !own.token) { remember(tableId, seat, token, name); return; }
  const more = readJson(localStorage, key(tableId));
  const list = (Array.isArray(more) ? more : []).filter((s) => s && s.seat !== seat);
  list.push({ seat, token, name });
  localStorage.setItem(key(tableId), JSON.stringify(list));
}

// In the waiting room: another player sits down on this device (through the invite).
export async function addPlayerHere(name) {
  const invite = state.links && state.links.invite;
  if (!invite) throw new Error(t("Only the host's device can seat players on it."));
  const joined = await api(`/api/join/${encodeURIComponent(invite)}`, { name });
  addPadSeat(joined.table.id, joined.seat, joined.token, name);
  return joined;
}

// The seat to move is one of this device's: connect as it (true when switching).
export function followTurn() {
  const game = state.game;
  if (!game || game.phase === "over" || game.current === null || game.current === state.seat || state.pending) return false;
  const next = padSeats().find((s) => s.seat === game.current);
  if (!next) return false;
  disconnect();
  state.token = next.token;
  state.seat = next.seat;
  state.online = false;
  state.myHold = null;
  connect();
  return true;
}

// An intent for another seat of this device, on a connection of its own: resolves with
// the server's answer (an ack or an error).
export function actAs(seat, message, timeoutMs = 8000) {
  const held = padSeats().find((s) => s.seat === seat);
  if (!held) return Promise.reject(new Error(t("That seat is not on this device.")));
  const id = `p${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return new Promise((resolve, reject) => {
    const socket = openSocket(state.table);  // (a device table's: its local room)
    const done = (fn, value) => { clearTimeout(timer); socket.onclose = null; socket.close(); fn(value); };
    const timer = setTimeout(() => done(reject, new Error(t("No answer from the server: try again."))), timeoutMs);
    socket.onopen = () => {
      socket.send(JSON.stringify({ v: 1, type: "hello", token: held.token }));
      socket.send(JSON.stringify({ v: 1, ...message, id }));
    };
    socket.onmessage = (event) => {
      let answer = null;
      try { answer = JSON.parse(event.data); } catch { return; }
      if (answer && answer.id === id && (answer.type === "ack" || answer.type === "error")) done(resolve, answer);
    };
    socket.onclose = () => done(reject, new Error(t("The connection closed: try again.")));
  });
}

// A rematch for every seat of this device: the lowest seat's answer is the device's own
// (the host's, with the links, when the host is here), the others are kept with it.
export async function rematchAll() {
  const seats = [...padSeats()].sort((a, b) => a.seat - b.seat);
  const answers = [];
  for (const s of seats) {
    const made = await api(`/api/tables/${encodeURIComponent(state.table)}/rematch`, {}, s.token);
    answers.push({ made, name: s.name || playerName(s.seat) });
  }
  return answers;
}

export function keepRematch(answers) {
  const [first, ...rest] = answers;
  for (const { made, name } of rest) addPadSeat(first.made.table.id, made.seat, made.token, name);
}
