// The Yahtzee page: a thin client. The server holds the game; this page shows it and
// sends intents. Text from players (names, chat) is always shown as text, never as HTML.
// Nothing inline: the server's Content-Security-Policy allows only this file and style.css.
// Seat tokens and spectator keys live in local storage, never in the address bar or the
// console; the WebSocket says who it is in its first message (hello).

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const BOXES = [
  ["ones", "Aces", "Aces"], ["twos", "Twos", "Twos"], ["threes", "Threes", "Threes"],
  ["fours", "Fours", "Fours"], ["fives", "Fives", "Fives"], ["sixes", "Sixes", "Sixes"],
  ["three_of_a_kind", "Three of a Kind", "3 of a kind"], ["four_of_a_kind", "Four of a Kind", "4 of a kind"],
  ["full_house", "Full House", "Full house"], ["small_straight", "Small Straight", "Sm. straight"],
  ["large_straight", "Large Straight", "Lg. straight"], ["yahtzee", "Yahtzee", "Yahtzee"],
  ["chance", "Chance", "Chance"],
];
const BOX_NAMES = Object.fromEntries(BOXES.map(([key, label]) => [key, label]));
const RULES = ["official", "free-choice-joker", "no-joker", "no-yahtzee-bonus", "no-bonus-no-joker"];
const LEVELS = [1, 2, 3, 4, 5];
const MAX_OTHER_SEATS = 7;
// Close codes after which trying again cannot help: say why and stop.
const FATAL = {
  4401: "This table or seat is not known to the server: the link is wrong, or the table has ended and is gone.",
  4403: "The server refused this page: open the game at the address the server prints.",
  4409: "The host handed your seat to a bot: you no longer play at this table.",
  4429: "Too many connections: close other tabs or devices showing this game, then try again.",
};
const PIPS = {
  1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]],
};

const state = {
  table: null, seat: null, role: null, token: null, watch: null, links: null,
  seq: 0, lobby: null, game: null, spectators: 0,
  held: [false, false, false, false, false], heldKey: null,
  hint: null, review: null, reviewAsked: false,
  socket: null, retry: 0, online: false, fatal: null, retryTimer: null,
  pending: null, deadline: null, wasMyTurn: false, refocus: null, screen: null,
  // The upper bonus's threshold and the win-chance meter come from the server.
  bonusAt: null, meter: { chances: null, progress: null, estimate: false, margin: null },
};
let intentCounter = 0;

// --- Small helpers ---------------------------------------------------------------------------

function el(tag, attrs = {}, content = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (content !== "") node.textContent = content;
  return node;
}
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
function say(message) { $("status").textContent = message; }
function readJson(storage, key) {
  try { return JSON.parse(storage.getItem(key) || "null"); } catch { return null; }
}
function saved(tableId) { return readJson(localStorage, `yahtzee:${tableId}`); }
function remember(tableId, seat, token, name) {
  localStorage.setItem(`yahtzee:${tableId}`, JSON.stringify({ seat, token, name }));
}
function playerClass(seat) { return `p${seat % 8}`; }
// A bot's name says its level ("Bot 3 (level 5)"): the page shows the level apart.
const BOT_NAME = /^(.*) \(level (\d+)\)$/;
function isBot(seat) { return !!(state.lobby && state.lobby.seats[seat] && state.lobby.seats[seat].bot); }
function playerName(seat) {
  const name = (state.game && state.game.players[seat]) || (state.lobby && state.lobby.seats[seat] && state.lobby.seats[seat].name) || "";
  const bot = isBot(seat) ? BOT_NAME.exec(name) : null;
  return bot ? bot[1] : name;
}
function levelOf(seat) {
  const bot = isBot(seat) ? BOT_NAME.exec((state.lobby.seats[seat].name) || "") : null;
  return bot ? Number(bot[2]) : null;
}
function botLevel(seat) { return Number((String(seat.bot || "").match(/(\d+)$/) || ["", "3"])[1]); }
function pluralDice(n) { return n === 1 ? "1 die" : `${n} dice`; }
async function api(path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method: body === undefined ? "GET" : "POST", headers,
                                      body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.message) || `Refused (${response.status}).`);
  return data;
}
function goTo(tableId) {
  // The address bar only ever shows the table's id: secrets stay in local storage.
  history.replaceState(null, "", `/?table=${encodeURIComponent(tableId)}`);
}

// --- Dice ------------------------------------------------------------------------------------

function dieFace(face) {
  const picture = svg("svg", { viewBox: "0 0 100 100", class: "face", "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { x: "5", y: "5", width: "90", height: "90", rx: "18", class: "body" }));
  for (const [cx, cy] of PIPS[face] || []) picture.append(svg("circle", { cx: String(cx), cy: String(cy), r: "9.5", class: "pip" }));
  return picture;
}

function buildDice() {
  const tray = $("dice");
  for (let i = 0; i < 5; i++) {
    const button = el("button", { type: "button", class: "die", "data-focus": `die-${i}`, "aria-pressed": "false" });
    button.append(dieFace(0), el("span", { class: "tag", "aria-hidden": "true" }, "Held"));
    button.onclick = () => toggleDie(i);
    button.addEventListener("animationend", () => button.classList.remove("rolling"));
    tray.append(button);
  }
}

function toggleDie(i) {
  if (!canHold()) return;
  state.held[i] = !state.held[i];
  saveHeld();
  render();
}

function gameKey(game) {
  return game ? `${game.phase}|${game.round}|${game.current}|${game.rolls_left}|${game.dice}` : "";
}

function heldFromKept(game) {
  const kept = (game.kept || "").replace("-", "").split("");
  const held = (game.dice || "").split("").map((face) => {
    const at = kept.indexOf(face);
    if (at < 0) return false;
    kept.splice(at, 1);
    return true;
  });
  while (held.length < 5) held.push(false);
  return held;
}

function saveHeld() {
  sessionStorage.setItem(`yahtzee-held:${state.table}`, JSON.stringify({ key: state.heldKey, held: state.held }));
}

// The player's choice of dice to hold belongs to one roll: any other message (presence,
// chat, the lobby, a resync) keeps it; a new roll starts from the dice the roll kept.
function syncHeld(game) {
  const key = gameKey(game);
  if (key === state.heldKey) return false;
  const stored = readJson(sessionStorage, `yahtzee-held:${state.table}`);
  state.heldKey = key;
  state.held = stored && stored.key === key && Array.isArray(stored.held) ? stored.held.slice(0, 5) : heldFromKept(game);
  saveHeld();
  return true;
}

// --- Lobby -----------------------------------------------------------------------------------

function setupCreate() {
  showScreen("create");
  document.title = "New table - Yahtzee";
  $("turn").textContent = "Online tables for friends and bots";
  const hero = $("hero-dice");
  hero.replaceChildren(...[5, 2, 6, 3, 1].map((face) => { const d = el("span", { class: "die static" }); d.append(dieFace(face)); return d; }));
  for (const name of RULES) $("rules").append(el("option", { value: name }, name));
  const seats = [];
  const draw = (focusKey) => {
    $("seat-list").replaceChildren(...seats.map((s, i) => {
      const item = el("li", { class: "seat-item" });
      const label = el("span", { class: "seat-label" }, `Seat ${i + 2}: ${s.kind === "bot" ? "a bot" : "a friend (invite link)"}`);
      item.append(el("span", { class: `dot ${playerClass(i + 1)}`, "aria-hidden": "true" }), label);
      if (s.kind === "bot") {
        const id = `bot-level-${i}`;
        const select = el("select", { id, "data-focus": `level-${i}`, class: "level" });
        for (const level of LEVELS) select.append(el("option", { value: String(level) }, `level ${level}`));
        select.value = String(s.level);
        select.onchange = () => { s.level = Number(select.value); };
        item.append(el("label", { for: id, class: "visually-hidden" }, `Seat ${i + 2} bot level`), select);
      }
      const remove = el("button", { type: "button", class: "small", "data-focus": `remove-${i}`, "aria-label": `Remove seat ${i + 2}` }, "Remove");
      remove.onclick = () => { seats.splice(i, 1); draw(seats.length ? `remove-${Math.min(i, seats.length - 1)}` : "add-human"); };
      item.append(remove);
      return item;
    }));
    $("seats-empty").hidden = seats.length > 0;
    $("add-human").disabled = $("add-bot").disabled = seats.length >= MAX_OTHER_SEATS;
    if (focusKey) { const target = document.querySelector(`[data-focus="${focusKey}"]`) || $(focusKey); if (target) target.focus(); }
  };
  $("add-human").onclick = () => { if (seats.length < MAX_OTHER_SEATS) seats.push({ kind: "human" }); draw(); };
  $("add-bot").onclick = () => { if (seats.length < MAX_OTHER_SEATS) seats.push({ kind: "bot", level: 3 }); draw(); };
  draw();
  $("create-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/tables", {
        host: $("host-name").value, rules: $("rules").value, seats, hints: $("hints").checked,
        turn_timer: $("timer-choice").value ? Number($("timer-choice").value) : null,
      });
      openCreated(made, $("host-name").value);
    } catch (error) { showError(error.message); }
  };
}

function openCreated(made, name) {
  remember(made.table.id, 0, made.token, name);
  localStorage.setItem(`yahtzee-links:${made.table.id}`, JSON.stringify({ invite: made.invite, spectate: made.spectate }));
  goTo(made.table.id);
  enterTable(made.table.id, "start");
}

function setupJoin() {
  showScreen("join");
  document.title = "Join a table - Yahtzee";
  const invite = sessionStorage.getItem("yahtzee:join");
  if (!invite) {
    $("turn").textContent = "This invite is no longer in this tab: open the invite link again.";
    $("join-form").hidden = true;
    return;
  }
  $("turn").textContent = "You are invited to a table";
  $("create-instead").onclick = () => sessionStorage.removeItem("yahtzee:join");
  $("join-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const joined = await api(`/api/join/${encodeURIComponent(invite)}`, { name: $("join-name").value });
      sessionStorage.removeItem("yahtzee:join");
      remember(joined.table.id, joined.seat, joined.token, $("join-name").value);
      goTo(joined.table.id);
      enterTable(joined.table.id, null);
    } catch (error) { showError(error.message); }
  };
}

function showError(message) {
  // Before a table is open the status line is not on screen: the banner says it.
  showBanner(message, []);
}

// --- Connection ------------------------------------------------------------------------------

function enterTable(tableId, focusKey) {
  state.table = tableId;
  const mine = saved(tableId);
  const watch = localStorage.getItem(`yahtzee-watch:${tableId}`);
  state.links = readJson(localStorage, `yahtzee-links:${tableId}`);
  if (mine && mine.token) { state.token = mine.token; state.seat = mine.seat; } else if (watch) state.watch = watch;
  if (!state.token && !state.watch) {
    showScreen(null);
    showBanner("You have no seat at this table on this device. Open your invite or spectator link, or start a new table.", [newTableLink()]);
    return;
  }
  state.refocus = focusKey;
  $("turn").textContent = "Connecting...";
  connect();
}

function newTableLink() { return el("a", { href: "/", class: "button-link" }, "New table"); }

function connect() {
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
    if (message && typeof message === "object") receive(message);
  };
  socket.onerror = () => {};  // onclose follows and says what happened
  socket.onclose = (event) => { if (state.socket === socket) lost(event.code); };
}

function lost(code) {
  state.online = false;
  state.pending = null;
  if (FATAL[code]) {
    state.fatal = code;
    if (code === 4409) localStorage.removeItem(`yahtzee:${state.table}`);
    const actions = [newTableLink()];
    if (code === 4429) {
      const again = el("button", { type: "button", id: "retry" }, "Try again");
      again.onclick = () => { state.fatal = null; hideBanner(); connect(); };
      actions.unshift(again);
    }
    showBanner(FATAL[code], actions);
    if (!state.lobby) $("turn").textContent = "Not connected";
    if (state.lobby) render();
    return;
  }
  const wait = Math.min(5000, 250 * 2 ** state.retry++);
  showBanner("Connection lost. Reconnecting...", []);
  if (state.lobby) render();
  state.retryTimer = setTimeout(connect, wait);
}

function showBanner(message, actions) {
  $("banner-text").textContent = message;
  $("banner-actions").replaceChildren(...actions);
  $("banner").hidden = false;
}
function hideBanner() { $("banner").hidden = true; }

function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  state.socket.send(JSON.stringify({ v: 1, ...message }));
  return true;
}
function act(message) {
  // One intent at a time, each with an id: a double click never rolls twice.
  if (state.pending) return;
  const id = `i${Date.now().toString(36)}-${++intentCounter}`;
  if (send({ ...message, id })) state.pending = id;
}

function receive(message) {
  switch (message.type) {
    case "state":
      state.online = true; state.retry = 0; hideBanner();
      state.seq = message.seq; state.lobby = message.table;
      state.seat = message.you ? message.you.seat : null;
      state.role = message.you ? message.you.role : "spectator";
      if (Array.isArray(message.chat)) drawChat(message.chat);
      if (typeof message.spectators === "number") state.spectators = message.spectators;
      state.game = message.game;
      state.deadline = typeof message.turn_deadline === "number" ? message.turn_deadline : null;
      if (Number.isInteger(message.upper_bonus_threshold)) state.bonusAt = message.upper_bonus_threshold;
      takeMeter(message);
      state.pending = null;
      render();
      break;
    case "meter":
      takeMeter(message);
      if (state.game && state.game.phase !== "over") render();
      break;
    case "event":
      if (message.seq <= state.seq) return;  // seen already (a resync overtook it)
      if (message.seq !== state.seq + 1 || !message.game) { send({ type: "resync" }); return; }
      state.seq = message.seq;
      state.game = message.game;
      estimateDeadline(message);
      state.pending = null;
      announce(message.event);
      render();
      if (message.event && message.event.type === "roll") animateRoll();
      break;
    case "presence":
      if (state.lobby && Array.isArray(message.connected)) {
        for (const seat of state.lobby.seats) seat.connected = message.connected.includes(seat.seat);
      }
      if (typeof message.spectators === "number") state.spectators = message.spectators;
      render();
      break;
    case "lobby":
      state.lobby = message.table;
      if (state.lobby.status !== "lobby" && !state.game) send({ type: "resync" });
      render();
      break;
    case "chat":
      addChatLine(message);
      break;
    case "hint":
      state.hint = { key: gameKey(state.game), options: message.options || [] };
      render();
      break;
    case "review":
      state.review = message.players || [];
      state.reviewNotes = Array.isArray(message.notes) ? message.notes.filter((n) => typeof n === "string") : [];
      drawReview();
      break;
    case "ack":
      if (message.id === state.pending) state.pending = null;
      break;
    case "error":
      if (!message.id || message.id === state.pending) state.pending = null;
      say(message.message || "Refused.");
      render();
      break;
    default:
      break;
  }
}

function takeMeter(message) {
  const chances = Array.isArray(message.win_chances) && message.win_chances.every((p) => typeof p === "number") ? message.win_chances : null;
  const progress = Array.isArray(message.meter_progress) && message.meter_progress.length === 2 ? message.meter_progress.map(Number) : null;
  // an estimate (the state says meter_estimate, a meter message estimate): shown "≈62%"
  const estimate = chances !== null && (message.estimate === true || message.meter_estimate === true);
  const margin = typeof message.margin === "number" ? message.margin : typeof message.meter_margin === "number" ? message.meter_margin : null;
  state.meter = { chances, progress, estimate, margin };
}

function estimateDeadline(message) {
  if (typeof message.turn_deadline === "number" || message.turn_deadline === null) {
    state.deadline = message.turn_deadline;
    return;
  }
  const game = message.game;
  const seat = game && game.current !== null ? state.lobby.seats[game.current] : null;
  state.deadline = state.lobby.turn_timer && seat && !seat.bot && game.phase !== "over"
    ? Date.now() / 1000 + state.lobby.turn_timer : null;
}

function announce(event) {
  if (!event) return;
  const who = event.player === state.seat ? "You" : playerName(event.player);
  if (event.type === "roll") say(`${who} rolled ${event.dice.split("").join(" ")}.`);
  if (event.type === "score") {
    const box = BOX_NAMES[event.category] || event.category.replaceAll("_", " ");
    say(`${who} scored ${event.points + event.yahtzee_bonus} in ${box}.`);
  }
  if (event.type === "undo") say(`${who} took back the last placement.`);
  if (event.type === "playoff_roll") say(`Playoff: ${who} threw ${event.dice.split("").join(" ")}.`);
  if (event.type === "start") say("The game has started.");
}

function animateRoll() {
  const buttons = $("dice").children;
  state.held.forEach((held, i) => {
    if (held) return;
    const die = buttons[i];
    die.classList.remove("rolling");
    void die.offsetWidth;  // restart the animation
    die.classList.add("rolling");
  });
}

// --- Drawing ---------------------------------------------------------------------------------

function showScreen(id) {
  for (const name of ["create", "join", "lobby", "play", "over"]) $(name).hidden = name !== id;
  document.body.dataset.screen = id || "none";
  const slot = { lobby: "chat-slot-lobby", play: "chat-slot-play", over: "chat-slot-over" }[id];
  const chat = $("chat");
  chat.hidden = !slot;
  if (slot && chat.parentElement.id !== slot) {
    const typing = chat.contains(document.activeElement) ? document.activeElement : null;
    $(slot).append(chat);
    if (typing) typing.focus();
  }
  if (state.screen !== id) window.scrollTo(0, 0);
  state.screen = id;
}

function focusKeyOf(node) {
  return node && node !== document.body && node.dataset ? node.dataset.focus || null : null;
}
function focusable(node) {
  return node && !node.disabled && node.getClientRects().length > 0 && !node.closest("[hidden]");
}

function render() {
  const key = focusKeyOf(document.activeElement) || state.refocus;
  state.refocus = null;
  if (!state.lobby) return;
  if (!state.game) drawLobby();
  else if (state.game.phase === "over") drawOver();
  else drawGame();
  drawChatBox();
  drawTitle();
  restoreFocus(key);
}

function restoreFocus(key) {
  if (!key) return;
  const active = document.activeElement;
  if (focusKeyOf(active) === key && focusable(active)) return;
  const target = document.querySelector(`[data-focus="${key}"]`);
  if (focusable(target)) { target.focus(); return; }
  // The element is gone or disabled (a box just scored, the last roll): the next place to act.
  const next = [$("roll"), document.querySelector("#scorecard [data-focus^='box-']:not(:disabled)"), $("rematch")].find(focusable);
  if (next) next.focus();
  else state.refocus = key;  // not my turn yet: focus returns when it is
}

function isMyTurn() {
  const game = state.game;
  return !!game && game.phase !== "over" && state.seat !== null && game.current === state.seat;
}
function canAct() { return isMyTurn() && state.online; }
function canHold() { return canAct() && !!state.game.dice && state.game.rolls_left > 0; }

function drawTitle() {
  const mine = isMyTurn();
  document.title = mine ? "Your turn - Yahtzee" : state.game && state.game.phase === "over" ? "Game over - Yahtzee" : "Yahtzee";
  if (mine && !state.wasMyTurn) {
    try { if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate([60, 40, 60]); } catch { /* not allowed */ }
  }
  state.wasMyTurn = mine;
}

function seatName(s) {
  if (s.open) return "(waiting for a friend)";
  return playerName(s.seat) || `Seat ${s.seat + 1}`;
}

function drawLobby() {
  showScreen("lobby");
  const lobby = state.lobby;
  const open = lobby.seats.filter((s) => s.open).length;
  const host = lobby.seats[0] ? seatName(lobby.seats[0]) : "the host";
  const isHost = state.seat === 0;
  const links = state.links;
  $("links").hidden = !links;
  if (links) {
    $("invite-link").value = `${location.origin}/?join=${links.invite}`;
    $("watch-link").value = `${location.origin}/?watch=${links.spectate}&table=${lobby.id}`;
  }
  $("lobby-seats").replaceChildren(...lobby.seats.map((s) => {
    const item = el("li", { class: `seat ${s.open ? "open" : ""}` });
    const avatar = el("span", { class: `avatar ${playerClass(s.seat)}`, "aria-hidden": "true" }, s.open ? "?" : (s.name || "?").trim().charAt(0).toUpperCase() || "?");
    const who = el("span", { class: "who" }, seatName(s));
    const what = [];
    if (s.seat === 0) what.push("host");
    if (s.seat === state.seat) what.push("you");
    if (s.bot) what.push(`bot, level ${levelOf(s.seat) || botLevel(s)}`);
    else if (!s.open) what.push(s.connected ? "here" : "away");
    item.append(avatar, who, el("span", { class: "what" }, what.join(", ")));
    return item;
  }));
  const start = $("start");
  start.hidden = !isHost;
  start.disabled = open > 0 || !state.online;
  start.dataset.focus = "start";
  let note;
  if (open > 0) note = isHost ? `Waiting for ${open === 1 ? "a friend" : `${open} friends`} to join: send the invite link.` : `Waiting for ${open === 1 ? "one more player" : `${open} more players`} to join.`;
  else note = isHost ? "Everyone is here: start the game when you are ready." : `Everyone is here: waiting for the host (${host}) to start the game.`;
  if (!isHost && open > 0) note += ` Then the host (${host}) starts the game.`;
  $("lobby-note").textContent = note;
  const timer = lobby.turn_timer ? `${lobby.turn_timer} s a decision` : "no turn timer";
  $("table-info").textContent = `Rules: ${lobby.rules}, ${lobby.hints_allowed ? "hints allowed" : "no hints"}, ${timer}.`;
  $("turn").textContent = open > 0 ? "Waiting for players" : isHost ? "Ready to start" : `Waiting for ${host} to start`;
  drawTimer();
}

function drawGame() {
  showScreen("play");
  const game = state.game;
  syncHeld(game);
  const mine = canAct();
  const yours = isMyTurn();
  const who = playerName(game.current);
  $("turn").textContent = game.phase === "playoff"
    ? `Playoff: ${yours ? "your throw" : `${who} throws`}`
    : `Round ${game.round} of 13: ${yours ? "your turn" : `${who}'s turn`}`;
  $("turn").className = yours ? "mine" : "";
  const faces = (game.dice || "").split("");
  const holdable = canHold();
  [...$("dice").children].forEach((button, i) => {
    const face = Number(faces[i] || 0);
    const held = !!state.held[i] && !!face;
    if (button.dataset.face !== String(face || "")) button.replaceChild(dieFace(face), button.firstChild);
    button.dataset.face = face ? String(face) : "";
    button.setAttribute("aria-pressed", String(held));
    button.setAttribute("aria-label", face ? `Die ${i + 1}: ${face}${held ? ", held" : ""}` : `Die ${i + 1}: not rolled`);
    button.classList.toggle("held", held);
    button.classList.toggle("blank", !face);
    button.disabled = !holdable;
  });
  const roll = $("roll");
  roll.dataset.focus = "roll";
  const throwing = faces.length ? state.held.filter((h, i) => !h && faces[i]).length : 5;
  const waitingFor = game.phase === "playoff" ? `${who} throws` : `${who} plays`;
  roll.textContent = !yours ? waitingFor : !game.dice ? "Roll the dice" : game.rolls_left === 0 ? "No rolls left" : throwing === 0 ? "Hold fewer to roll" : `Roll ${pluralDice(throwing)}`;
  roll.disabled = !mine || (!!game.dice && (game.rolls_left === 0 || throwing === 0));
  roll.hidden = state.seat === null;  // spectators watch
  $("rolls-left").textContent = game.dice ? `Rolls left: ${game.rolls_left}` : "";
  $("rolls-left").className = "rolls-left";
  const hint = $("hint");
  hint.dataset.focus = "hint";
  hint.hidden = !state.lobby.hints_allowed || state.seat === null;
  hint.disabled = !mine || !game.dice;
  const advice = state.hint && state.hint.key === gameKey(game) && yours ? state.hint : null;
  if (!advice) state.hint = null;
  drawHint(advice);
  drawCard($("scorecard"), mine, true);
  drawHostTools();
  drawTimer();
}

function drawHint(advice) {
  const box = $("hint-box");
  box.hidden = !advice;
  if (!advice) { box.replaceChildren(); return; }
  const list = el("ol", { class: "advice" });
  advice.options.forEach((o, i) => {
    const item = el("li", { class: i === 0 ? "best" : "" });
    item.append(el("span", { class: "action" }, o.action),
      el("span", { class: "value" }, o.value.toFixed(1)),
      el("span", { class: "regret" }, o.regret < 1e-9 ? "best" : `-${o.regret.toFixed(2)}`));
    list.append(item);
  });
  box.replaceChildren(el("h2", {}, "Advisor"), el("p", { class: "note" }, "Your best choices now, with the final total each leads to on average:"), list);
}

function drawHostTools() {
  // The host may hand a seat whose player has left to a bot of the level chosen here.
  const tools = $("host-tools");
  const away = state.seat === 0 && state.online ? state.lobby.seats.filter((s) => s.seat !== 0 && !s.bot && !s.open && !s.connected) : [];
  tools.hidden = away.length === 0;
  const levels = {};
  for (const select of tools.querySelectorAll("select")) levels[select.dataset.seat] = select.value;
  tools.replaceChildren(...away.map((s) => {
    const row = el("div", { class: "host-tool" });
    const id = `hand-level-${s.seat}`;
    const select = el("select", { id, "data-seat": String(s.seat), "data-focus": `hand-level-${s.seat}` });
    for (const level of LEVELS) select.append(el("option", { value: String(level) }, `level ${level}`));
    select.value = levels[s.seat] || "3";
    const button = el("button", { type: "button", "data-seat": String(s.seat), "data-focus": `hand-${s.seat}` }, "Hand to a bot");
    button.onclick = async () => {
      try { await api(`/api/tables/${state.table}/seats/${s.seat}/bot`, { level: Number(select.value) }, state.token); }
      catch (error) { say(error.message); }
    };
    row.append(el("span", {}, `${seatName(s)} has left.`), el("label", { for: id }, "Bot level"), select, button);
    return row;
  }));
}

function rowHeader(label, short) {
  const cell = el("th", { scope: "row" });
  if (short === label) cell.textContent = label;
  else cell.append(el("span", { class: "long" }, label), el("span", { class: "short", "aria-hidden": "true" }, short));
  return cell;
}

function cardTotalRow(label, short, cards, cls, pick) {
  const row = el("tr", { class: `total ${cls}` });
  row.append(rowHeader(label, short));
  cards.forEach((card, seat) => {
    const cell = el("td", { class: playerClass(seat) });
    pick(card, cell);
    row.append(cell);
  });
  return row;
}

function drawCard(table, mine, live) {
  const game = state.game;
  // The player to move is marked during the game, the winners after it.
  const marked = (seat) => (live ? seat === game.current : (game.winners || []).includes(seat));
  const head = el("tr");
  head.append(el("th", { scope: "col", class: "box-col" }, "Box"));
  game.players.forEach((name, seat) => {
    const cell = el("th", { scope: "col", class: `player ${playerClass(seat)}${marked(seat) ? " current" : ""}` });
    const info = state.lobby.seats[seat];
    const level = levelOf(seat);
    cell.append(el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "name" }, playerName(seat)));
    if (level) cell.append(el("span", { class: "badge" }, `level ${level}`));
    if (seat === state.seat) cell.append(el("span", { class: "badge" }, "you"));
    else if (live && info && !info.bot && !info.connected) cell.append(el("span", { class: "badge away" }, "away"));
    head.append(cell);
  });
  table.tHead.replaceChildren(head);
  const options = Object.fromEntries(game.placements.map((p) => [p.box, p]));
  const rows = [];
  const meter = live ? meterRow(game) : null;
  if (meter) rows.push(meter);
  BOXES.forEach(([key, label, short], index) => {
    if (index === 6) {
      rows.push(cardTotalRow("Upper", "Upper", game.cards, "upper", (card, cell) => {
        const sub = card.upper_subtotal;
        const at = state.bonusAt;
        if (at === null) { cell.append(el("span", { class: "sub" }, String(sub))); return; }
        const bar = el("progress", { max: String(at), value: String(Math.min(sub, at)),
                                     "aria-label": `${game.players[game.cards.indexOf(card)]}: upper section ${sub} of ${at}` });
        cell.append(el("span", { class: "sub" }, `${sub}/${at}`), bar);
      }));
      rows.push(cardTotalRow("Bonus", "Bonus", game.cards, "bonus", (card, cell) => {
        cell.textContent = card.upper_bonus ? `+${card.upper_bonus}` : "";
        if (!card.upper_bonus) cell.append(el("span", { class: "visually-hidden" }, "none yet"));
      }));
    }
    const row = el("tr", { class: index < 6 ? "upper-box" : "lower-box" });
    row.append(rowHeader(label, short));
    game.cards.forEach((card, seat) => {
      const cell = el("td", { class: `${playerClass(seat)}${marked(seat) ? " current" : ""}` });
      const value = card.boxes[key];
      const option = options[key];
      if (value !== null && value !== undefined) {
        cell.textContent = String(value);
        cell.classList.add("filled");
      } else if (live && seat === game.current && option && game.dice) {
        const points = option.points + option.yahtzee_bonus;
        if (seat === state.seat) {
          const button = el("button", { type: "button", class: `propose${points === 0 ? " zero" : ""}`, "data-box": key, "data-focus": `box-${key}`,
                                         "aria-label": `Score ${points} in ${label}${option.joker ? " (Joker)" : ""}` }, String(points));
          if (option.joker) button.append(el("span", { class: "joker", "aria-hidden": "true" }, "J"));
          button.disabled = !mine;
          button.onclick = () => {
            if (points === 0 && !confirm(`Score 0 in ${label}?`)) return;
            act({ type: "score", box: key });
          };
          cell.append(button);
        } else {
          cell.append(el("span", { class: "proposal", title: `${playerName(seat)} could score ${points} here` }, String(points)));
        }
      }
      row.append(cell);
    });
    rows.push(row);
  });
  rows.push(cardTotalRow("Yahtzee bonus", "Yz. bonus", game.cards, "ybonus", (card, cell) => { cell.textContent = card.yahtzee_bonus ? `+${card.yahtzee_bonus}` : ""; }));
  rows.push(cardTotalRow("Total", "Total", game.cards, "grand", (card, cell) => { cell.textContent = String(card.total); }));
  table.tBodies[0].replaceChildren(...rows);
  table.classList.toggle("many", game.players.length > 4);
}

// --- The win-chance meter -------------------------------------------------------------------

function percent(p) {
  if (p > 0 && p < 0.005) return "<1%";
  if (p < 1 && p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

// A row at the top of the card: each seat's chance to finish first (alone: to beat the
// player's best score), as text and a thin bar; while its table is being prepared, how far
// that is; nothing when the server has no meter to show.
function meterRow(game) {
  const { chances, progress, estimate, margin } = state.meter;
  const alone = game.players.length === 1;
  const row = el("tr", { class: "meter" });
  if (chances && chances.length === game.players.length) {
    const mine = alone && state.seat === 0;
    row.append(alone ? rowHeader(mine ? "Chance to beat your best" : "Chance to beat the best", "Beat best") : rowHeader("Chance to win", "Win chance"));
    chances.forEach((p, seat) => {
      const cell = el("td", { class: playerClass(seat) });
      const text = (estimate ? "≈" : "") + percent(p);
      const about = estimate ? ` (an estimate${margin !== null ? `, within ${Math.round(margin * 100)} points` : ""} while the exact chances are prepared)` : "";
      const what = (alone ? `chance to beat ${mine ? "your" : "their"} best score` : "chance to win") + about;
      cell.append(el("span", { class: "pct" }, text),
        el("progress", { class: "win", max: "100", value: String(Math.round(p * 100)), "aria-label": `${playerName(seat)}: ${text} ${what}` }));
      row.append(cell);
    });
    return row;
  }
  if (progress) {
    row.classList.add("preparing");
    row.append(rowHeader("Chance to win", "Win chance"));
    const [done, total] = progress;
    row.append(el("td", { colspan: String(game.players.length), class: "preparing-note" }, `Preparing win chances ${done}/${total}`));
    return row;
  }
  return null;
}

function drawOver() {
  showScreen("over");
  const game = state.game;
  const standings = game.standings || [];
  const winners = standings.filter((s) => s.winner).map((s) => playerName(s.seat));
  $("turn").textContent = winners.length === 1 ? `Game over: ${winners[0]} wins` : winners.length ? `Game over: ${winners.join(" and ")} share the win` : "Game over";
  $("turn").className = "";
  $("timer").hidden = true;
  $("standings").replaceChildren(...standings.map((s) => {
    const item = el("li", { class: `standing ${playerClass(s.seat)}${s.winner ? " winner" : ""}` });
    item.append(el("span", { class: "place" }, `${s.place}.`), el("span", { class: "dot", "aria-hidden": "true" }),
                el("span", { class: "name" }, playerName(s.seat)));
    if (levelOf(s.seat)) item.lastChild.append(el("span", { class: "badge" }, `bot, level ${levelOf(s.seat)}`));
    item.append(el("span", { class: "total" }, String(s.total)));
    if (s.winner) item.append(el("span", { class: "badge win" }, "winner"));
    return item;
  }));
  $("highlights").replaceChildren(...game.cards.map((card, seat) => {
    let best = null;
    for (const [key, label] of BOXES) {
      const value = card.boxes[key];
      if (value !== null && value !== undefined && (!best || value >= best.value)) best = { label, value };
    }
    const yahtzees = (card.boxes.yahtzee === 50 ? 1 : 0) + (card.yahtzee_bonus > 0 ? Math.max(1, Math.round(card.yahtzee_bonus / 100)) : 0);
    const parts = [];
    if (best && best.value > 0) parts.push(`best box ${best.label} (${best.value})`);
    parts.push(yahtzees === 0 ? "no Yahtzee" : yahtzees === 1 ? "1 Yahtzee" : `${yahtzees} Yahtzees`);
    parts.push(card.upper_bonus ? "upper bonus made" : state.bonusAt === null ? `upper ${card.upper_subtotal}` : `upper ${card.upper_subtotal}/${state.bonusAt}`);
    const item = el("li", { class: playerClass(seat) });
    item.append(el("span", { class: "dot", "aria-hidden": "true" }), el("strong", {}, playerName(seat)), document.createTextNode(`: ${parts.join(", ")}`));
    return item;
  }));
  $("rematch").hidden = state.seat === null;
  $("rematch").dataset.focus = "rematch";
  drawCard($("final-card"), false, false);
  if (!state.reviewAsked && state.online) { state.reviewAsked = true; send({ type: "review" }); }
  drawReview();
}

function drawReview() {
  const box = $("review");
  const players = state.review;
  box.hidden = !players || players.length === 0 || state.screen !== "over";
  if (box.hidden) return;
  const parts = players.map((p) => {
    const part = el("section", { class: `review-player ${playerClass(p.seat)}` });
    part.append(el("h3", {}, `${p.name}: ${p.total_loss.toFixed(1)} points lost to the best choices (${p.decisions} decisions)`));
    const list = el("ol");
    for (const d of p.costliest) {
      const cost = [`-${d.loss.toFixed(2)} points`];
      if (typeof d.win_swing === "number") cost.push(d.win_swing < 0.0005 ? "same chance to win" : `-${(d.win_swing * 100).toFixed(1)}% chance to win`);
      list.append(el("li", {}, `Round ${d.round}, dice ${d.dice}: ${d.chosen}; best was ${d.best} (${cost.join(", ")})`));
    }
    part.append(list);
    return part;
  });
  const notes = (state.reviewNotes || []).map((n) => el("p", { class: "review-note" }, n));
  box.replaceChildren(el("h2", {}, "Review"), ...notes, ...parts);
}

async function rematch() {
  // A new table with the same rules, hints, timer and bots; friends' seats open again, and
  // the invite link to send them is on the next screen.
  const lobby = state.lobby;
  const me = saved(state.table);
  const name = (me && me.name) || (lobby.seats[state.seat] && lobby.seats[state.seat].name) || "Host";
  const seats = lobby.seats.filter((s) => s.seat !== state.seat).map((s) => s.bot
    ? { kind: "bot", level: botLevel(s) }
    : { kind: "human" });
  try {
    const made = await api("/api/tables", { host: name, rules: lobby.rules, seats, hints: lobby.hints_allowed, turn_timer: lobby.turn_timer });
    if (state.socket) { const old = state.socket; state.socket = null; old.close(); }
    Object.assign(state, { seq: 0, lobby: null, game: null, hint: null, review: null, reviewAsked: false, heldKey: null, token: null, watch: null, seat: null,
                           meter: { chances: null, progress: null, estimate: false, margin: null } });
    $("chat-log").replaceChildren();
    openCreated(made, name);
  } catch (error) { say(error.message); showBanner(error.message, []); }
}

// --- Chat and timer -------------------------------------------------------------------------

function chatLine(message) {
  const line = el("p", { class: `chat-line ${playerClass(message.seat || 0)}` });
  line.append(el("span", { class: "dot", "aria-hidden": "true" }), el("strong", {}, `${message.name || "?"}: `), document.createTextNode(message.text));
  return line;
}
function drawChat(lines) {
  $("chat-log").replaceChildren(...lines.map(chatLine));
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
}
function addChatLine(message) {
  const log = $("chat-log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  log.append(chatLine(message));
  while (log.children.length > 200) log.firstChild.remove();
  if (atEnd) log.scrollTop = log.scrollHeight;
}
function drawChatBox() {
  const spectator = state.seat === null;
  const watching = state.spectators;
  $("watchers").textContent = watching ? `${watching} watching` : "";
  $("chat-form").hidden = spectator;
  $("chat-note").hidden = !spectator;
  $("send").disabled = !state.online;
}

function drawTimer() {
  const timer = $("timer");
  const live = state.game && state.game.phase !== "over" && state.deadline;
  timer.hidden = !live;
  if (!live) return;
  const left = Math.max(0, Math.ceil(state.deadline - Date.now() / 1000));
  timer.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  timer.classList.toggle("urgent", left <= 10);
}

// --- Start -----------------------------------------------------------------------------------

function copyButton(button, input) {
  button.onclick = async () => {
    try { await navigator.clipboard.writeText(input.value); }
    catch { input.select(); document.execCommand("copy"); }
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  };
}

function wire() {
  buildDice();
  $("roll").onclick = (event) => {
    const game = state.game;
    // The second click of a double click never rolls again, however fast the first came back.
    if (!game || !canAct() || event.detail > 1) return;
    const faces = (game.dice || "").split("");
    const keep = game.dice ? faces.filter((_, i) => state.held[i]).join("") : "";
    act({ type: "roll", keep });
  };
  $("hint").onclick = () => { if (canAct()) send({ type: "hint" }); };
  new MutationObserver(() => { if (!$("hint-box").hidden) $("hint-box").scrollIntoView({ block: "nearest" }); })
    .observe($("hint-box"), { attributes: true, attributeFilter: ["hidden"] });
  $("start").onclick = async () => {
    state.refocus = "start";
    try { await api(`/api/tables/${state.table}/start`, {}, state.token); } catch (error) { say(error.message); $("lobby-note").textContent = error.message; }
  };
  $("rematch").onclick = rematch;
  $("chat-form").onsubmit = (event) => {
    event.preventDefault();
    const message = $("chat-text").value.trim();
    if (message && send({ type: "chat", text: message })) $("chat-text").value = "";
  };
  copyButton($("copy-invite"), $("invite-link"));
  copyButton($("copy-watch"), $("watch-link"));
  setInterval(drawTimer, 250);
}

function main() {
  wire();
  const params = new URLSearchParams(location.search);
  if (params.has("join")) {
    // The invite moves from the address bar into this tab's storage.
    const invite = params.get("join");
    if (invite) sessionStorage.setItem("yahtzee:join", invite);
    history.replaceState(null, "", "/?join");
    setupJoin();
  } else if (params.has("watch")) {
    const key = params.get("watch");
    const table = params.get("table");
    if (table && key) {
      localStorage.setItem(`yahtzee-watch:${table}`, key);
      goTo(table);
      enterTable(table, null);
    } else {
      history.replaceState(null, "", "/");
      showScreen(null);
      showBanner("This spectator link is cut short: it needs both its watch key and its table. Ask for the whole link.", [newTableLink()]);
    }
  } else if (params.get("table")) {
    enterTable(params.get("table"), null);
  } else {
    setupCreate();
  }
}

main();
