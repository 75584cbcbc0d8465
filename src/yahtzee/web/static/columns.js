// A sitting in columns, like the paper pad: one column per game per player (the games the
// table and its rematches played, and the game under way), and each player's running
// total across them. Opened from the game-over screen and during the sitting's later games.

import { $, api, boxesOf, el, playerClass, ruleSetOf, state } from "./state.js";
import { boxWords, t, tn } from "./i18n.js";

let shownFor = null;

export function wireColumns() {
  $("columns-open").onclick = openColumns;
  $("columns-play").onclick = openColumns;
  $("columns-close").onclick = () => $("columns-dialog").close();
}

// Whether the table's sitting has a game before this one (a rematch): then its columns
// can be shown. A sitting of one game has nothing to show in columns that its card does
// not (the daily game is always one).
export function hasColumns() {
  const lobby = state.lobby;
  return !!lobby && !!lobby.sitting && lobby.sitting !== lobby.id;
}

export function drawColumnsButtons() {
  const any = hasColumns();
  $("columns-open").hidden = !any;
  $("sitting-bar").hidden = !any || !state.game || state.game.phase === "over";
}

async function openColumns() {
  const dialog = $("columns-dialog");
  const sitting = state.lobby && state.lobby.sitting;
  if (!sitting) return;
  $("columns-note").textContent = t("Reading the sitting...");
  $("columns-table").replaceChildren();
  if (!dialog.open) dialog.showModal();
  let found = null;
  try { found = await api(`/api/sittings/${encodeURIComponent(sitting)}/columns`); }
  catch { found = null; }
  shownFor = found;
  drawColumns();
}

// Redrawn as the game under way changes (its column is live).
export function refreshColumns() { if ($("columns-dialog").open && shownFor) drawColumns(); }

function drawColumns() {
  const found = shownFor;
  const game = state.game;
  const games = found ? found.games.map((g) => ({ cards: g.cards, winners: g.winners, live: false })) : [];
  const live = game && game.phase !== "over" ? { cards: game.cards, winners: [], live: true } : null;
  if (live) games.push(live);
  const players = (game && game.players) || (found && found.players) || [];
  if (!games.length) { $("columns-note").textContent = t("No game of this sitting has ended yet."); return; }
  const running = found ? found.running.map((row) => [...row]) : [];
  if (live) {
    const before = running.length ? running[running.length - 1] : players.map(() => 0);
    running.push(players.map((_, seat) => (before[seat] || 0) + live.cards[seat].total));
  }
  const count = games.length - (live ? 1 : 0);
  $("columns-note").textContent = live
    ? tn("{n} game finished, and the game under way (its totals so far): one column per game per player, and each player's running total.",
      "{n} games finished, and the game under way (its totals so far): one column per game per player, and each player's running total.", count)
    : tn("{n} game finished: one column per game per player, and each player's running total.",
      "{n} games finished: one column per game per player, and each player's running total.", count);
  const top = el("tr");
  top.append(el("td", { class: "corner" }));
  games.forEach((g, i) => top.append(el("th", { scope: "colgroup", colspan: String(players.length), class: `game-head${g.live ? " live" : ""}` }, g.live ? t("Game {number} (now)", { number: i + 1 }) : t("Game {number}", { number: i + 1 }))));
  const names = el("tr");
  // Translators: the heading of the score card's column of box names
  names.append(el("th", { scope: "col", class: "box-col" }, t("Box")));
  games.forEach((g, i) => players.forEach((name, seat) => {
    const cell = el("th", { scope: "col", class: `player ${playerClass(seat)}${seat === 0 ? " first" : ""}`, title: name });
    cell.append(el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "name" }, name));
    if (g.winners.includes(seat)) cell.append(el("span", { class: "visually-hidden" }, " " + t("(won game {number})", { number: i + 1 })));
    names.append(cell);
  }));
  const row = (label, cls, value, short = label) => {
    const tr = el("tr", { class: cls });
    const head = el("th", { scope: "row" });
    if (short === label) head.textContent = label;
    else head.append(el("span", { class: "long" }, label), el("span", { class: "short", "aria-hidden": "true" }, short));
    tr.append(head);
    games.forEach((g, i) => players.forEach((_, seat) => {
      const text = value(g, seat, i);
      const td = el("td", { class: `${playerClass(seat)}${seat === 0 ? " first" : ""}${g.winners.includes(seat) && cls.endsWith("grand") ? " won" : ""}` }, text === null ? "" : String(text));
      tr.append(td);
    }));
    return tr;
  };
  const rows = [];
  const ruleSet = ruleSetOf((found && found.rules) || undefined);
  const boxText = (text) => boxWords(ruleSet && ruleSet.rules.edition, text);
  boxesOf((found && found.rules) || undefined).forEach(({ key, label, short, section }, index, all) => {
    if (section === "lower" && index > 0 && all[index - 1].section === "upper") {
      // Translators: the score card's row of the upper section's subtotal
      rows.push(row(t("Upper"), "total upper", (g, seat) => g.cards[seat].upper_subtotal));
      // Translators: the score card's row of the upper section's bonus
      rows.push(row(t("Bonus"), "total bonus", (g, seat) => g.cards[seat].upper_bonus || null));
    }
    rows.push(row(boxText(label), `${section}-box`, (g, seat) => g.cards[seat].boxes[key], boxText(short)));
  });
  if (!ruleSet || ruleSet.rules.yahtzee_bonus) rows.push(row(t("Yahtzee bonus"), "total ybonus", (g, seat) => g.cards[seat].yahtzee_bonus || null, t("Yz. bonus")));
  rows.push(row(t("Total"), "total grand", (g, seat) => g.cards[seat].total));
  // Translators: the row of each player's running total across the sitting's games, in full and short
  rows.push(row(t("Running total"), "total running", (g, seat, i) => running[i] ? running[i][seat] : null, t("Running")));
  const table = $("columns-table");
  table.replaceChildren(el("caption", { class: "visually-hidden" }, t("The sitting's games in columns")), el("thead"), el("tbody"));
  table.tHead.append(top, names);
  table.tBodies[0].append(...rows);
}
