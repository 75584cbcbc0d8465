// The dice as they lie on a device table (service/tray.py, ported): which face is in which
// of the five places, and which places the player holds. A held die stays in its place
// through the roll; the thrown ones land in the other places, lowest first. A tray is
// {slots: "53613" ("" before the turn's first roll), held: [places, sorted]}. No DOM.

import { illegal, invalid } from "./engine_errors.js";
import { t } from "./i18n.js";

const SLOTS = [0, 1, 2, 3, 4];
export const EMPTY_TRAY = Object.freeze({ slots: "", held: Object.freeze([]) });

export const notRolled = () => illegal(t("Roll the dice before holding any."), "not_rolled");

/** Places 0 to 4, each at most once, sorted (a RuleError invalid_input otherwise). */
export function checkSlots(slots) {
  if (!Array.isArray(slots)) throw invalid(t("The dice held are a list of places, 0 to 4."));
  for (const slot of slots) {
    if (!Number.isInteger(slot) || !SLOTS.includes(slot)) throw invalid(t("A die's place is 0 to 4, not {place}.", { place: JSON.stringify(slot) }));
  }
  if (new Set(slots).size !== slots.length) throw invalid(t("Each die's place is held at most once."));
  return [...slots].sort((a, b) => a - b);
}

/** The dice held, as the engine keeps them (sorted faces). */
export const keptOf = (tray, held = tray.held) => held.map((slot) => tray.slots[slot]).sort().join("");

/** The dice in order, the `kept` ones held (a turn known only from its events). */
export function resting(dice, kept = "") {
  if (!dice) return EMPTY_TRAY;
  return { slots: dice, held: [...placesOf(kept, dice, [])].sort((a, b) => a - b) };
}

/** This row with `slots` held (the player's choice before the roll). */
export function holding(tray, slots) {
  const chosen = checkSlots(slots);
  if (!tray.slots) throw notRolled();
  return { slots: tray.slots, held: chosen };
}

/** The row after keeping `keep` and throwing the rest, which showed `dice` (sorted),
 *  `held`: the places the player held, when known. */
export function thrown(tray, keep, dice, held = tray.held) {
  const places = placesOf(keep, tray.slots, held);
  if (places.size !== keep.length || tray.slots.length !== SLOTS.length) return resting(dice, keep);
  const rest = [...dice];
  for (const face of keep) rest.splice(rest.indexOf(face), 1);
  let next = 0;
  const slots = SLOTS.map((slot) => (places.has(slot) ? tray.slots[slot] : rest[next++])).join("");
  return { slots, held: [...places].sort((a, b) => a - b) };
}

/** Places whose faces make `keep`: the `preferred` ones first, then from the left. */
function placesOf(keep, slots, preferred) {
  const wanted = [...keep];
  const places = new Set();
  for (const slot of [...[...preferred].sort((a, b) => a - b), ...SLOTS]) {
    if (places.has(slot) || slot >= slots.length) continue;
    const at = wanted.indexOf(slots[slot]);
    if (at < 0) continue;
    wanted.splice(at, 1);
    places.add(slot);
  }
  return places;
}

/** The row after `event` took the game to `turn` (the engine's turn): a roll moves only
 *  the dice thrown; anything else lays the dice out anew. */
export function follow(tray, turn, event, held) {
  if (event && event.type === "roll" && turn && turn.dice) {
    const keep = event.keep === "-" ? "" : event.keep;
    const after = tray.slots ? thrown(tray, keep, event.dice, held === undefined ? tray.held : held) : null;
    if (after && [...after.slots].sort().join("") === turn.dice) return after;
  }
  return trayOf(turn);
}

/** The row a turn shows when nothing is known about places. */
export const trayOf = (turn) => (turn && turn.dice ? resting(turn.dice, turn.kept) : EMPTY_TRAY);
