// A rule set's scoring as the advisor reads it (yahtzee.solver.tables' ScoringTables):
// what each roll scores in each box, and where an extra Yahtzee may go under the rule
// set's Joker rule, laid out as the solver's table reads it. What dice score in a box is
// the page's rules engine's (engine_rules.js), from the rule set as GET /api/rules gives
// it; none is written here. ES module, no DOM.

import { DICE, FACES, KEEPS, ROLL_BASE, ROLLS } from "./advisor_dice.js";
import { ruleBook, score } from "./engine_rules.js";

/** The boxes (card order) and the scoring of a rule set. */
export function scoringOf(ruleSet) {
  const rules = ruleSet.rules;
  const keys = ruleSet.boxes.map((box) => box.key);
  const upper = ruleSet.boxes.flatMap((box, index) => (box.section === "upper" ? [index] : []));
  const yahtzee = keys.indexOf(rules.five_of_a_kind);
  if (upper.length !== FACES || upper.some((box, f) => box !== f) || yahtzee < 0) {
    throw new Error("The advisor knows a card of six upper boxes, then the lower ones, Yahtzee among them.");
  }
  const boxes = keys.length;
  const points = new Int32Array(ROLLS * boxes);
  const book = ruleBook(ruleSet);  // the engine's scoring: one rules authority in the page
  for (let r = 0; r < ROLLS; r++) {
    for (let c = 0; c < boxes; c++) points[r * boxes + c] = score(book, c, KEEPS[ROLL_BASE + r]);
  }
  const yahtzeeRoll = Int32Array.from({ length: FACES }, (_, f) => KEEPS.indexOf(String(f + 1).repeat(DICE)) - ROLL_BASE);
  return Object.freeze({
    keys, boxes, yahtzee, points, yahtzeeRoll,
    joker: rules.joker,
    jokerBonus: rules.yahtzee_bonus,
    yahtzeePoints: book.yahtzeePoints,
    upperBonus: rules.upper_bonus,
    threshold: rules.upper_bonus_threshold,
    flat: keys.map((_, c) => (book.jokerFlat.has(c) ? book.jokerFlat.get(c) : -1)),
  });
}

/** Where five dice of face f + 1 may go with the boxes of `mask` filled, the Yahtzee box
 *  among them (core's `placements` for an extra Yahtzee): an Int32Array of each box's
 *  points there, -1 where the rule set does not allow it. */
export function jokerRow(scoring, mask, f) {
  const { boxes, points, yahtzeeRoll, flat } = scoring;
  const r = yahtzeeRoll[f];
  const row = new Int32Array(boxes).fill(-1);
  const open = [];
  for (let c = 0; c < boxes; c++) if (!(mask >> c & 1)) open.push(c);
  const natural = (c) => points[r * boxes + c];
  const joker = (c) => (flat[c] >= 0 ? flat[c] : natural(c));
  if (scoring.joker === "none") {
    for (const c of open) row[c] = natural(c);
  } else if (scoring.joker === "free-choice") {
    const fullValue = (mask >> f & 1) === 1; // the matching upper box is filled
    for (const c of open) row[c] = fullValue ? joker(c) : natural(c);
  } else if (!(mask >> f & 1)) {
    row[f] = natural(f); // forced: the matching upper box
  } else {
    const lower = open.filter((c) => c >= FACES);
    if (lower.length) for (const c of lower) row[c] = joker(c);
    else for (const c of open) row[c] = 0;
  }
  return row;
}
