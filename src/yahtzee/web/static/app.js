// The Yahtzee page: a thin client. The server holds the game; this page shows it and
// sends intents. Text from players (names, chat) is always shown as text, never as HTML.
// Nothing inline: the server's Content-Security-Policy allows only this page's own files.
// Seat tokens and spectator keys live in local storage, never in the address bar or the
// console; the WebSocket says who it is in its first message (hello).

import { $, api, boxLabel, boxName, copyButton, el, fiveAlikeBox, fillBotChoices, goTo, isMyTurn, loadBots, loadRules, playerName, ruleSetOf, say, state } from "./state.js";
import { answered, hideBanner, newTableLink, onMessages, resendPending, send, showBanner } from "./net.js";
import { enterTable, showScreen } from "./screens.js";
import { buildDice, drawDice, explainRollRefusal, restoreHold, rollNow, tumble } from "./dice.js";
import { drawCard, drawStrip } from "./card.js";
import { drawLobby, seatName, setupCreate, setupJoin } from "./lobby.js";
import { drawOver, drawReview, rematch } from "./over.js";
import { addChatLine, drawChat, drawChatBox, drawTimer, wireChat } from "./chat.js";
import { celebrate, play, wireSound } from "./fx.js";
import { buildEntry, drawEntry } from "./entry.js";
import { followTurn, heldHere, isPad } from "./pad.js";
import { drawColumnsButtons, refreshColumns, wireColumns } from "./columns.js";
import { drawCommitted, setupDaily, wireDaily } from "./daily.js";
import { learnt, showMyGames, titled, watchMyGames } from "./my_games.js";
import { drawAccountLink, setupAccount } from "./account.js";
import { drawNotify, wireNotify } from "./notify.js";
import { wirePwa } from "./pwa.js";
import { num, t, tn } from "./i18n.js";
import { startLanguage } from "./language.js";

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
      render();
      restoreHold();
      resendPending();  // an intent cut off by the lost connection goes again (same id)
      followTurn();  // a pad: the seat to move is another of this device's
      break;
    case "meter":
      takeMeter(message);
      if (state.game && state.game.phase !== "over") render();
      break;
    case "event": {
      if (message.seq <= state.seq) return;  // seen already (a resync overtook it)
      if (message.seq !== state.seq + 1 || !message.game) { send({ type: "resync" }); return; }
      const before = state.game;
      state.seq = message.seq;
      state.game = message.game;
      estimateDeadline(message);
      const event = message.event || {};
      if (event.player === state.seat && state.pending && ["roll", "score", "dice", "write", "undo"].includes(event.type)) answered();
      if (["dice", "write"].includes(event.type)) state.entryNote = "";
      announce(event, before, message.game, message.by_timer === true);
      if (event.type !== "roll") learnt();  // (the count of games waiting for a move)
      render();
      followTurn();
      if (event.type === "roll") tumble([0, 1, 2, 3, 4].filter((i) => !(message.game.held || []).includes(i)));
      break;
    }
    case "hold":
      // Everyone sees the player to move choose their dice (one's own choice stays one's own).
      if (state.game && message.seq === state.seq && Array.isArray(message.held)) {
        state.game.held = message.held;
        if (state.game.phase !== "over") drawDice();
      }
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
      learnt();
      if (state.lobby.status !== "lobby" && !state.game) send({ type: "resync" });
      render();
      break;
    case "timed_out":
      if (Number.isInteger(message.seat)) showNotice(timedOut(message));
      break;
    case "played_for":
      if (message.seat === state.seat && Array.isArray(message.events)) showNotice(playedFor(message.events));
      break;
    case "chat":
      addChatLine(message);
      break;
    case "hint":
      advisorCame();
      state.hint = { key: gameKey(state.game), options: message.options || [] };
      render();
      break;
    case "review":
      advisorCame();
      state.review = message.players || [];
      state.reviewNotes = Array.isArray(message.notes) ? message.notes.filter((n) => typeof n === "string") : [];
      drawReview();
      break;
    case "ack":
      if (answered(message.id)) render();
      break;
    case "error":
      if (state.pending && message.id === state.pending.id && ["write", "dice"].includes(state.pending.message.type)) state.entryNote = message.message || t("Refused.");
      if (message.id) answered(message.id);
      say(message.message || t("Refused."));
      if (message.code === "advisor_loading") state.advisorNote = message.message;  // the answer follows
      render();
      break;
    default:
      break;
  }
}

// A hint or review that came after "Loading the advisor...": that line has said its piece.
function advisorCame() {
  if (state.advisorNote && $("status").textContent === state.advisorNote) say("");
  state.advisorNote = null;
}

function gameKey(game) {
  return game ? `${game.phase}|${game.round}|${game.current}|${game.rolls_left}|${game.dice}` : "";
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

// What just happened, said in the status line, and the table's big moments celebrated.
// A move the turn timer made for a player who ran out of time says so.
function announce(event, before, after, byTimer) {
  if (!event) return;
  const mine = event.player === state.seat;
  const who = mine ? t("You") : playerName(event.player);
  const name = playerName(event.player);
  const dice = spaced(event.dice);
  const points = event.points + event.yahtzee_bonus;
  const box = boxName(event.category);
  if (event.type === "roll") {
    say(!byTimer ? (mine ? t("You rolled {dice}.", { dice }) : t("{name} rolled {dice}.", { name, dice }))
      : mine ? t("The timer rolled {dice} for you.", { dice }) : t("The timer rolled {dice} for {name}.", { name, dice }));
  }
  if (event.type === "score") {
    say(!byTimer ? (mine ? t("You scored {points} in {box}.", { points, box }) : t("{name} scored {points} in {box}.", { name, points, box }))
      : mine ? t("The timer scored {points} in {box} for you.", { points, box }) : t("The timer scored {points} in {box} for {name}.", { name, points, box }));
    const card = after.cards[event.player];
    const earlier = before && before.cards[event.player];
    if (event.yahtzee_bonus > 0) celebrate("yahtzee-bonus", who, event.yahtzee_bonus);
    else if (event.category === fiveAlikeBox().key && event.points > 0) celebrate("yahtzee", who, 0, boxLabel(fiveAlikeBox()));
    else if (card && earlier && card.upper_bonus > 0 && !earlier.upper_bonus) celebrate("upper-bonus", who, card.upper_bonus);
    else play("score");
  }
  if (event.type === "undo") say(mine ? t("You took back the last placement.") : t("{name} took back the last placement.", { name }));
  if (event.type === "dice") {
    const roll = event.roll;
    if (event.roll) say(mine ? t("You entered {dice} (roll {roll}).", { dice, roll }) : t("{name} entered {dice} (roll {roll}).", { name, dice, roll }));
    else say(mine ? t("You entered {dice}.", { dice }) : t("{name} entered {dice}.", { name, dice }));
  }
  if (event.type === "write") {
    const written = event.points;
    say(mine ? t("You wrote {points} in {box}.", { points: written, box }) : t("{name} wrote {points} in {box}.", { name, points: written, box }));
    play("score");
  }
  if (event.type === "playoff_roll") {
    say(!byTimer ? (mine ? t("Playoff: You threw {dice}.", { dice }) : t("Playoff: {name} threw {dice}.", { name, dice }))
      : mine ? t("Playoff: The timer threw {dice} for you.", { dice }) : t("Playoff: The timer threw {dice} for {name}.", { name, dice }));
  }
  if (event.type === "start") say(t("The game has started."));
}

// Rolls one after another: "1 2 3 4 5, then 2 2 3 4 5".
function thenJoined(rolls) { return rolls.join(t(", then ")); }

function spaced(dice) { return String(dice).split("").join(" "); }

// A move's time ran out: the table's rule applied (everyone at the table is told).
function timedOut(message) {
  const mine = message.seat === state.seat;
  const name = message.name || t("Seat {number}", { number: message.seat + 1 });
  const missed = message.missed;
  const text = missed > 1
    ? (mine ? tn("Your time ran out: a bot played the turn ({n} missed in a row).", "Your time ran out: a bot played the turn ({n} missed in a row).", missed)
      : tn("{name}'s time ran out: a bot played the turn ({n} missed in a row).", "{name}'s time ran out: a bot played the turn ({n} missed in a row).", missed, { name }))
    : mine ? t("Your time ran out: a bot played the turn.") : t("{name}'s time ran out: a bot played the turn.", { name });
  if (!message.out) return text;
  const out = mine ? t("You are out: a bot plays the seat from now on.")
    : message.name ? t("{name} is out: a bot plays the seat from now on.", { name: message.name }) : t("The seat is out: a bot plays the seat from now on.");
  return `${text} ${out}`;
}

// What the timer played for this player while they were away, turn by turn.
function playedFor(events) {
  const turns = [];
  let rolls = [];
  for (const event of events) {
    if (event.type === "roll") rolls.push(spaced(event.dice));
    if (event.type === "playoff_roll") turns.push(t("threw {dice} in the playoff", { dice: spaced(event.dice) }));
    if (event.type === "score") {
      const points = event.points + event.yahtzee_bonus;
      const box = boxName(event.category);
      // Translators: {rolls} is a list of rolls, "1 2 3 4 5, then 2 2 3 4 5".
      turns.push(rolls.length ? t("rolled {rolls} and scored {points} in {box}", { rolls: thenJoined(rolls), points, box })
        : t("scored {points} in {box}", { points, box }));
      rolls = [];
    }
  }
  if (rolls.length) turns.push(t("rolled {rolls}", { rolls: thenJoined(rolls) }));
  // Translators: {turns} are the turns played, separated by semicolons.
  return t("While you were away, the timer played for you: {turns}.", { turns: turns.join("; ") });
}

// A notice shown while another still is (the timer played for you, then another seat's
// time ran out) is added below it: neither is lost before the player closes them.
function showNotice(text) {
  const line = el("span", { class: "notice-line" }, text);
  if ($("notice").hidden) $("notice-text").replaceChildren(line);
  else $("notice-text").append(line);
  $("notice").hidden = false;
}

// --- Drawing ---------------------------------------------------------------------------------

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
  if (state.lobby.daily) $("chat").hidden = true;  // a daily game is played alone
  drawTitle();
  restoreFocus(key);
}

function restoreFocus(key) {
  if (!key) return;
  const active = document.activeElement;
  if (focusKeyOf(active) === key && focusable(active)) return;
  const target = document.querySelector(`[data-focus="${key}"]`);
  if (focusable(target) && target.getAttribute("aria-disabled") !== "true") { target.focus(); return; }
  // The element is gone or unusable (a box just scored, the last roll): the next place to
  // act. Roll when it rolls, else a box to fill, else Roll still (it says whose turn it
  // is, and rolls once it is yours), else Rematch after the game.
  const roll = $("roll");
  const usable = (node) => focusable(node) && node.getAttribute("aria-disabled") !== "true";
  const box = document.querySelector("#scorecard [data-focus^='box-']:not([aria-disabled='true'])");
  const next = [roll, box].find(usable) || [roll, $("rematch")].find((node) => focusable(node) && !node.hidden);
  if (next) next.focus();
  else state.refocus = key;
}

function drawTitle() {
  const mine = isMyTurn();
  document.title = titled(mine ? t("Your turn - Yahtzee") : state.game && state.game.phase === "over" ? t("Game over - Yahtzee") : "Yahtzee");
  if (mine && !state.wasMyTurn) {
    try { if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate([60, 40, 60]); } catch { /* not allowed */ }
  }
  state.wasMyTurn = mine;
}

function drawGame() {
  showScreen("play");
  const game = state.game;
  const yours = isMyTurn();
  const who = playerName(game.current);
  const named = isPad() || !yours;  // a pad passed around says whose turn by name
  const rounds = ruleSetOf().rounds;
  $("turn").textContent = game.phase === "playoff"
    ? (named ? t("Playoff: {name} throws", { name: who }) : t("Playoff: your throw"))
    : named ? t("Round {round} of {rounds}: {name}'s turn", { round: game.round, rounds, name: who })
      : t("Round {round} of {rounds}: your turn", { round: game.round, rounds });
  $("turn").className = yours ? "mine" : "";
  document.body.dataset.dice = game.entered ? "entered" : "rolled";
  $("dice").hidden = !!game.entered;
  $("roll").closest(".actions").hidden = !!game.entered;
  drawDice();
  drawEntry();
  const hint = $("hint");
  hint.dataset.focus = "hint";
  hint.hidden = !state.lobby.hints_allowed || state.seat === null;
  hint.disabled = !yours || !state.online || !game.dice;
  const resign = $("resign");  // (not in a daily game, at a table of real dice, nor on this device)
  resign.hidden = state.seat === null || game.phase === "over" || !!state.lobby.daily || state.lobby.dice === "entered"
    || !!state.lobby.device;
  drawNotify();
  resign.disabled = !state.online;
  const advice = state.hint && state.hint.key === gameKey(game) && yours ? state.hint : null;
  if (!advice) state.hint = null;
  drawHint(advice);
  drawStrip($("players"), true);
  drawCard($("scorecard"), true);
  drawHostTools();
  drawCommitted();
  drawTimer();
  drawColumnsButtons();
  refreshColumns();
}

function drawHint(advice) {
  const box = $("hint-box");
  box.hidden = !advice;
  if (!advice) { box.replaceChildren(); return; }
  const list = el("ol", { class: "advice" });
  advice.options.forEach((o, i) => {
    const item = el("li", { class: i === 0 ? "best" : "" });
    item.append(el("span", { class: "action" }, o.action),
      el("span", { class: "value" }, num(o.value, 1)),
      // Translators: the advisor's best option, in place of the points it loses.
      el("span", { class: "regret" }, o.regret < 1e-9 ? t("best") : `-${num(o.regret, 2)}`));
    list.append(item);
  });
  box.replaceChildren(el("h2", {}, t("Advisor")), el("p", { class: "note" }, t("Your best choices now, with the final total each leads to on average:")), list);
}

function drawHostTools() {
  // The host may hand a seat whose player has left to the bot chosen here (of the server's).
  const tools = $("host-tools");
  // (not at a table of real dice: a bot cannot roll them)
  // (nor at a turn-by-turn table: players come and go, and its timeout rule plays for them)
  const away = state.seat === 0 && state.online && state.lobby.dice !== "entered" && !state.lobby.turn_by_turn
    ? state.lobby.seats.filter((s) => s.seat !== 0 && !s.bot && !s.open && !s.connected && !heldHere(s.seat)) : [];
  if (away.length && !state.bots) { tools.hidden = true; loadBots().then(() => drawHostTools(), () => {}); return; }
  tools.hidden = away.length === 0;
  const chosen = {};
  for (const select of tools.querySelectorAll("select")) chosen[select.dataset.seat] = select.value;
  const heading = el("h2", {}, tn("A player has left", "{n} players have left", away.length));
  const note = el("p", { class: "note" }, t("Hand a seat to a bot so the game goes on, or wait for them to come back."));
  tools.replaceChildren(heading, note, ...away.map((s) => {
    const row = el("div", { class: "host-tool" });
    const id = `hand-bot-${s.seat}`;
    const select = el("select", { id, "data-seat": String(s.seat), "data-focus": `hand-bot-${s.seat}` });
    fillBotChoices(select, chosen[s.seat] || state.bots.default);
    const button = el("button", { type: "button", "data-seat": String(s.seat), "data-focus": `hand-${s.seat}` }, t("Hand to a bot"));
    button.onclick = async () => {
      try { await api(`/api/tables/${state.table}/seats/${s.seat}/bot`, { bot: select.value }, state.token); }
      catch (error) { say(error.message); }
    };
    row.append(el("span", { class: "who" }, seatName(s)), el("label", { for: id, class: "visually-hidden" }, t("Which bot for {name}", { name: seatName(s) })), select, button);
    return row;
  }));
}

// --- Start -----------------------------------------------------------------------------------

function wire() {
  onMessages(receive, render);
  buildDice();
  buildEntry();
  wireColumns();
  $("roll").onclick = (event) => {
    if ($("roll").getAttribute("aria-disabled") === "true") explainRollRefusal();
    else rollNow(event.detail);
  };
  $("hint").onclick = () => { if (isMyTurn() && state.online) send({ type: "hint" }); };
  $("resign").onclick = () => {
    if (state.online && confirm(t("Resign? A bot plays your seat for the rest of the game, and you cannot come back to it."))) send({ type: "resign" });
  };
  new MutationObserver(() => { if (!$("hint-box").hidden) $("hint-box").scrollIntoView({ block: "nearest" }); })
    .observe($("hint-box"), { attributes: true, attributeFilter: ["hidden"] });
  $("start").onclick = async () => {
    state.refocus = "start";
    try { await api(`/api/tables/${state.table}/start`, {}, state.token); } catch (error) { say(error.message); $("lobby-note").textContent = error.message; }
  };
  $("rematch").onclick = rematch;
  $("notice-close").onclick = () => { $("notice").hidden = true; };
  wireChat();
  wireSound();
  copyButton($("copy-invite"), $("invite-link"));
  copyButton($("copy-watch"), $("watch-link"));
  wireDaily();
  wireNotify();
  wirePwa();
  document.addEventListener("yahtzee:redraw", render);
  let resizing = null;
  addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(render, 100); });
  setInterval(drawTimer, 250);
}

async function main() {
  const taken = takeSecrets();  // first: nothing may wait with a key in the address bar
  loadRules().catch(() => {});  // asked at once, while the language's catalog comes
  await startLanguage();  // (before anything is drawn: every screen speaks it)
  wire();
  watchMyGames();
  const draw = takeAddress(taken);
  if (await rulesLoaded()) draw();
}

// The address bar's secrets (an invite, a spectator key) go into this device's storage at
// once; what to draw once the rules are in.
// The address's secrets (an invite's key, a spectator's key) move into this tab's storage
// at once and leave the address bar; what was taken: {join}, {watch: table or null}.
function takeSecrets() {
  const params = new URLSearchParams(location.search);
  if (params.has("account")) return {};
  if (params.has("join")) {
    const invite = params.get("join");
    if (invite) sessionStorage.setItem("yahtzee:join", invite);
    history.replaceState(null, "", "/?join");
    return { join: true };
  }
  if (params.has("watch")) {
    const key = params.get("watch");
    const table = params.get("table");
    if (table && key) {
      localStorage.setItem(`yahtzee-watch:${table}`, key);
      goTo(table);
      return { watch: table };
    }
    history.replaceState(null, "", "/");
    return { watch: null };
  }
  return {};
}

function takeAddress(taken) {
  const params = new URLSearchParams(location.search);
  if (params.has("account")) return setupAccount;
  drawAccountLink();
  if (taken.join) return setupJoin;
  if ("watch" in taken) {
    if (taken.watch) return () => enterTable(taken.watch, null);
    return () => {
      showScreen(null);
      showBanner(t("This spectator link is cut short: it needs both its watch key and its table. Ask for the whole link."), [newTableLink()]);
    };
  }
  const table = params.get("table");
  if (table) return () => enterTable(table, null);
  if (params.has("my")) return showMyGames;
  return () => { setupCreate(); setupDaily(); };
}

const SLOW_MS = 500;  // an answer slower than this: "Loading..." (a quick one shows nothing between)

// The rule sets, their boxes and a table's limits, from the server before anything is
// drawn: meanwhile no screen shows (nothing half drawn), a slow answer says "Loading...",
// and one that fails says so, with a button to try again.
async function rulesLoaded() {
  const slow = setTimeout(() => { $("turn").textContent = t("Loading..."); }, SLOW_MS);
  try {
    const { limits } = await loadRules();
    for (const id of ["host-name", "daily-name", "join-name", "add-here-name"]) $(id).maxLength = limits.name;
    $("chat-text").maxLength = limits.chat;
    return true;
  } catch (error) {
    $("turn").textContent = "";
    const again = el("button", { type: "button", id: "load-again" }, t("Try again"));
    again.onclick = () => location.reload();
    showBanner(t("The page could not load the game's rules from the server: {error}", { error: error.message }), [again]);
    return false;
  } finally {
    clearTimeout(slow);
  }
}

main();
