// Before the game: the new-table form, the invite's join form, and the waiting room, drawn
// as a table with its seats around it.

import { $, api, botChoice, botWhat, botWords, el, fillBotChoices, goTo, initial, loadBots, playerClass, playerName, remember, state } from "./state.js";
import { showBanner } from "./net.js";
import { dieFace } from "./dice.js";
import { enterTable, showScreen } from "./screens.js";
import { addPadSeat, addPlayerHere, heldHere, isPad } from "./pad.js";
import { OFFLINE_BOTS } from "./bots.js";
import { localTables } from "./device.js";
import { offline, serverReachable } from "./reach.js";
import { t, tn } from "./i18n.js";

export function setupCreate() {
  showScreen("create");
  document.title = t("New table - Yahtzee");
  const hero = $("hero-dice");
  hero.replaceChildren(...[5, 2, 6, 3, 1].map((face) => { const d = el("span", { class: "die static" }); d.append(dieFace(face)); return d; }));
  const { rule_sets: offered, default: chosen, limits } = state.rules;  // the server's (GET /api/rules)
  // The rule sets grouped by their game (Yahtzee, Yatzy), each group saying its card; the
  // chosen one's summary (the server's words) said below the select.
  const titles = [...new Set(offered.map((r) => r.title))];
  $("rules").replaceChildren(...titles.map((title) => {
    const sets = offered.filter((r) => r.title === title);
    // Translators: {title} is the game (Yahtzee, Yatzy).
    const group = el("optgroup", { label: tn("{title}: {n} box", "{title}: {n} boxes", sets[0].rounds, { title }) });
    group.append(...sets.map((r) => el("option", { value: r.name, title: r.summary }, r.name)));
    return group;
  }));
  $("rules").value = chosen;
  const about = () => {
    const found = offered.find((r) => r.name === $("rules").value);
    $("rules-about").textContent = found ? found.summary : "";
  };
  $("rules").onchange = about;
  about();
  const otherSeats = limits.players - 1;  // the host sits too
  const seats = [];  // {kind: "human" | "bot", bot, name (a person on this phone)}
  let chosenByHand = false;  // the player chose where to play (the page no longer does)
  const here = () => $("where-device").checked;  // on this phone: no server
  const botsHere = () => (state.bots && here() ? state.bots.bots.filter((b) => OFFLINE_BOTS.includes(b.bot)) : state.bots && state.bots.bots) || [];
  const draw = (focusKey) => {
    const device = here();
    $("turn").textContent = device ? t("A game on this phone") : t("Online tables for friends and bots");
    $("create-title").textContent = device ? t("New game on this phone") : t("New table");
    $("host-name-label").textContent = device ? t("Player 1") : t("Your name");
    $("seats-legend").textContent = device ? t("Other players") : t("Other seats");
    $("add-human").textContent = device ? t("Add a player") : t("Add a friend's seat");
    $("create-table").textContent = device ? t("Start the game") : t("Create table");
    $("timer-part").hidden = device;  // (no turn timer on a phone)
    for (const s of seats) if (s.kind === "bot" && device && !OFFLINE_BOTS.includes(s.bot)) s.bot = OFFLINE_BOTS[2];  // (not offline: level 3)
    $("seat-list").replaceChildren(...seats.map((s, i) => {
      const item = el("li", { class: "seat-item" });
      const number = i + 2;
      const label = el("span", { class: "seat-label" }, s.kind === "bot"
        ? (device ? t("Player {number}: a bot", { number }) : t("Seat {number}: a bot", { number }))
        : device ? t("Player {number}: a player", { number }) : t("Seat {number}: a friend (invite link)", { number }));
      item.append(el("span", { class: `dot ${playerClass(i + 1)}`, "aria-hidden": "true" }), label);
      const remove = el("button", { type: "button", class: "small", "data-focus": `remove-${i}`, "aria-label": device ? t("Remove player {number}", { number }) : t("Remove seat {number}", { number }) }, t("Remove"));
      remove.onclick = () => { seats.splice(i, 1); draw(seats.length ? `remove-${Math.min(i, seats.length - 1)}` : "add-human"); };
      item.append(remove);
      if (s.kind === "human" && device) {
        const id = `player-name-${i}`;
        const input = el("input", { id, class: "player-name", "data-focus": `name-${i}`, required: "", autocomplete: "off", maxlength: String(limits.name) });
        input.value = s.name || "";
        input.oninput = () => { s.name = input.value; };
        const pick = el("div", { class: "bot-pick" });
        pick.append(el("label", { for: id, class: "visually-hidden" }, t("Player {number}: name", { number })), input);
        item.append(pick);
      }
      if (s.kind === "bot") {
        // on a line of its own: which bot, and a line saying what that choice does
        const id = `bot-kind-${i}`;
        const about = el("p", { id: `bot-about-${i}`, class: "bot-about" });
        const select = el("select", { id, "data-focus": `bot-${i}`, "aria-describedby": about.id });
        fillBotChoices(select, s.bot, botsHere());
        const tell = () => { const c = botChoice(s.bot); about.textContent = c ? t("{bot}: {about}", { bot: c.name, about: c.about }) : ""; };
        select.onchange = () => { s.bot = select.value; tell(); };
        tell();
        const pick = el("div", { class: "bot-pick" });
        pick.append(el("label", { for: id, class: "visually-hidden" }, device ? t("Player {number}: which bot", { number }) : t("Seat {number}: which bot", { number })), select, about);
        item.append(pick);
      }
      return item;
    }));
    $("seats-empty").textContent = device ? t("Playing alone: add a player to pass the phone to, or a bot to play against.") : t("Playing alone: add a friend's seat or a bot to play against.");
    $("seats-empty").hidden = seats.length > 0;
    const real = $("real-dice").checked;  // real dice: people only, no turn timer
    $("add-human").disabled = seats.length >= otherSeats;
    $("add-bot").disabled = real || seats.length >= otherSeats || !state.bots;  // the server's choices first
    $("timer-choice").disabled = real;
    if (real || device) $("timer-choice").value = "";
    $("timeout-choices").hidden = !$("timer-choice").value;  // only with a timer
    const out = $("timeout-rule").value === "out";
    $("timeout-missed").hidden = !out;
    $("timeout-missed-label").hidden = !out;
    if (focusKey) { const target = document.querySelector(`[data-focus="${focusKey}"]`) || $(focusKey); if (target) target.focus(); }
  };
  // Where to play: this phone when the server cannot be reached (said so), else as chosen.
  const reached = (yes) => {
    const note = $("where-note");
    note.hidden = yes;
    note.textContent = yes ? "" : t("No connection: this game is played on this phone. Online tables need a connection.");
    $("where-online").disabled = !yes;
    $("where-online-note").textContent = yes ? t("Friends join by an invite link, from their own phones.") : t("Needs a connection.");
    if (!yes && !here()) $("where-device").checked = true;
    else if (yes && !chosenByHand && here() && whereChosen !== "device") $("where-online").checked = true;
    draw();
  };
  for (const radio of [$("where-online"), $("where-device")]) radio.onchange = () => { chosenByHand = true; whereChosen = here() ? "device" : "online"; draw(); };
  if (whereChosen === "device") $("where-device").checked = true;
  onReach = reached;
  reached(!offline());
  serverReachable().then((yes) => { if (state.screen === "create") reached(yes); });
  $("add-human").onclick = () => { if (seats.length < otherSeats) seats.push({ kind: "human", name: "" }); draw(here() ? `name-${seats.length - 1}` : null); };
  $("add-bot").onclick = () => {
    const bot = here() ? OFFLINE_BOTS[2] : state.bots && state.bots.default;
    if (seats.length < otherSeats && !$("real-dice").checked && state.bots) seats.push({ kind: "bot", bot });
    draw();
  };
  $("timer-choice").onchange = () => draw();
  $("timeout-rule").onchange = () => draw();
  $("real-dice").onchange = () => {
    if ($("real-dice").checked) for (let i = seats.length - 1; i >= 0; i--) if (seats[i].kind === "bot") seats.splice(i, 1);
    draw();
  };
  draw();
  loadBots().then(() => draw(), (error) => showBanner(t("The bots could not be loaded: {error}", { error: error.message }), []));
  $("create-form").onsubmit = async (event) => {
    event.preventDefault();
    if (here()) { await startHere(seats); return; }
    try {
      const made = await api("/api/tables", {
        host: $("host-name").value, rules: $("rules").value, seats, hints: $("hints").checked,
        turn_timer: $("timer-choice").value && !$("real-dice").checked ? Number($("timer-choice").value) : null,
        dice: $("real-dice").checked ? "entered" : "rolled",
        timeout_rule: $("timeout-rule").value, timeout_level: Number($("timeout-level").value),
        timeout_missed: Number($("timeout-missed").value),
      });
      openCreated(made, $("host-name").value);
    } catch (error) { showBanner(error.message, []); }
  };
}

let whereChosen = null;  // where the player last chose to play (the form opens there again)
let onReach = null;  // the create form's: the connection came or went
addEventListener("online", () => { if (onReach && state.screen === "create") serverReachable().then((yes) => onReach(yes)); });
addEventListener("offline", () => { if (onReach && state.screen === "create") onReach(false); });

// The form's game on this phone: the players in order (the first is player 1), no server.
async function startHere(seats) {
  const players = [{ name: $("host-name").value.trim(), bot: null }, ...seats.map((s, i) => (
    s.kind === "bot" ? { name: `Bot ${i + 2} (${botWhat(s.bot)})`, bot: s.bot } : { name: (s.name || "").trim(), bot: null }))];
  try {
    await openHere({ rules: $("rules").value, players, hints: $("hints").checked, entered: $("real-dice").checked });
  } catch (error) { showBanner(error.message, []); }
}

// A new game on this device, its people's seats kept as a pad (the phone passed around).
export async function openHere(table) {
  const made = await (await localTables()).createDeviceTable(table);
  const id = made.table.id;
  const [first, ...rest] = made.seats;
  remember(id, first.seat, first.token, first.name);
  for (const s of rest) addPadSeat(id, s.seat, s.token, s.name);
  goTo(id);
  enterTable(id, "roll");
}

// A table's time per move and what happens when it runs out, in words.
function timerText(lobby) {
  const seconds = lobby.turn_timer;
  const per = seconds % 86400 === 0 ? tn("{n} day", "{n} days", seconds / 86400)
    : seconds % 3600 === 0 ? t("{n} h", { n: seconds / 3600 })
      : seconds % 60 === 0 && seconds >= 120 ? t("{n} min", { n: seconds / 60 }) : t("{n} s", { n: seconds });
  if (!lobby.turn_by_turn) return t("{time} a decision", { time: per });
  const rule = lobby.timeout || { rule: "bot", level: 3, missed: 3 };
  const then = rule.rule === "out"
    ? tn("a level-{level} bot plays a late turn; {n} missed in a row and the seat is out", "a level-{level} bot plays a late turn; {n} missed in a row and the seat is out", rule.missed, { level: rule.level })
    : t("a level-{level} bot plays a late turn", { level: rule.level });
  // Translators: {time} is the time a move ("1 day"), {then} what happens when it runs out.
  return t("turn by turn, {time} a move ({then})", { time: per, then });
}

export function openCreated(made, name) {
  remember(made.table.id, made.seat || 0, made.token, name);
  if (made.invite) localStorage.setItem(`yahtzee-links:${made.table.id}`, JSON.stringify({ invite: made.invite, spectate: made.spectate }));
  goTo(made.table.id);
  enterTable(made.table.id, "start");
}

export function setupJoin() {
  showScreen("join");
  document.title = t("Join a table - Yahtzee");
  const invite = sessionStorage.getItem("yahtzee:join");
  if (!invite) {
    $("turn").textContent = t("This invite is no longer in this tab: open the invite link again.");
    $("join-form").hidden = true;
    return;
  }
  $("turn").textContent = t("You are invited to a table");
  $("create-instead").onclick = () => sessionStorage.removeItem("yahtzee:join");
  $("join-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      const joined = await api(`/api/join/${encodeURIComponent(invite)}`, { name: $("join-name").value });
      sessionStorage.removeItem("yahtzee:join");
      remember(joined.table.id, joined.seat, joined.token, $("join-name").value);
      goTo(joined.table.id);
      enterTable(joined.table.id, null);
    } catch (error) { showBanner(error.message, []); }
  };
}

export function seatName(s) {
  if (s.open) return s.name ? t("{name} (not here yet)", { name: s.name }) : t("(waiting for a friend)");
  return playerName(s.seat) || t("Seat {number}", { number: s.seat + 1 });
}

export function drawLobby() {
  showScreen("lobby");
  const lobby = state.lobby;
  const open = lobby.seats.filter((s) => s.open).length;
  const host = lobby.seats[0] ? seatName(lobby.seats[0]) : t("the host");
  const isHost = state.seat === 0;
  const links = state.links;
  $("links").hidden = !links;
  // A rematch keeps every seat for its player: nobody is invited.
  $("invite-part").hidden = !lobby.seats.some((s) => s.open && !s.reserved);
  if (links) {
    $("invite-link").value = `${location.origin}/?join=${links.invite}`;
    $("watch-link").value = `${location.origin}/?watch=${links.spectate}&table=${lobby.id}`;
  }
  $("lobby-seats").replaceChildren(...lobby.seats.map((s) => {
    const item = el("li", { class: `seat ${playerClass(s.seat)}${s.open ? " open" : ""}${s.seat === state.seat ? " me" : ""}` });
    const avatar = el("span", { class: "avatar", "aria-hidden": "true", "data-initial": s.open && !s.name ? "?" : initial(s.name) });
    const what = [];
    if (s.seat === 0) what.push(t("host"));
    const pad = isPad();  // several seats on this device (passed around the table)
    if (s.seat === state.seat && !pad) what.push(t("you"));
    if (s.bot) what.push(t("bot, {bot}", { bot: botWords(s.bot) }));
    else if (s.open) what.push(s.reserved ? t("kept for the rematch") : t("open seat"));
    else if (pad && heldHere(s.seat)) what.push(t("on this device"));
    else if (s.seat !== state.seat) what.push(s.connected ? t("here") : t("away"));
    item.append(avatar, el("span", { class: "who" }, seatName(s)), el("span", { class: "what" }, what.join(", ")));
    return item;
  }));
  const start = $("start");
  start.hidden = !isHost;
  start.disabled = open > 0 || !state.online;
  start.dataset.focus = "start";
  let note;
  const kept = lobby.seats.filter((s) => s.open && s.reserved).length;
  if (kept > 0 && kept === open) note = tn("Waiting for one player of the last game to take their seat.", "Waiting for {n} players of the last game to take their seats.", kept);
  else if (open > 0) note = isHost ? tn("Waiting for a friend to join: send the invite link.", "Waiting for {n} friends to join: send the invite link.", open) : tn("Waiting for one more player to join.", "Waiting for {n} more players to join.", open);
  else note = isHost ? t("Everyone is here: start the game when you are ready.") : t("Everyone is here: waiting for the host ({host}) to start the game.", { host });
  if (!isHost && open > 0) note += ` ${t("Then the host ({host}) starts the game.", { host })}`;
  $("lobby-note").textContent = note;
  const timer = lobby.turn_timer ? timerText(lobby) : t("no turn timer");
  const dice = lobby.dice === "entered" ? t("real dice (the players enter them)") : t("dice rolled by the server");
  const hints = lobby.hints_allowed ? t("hints allowed") : t("no hints");
  // Translators: {rules} is the rule set's name; {dice}, {hints} and {timer} say how the table plays.
  $("table-info").textContent = t("Rules: {rules}, {dice}, {hints}, {timer}.", { rules: lobby.rules, dice, hints, timer });
  drawAddHere(lobby);
  $("turn").textContent = open > 0 ? t("Waiting for players") : isHost ? t("Ready to start") : t("Waiting for {host} to start", { host });
}

// The host's device seats more players on itself (one phone or tablet passed around the table).
function drawAddHere(lobby) {
  const form = $("add-here");
  const free = lobby.seats.some((s) => s.open && !s.reserved);
  form.hidden = !state.links || !free || state.seat !== 0;
  form.onsubmit = async (event) => {
    event.preventDefault();
    const name = $("add-here-name").value.trim();
    if (!name) { $("add-here-note").textContent = t("Type the player's name first."); return; }
    try {
      await addPlayerHere(name);
      $("add-here-name").value = "";
      $("add-here-note").textContent = t("{name} plays on this device too: add another, or start the game.", { name });
      state.refocus = "add-here-name";
      document.dispatchEvent(new Event("yahtzee:redraw"));
    } catch (error) { $("add-here-note").textContent = error.message; }
  };
}
