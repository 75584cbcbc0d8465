// A game of real dice: the player rolls at the table and enters the five dice showing on
// a face picker (a tap per die; a tap on an entered die takes it away), says which roll
// it was if they like, then fills a box on the card (what each box scores is the
// server's), or writes a box's points (quick score entry). A placement can be taken back
// until the next player acts.

import { t, tn } from "./i18n.js";
import { $, boxLabel, boxesOf, el, fiveAlikeBox, isMyTurn, playerName, ruleSetOf, say, state } from "./state.js";
import { act } from "./net.js";
import { dieFace } from "./dice.js";
import { actAs, heldHere, isPad } from "./pad.js";

const entry = { key: null, picks: [], roll: null, sent: null };

function turnKey(game) { return `${game.phase}|${game.round}|${game.current}`; }

export function buildEntry() {
  const picked = $("picked");
  for (let i = 0; i < 5; i++) {
    const slot = el("button", { type: "button", class: "die slot", "data-focus": `slot-${i}`, "data-slot": String(i) });
    slot.append(dieFace(0));
    slot.onclick = () => { if (entry.picks[i] === undefined || !canEnter()) return; entry.picks.splice(i, 1); changed(); };
    picked.append(slot);
  }
  const faces = $("faces");
  for (let face = 1; face <= 6; face++) {
    const button = el("button", { type: "button", class: "face-pick", "data-face": String(face), "data-focus": `face-${face}` });
    button.append(dieFace(face), el("span", { class: "visually-hidden" }, t("Face {face}", { face })), el("span", { class: "count" }, ""));
    button.onclick = () => { if (!canEnter() || entry.picks.length >= 5) return; entry.picks.push(face); changed(); };
    faces.append(button);
  }
  for (const roll of [1, 2, 3]) {
    const button = el("button", { type: "button", class: "roll-no", "data-roll": String(roll), "data-focus": `roll-${roll}`, "aria-pressed": "false" }, [t("1st"), t("2nd"), t("3rd")][roll - 1]);
    button.onclick = () => { if (!canEnter()) return; entry.roll = entry.roll === roll ? null : roll; changed(); };
    $("roll-no").append(button);
  }
  $("clear-dice").onclick = () => { if (!canEnter()) return; entry.picks = []; changed(); };
  $("quick-toggle").onclick = () => {
    const open = $("quick").hidden;
    $("quick").hidden = !open;
    $("quick-toggle").setAttribute("aria-expanded", String(open));
    if (open) $("quick-box").focus();
  };
  for (let face = 1; face <= 6; face++) {
    // Translators: a face's dice ("3s": threes), on a button.
    const button = el("button", { type: "button", class: "small", "data-focus": `yahtzee-of-${face}`, "data-face": String(face) }, t("{face}s", { face }));
    button.setAttribute("aria-label", t("{face}s: a {box} of {face}s, {dice}", { face, box: "Yahtzee", dice: String(face).repeat(5) }));
    button.onclick = () => { if (!canEnter()) return; entry.picks = [face, face, face, face, face]; $("quick").hidden = true; changed(); };
    $("yahtzee-of").append(button);
  }
  $("quick").onsubmit = (event) => {
    event.preventDefault();
    if (!canEnter()) return;
    const text = $("quick-points").value.trim();
    const points = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(points)) { note(t("Type the points as a whole number, like 12.")); return; }
    note("");
    act({ type: "write", category: $("quick-box").value, points });
  };
  $("undo-entry").onclick = takeBack;
}

function canEnter() { return isMyTurn() && state.online && !state.pending; }

function note(text) { state.entryNote = text; $("quick-note").textContent = text; }

// The picks changed: five dice (with the roll, if said) go to the server.
function changed() {
  send();
  drawEntry();
  document.dispatchEvent(new Event("yahtzee:redraw"));
}

function send() {
  if (entry.picks.length !== 5) return;
  const dice = entry.picks.join("");
  const signature = `${dice}|${entry.roll}`;
  const game = state.game;
  const same = game.dice === [...entry.picks].sort().join("") && entry.sent === signature;
  if (same || !canEnter()) return;
  const message = entry.roll === null ? { type: "dice", dice } : { type: "dice", dice, roll: entry.roll };
  if (act(message)) entry.sent = signature;
}

// Whether the dice the page shows are the dice the server has (the card's proposals are
// for the server's dice: hidden while the player changes them).
export function entrySettled() {
  const game = state.game;
  if (!game || !game.entered) return true;
  return entry.picks.length === 5 && [...entry.picks].sort().join("") === game.dice;
}

export function forgetEntry() { entry.key = null; entry.picks = []; entry.roll = null; entry.sent = null; }

function follow(game) {
  const key = turnKey(game);
  const server = game.dice ? game.dice.split("").map(Number) : [];
  const sorted = [...entry.picks].sort().join("");
  if (entry.key !== key) {
    entry.key = key;
    $("quick").hidden = true;  // each turn starts with the dice
    $("quick-toggle").setAttribute("aria-expanded", "false");
    state.entryNote = "";
    entry.picks = server;
    entry.roll = null;
    entry.sent = game.dice ? `${game.dice}|null` : null;
    return;
  }
  if (!isMyTurn()) {  // someone else's dice, as the server has them
    if (sorted !== (game.dice || "")) entry.picks = server;
    return;
  }
  // ours were sent and the server has others (refused, or entered from another device)
  const ours = `${entry.picks.join("")}|${entry.roll}`;
  if (!state.pending && entry.picks.length === 5 && sorted !== (game.dice || "") && entry.sent === ours) entry.picks = server;
}

function takeBack() {
  const game = state.game;
  const seat = game && game.undo;
  if (seat === null || seat === undefined || !state.online) return;
  if (seat === state.seat) { act({ type: "undo" }); return; }
  actAs(seat, { type: "undo" })
    .then((answer) => { if (answer.type === "error") say(answer.message || t("Refused.")); })
    .catch((error) => say(error.message));
}

export function drawEntry() {
  const game = state.game;
  const box = $("entry");
  box.hidden = !game || !game.entered;
  $("tray").classList.toggle("entered", !box.hidden);
  if (box.hidden) return;
  follow(game);
  const mine = isMyTurn();
  const usable = mine && state.online && !state.pending;
  const who = playerName(game.current);
  const whose = $("whose");
  whose.hidden = !isPad() && !mine;
  whose.textContent = game.phase === "playoff" ? t("Playoff: {name} throws", { name: who }) : t("{name}'s turn", { name: who });
  whose.className = `whose${mine ? " mine" : ""}`;
  $("whose-note").textContent = mine
    ? (isPad() ? t("{name}: roll your dice, then tap each die's face.", { name: who }) : t("Roll your dice, then tap each die's face."))
    : heldHere(game.current) ? t("Passing the pad to {name}...", { name: who }) : t("{name} enters their dice on their own device.", { name: who });
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const face of entry.picks) counts[face] += 1;
  [...$("picked").children].forEach((slot, i) => {
    const face = entry.picks[i] || 0;
    if (slot.dataset.face !== String(face || "")) slot.replaceChild(dieFace(face), slot.firstChild);
    slot.dataset.face = face ? String(face) : "";
    slot.classList.toggle("blank", !face);
    slot.disabled = !usable || !face;
    slot.setAttribute("aria-label", face ? t("Die {number}: {face}, press to take it away", { number: i + 1, face }) : t("Die {number}: not entered", { number: i + 1 }));
  });
  [...$("faces").children].forEach((button) => {
    const face = Number(button.dataset.face);
    button.disabled = !usable || entry.picks.length >= 5;
    button.querySelector(".count").textContent = counts[face] ? `×${counts[face]}` : "";
  });
  for (const button of $("roll-no").children) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.roll) === entry.roll));
    button.disabled = !usable;
  }
  $("clear-dice").disabled = !usable || entry.picks.length === 0;
  const left = 5 - entry.picks.length;
  const entered = entry.picks.length;
  $("entry-count").textContent = left === 0
    ? (entrySettled() ? t("Entered: pick a box on the card.") : t("Sending the dice..."))
    : left === 5 ? t("No dice entered: tap 5 more faces.")
      : left === 1 ? t("4 of 5 dice entered: tap the last die's face.")
        : tn("{entered} of 5 dice entered: tap {n} more face.", "{entered} of 5 dice entered: tap {n} more faces.", left, { entered });
  drawUndo(game);
  drawQuick(game, usable);
}

function drawUndo(game) {
  const button = $("undo-entry");
  const seat = game.undo;
  const ours = seat !== null && seat !== undefined && (seat === state.seat || heldHere(seat));
  button.hidden = !ours;
  if (ours) button.textContent = seat === state.seat ? t("Take back your last entry") : t("Take back {name}'s last entry", { name: playerName(seat) });
  button.disabled = !state.online || !!state.pending;
}

function drawQuick(game, usable) {
  const select = $("quick-box");
  const card = game.current !== null ? game.cards[game.current] : null;
  const ruleSet = ruleSetOf();
  const all = card ? boxesOf().filter(({ key }) => card.boxes[key] === null) : [];
  const open = ruleSet && ruleSet.rules.ordered ? all.slice(0, 1) : all;  // filled top to bottom: the next box only
  const chosen = select.value;
  const shown = [...select.options].map((o) => o.value).join();
  if (shown !== open.map(({ key }) => key).join()) {
    select.replaceChildren(...open.map((box) => el("option", { value: box.key }, boxLabel(box))));
    if (open.some(({ key }) => key === chosen)) select.value = chosen;
  }
  $("quick-toggle").disabled = !usable && $("quick").hidden;
  for (const node of $("quick").querySelectorAll("button, input, select")) node.disabled = !usable;
  $("quick-note").textContent = state.entryNote || "";
  const five = fiveAlikeBox();
  if (five && ruleSet) {  // the rules' box for five alike (Yahtzee, Yatzy)
    const box = boxLabel(five);
    $("yahtzee-of-label").textContent = ruleSet.rules.joker !== "none" || ruleSet.rules.yahtzee_bonus
      ? t("A {box} (its Joker and bonus follow the rules): enter it as five dice of", { box })
      : t("A {box}: enter it as five dice of", { box });
    for (const button of $("yahtzee-of").querySelectorAll("button")) {
      const face = button.dataset.face;
      button.setAttribute("aria-label", t("{face}s: a {box} of {face}s, {dice}", { face, box, dice: face.repeat(5) }));
    }
  }
}
