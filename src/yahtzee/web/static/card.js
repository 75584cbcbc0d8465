// The scorecard and the players around the table: one column per player (on a narrow
// screen, as many as fit: the player to move, you, and the one you pick), the real choices
// for the roll standing out, zero boxes quiet, and the win-chance meter.

import { $, botOf, botShown, boxesOf, boxText, el, initial, isMyTurn, playerClass, playerName, ruleSetOf, state } from "./state.js";
import { act } from "./net.js";
import { flashCell } from "./fx.js";
import { entrySettled } from "./entry.js";
import { heldHere } from "./pad.js";
import { fitText } from "./fit.js";
import { num, t, tn } from "./i18n.js";

const NARROW = 700;  // px: below it, phone layout (see style.css)
const filledBefore = new Map();  // card element -> set of "seat:box" already drawn filled

function columnWidth() { return innerWidth < NARROW ? 56 : 66; }
function labelWidth() { return innerWidth < NARROW ? 96 : 168; }

// The seats whose columns fit: all when they do; else the player to move, you, the one
// picked in the strip, then the next to play.
export function visibleSeats(game, width) {
  const seats = game.players.map((_, seat) => seat);
  const fit = Math.max(1, Math.floor((width - labelWidth()) / columnWidth()));
  if (seats.length <= fit) return seats;
  const order = [];
  const add = (seat) => { if (seat !== null && seat !== undefined && seat >= 0 && seat < seats.length && !order.includes(seat)) order.push(seat); };
  add(game.current);
  add(state.seat);
  add(state.pinned);
  const start = game.current === null ? 0 : game.current;
  for (let i = 1; i <= seats.length; i++) add((start + i) % seats.length);
  return order.slice(0, fit).sort((a, b) => a - b);
}

function rowHeader(label, short) {
  const cell = el("th", { scope: "row" });
  if (short === label) cell.textContent = label;
  else cell.append(el("span", { class: "long" }, label), el("span", { class: "short", "aria-hidden": "true" }, short));
  return cell;
}

function totalRow(label, short, seats, cls, fill) {
  const row = el("tr", { class: `total ${cls}` });
  row.append(rowHeader(label, short));
  for (const seat of seats) {
    const cell = el("td", { class: playerClass(seat) });
    fill(state.game.cards[seat], cell, seat);
    row.append(cell);
  }
  return row;
}

// The strong choices for this roll stand out: an upper box on par for the bonus (three of
// its face, when the bonus needs 63), or a lower box other than Chance that scores at all.
// Chance and the weak ones are plain, zeros quiet.
function strongBoxes(placements) {
  const par = state.bonusAt === null ? null : state.bonusAt / 21;  // 21: the faces 1 to 6
  const upper = boxesOf().filter((b) => b.section === "upper").map((b) => b.key);
  return new Set(placements.filter((p) => {
    const points = p.points + p.yahtzee_bonus;
    const at = upper.indexOf(p.box);
    if (points === 0 || p.box === "chance") return false;
    return at < 0 || (par !== null && p.points >= par * (at + 1));
  }).map((p) => p.box));
}

function proposal(option, label, mine, best) {
  const points = option.points + option.yahtzee_bonus;
  const kind = points === 0 ? " zero" : best ? " best" : "";
  const said = { points, box: label };
  const name = option.joker
    ? (best ? t("Score {points} in {box} (Joker), a strong choice", said) : t("Score {points} in {box} (Joker)", said))
    : (best ? t("Score {points} in {box}, a strong choice", said) : t("Score {points} in {box}", said));
  const button = el("button", { type: "button", class: `propose${kind}`, "data-box": option.box, "data-focus": `box-${option.box}`,
                                 "aria-label": name }, String(points));
  if (option.joker) button.append(el("span", { class: "joker", "aria-hidden": "true" }, "J"));
  if (!mine) button.setAttribute("aria-disabled", "true");
  button.onclick = () => {
    button.scrollIntoView({ block: "nearest" });  // a tapped box half under the dice tray comes clear of it
    if (!mine || button.getAttribute("aria-disabled") === "true") return;
    if (points === 0 && !confirm(t("Score 0 in {box}?", { box: label }))) return;
    act({ type: "score", box: option.box });
  };
  return button;
}

export function drawCard(table, live) {
  const game = state.game;
  const mine = live && isMyTurn() && state.online && !state.pending;
  const seats = visibleSeats(game, table.parentElement.clientWidth || innerWidth);
  // The player to move is marked during the game, the winners after it.
  const marked = (seat) => (live ? seat === game.current : (game.winners || []).includes(seat));
  const head = el("tr");
  // Translators: the heading of the score card's column of box names
  head.append(el("th", { scope: "col", class: "box-col" }, t("Box")));
  for (const seat of seats) {
    const cell = el("th", { scope: "col", class: `player ${playerClass(seat)}${marked(seat) ? " current" : ""}` });
    cell.append(el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "name" }, playerName(seat)));
    // Translators: a badge beside the player's own name
    if (seat === state.seat) cell.append(el("span", { class: "badge" }, t("you")));
    else if (botOf(seat)) cell.append(el("span", { class: "badge" }, botShown(seat)));
    head.append(cell);
  }
  table.tHead.replaceChildren(head);
  fitText(head.querySelectorAll(".name"));
  const options = Object.fromEntries(game.placements.map((p) => [p.box, p]));
  const best = strongBoxes(game.placements);
  const seen = filledBefore.get(table) || new Set();
  const flash = [];
  const rows = [];
  const meter = live ? meterRow(game, seats) : null;
  if (meter) rows.push(meter);
  boxesOf().forEach(({ key, label: english, short, section }, index, all) => {
    const label = boxText(english);
    if (section === "lower" && index > 0 && all[index - 1].section === "upper") {
      // Translators: the score card's row of the upper section's subtotal
      rows.push(totalRow(t("Upper"), t("Upper"), seats, "upper", (card, cell, seat) => {
        const sub = card.upper_subtotal;
        const at = state.bonusAt;
        if (at === null) { cell.append(el("span", { class: "sub" }, String(sub))); return; }
        const bar = el("progress", { max: String(at), value: String(Math.min(sub, at)), "aria-label": t("{name}: upper section {points} of {goal}", { name: playerName(seat), points: sub, goal: at }) });
        cell.append(el("span", { class: "sub" }, `${sub}/${at}`), bar);
      }));
      // Translators: the score card's row of the upper section's bonus
      rows.push(totalRow(t("Bonus"), t("Bonus"), seats, "bonus", (card, cell) => {
        cell.textContent = card.upper_bonus ? `+${card.upper_bonus}` : "";
        if (card.upper_bonus) cell.classList.add("made");
        else cell.append(el("span", { class: "visually-hidden" }, t("none yet")));
      }));
    }
    const row = el("tr", { class: `${section}-box` });
    row.append(rowHeader(label, boxText(short)));
    for (const seat of seats) {
      const cell = el("td", { class: `${playerClass(seat)}${marked(seat) ? " current" : ""}` });
      const value = game.cards[seat].boxes[key];
      const option = options[key];
      if (value !== null && value !== undefined) {
        cell.textContent = String(value);
        cell.classList.add("filled");
        if (value === 0) cell.classList.add("scratched");
        if (!seen.has(`${seat}:${key}`)) flash.push(cell);
        seen.add(`${seat}:${key}`);
      } else if (live && seat === game.current && option && game.dice && entrySettled()) {
        const points = option.points + option.yahtzee_bonus;
        if (seat === state.seat) cell.append(proposal(option, label, mine, best.has(key)));
        else cell.append(el("span", { class: `proposal${points === 0 ? " zero" : best.has(key) ? " best" : ""}`, title: t("{name} could score {points} here", { name: playerName(seat), points }) }, String(points)));
      }
      row.append(cell);
    }
    rows.push(row);
  });
  const ruleSet = ruleSetOf();
  if (!ruleSet || ruleSet.rules.yahtzee_bonus) {  // (rules without an extra bonus: no row for it)
    // Translators: the score card's row of the extra Yahtzee bonus, in full and short
    rows.push(totalRow(t("Yahtzee bonus"), t("Yz. bonus"), seats, "ybonus", (card, cell) => { cell.textContent = card.yahtzee_bonus ? `+${card.yahtzee_bonus}` : ""; }));
  }
  // Translators: the score card's row of each player's total
  rows.push(totalRow(t("Total"), t("Total"), seats, "grand", (card, cell) => { cell.textContent = String(card.total); }));
  table.tBodies[0].replaceChildren(...rows);
  table.classList.toggle("many", seats.length > 4);
  if (filledBefore.has(table)) flash.forEach(flashCell);  // not on the first drawing
  filledBefore.set(table, seen);
}

export function forgetCards() { filledBefore.clear(); }

// --- The players around the table ------------------------------------------------------------

export function drawStrip(strip, live) {
  const game = state.game;
  const shown = new Set(visibleSeats(game, $("scorecard").parentElement.clientWidth || innerWidth));
  strip.replaceChildren(...game.players.map((_, seat) => {
    const info = state.lobby.seats[seat] || {};
    const current = live && seat === game.current;
    const away = live && !info.bot && !info.connected && seat !== state.seat && !heldHere(seat);
    const chip = el("button", { type: "button", class: `chip ${playerClass(seat)}${current ? " current" : ""}${shown.has(seat) ? " shown" : ""}${away ? " away" : ""}`,
                                "data-focus": `chip-${seat}`, "aria-pressed": String(shown.has(seat)) });
    const here = heldHere(seat) && heldHere(state.seat) && seat !== state.seat;
    // Translators: a player's state under their name in the strip of players
    const status = current ? (seat === state.seat ? t("your turn") : away ? t("away") : t("playing")) : seat === state.seat || here ? t("you")
      : info.bot ? t("bot, {bot}", { bot: botShown(seat) }) : away ? t("away") : "";
    // its name is what it shows (and "points", for a screen reader); pressed: its column shown
    const score = el("span", { class: "score" }, String(game.cards[seat].total));
    // Translators: read by a screen reader after a player's total (the number before it)
    score.append(el("span", { class: "visually-hidden" }, " " + t("points")));
    chip.append(el("span", { class: "avatar", "aria-hidden": "true", "data-initial": initial(playerName(seat)) }),
      el("span", { class: "who" }, playerName(seat)), score, el("span", { class: "state" }, status));
    chip.onclick = () => { state.pinned = seat; document.dispatchEvent(new Event("yahtzee:redraw")); };
    return chip;
  }));
  fitText(strip.querySelectorAll(".who"));
}

// --- The win-chance meter -------------------------------------------------------------------

// Translators: a percentage ({value} a number already written in the language)
const percentText = (value) => t("{value}%", { value: num(value) });

function percent(p) {
  if (p > 0 && p < 0.005) return `<${percentText(1)}`;
  if (p < 1 && p > 0.995) return `>${percentText(99)}`;
  return percentText(Math.round(p * 100));
}

// A row at the top of the card: each seat's chance to finish first (alone: to beat the
// player's best score), as text and a thin bar; while its table is being prepared, how far
// that is; nothing when the server has no meter to show.
function meterRow(game, seats) {
  const { chances, progress, estimate, margin } = state.meter;
  const alone = game.players.length === 1;
  const row = el("tr", { class: "meter" });
  if (chances && chances.length === game.players.length) {
    const mine = alone && state.seat === 0;
    row.append(alone ? rowHeader(mine ? t("Chance to beat your best") : t("Chance to beat the best"), t("Beat best")) : rowHeader(t("Chance to win"), t("Win chance")));
    for (const seat of seats) {
      const p = chances[seat];
      const cell = el("td", { class: playerClass(seat) });
      const text = (estimate ? "≈" : "") + percent(p);
      const said = { name: playerName(seat), chance: text };
      const what = alone ? (mine ? t("{name}: {chance} chance to beat your best score", said) : t("{name}: {chance} chance to beat their best score", said))
        : t("{name}: {chance} chance to win", said);
      const within = margin !== null ? Math.round(margin * 100) : null;
      const label = !estimate ? what : within !== null
        ? tn("{label} (an estimate, within {n} point while the exact chances are prepared)", "{label} (an estimate, within {n} points while the exact chances are prepared)", within, { label: what })
        : t("{label} (an estimate while the exact chances are prepared)", { label: what });
      cell.append(el("span", { class: "pct" }, text),
        el("progress", { class: "win", max: "100", value: String(Math.round(p * 100)), "aria-label": label }));
      row.append(cell);
    }
    return row;
  }
  if (progress) {
    row.classList.add("preparing");
    row.append(rowHeader(t("Chance to win"), t("Win chance")));
    const [done, total] = progress;
    row.append(el("td", { colspan: String(seats.length), class: "preparing-note" }, t("Preparing win chances {done}/{total}", { done, total })));
    return row;
  }
  return null;
}
