// What the page knows: the table, the seat, the game as the server last sent it, and the
// small helpers every part of the page draws with. Text from players (names, chat) is
// always set as text, never as HTML.

import { boxWords, t, tn } from "./i18n.js";

export const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
export const state = {
  table: null, seat: null, role: null, token: null, watch: null, links: null,
  seq: 0, lobby: null, game: null, spectators: 0,
  hint: null, review: null, reviewAsked: false, reviewNotes: [],
  socket: null, retry: 0, online: false, fatal: null, retryTimer: null,
  heard: 0, asked: null, answered: false, pinged: 0,  // the connection's pings (net.js)
  pending: null, deadline: null, wasMyTurn: false, refocus: null, screen: null,
  pinned: null,  // on a narrow screen: the other player whose column is shown
  sitting: null, sittingOf: null,  // the sitting's standings, and the table they were read for
  // The upper bonus's threshold and the win-chance meter come from the server.
  bonusAt: null, meter: { chances: null, progress: null, estimate: false, margin: null },
  bots: null,  // the bots a table offers ({bots: [{bot, name, about}], default}): the server's
  rules: null,  // the rule sets with their boxes, and a table's limits: the server's (GET /api/rules)
  account: null,  // the signed-in account ({id, name}), or null for a guest
  advisorNote: null,  // "Loading the advisor..." said on the status line, until the hint or review comes
};

export function el(tag, attrs = {}, content = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  if (content !== "") node.textContent = content;
  return node;
}
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}
// A button that copies an input's text (a link to share), and says so.
export function copyButton(button, input) {
  button.onclick = async () => {
    try { await navigator.clipboard.writeText(input.value); }
    catch { input.select(); document.execCommand("copy"); }
    button.textContent = t("Copied");
    setTimeout(() => { button.textContent = t("Copy"); }, 2000);
  };
}
export function say(message) { $("status").textContent = message; }
export function readJson(storage, key) {
  try { return JSON.parse(storage.getItem(key) || "null"); } catch { return null; }
}
export function saved(tableId) { return readJson(localStorage, `yahtzee:${tableId}`); }
export function remember(tableId, seat, token, name) {
  localStorage.setItem(`yahtzee:${tableId}`, JSON.stringify({ seat, token, name }));
}
export function playerClass(seat) { return `p${seat % 8}`; }
// A bot's name says what it is ("Bot 3 (level 5)", "Bot 2 (winning)"): the page shows that
// apart, as the seat's bot key says it ("level5" is "level 5").
export function isBot(seat) { return !!(state.lobby && state.lobby.seats[seat] && state.lobby.seats[seat].bot); }
export function botWhat(key) { return String(key).replace(/^level(\d+)$/, "level $1"); }
export function botOf(seat) { return isBot(seat) ? botWhat(state.lobby.seats[seat].bot) : null; }
// A bot as a sentence of the player's language calls it, by its key ("level 3", "auf
// Sieg"): the server's word for it, else its key's words.
export function botWords(key) {
  const found = botChoice(key);
  return found && found.word ? found.word : botWhat(key);
}
export function botShown(seat) { return isBot(seat) ? botWords(state.lobby.seats[seat].bot) : null; }
export function playerName(seat) {
  const name = (state.game && state.game.players[seat]) || (state.lobby && state.lobby.seats[seat] && state.lobby.seats[seat].name) || "";
  const suffix = isBot(seat) ? ` (${botOf(seat)})` : null;
  return suffix && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}
// The bots a new table offers, from the server (asked once a page).
let botsAsked = null;
export function loadBots() {
  if (!botsAsked) {
    botsAsked = api("/api/bots").then((offered) => { state.bots = offered; return offered; });
    botsAsked.catch(() => { botsAsked = null; });  // asked again next time
  }
  return botsAsked;
}
// What a table may be and what its cards hold, from the server: asked once, as the page
// opens, before it draws anything (no rule set, box or limit is kept here by hand).
let rulesAsked = null;
export function loadRules() {
  if (!rulesAsked) {
    rulesAsked = api("/api/rules").then((known) => { state.rules = known; return known; });
    rulesAsked.catch(() => { rulesAsked = null; });  // asked again next time
  }
  return rulesAsked;
}
// A rule set of GET /api/rules by name (the table's by default): {name, summary, title,
// rounds, boxes, rules}. A rule set the server does not list by that name (NAME+playoff)
// is NAME's; any other, the default's.
export function ruleSetOf(name = state.lobby && state.lobby.rules) {
  const sets = state.rules ? state.rules.rule_sets : [];
  return sets.find((s) => s.name === name)
    || sets.find((s) => typeof name === "string" && name.startsWith(`${s.name}+`))
    || sets.find((s) => s.name === state.rules.default)
    || null;
}
// The boxes of a rule set (the table's by default), top to bottom: {key, label, short,
// section, code, scoring}.
export function boxesOf(name = state.lobby && state.lobby.rules) {
  const found = ruleSetOf(name);
  return found ? found.boxes : [];
}
// The box five alike score in (Yahtzee, Yatzy) under the table's rules: {key, label, ...}.
export function fiveAlikeBox(name = state.lobby && state.lobby.rules) {
  const found = ruleSetOf(name);
  return found ? found.boxes.find((box) => box.key === found.rules.five_of_a_kind) : null;
}
// A box's name in the page's language: /api/rules names it in English (language-neutral
// data); its translation is by the edition ("american box", "yatzy box": a box's name
// differs between the printed games).
export function boxText(text, name = state.lobby && state.lobby.rules) {
  const found = ruleSetOf(name);
  return boxWords(found && found.rules ? found.rules.edition : "american", text);
}
export function boxLabel(box, name = state.lobby && state.lobby.rules) { return boxText(box.label, name); }
export function boxName(key) {
  const box = boxesOf().find((b) => b.key === key);
  return box ? boxLabel(box) : String(key).replaceAll("_", " ");
}
// A select of the bots offered (or of `bots`, some of them), with key chosen.
export function fillBotChoices(select, key, bots = state.bots ? state.bots.bots : []) {
  select.replaceChildren(...bots.map((b) => el("option", { value: b.bot }, b.name)));
  select.value = key;
}
export function botChoice(key) { return (state.bots && state.bots.bots.find((b) => b.bot === key)) || null; }
export function initial(name) { return (name || "?").trim().charAt(0).toUpperCase() || "?"; }
export function pluralDice(n) { return tn("{n} die", "{n} dice", n); }

const MOVED_TRIES = 5;  // a table moving between server nodes (503 moved): tried again

export async function api(path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const ask = () => fetch(path, { method: body === undefined ? "GET" : "POST", headers,
                                  body: body === undefined ? undefined : JSON.stringify(body) });
  let response = await ask();
  for (let tries = 1; response.status === 503 && tries < MOVED_TRIES; tries++) {
    const wait = Number(response.headers.get("retry-after")) || 1;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    response = await ask();
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new Error((data && data.message) || t("Refused ({status}).", { status: response.status }));
  return data;
}
export function goTo(tableId) {
  // The address bar only ever shows the table's id: secrets stay in local storage.
  history.replaceState(null, "", `/?table=${encodeURIComponent(tableId)}`);
}

export function isMyTurn() {
  const game = state.game;
  return !!game && game.phase !== "over" && state.seat !== null && game.current === state.seat;
}
export function canAct() { return isMyTurn() && state.online && !state.pending; }
