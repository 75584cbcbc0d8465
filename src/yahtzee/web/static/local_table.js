// A table on this device (issue 53): a local room that speaks the server's Play protocol
// (docs/protocol.md) over the page's rules engine, advisor and bots, so that the page plays
// a whole game without a server exactly as it plays one online: `net.js` opens a
// `LocalSocket` instead of a WebSocket for a device table's id. The room does what the
// server's table does (service/live.py, session.py): it checks and applies each intent,
// keeps the dice's places (local_tray.js), saves every change on the device
// (device_store.js) before it is shown, plays the bots' turns (computed at once and saved,
// shown a move every `botDelay` ms), answers hints and the review. No DOM.

import { Game } from "./engine_game.js";
import { ruleBook, withPlayoff } from "./engine_rules.js";
import { parseDice, parseKeep } from "./engine_dice.js";
import { RuleError, illegal, invalid } from "./engine_errors.js";
import { OFFLINE_BOTS, choose, throwAround } from "./bots.js";
import { deleteTable, listTables, loadTable, saveTable, RECORD_FORMAT } from "./device_store.js";
import { EMPTY_TRAY, follow, holding, keptOf, notRolled, checkSlots } from "./local_tray.js";
import { advisorFor, advisorReady } from "./local_advisor.js";
import { hintMessage, reviewMessage, situationOf } from "./local_review.js";
import { t } from "./i18n.js";

const PREFIX = "device-";
const BOT_DELAY_MS = 600;  // a bot's moves are shown this far apart (the server's pace)
const INTENTS_KEPT = 32;
const MAX_MESSAGE = 4096;
const CONNECTING = 0, OPEN = 1, CLOSING = 2, CLOSED = 3;

/** Whether `id` names a table of this device ("device-" and a UUID). */
export const isDeviceTable = (id) => typeof id === "string" && id.startsWith(PREFIX);

// Random numbers from the browser's secure source: each in [0, 1).
const random = () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;
const newToken = () => Array.from(globalThis.crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, "0")).join("");

// The rule sets of GET /api/rules, asked once a page (the app's worker keeps the answer).
let catalog = null;
function ruleSets() {
  if (!catalog) {
    catalog = globalThis.fetch("/api/rules").then(async (answer) => {
      if (!answer.ok) throw new Error(t("The rules could not be read ({status}).", { status: answer.status }));
      return answer.json();
    });
    catalog.catch(() => { catalog = null; });
  }
  return catalog;
}

async function ruleSetNamed(name) {
  let known;
  try { known = await ruleSets(); } catch (error) { throw new Error(t("The game's rules are not on this device yet: open the app once with a connection. ({reason})", { reason: error.message })); }
  const sets = known.rule_sets || [];
  const found = sets.find((s) => s.name === name);
  if (found) return found;
  const base = typeof name === "string" && name.endsWith("+playoff") ? sets.find((s) => s.name === name.slice(0, -"+playoff".length)) : null;
  if (base) return withPlayoff(base);
  throw new Error(t("There are no rules called {name}: {names}.", { name: JSON.stringify(name), names: sets.map((s) => s.name).join(", ") }));
}

/** A new game on this device, started at once: `players` 1 to 8, each `{name, bot}` (bot
 *  null for a person, else a key of bots.js); answers the lobby and the people's seats
 *  `{seat, token, name}`, which the caller keeps as the page does (`remember`, `addPadSeat`). */
export async function createDeviceTable({ rules, players, hints = true, entered = false, botDelay = BOT_DELAY_MS }) {
  const ruleSet = await ruleSetNamed(rules);
  if (!Array.isArray(players) || players.length < 1 || players.length > 8) throw new Error(t("A game has 1 to 8 players."));
  for (const p of players) {
    if (!p || (p.bot !== null && p.bot !== undefined && !OFFLINE_BOTS.includes(p.bot))) throw new Error(t("No computer player {bot} on this device: {bots}.", { bot: JSON.stringify(p && p.bot), bots: OFFLINE_BOTS.join(", ") }));
  }
  const bots = players.map((p) => p.bot || null);
  if (entered && bots.some((b) => b !== null)) throw new Error(t("A computer player cannot sit in a game of real dice (it has no hands to roll them): seat people only, or let the program roll."));
  if (bots.every((b) => b !== null)) throw new Error(t("Seat at least one person: a game of computer players alone has nobody to play it."));
  if (!Number.isFinite(botDelay) || botDelay < 0) throw new Error(t("The bots' pace is a number of milliseconds."));
  let game;
  try { game = new Game(ruleSet, players.map((p) => p.name), { entered }); } catch (error) { throw new Error(error.message); }
  const now = Date.now();
  const record = {
    version: RECORD_FORMAT, id: PREFIX + globalThis.crypto.randomUUID(), rules: ruleSet.name, ruleSet,
    seats: game.players.map((name, seat) => ({ seat, name, bot: bots[seat], token: bots[seat] ? null : newToken() })),
    hints: Boolean(hints), entered: Boolean(entered), botDelay,
    events: game.events, tray: { slots: "", held: [] }, hinted: [], intents: [],
    created: now, updated: now, finished: null, uploaded: null,
  };
  await saveTable(record);
  return {
    table: lobbyOf(record, game),
    seats: record.seats.filter((s) => !s.bot).map(({ seat, token, name }) => ({ seat, token, name })),
  };
}

function lobbyOf(record, game) {
  return {
    id: record.id, rules: record.rules, hints_allowed: record.hints, turn_timer: null,
    status: game.isOver ? "finished" : "playing",
    seats: record.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot, open: false, connected: true, reserved: false, missed: 0, out: false })),
    turn_by_turn: false, timeout: { rule: "bot", level: 3, missed: 3 }, deadline: null,
    dice: record.entered ? "entered" : "rolled", sitting: null, rematch: null, game_id: null, commitment: null, daily: null,
    device: true,
  };
}

// The rooms open in this page, by table id (one room however many sockets).
const rooms = new Map();

function roomOf(id) {
  if (!rooms.has(id)) {
    const opening = (async () => {
      const record = await loadTable(id);
      if (!record) return null;
      return new Room(record);
    })();
    rooms.set(id, opening);
    opening.then((room) => { if (!room) rooms.delete(id); }, () => rooms.delete(id));
  }
  return rooms.get(id);
}

class Room {
  constructor(record) {
    this.record = record;
    this.book = ruleBook(record.ruleSet);
    try { this.game = Game.replay(this.book, record.events); } catch (error) {
      throw new Error(t("The game {id} on this device is damaged ({reason}): it cannot be played on.", { id: record.id, reason: error.message }));
    }
    this.tray = record.tray;
    this.sockets = new Set();
    this.work = Promise.resolve();
    this.shown = null;  // while a bot's turn is being shown: {seq, game} as shown so far
    this.botsRunning = false;
  }

  get seq() { return this.shown ? this.shown.seq : this.game.events.length; }
  get undoOn() { return this.record.seats.length === 1 || this.record.entered; }
  isBot(seat) { return seat !== null && seat !== undefined && !!this.record.seats[seat].bot; }
  humans() { return this.record.seats.filter((s) => !s.bot).map((s) => s.seat); }

  gameView(game = this.game, tray = this.tray) {
    return { ...game.view({ undoOn: this.undoOn }), slots: tray.slots || null, held: [...tray.held] };
  }

  stateFor(seat) {
    return {
      v: 1, type: "state", seq: this.seq, table: lobbyOf(this.record, this.game), you: { seat, role: "player" },
      game: this.shown ? this.shown.game : this.gameView(), chat: [], turn_deadline: null, spectators: 0,
      win_chances: null, meter_progress: null, meter_estimate: false, meter_margin: null,
      upper_bonus_threshold: this.book.rules.upper_bonus_threshold,
    };
  }

  // One message at a time, in order (a bot's turn being shown included).
  run(job) {
    const next = this.work.then(job);
    this.work = next.catch(() => {});
    return next;
  }

  tellAll(message) { for (const socket of this.sockets) socket.deliver(message); }

  // Saved, then adopted: the record with the game and tray now (a failed save leaves the
  // room as it was: the caller takes the move back).
  async commit(extra = {}) {
    const events = this.game.events;
    const record = { ...this.record, ...extra, events, tray: this.tray, updated: Date.now() };
    if (this.game.isOver && !record.finished) record.finished = record.updated;
    await saveTable(record);
    this.record = record;
  }

  takeBack(tray) {
    this.game = Game.replay(this.book, this.record.events);
    this.tray = tray;
  }

  // --- From a socket ----------------------------------------------------------------------

  receive(socket, text) {
    let message = null;
    try { message = JSON.parse(text); } catch { /* below */ }
    if (!socket.greeted) {  // the first message, whatever it is: hello, or the socket closes
      socket.greeted = true;
      this.run(() => this.hello(socket, message));
      return;
    }
    if (!message || typeof message !== "object" || Array.isArray(message)) { socket.deliver(error("malformed_json", t("The message is not a JSON object."), null)); return; }
    const id = message.id === undefined || message.id === null ? null : message.id;
    if (id !== null && (typeof id !== "string" || !id.length || id.length > 64)) { socket.deliver(error("bad_message", t("An intent's id is text of 1 to 64 characters."), null)); return; }
    if (message.v !== undefined && message.v !== 1) { socket.deliver(error("bad_version", t("This table speaks version 1 of the protocol."), id)); return; }
    if (text.length > MAX_MESSAGE) { socket.deliver(error("too_large", t("The message is too large."), id)); return; }
    if (message.type === "ping") { socket.deliver({ v: 1, type: "pong" }); return; }
    this.run(() => this.intent(socket, message, id)).catch((failure) => {
      socket.deliver(failure instanceof RuleError ? error(failure.code, failure.message, id) : error("server_error", failure.message || t("Something went wrong on this device."), id));
    });
  }

  async hello(socket, message) {
    const seat = message && message.type === "hello" && typeof message.token === "string"
      ? this.record.seats.find((s) => !s.bot && s.token === message.token) : null;
    if (!seat || socket.readyState !== OPEN) { socket.close(4401, t("Your seat at this game is not on this device.")); return; }
    socket.seat = seat.seat;
    this.sockets.add(socket);
    socket.deliver(this.stateFor(seat.seat));
    this.driveBots();
  }

  async intent(socket, message, id) {
    const seat = socket.seat;
    if (seat === undefined || socket.readyState !== OPEN) return;  // its hello was refused
    const done = id !== null ? this.record.intents.find(([known]) => known === id) : null;
    if (done) { socket.deliver({ v: 1, type: "ack", id, seq: done[1] }); return; }
    switch (message.type) {
      case "roll": return this.move(socket, id, () => this.roll(seat, message));
      case "score": return this.move(socket, id, () => this.game.score(text(message, "box"), { player: seat }));
      case "dice": return this.move(socket, id, () => this.game.enterDice(fiveDice(this.book, text(message, "dice")), { roll: message.roll === undefined ? null : message.roll, player: seat }));
      case "write": return this.move(socket, id, () => this.game.write(text(message, "category"), whole(message, "points"), { player: seat }));
      case "undo": return this.move(socket, id, () => this.undo(seat));
      case "hold": return this.hold(socket, seat, message, id);
      case "hint": return this.hint(socket, seat, id);
      case "review": return this.review(socket, id);
      case "resync": socket.deliver(this.stateFor(seat)); return this.ack(socket, id);
      case "chat": throw illegal(t("There is no chat at a table on this phone: everyone playing is right here."), "no_chat");
      case "resign": throw illegal(t("A game on this phone has no resigning: leave it whenever you like, and come back to it from My games."), "no_resign");
      case "hello": throw invalid(t("Hello comes once, as the first message."), "unknown_type");
      default: throw invalid(t("Unknown message type {type}.", { type: JSON.stringify(message.type) }), "unknown_type");
    }
  }

  ack(socket, id) { if (id !== null) socket.deliver({ v: 1, type: "ack", id, seq: this.seq }); }

  // A move of a person: applied, saved, shown to every socket, acknowledged; then the bots.
  async move(socket, id, apply) {
    const tray = this.tray;
    const before = this.game.events.length;
    const held = apply();
    const events = this.game.events.slice(before);
    this.tray = follow(tray, this.game.turn, events.length === 1 ? events[0] : null, Array.isArray(held) ? held : undefined);
    const intents = id !== null ? [...this.record.intents, [id, before + events.length]].slice(-INTENTS_KEPT) : this.record.intents;
    try { await this.commit({ intents }); } catch (failure) { this.takeBack(tray); throw failure; }
    this.publish(before, events, this.gameView());
    this.ack(socket, id);
    this.driveBots();
  }

  publish(before, events, game) {
    events.forEach((event, i) => this.tellAll({ v: 1, type: "event", seq: before + i + 1, event, game, turn_deadline: null, by_timer: false }));
  }

  // A roll: the dice kept (by their places, or named), the others thrown; answers the
  // places held (for the tray) when the roll named them.
  roll(seat, message) {
    const named = message.keep === undefined ? null : text(message, "keep");
    let keep = named === null || !named.trim() ? "" : parseKeep(named, this.book.dice);
    let places;
    if (message.held !== undefined) {
      places = checkSlots(message.held);
      if (places.length && !this.tray.slots) throw notRolled();
      const heldKeep = keptOf(this.tray, places);
      if (named !== null && named.trim() && keep !== heldKeep) throw invalid(t("The dice held ({held}) are not the dice named ({named}).", { held: heldKeep || "-", named: keep || "-" }));
      keep = heldKeep;
    }
    this.game.roll(keep, { dice: throwAround(keep, random), player: seat });
    return places;
  }

  undo(seat) {
    if (!this.undoOn) throw illegal(t("Taking back a placement is off in this game."), "undo_off");
    const log = this.record.events;
    const last = log[log.length - 1];
    if (last && last.type === "score" && this.isBot(last.player)) throw illegal(t("A computer player's placement stays."), "no_undo");
    this.game.undo({ player: seat });
  }

  async hold(socket, seat, message, id) {
    if (this.record.entered) throw illegal(t("At a table of real dice you hold your own dice: enter the five dice showing."), "dice_entered");
    const slots = checkSlots(message.held);
    const turn = this.game.turn;
    if (this.game.isOver || !turn || this.game.currentPlayer !== seat) throw illegal(t("It is not your turn."), "not_your_turn");
    if (turn.dice === null) throw notRolled();
    if (this.book.rules.rolls_per_turn - turn.rolls === 0) throw illegal(t("There is no roll left to hold dice for."), "no_rolls_left");
    const tray = this.tray;
    this.tray = holding(tray, slots);
    try { await this.commit(); } catch (failure) { this.tray = tray; throw failure; }
    this.tellAll({ v: 1, type: "hold", seq: this.seq, player: seat, held: [...this.tray.held] });
    this.ack(socket, id);
  }

  // The advisor, waited for with a word to the player when it is not ready yet.
  async advisor(socket, id) {
    if (!advisorReady(this.record.ruleSet)) socket.deliver(error("advisor_loading", t("Loading the advisor..."), id));
    return advisorFor(this.record.ruleSet);
  }

  async hint(socket, seat, id) {
    if (!this.record.hints) throw illegal(t("Hints are off for this game."), "hints_off");
    const situation = situationOf(this.game);
    if (!situation || this.game.currentPlayer !== seat) throw illegal(t("Hints are for the player whose dice are showing."), "not_your_turn");
    const advisor = await this.advisor(socket, id);
    const now = situationOf(this.game);
    if (!now || this.game.currentPlayer !== seat || now.dice !== situation.dice || now.rollsLeft !== situation.rollsLeft) return;  // moved on meanwhile
    if (!this.record.hinted.includes(seat)) await this.commit({ hinted: [...this.record.hinted, seat] });
    socket.deliver({ v: 1, ...hintMessage(advisor, this.book, now) });
    this.ack(socket, id);
  }

  async review(socket, id) {
    if (!this.game.isOver) throw illegal(t("The review comes when the game is over."), "not_over");
    const advisor = await this.advisor(socket, id);
    socket.deliver({ v: 1, ...reviewMessage(advisor, this.book, this.record.events, this.humans()) });
    this.ack(socket, id);
  }

  // --- The bots ---------------------------------------------------------------------------

  // When a bot is to move: its whole turn, computed at once and saved, then shown a move
  // every botDelay ms (a page closed meanwhile reopens with the turn played).
  driveBots() {
    if (this.botsRunning || this.game.isOver || !this.isBot(this.game.currentPlayer)) return;
    this.botsRunning = true;
    this.run(async () => {
      try {
        while (!this.game.isOver && this.isBot(this.game.currentPlayer) && this.sockets.size) await this.botTurn();
      } catch (failure) {
        this.tellAll(error("bot_stopped", t("The computer player cannot play: {reason}", { reason: failure.message }), null));
      } finally {
        this.botsRunning = false;
      }
    });
  }

  async botTurn() {
    const advisor = await advisorFor(this.record.ruleSet);
    const seat = this.game.currentPlayer;
    const bot = this.record.seats[seat].bot;
    const tray = this.tray;
    const first = this.game.events.length;
    const steps = [];
    try {
      for (;;) {
        const before = this.game.events.length;
        const situation = situationOf(this.game);
        if (this.game.phase === "playoff" || !situation) {
          this.game.roll("", { dice: throwAround("", random) });
        } else {
          const option = choose(advisor, situation, bot, random);
          if (option.score !== undefined) this.game.score(option.score);
          else this.game.roll(option.keep, { dice: throwAround(option.keep, random) });
        }
        const events = this.game.events.slice(before);
        this.tray = follow(this.tray, this.game.turn, events.length === 1 ? events[0] : null);
        steps.push({ before, events, game: this.gameView() });
        const placed = events.some((e) => e.type === "score");
        if (placed || this.game.isOver || this.game.currentPlayer !== seat) break;
      }
      await this.commit();
    } catch (failure) {
      this.takeBack(tray);
      throw failure;
    }
    for (const [i, step] of steps.entries()) {
      if (i || first > 1) await pause(this.record.botDelay);
      this.shown = i < steps.length - 1 ? { seq: step.before + step.events.length, game: step.game } : null;
      this.publish(step.before, step.events, step.game);
    }
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function error(code, message, id) { return { v: 1, type: "error", code, message, id }; }

function text(message, key) {
  const value = message[key];
  if (typeof value !== "string") throw invalid(t("The {field} is text, not {value}.", { field: key, value: JSON.stringify(value) }), "bad_message");
  return value;
}
// Five dice from the players' text (bad_dice saying what is allowed), as the server reads them.
function fiveDice(book, value) {
  try { return parseDice(value, book.dice); } catch (failure) {
    if (failure instanceof RuleError) throw invalid(failure.message, "bad_dice");
    throw failure;
  }
}
function whole(message, key) {
  const value = message[key];
  if (!Number.isInteger(value)) throw invalid(t("The {field} is a whole number, not {value}.", { field: key, value: JSON.stringify(value) }), "bad_message");
  return value;
}

// --- The socket -------------------------------------------------------------------------

/** A WebSocket-like connection to a device table's room: `readyState`, `onopen`,
 *  `onmessage({data})`, `onclose({code})`, `send(text)`, `close(code)`. Everything comes
 *  in later tasks, in order, never from inside `send`. */
export class LocalSocket {
  constructor(id) {
    this.readyState = CONNECTING;
    this.onopen = this.onmessage = this.onclose = this.onerror = null;
    this.outbox = [];
    this.flushing = false;
    this.room = null;
    this.seat = undefined;
    this.greeted = false;  // its first message came (the hello, answered in turn)
    roomOf(id).then((room) => {
      if (this.readyState !== CONNECTING) return;
      if (!room) { this.close(4401, t("This game is not on this device (it was played in another browser, or deleted).")); return; }
      this.room = room;
      this.readyState = OPEN;
      this.later(() => { if (this.onopen) this.onopen({ type: "open" }); });
    }, (failure) => {
      this.close(4401, failure.message);
    });
  }

  later(job) { this.outbox.push(job); this.flush(); }

  flush() {
    if (this.flushing) return;
    this.flushing = true;
    setTimeout(() => {
      this.flushing = false;
      const jobs = this.outbox.splice(0);
      for (const job of jobs) job();
      if (this.outbox.length) this.flush();
    }, 0);
  }

  deliver(message) {
    if (this.readyState !== OPEN) return;
    const data = JSON.stringify(message);
    this.later(() => { if (this.readyState === OPEN && this.onmessage) this.onmessage({ type: "message", data }); });
  }

  send(data) {
    if (this.readyState === CONNECTING) throw new Error(t("The connection is not open yet."));
    if (this.readyState !== OPEN) return;
    const room = this.room;
    this.later(() => { if (this.readyState === OPEN) room.receive(this, String(data)); });
  }

  close(code = 1000, reason = "") {
    if (this.readyState === CLOSING || this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    if (this.room) this.room.sockets.delete(this);
    this.later(() => {
      this.readyState = CLOSED;
      if (this.onclose) this.onclose({ type: "close", code, wasClean: true, reason });
    });
  }
}

/** A WebSocket-like connection to device table `id` (see LocalSocket). */
export const openLocalSocket = (id) => new LocalSocket(id);

// --- The device's games -----------------------------------------------------------------

/** The games on this device, newest first: {id, rules, players: [{name, bot}], status,
 *  updated, uploaded}. */
export async function deviceGames() {
  return (await listTables()).map((record) => {
    const last = record.finished ? "finished" : "playing";
    return { id: record.id, rules: record.rules, players: record.seats.map((s) => ({ name: s.name, bot: s.bot })), status: last, updated: record.updated, uploaded: record.uploaded };
  });
}

/** The body of POST /api/me/offline-games for the finished game `id` (docs/protocol.md,
 *  "Offline games"): its uuid, rules, players, events, end and the first person's seat. */
export async function uploadBody(id) {
  const record = await loadTable(id);
  if (!record) throw new Error(t("This game is not on this device."));
  if (!record.finished) throw new Error(t("This game is not over yet: finish it, then keep it in your account."));
  return {
    id: record.id.slice(PREFIX.length), rules: record.rules,
    players: record.seats.map((s) => ({ name: s.name, bot: s.bot })),
    events: record.events, finished_at: new Date(record.finished).toISOString(),
    seat: record.seats.find((s) => !s.bot).seat,
  };
}

/** The game `id` was kept in the account as `gameId` (null: offered again). */
export async function markUploaded(id, gameId) {
  const record = await loadTable(id);
  if (!record) throw new Error(t("This game is not on this device."));
  await saveTable({ ...record, uploaded: gameId });
  const room = rooms.get(id);
  if (room) room.then((r) => { if (r) r.record = { ...r.record, uploaded: gameId }; }, () => {});
}

/** Forget the device game `id` (its room closes). */
export async function forgetDeviceTable(id) {
  const room = rooms.get(id);
  rooms.delete(id);
  if (room) {
    const open = await room.catch(() => null);
    if (open) for (const socket of [...open.sockets]) socket.close(4401);
  }
  await deleteTable(id);
}

export { EMPTY_TRAY };
