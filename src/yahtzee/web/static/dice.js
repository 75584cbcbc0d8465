// The dice tray: five dice as they lie (held dice keep their places: the server says
// where each die is), holding, rolling and the roll's tumble.

import { $, el, isMyTurn, playerName, say, state, svg, canAct } from "./state.js";
import { act, send } from "./net.js";
import { play } from "./fx.js";
import { t, tn } from "./i18n.js";

const PIPS = {
  1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]],
};
const TUMBLE_MS = 500;
let tumbling = 0;
let queued = false;

export function dieFace(face) {
  const picture = svg("svg", { viewBox: "0 0 100 100", class: "face", "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { x: "5", y: "5", width: "90", height: "90", rx: "18", class: "body" }));
  for (const [cx, cy] of PIPS[face] || []) picture.append(svg("circle", { cx: String(cx), cy: String(cy), r: "9.5", class: "pip" }));
  return picture;
}

export function buildDice() {
  const tray = $("dice");
  for (let i = 0; i < 5; i++) {
    const button = el("button", { type: "button", class: "die", "data-focus": `die-${i}`, "aria-pressed": "false" });
    button.append(dieFace(0), el("span", { class: "tag", "aria-hidden": "true" }, t("Held")));
    button.onclick = () => toggleDie(i);
    button.addEventListener("animationend", () => button.classList.remove("rolling"));
    tray.append(button);
  }
}

// The dice place by place: the server's slots (an older server: its sorted dice).
export function slotFaces(game) {
  const text = (game && (game.slots || game.dice)) || "";
  return text.split("").map(Number);
}

// The places held: the player's own choice for this roll while it is theirs to make,
// else what the server last said.
export function heldSlots(game) {
  const mine = state.myHold && state.myHold.seq === state.seq && isMyTurn() ? state.myHold.held : null;
  const held = mine || (Array.isArray(game && game.held) ? game.held : fromKept(game));
  return new Set(held);
}

function fromKept(game) {
  // An older server sends no places: the kept dice, from the left.
  const kept = ((game && game.kept) || "").replace("-", "").split("");
  const places = [];
  slotFaces(game).forEach((face, i) => {
    const at = kept.indexOf(String(face));
    if (at >= 0) { kept.splice(at, 1); places.push(i); }
  });
  return places;
}

export function canHold() {
  const game = state.game;
  return canAct() && !!game.dice && game.rolls_left > 0;
}

function toggleDie(i) {
  if (!canHold()) return;
  const held = heldSlots(state.game);
  if (held.has(i)) held.delete(i); else held.add(i);
  state.myHold = { seq: state.seq, held: [...held].sort() };
  send({ type: "hold", held: state.myHold.held });  // everyone sees it; kept if the tab closes
  play("hold");
  drawDice();
}

// After a reconnection: a hold the server did not get yet is sent again.
export function restoreHold() {
  const game = state.game;
  const mine = state.myHold;
  if (!game || !mine || mine.seq !== state.seq || !isMyTurn()) return;
  const theirs = Array.isArray(game.held) ? game.held.join() : "";
  if (theirs !== mine.held.join()) send({ type: "hold", held: mine.held });
}

// A roll asked for while the last one still tumbles goes when it lands (never lost); the
// second press of a double click is not a second roll.
export function rollNow(clicks = 1) {
  const game = state.game;
  if (clicks > 1) return;
  if (tumbling) { queued = true; drawDice(); return; }
  if (!game || !canAct()) return;
  const faces = slotFaces(game);
  const held = game.dice ? [...heldSlots(game)].sort() : [];
  if (game.dice && (game.rolls_left === 0 || held.length === 5)) return;
  const keep = held.map((i) => faces[i]).sort().join("");
  if (act({ type: "roll", keep, held })) { drawDice(); play("shake"); }
}

export function rollLabel() {
  const game = state.game;
  const who = playerName(game.current);
  if (!isMyTurn()) return game.phase === "playoff" ? t("{name} throws", { name: who }) : t("{name} is playing", { name: who });
  if (queued || (state.pending && state.pending.message.type === "roll")) return t("Rolling...");
  if (!game.dice) return t("Roll the dice");
  if (game.rolls_left === 0) return t("No rolls left: pick a box");
  const throwing = 5 - heldSlots(game).size;
  return throwing === 0 ? t("Hold fewer to roll") : tn("Roll {n} die", "Roll {n} dice", throwing);
}

export function drawDice() {
  const game = state.game;
  const faces = slotFaces(game);
  const held = game.dice ? heldSlots(game) : new Set();
  const holdable = canHold();
  const mine = isMyTurn();
  [...$("dice").children].forEach((button, i) => {
    const face = faces[i] || 0;
    const isHeld = held.has(i) && !!face;
    if (button.dataset.face !== String(face || "")) button.replaceChild(dieFace(face), button.firstChild);
    button.dataset.face = face ? String(face) : "";
    button.setAttribute("aria-pressed", String(isHeld));
    const die = { number: i + 1, face };
    button.setAttribute("aria-label", face ? (isHeld ? t("Die {number}: {face}, held", die) : t("Die {number}: {face}", die)) : t("Die {number}: not rolled", die));
    button.classList.toggle("held", isHeld);
    button.classList.toggle("blank", !face);
    button.classList.toggle("theirs", !mine);
    button.disabled = !holdable;
  });
  const roll = $("roll");
  roll.dataset.focus = "roll";
  roll.textContent = rollLabel();
  const usable = mine && state.online && !state.pending && !queued && (!game.dice || (game.rolls_left > 0 && held.size < 5));
  // Focusable and announced as unavailable, never a dead control: focus can rest here.
  roll.setAttribute("aria-disabled", String(!usable));
  roll.classList.toggle("waiting", !mine);
  roll.hidden = state.seat === null;  // spectators watch
  const left = game.dice ? game.rolls_left : null;
  $("rolls-left").textContent = left === null ? "" : t("Rolls left: {n}", { n: left });
  $("roll-pips").replaceChildren(...[0, 1, 2].map((i) => el("span", { class: `pip${left !== null && i < 3 - left ? " used" : ""}` })));
  $("roll-pips").hidden = left === null;
}

export function tumble(slots) {
  const buttons = $("dice").children;
  const motion = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  for (const i of slots) {
    const die = buttons[i];
    if (!die || !motion) continue;
    die.classList.remove("rolling");
    void die.offsetWidth;  // restart the animation
    die.classList.add("rolling");
  }
  if (!motion) return;
  // A second click while the dice are in the air waits: the button says so meanwhile.
  tumbling += 1;
  setTimeout(() => {
    tumbling -= 1;
    if (tumbling || !state.game || state.game.phase === "over") return;
    drawDice();
    if (queued) { queued = false; rollNow(); }
  }, TUMBLE_MS);
}

export function explainRollRefusal() {
  const game = state.game;
  if (!game || state.seat === null) return;
  if (!isMyTurn()) say(t("It is {name}'s turn: yours comes next.", { name: playerName(game.current) }));
  else if (!state.online) say(t("Not connected: the roll goes out once the connection is back."));
  else if (game.dice && game.rolls_left === 0) say(t("No rolls left: pick a box on the card."));
  else if (game.dice && heldSlots(game).size === 5) say(t("All five dice are held: let go of one to roll."));
}
