// The Yahtzee page: a thin client. The server holds the game; this page shows it and
// sends intents. Text from players (names, chat) is always shown as text, never as HTML.

const $ = (id) => document.getElementById(id);
const FACES = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
const BOXES = [
  ["ones", "Aces"], ["twos", "Twos"], ["threes", "Threes"], ["fours", "Fours"],
  ["fives", "Fives"], ["sixes", "Sixes"], ["three_of_a_kind", "Three of a Kind"],
  ["four_of_a_kind", "Four of a Kind"], ["full_house", "Full House"],
  ["small_straight", "Small Straight"], ["large_straight", "Large Straight"],
  ["yahtzee", "Yahtzee"], ["chance", "Chance"],
];
const params = new URLSearchParams(location.search);
const state = { table: null, seat: null, token: null, spectate: null, seq: 0, game: null,
                lobby: null, held: [false, false, false, false, false], socket: null,
                retry: 0, reviewAsked: false };

function text(el, value) { el.textContent = value; return el; }
function el(tag, attrs = {}, content = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (content) node.textContent = content;
  return node;
}
function show(...ids) {
  for (const id of ["create", "join", "lobby", "play", "over", "chat"]) $(id).hidden = !ids.includes(id);
}
function say(message) { text($("status"), message); }
function saved(tableId) { return JSON.parse(localStorage.getItem(`yahtzee:${tableId}`) || "null"); }
function remember(tableId, seat, token) {
  localStorage.setItem(`yahtzee:${tableId}`, JSON.stringify({ seat, token }));
}
async function api(path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method: body === undefined ? "GET" : "POST", headers,
                                      body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || (data.detail && JSON.stringify(data.detail)) || "Refused");
  return data;
}

// --- Lobby -------------------------------------------------------------------------------

function setupCreate() {
  show("create");
  for (const name of ["official", "free-choice-joker", "no-joker", "no-yahtzee-bonus", "no-bonus-no-joker"]) {
    $("rules").append(el("option", { value: name }, name));
  }
  const seats = [];
  const draw = () => {
    $("seat-list").replaceChildren(...seats.map((s, i) => {
      const item = el("li", {}, s.kind === "bot" ? `Bot, level ${s.level} ` : "A friend (invite link) ");
      const remove = el("button", { type: "button", "aria-label": `Remove seat ${i + 2}` }, "Remove");
      remove.onclick = () => { seats.splice(i, 1); draw(); };
      item.append(remove);
      return item;
    }));
  };
  $("add-human").onclick = () => { if (seats.length < 7) seats.push({ kind: "human" }); draw(); };
  $("add-bot").onclick = () => { if (seats.length < 7) seats.push({ kind: "bot", level: 3 }); draw(); };
  $("create-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/tables", { host: $("host-name").value, rules: $("rules").value,
                                              seats, hints: $("hints").checked,
                                              turn_timer: $("timer").value ? Number($("timer").value) : null });
      remember(made.table.id, 0, made.token);
      localStorage.setItem(`yahtzee-links:${made.table.id}`, JSON.stringify({ invite: made.invite, spectate: made.spectate }));
      location.search = `?table=${made.table.id}`;
    } catch (error) { say(error.message); }
  };
}

function setupJoin(invite) {
  show("join");
  $("join-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const joined = await api(`/api/join/${invite}`, { name: $("join-name").value });
      remember(joined.table.id, joined.seat, joined.token);
      location.search = `?table=${joined.table.id}`;
    } catch (error) { say(error.message); }
  };
}

// --- Connection ----------------------------------------------------------------------------

function connect() {
  const query = state.token ? `token=${encodeURIComponent(state.token)}` : `spectate=${encodeURIComponent(state.spectate)}`;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${state.table}?${query}`);
  state.socket = socket;
  socket.onopen = () => { state.retry = 0; say("Connected."); };
  state.online = false;
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    state.online = false;
    if (state.game) drawGame();
    if (event.code === 4401 || event.code === 4403) { say("This link or seat is not valid."); return; }
    const wait = Math.min(5000, 250 * 2 ** state.retry++);
    say("Connection lost; reconnecting...");
    setTimeout(connect, wait);
  };
}
function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ v: 1, ...message }));
}

function receive(message) {
  state.online = true;
  if (message.type === "state") {
    state.seq = message.seq; state.lobby = message.table; state.seat = message.you.seat;
    setGame(message.game, true);
  } else if (message.type === "event") {
    if (message.seq !== state.seq + 1) { send({ type: "resync" }); return; }
    state.seq = message.seq;
    announce(message.event);
    setGame(message.game, true);
  } else if (message.type === "chat") {
    $("chat-log").append(el("li", {}, `${message.name}: ${message.text}`));
  } else if (message.type === "hint") {
    const box = $("hint-box");
    box.hidden = false;
    box.replaceChildren(el("p", {}, "Advisor (expected final total):"),
      ...message.options.map((o) => el("p", {}, `${o.value.toFixed(1)}  ${o.regret < 1e-9 ? "best" : "-" + o.regret.toFixed(2)}  ${o.action}`)));
  } else if (message.type === "review") {
    drawReview(message.players);
  } else if (message.type === "error") {
    say(message.message);
  }
}

function announce(event) {
  const names = state.game ? state.game.players : [];
  const who = names[event.player] || "";
  if (event.type === "roll") say(`${who} rolled ${event.dice.split("").join(" ")}.`);
  if (event.type === "score") say(`${who} scored ${event.points + event.yahtzee_bonus} in ${event.category.replaceAll("_", " ")}.`);
  if (event.type === "undo") say(`${who} took back their last placement.`);
  if (event.type === "playoff_roll") say(`Playoff: ${who} threw ${event.dice.split("").join(" ")}.`);
}

// --- Drawing -------------------------------------------------------------------------------

function setGame(game, resetHeld) {
  state.game = game;
  if (!game) { drawLobby(); return; }
  if (resetHeld || !game.dice) {
    const kept = (game.kept || "").replace("-", "").split("");
    state.held = (game.dice || "").split("").map((face) => {
      const at = kept.indexOf(face);
      if (at >= 0) { kept.splice(at, 1); return true; }
      return false;
    });
    while (state.held.length < 5) state.held.push(false);
  }
  drawGame();
}

function drawLobby() {
  show("lobby", "chat");
  const lobby = state.lobby;
  const links = JSON.parse(localStorage.getItem(`yahtzee-links:${lobby.id}`) || "null");
  $("invite-link").value = links ? `${location.origin}/?join=${links.invite}` : "(ask the host)";
  $("watch-link").value = links ? `${location.origin}/?table=${lobby.id}&watch=${links.spectate}` : "";
  $("lobby-seats").replaceChildren(...lobby.seats.map((s) =>
    el("li", {}, `${s.seat + 1}. ${s.bot ? `${s.name} (bot)` : s.name || "(waiting for a friend)"}${s.connected ? " - here" : ""}`)));
  $("start").hidden = state.seat !== 0;
  $("start").disabled = lobby.seats.some((s) => s.open);
  text($("turn"), lobby.seats.some((s) => s.open) ? "Waiting for players..." : "Ready to start.");
}

function drawGame() {
  const game = state.game;
  if (game.phase === "over") { drawOver(); return; }
  show("play", "chat");
  const mine = game.current === state.seat && state.online;
  const who = game.players[game.current];
  const yours = game.current === state.seat;
  text($("turn"), game.phase === "playoff" ? `Playoff: ${who} rolls` : `Round ${game.round} of 13: ${yours ? "your turn" : who + "'s turn"}`);
  const faces = (game.dice || "").split("");
  $("dice").replaceChildren(...[0, 1, 2, 3, 4].map((i) => {
    const face = faces[i];
    const button = el("button", { class: "die", "aria-pressed": String(!!state.held[i]),
                                  "aria-label": face ? `Die ${i + 1}: ${face}${state.held[i] ? ", kept" : ""}` : `Die ${i + 1}: not rolled` },
                      face ? FACES[Number(face)] : "");
    button.dataset.face = face || "";
    button.disabled = !mine || !face || game.rolls_left === 0;
    button.onclick = () => { state.held[i] = !state.held[i]; drawGame(); };
    return button;
  }));
  $("roll").disabled = !mine || (game.dice && game.rolls_left === 0);
  text($("rolls-left"), game.dice ? `Rolls left: ${game.rolls_left}` : "");
  $("hint").hidden = !state.lobby.hints_allowed || state.seat === null;
  $("hint").disabled = !mine || !game.dice;
  drawCards(mine);
  drawHostTools();
}

function drawHostTools() {
  // The host may hand a seat whose player has left to a bot.
  const tools = $("host-tools");
  const away = state.seat === 0 ? state.lobby.seats.filter((s) => s.seat !== 0 && !s.bot && !s.connected) : [];
  tools.hidden = away.length === 0;
  tools.replaceChildren(...away.map((s) => {
    const button = el("button", { "data-seat": String(s.seat) }, `${s.name || "Seat " + (s.seat + 1)} has left: hand the seat to a bot`);
    button.onclick = async () => {
      try { await api(`/api/tables/${state.table}/seats/${s.seat}/bot`, { level: 3 }, state.token); }
      catch (error) { say(error.message); }
    };
    return button;
  }));
}

function drawCards(mine) {
  const game = state.game;
  const head = el("tr");
  head.append(el("th", { scope: "col" }, "Box"), ...game.players.map((p) => el("th", { scope: "col" }, p)));
  $("scorecard").tHead.replaceChildren(head);
  const options = Object.fromEntries(game.placements.map((p) => [p.box, p]));
  const rows = [];
  const totals = (label, pick) => {
    const row = el("tr", { class: "total" });
    row.append(el("th", { scope: "row" }, label), ...game.cards.map((c) => el("td", {}, String(pick(c)))));
    rows.push(row);
  };
  BOXES.forEach(([key, label], index) => {
    if (index === 6) {
      totals("Upper", (c) => c.upper_subtotal);
      totals("Bonus (63+)", (c) => c.upper_bonus || `need ${Math.max(0, 63 - c.upper_subtotal)}`);
    }
    const row = el("tr");
    row.append(el("th", { scope: "row" }, label));
    game.cards.forEach((card, seat) => {
      const cell = el("td", seat === game.current ? { class: "current" } : {});
      const value = card.boxes[key];
      const option = options[key];
      if (value !== null) {
        cell.textContent = String(value);
      } else if (seat === game.current && option && game.dice) {
        const points = option.points + option.yahtzee_bonus;
        const button = el("button", { "data-box": key, "aria-label": `Score ${points} in ${label}${option.joker ? " (Joker)" : ""}` }, String(points));
        if (option.joker) button.append(el("span", { class: "joker" }, " J"));
        button.disabled = !mine;
        button.onclick = () => {
          if (points === 0 && !confirm(`Score 0 in ${label}?`)) return;
          send({ type: "score", box: key });
        };
        cell.append(button);
      }
      row.append(cell);
    });
    rows.push(row);
  });
  totals("Yahtzee bonus", (c) => c.yahtzee_bonus);
  totals("Total", (c) => c.total);
  $("scorecard").tBodies[0].replaceChildren(...rows);
}

function drawOver() {
  show("over", "chat");
  text($("turn"), "Game over");
  $("standings").replaceChildren(...state.game.standings.map((s) =>
    el("li", {}, `${s.name}: ${s.total}${s.winner ? " (winner)" : ""}`)));
  if (!state.reviewAsked && state.seat !== null) { state.reviewAsked = true; send({ type: "review" }); }
}

function drawReview(players) {
  $("review").replaceChildren(...players.map((p) => {
    const part = el("section");
    part.append(el("h3", {}, `${p.name}: ${p.total_loss.toFixed(1)} points lost to the optimal choices`));
    const list = el("ol");
    for (const d of p.costliest) list.append(el("li", {}, `Round ${d.round}, ${d.dice}: ${d.chosen}; best ${d.best} (-${d.loss.toFixed(2)})`));
    part.append(list);
    return part;
  }));
}

// --- Start ---------------------------------------------------------------------------------

$("roll").onclick = () => {
  const faces = (state.game.dice || "").split("");
  const keep = state.game.dice ? faces.filter((_, i) => state.held[i]).join("") : "";
  send({ type: "roll", keep });
};
$("hint").onclick = () => send({ type: "hint" });
$("start").onclick = async () => {
  try { await api(`/api/tables/${state.table}/start`, {}, state.token); } catch (error) { say(error.message); }
};
$("chat-form").onsubmit = (event) => {
  event.preventDefault();
  const message = $("chat-text").value.trim();
  if (message) send({ type: "chat", text: message });
  $("chat-text").value = "";
};

if (params.get("join")) {
  setupJoin(params.get("join"));
} else if (params.get("table")) {
  state.table = params.get("table");
  const mine = saved(state.table);
  if (params.get("watch")) state.spectate = params.get("watch");
  else if (mine) { state.token = mine.token; state.seat = mine.seat; }
  if (state.token || state.spectate) connect(); else say("You have no seat at this table on this device.");
} else {
  setupCreate();
}
