// My games: the signed-in account's tables on every device (its turn first, with the time
// left), the others' turns, the tables waiting to start, its finished games, and the
// friends it has played with, to play again in one tap; and the count of tables waiting
// for its move on the page's title ("(2) Yahtzee") and icon (a badge drawn on it). The
// server decides everything: the page asks (GET /api/me/games) when it opens, when it is
// shown again, every minute while it is shown, and soon after it learns of a move.

import { $, api, el, goTo, initial, playerClass, remember, saved, state } from "./state.js";
import { enterTable, showScreen } from "./screens.js";
import { deviceGamesHere } from "./device.js";
import { offerUploads, playersOf, refusalOf, wireUploads } from "./device_upload.js";
import { offline } from "./reach.js";
import { currentLanguage, t, tn } from "./i18n.js";

const POLL_MS = 60000;
const SOON_MS = 5000;  // a change learnt here (a move at this table): asked again after this
const DAY_S = 86400;  // a friend's new table: a day a move (turn by turn)
let mine = null;  // the last answer ({you, your_turn, games, more}); null signed out
let here = [];  // this device's games (deviceGames(): newest first)
let asked = 0;
let soon = null;
let icon = null;  // the page's own icon (its address), drawn on for the count

// --- The count on the title and the icon -------------------------------------------------

export function titled(text) {
  const count = mine ? mine.your_turn : 0;
  return count > 0 ? `(${count}) ${text}` : text;
}

function drawCount() {
  const count = mine ? mine.your_turn : 0;
  document.title = titled(document.title.replace(/^\(\d+\) /, ""));
  $("my-games-link").hidden = !mine && here.length === 0;
  const badge = $("my-games-count");
  badge.hidden = count === 0;
  badge.textContent = String(count);
  $("my-games-waiting").hidden = count === 0;
  drawIcon(count);
}

function drawIcon(count) {
  const link = document.querySelector("link[rel='icon']");
  if (!link) return;
  if (icon === null) icon = link.href;
  if (count === 0) { link.type = "image/svg+xml"; link.href = icon; delete link.dataset.count; return; }
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const pen = canvas.getContext("2d");
    pen.drawImage(image, 0, 0, 64, 64);
    pen.beginPath();
    pen.arc(45, 19, 18, 0, 2 * Math.PI);
    pen.fillStyle = "#b3261e";
    pen.fill();
    pen.lineWidth = 3;
    pen.strokeStyle = "#ffffff";
    pen.stroke();
    pen.fillStyle = "#ffffff";
    pen.font = "bold 24px system-ui, sans-serif";
    pen.textAlign = "center";
    pen.textBaseline = "middle";
    pen.fillText(count > 9 ? "9+" : String(count), 45, 20);
    link.type = "image/png";
    link.href = canvas.toDataURL("image/png");
    link.dataset.count = String(count);
  };
  image.src = icon;
}

// --- Asking the server ---------------------------------------------------------------------

export async function refreshMyGames() {
  asked = Date.now();
  here = await deviceGamesHere();
  const known = await askServer();
  drawCount();
  if (state.screen === "my-games") { drawDeviceGames(); if (mine) drawMyGames(); }
  if (known) offerUploads(mine !== null);  // (the server's word on signing in)
}

// The account's games from the server: whether it answered (mine is then its word).
async function askServer() {
  if (offline()) return false;
  let response;
  try { response = await fetch("/api/me/games", { headers: { accept: "application/json" } }); } catch { return false; }
  if (response.status === 401) mine = null;
  else if (response.ok) {
    try { mine = await response.json(); } catch { return false; }
  } else return false;  // (kept as it was: asked again later)
  return true;
}

// A move at this table, or the table changed: the count may have too (asked soon, once).
export function learnt() {
  if (!mine || soon) return;
  soon = setTimeout(() => { soon = null; refreshMyGames(); }, SOON_MS);
}

export function watchMyGames() {
  refreshMyGames();
  setInterval(() => { if (!document.hidden) refreshMyGames(); }, POLL_MS);
  const again = () => { if (!document.hidden && Date.now() - asked > SOON_MS) refreshMyGames(); };
  document.addEventListener("visibilitychange", again);
  addEventListener("focus", again);
  addEventListener("online", () => refreshMyGames());
  document.addEventListener("yahtzee:device-games", () => refreshMyGames());
  wireUploads();
}

// --- The screen ----------------------------------------------------------------------------

export async function showMyGames() {
  history.replaceState(null, "", "/?my");
  state.table = null;
  showScreen("my-games");
  $("turn").textContent = "";
  $("my-games-note").textContent = t("Loading...");
  await refreshMyGames();
  document.querySelector(".my-side").hidden = offline();  // (friends: the server's)
  if (offline()) {
    $("my-games-note").textContent = t("Your account's games need a connection.");
    if (!mine) $("my-games-groups").replaceChildren();
    return;
  }
  if (!mine) {
    $("my-games-note").textContent = t("Sign in to see your games on every device.");
    $("my-games-groups").replaceChildren();
    return;
  }
  drawMyGames();
  drawFriends();
}

// --- This device's games (played without the server) ---------------------------------------

function drawDeviceGames() {
  const box = $("device-games");
  box.hidden = here.length === 0;
  const groups = [["playing", t("Playing on this phone")], ["finished", t("Finished on this phone")]];
  box.replaceChildren(...grouped(groups, (status) => here.filter((g) => g.status === status), deviceItem));
}

// A titled list for each group that has games: [key, title] pairs, the games of a key, and
// how one game is drawn.
function grouped(groups, gamesOf, item) {
  return groups.flatMap(([key, title]) => {
    const these = gamesOf(key);
    if (!these.length) return [];
    const group = el("section", { class: "my-group", "aria-label": title });
    group.append(el("h3", {}, t("{title} ({count})", { title, count: these.length })), el("ul", { class: "my-list" }));
    group.lastChild.append(...these.map(item));
    return [group];
  });
}

function deviceItem(game) {
  const playing = game.status === "playing";
  const item = el("li", { class: `my-game device ${playing ? "your_turn" : "finished"}`, "data-table": game.id });
  const who = el("span", { class: "who" });
  who.append(el("span", { class: "dot p0" }), " ", playersOf(game));
  const refused = playing ? null : refusalOf(game);
  const kept = game.uploaded ? t("kept in your account") : refused ? t("not kept: {why}", { why: refused }) : t("on this phone only");
  const played = playing ? t("last played {when}", { when: when(game.updated) }) : `${when(game.updated)} \u00b7 ${kept}`;
  const what = el("span", { class: refused ? "what refused" : "what" }, `${game.rules} \u00b7 ${played}`);
  const button = el("button", { type: "button", class: playing ? "primary act" : "act" }, playing ? t("Resume") : t("See"));
  button.onclick = () => { goTo(game.id); enterTable(game.id, null); };
  item.append(who, what, button);
  return item;
}

function when(time) {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return "";
  const today = new Date().toDateString() === date.toDateString();
  const language = currentLanguage();
  return today ? t("today {time}", { time: new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" }).format(date) })
    : new Intl.DateTimeFormat(language, { day: "numeric", month: "short" }).format(date);
}

const groupsShown = () => [
  ["your_turn", t("Your turn")], ["their_turn", t("Their turn")], ["lobby", t("Waiting to start")], ["finished", t("Finished")],
];

function drawMyGames() {
  const games = mine.games;
  $("my-games-note").textContent = games.length ? (mine.more ? t("Your most recent open games are shown.") : "")
    : t("No games yet: start a table, or play again with a friend.");
  $("my-games-groups").replaceChildren(...grouped(groupsShown(), (key) => games.filter((g) => g.group === key), gameItem));
}

function others(game) {
  const names = game.seats.filter((s) => s.seat !== game.seat).map((s) => s.name || t("an open seat"));
  return names.length ? t("With {names}", { names: names.join(", ") }) : t("Alone");
}

function gameItem(game) {
  const item = el("li", { class: `my-game ${game.group}`, "data-table": game.table });
  const what = el("span", { class: "what" });
  const to = game.to_move === null ? null : game.seats[game.to_move];
  if (game.group === "your_turn") {
    what.append(t("Your move"));
    if (game.deadline !== null) what.append(" \u00b7 ", timeLeft(game.deadline));
  } else if (game.group === "their_turn") {
    what.textContent = to && to.name ? t("{name} to move", { name: to.name }) : t("The next player to move");
  } else if (game.group === "lobby") {
    what.textContent = game.kept ? t("A seat is kept for you") : t("Waiting for every seat");
  } else {
    what.textContent = result(game) + (game.rematch ? ` \u00b7 ${t("rematch asked")}` : "");
  }
  const label = game.kept ? t("Sit down") : game.group === "your_turn" ? t("Play") : game.group === "finished" ? t("See") : t("Open");
  const button = el("button", { type: "button", class: game.group === "your_turn" || game.kept ? "primary act" : "act" }, label);
  button.onclick = () => openGame(game, button);
  const who = el("span", { class: "who" });
  who.append(el("span", { class: `dot ${playerClass(game.seat)}` }), " ", others(game));
  item.append(who, what, button);
  return item;
}

function result(game) {
  const me = game.seats[game.seat];
  if (!me || me.total === null) return t("Over");
  const best = Math.max(...game.seats.map((s) => s.total || 0));
  const rivals = game.seats.filter((s) => s.seat !== game.seat && s.total !== null);
  if (!rivals.length) return t("Your total: {total}", { total: me.total });
  const score = t("{total} to {rival}", { total: me.total, rival: Math.max(...rivals.map((s) => s.total)) });
  return me.total === best ? t("You won, {score}", { score }) : t("Place {place}, {score}", { place: me.place, score });
}

function timeLeft(deadline) {
  const seconds = Math.round(deadline - Date.now() / 1000);
  const span = el("span", { class: seconds < 3600 ? "left urgent" : "left" });
  if (seconds <= 0) { span.textContent = t("time is up"); return span; }
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  span.textContent = days ? t("{days} d {hours} h left", { days, hours }) : hours ? t("{hours} h {minutes} min left", { hours, minutes })
    : minutes ? t("{minutes} min left", { minutes }) : t("under a minute left");
  return span;
}

// Open a table of the account's: with this device's token for its seat, else sitting down
// there as the account first (a fresh token, moved to this device).
async function openGame(game, button) {
  const kept = saved(game.table);
  if (!kept || !kept.token || kept.seat !== game.seat || game.kept) {
    button.disabled = true;
    try {
      const sat = await api(`/api/tables/${encodeURIComponent(game.table)}/seat`, {});
      remember(game.table, sat.seat, sat.token, sat.table.seats[sat.seat].name);
    } catch (error) {
      button.disabled = false;
      $("my-games-note").textContent = error.message;
      return;
    }
  }
  goTo(game.table);
  enterTable(game.table, null);
}

// --- Friends -------------------------------------------------------------------------------

async function drawFriends() {
  let found;
  try { found = await api("/api/me/friends"); } catch { return; }
  const list = $("friends");
  if (!found.friends.length) {
    list.replaceChildren(el("li", { class: "note" }, t("Nobody yet: the people you play with show here.")));
    return;
  }
  list.replaceChildren(...found.friends.map((friend, index) => {
    const item = el("li", { class: "friend" });
    const who = el("span", { class: "who" }, friend.name);
    who.append(el("span", { class: "what" }, tn("{n} game together", "{n} games together", friend.games)));
    const avatar = el("span", { class: `avatar ${playerClass(index + 1)}`, "data-initial": initial(friend.name), "aria-hidden": "true" });
    const button = el("button", { type: "button" }, t("Play again"));
    button.setAttribute("aria-label", t("Play again with {name}", { name: friend.name }));
    button.onclick = () => playAgain(friend.name, button);
    item.append(avatar, who, button);
    return item;
  }));
}

// One tap: a new turn-by-turn table (a day a move) with a seat kept for the friend, who
// finds it in their own "my games".
async function playAgain(name, button) {
  button.disabled = true;
  try {
    const made = await api("/api/tables", { host: mine.you, seats: [{ kind: "human" }], turn_timer: DAY_S });
    remember(made.table.id, made.seat, made.token, mine.you);
    await api(`/api/tables/${encodeURIComponent(made.table.id)}/invite`, { account: name }, made.token);
    goTo(made.table.id);
    enterTable(made.table.id, null);
  } catch (error) {
    $("my-games-note").textContent = error.message;
  } finally {
    button.disabled = false;
  }
}
