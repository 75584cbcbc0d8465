// A rule set's scoring as the advisor reads it (yahtzee.solver.tables' ScoringTables):
// what each roll scores in each box, and where an extra Yahtzee may go under the rule
// set's Joker rule and order of filling, laid out as the solver's table reads it. What
// dice score in a box and where they may go is the page's rules engine's (engine_rules.js),
// from the rule set as GET /api/rules gives it, for every edition; none is written here.
// ES module, no DOM.

import { DICE, FACES, KEEPS, ROLL_BASE, ROLLS } from "./advisor_dice.js";
import { placements, ruleBook, score } from "./engine_rules.js";
import { t } from "./i18n.js";

/** The boxes (card order) and the scoring of a rule set. */
export function scoringOf(ruleSet) {
  const rules = ruleSet.rules;
  const keys = ruleSet.boxes.map((box) => box.key);
  const upper = ruleSet.boxes.flatMap((box, index) => (box.section === "upper" ? [index] : []));
  const yahtzee = keys.indexOf(rules.five_of_a_kind);
  if (upper.length !== FACES || upper.some((box, f) => box !== f) || yahtzee < 0) {
    throw new Error(t("The advisor knows a card of six upper boxes, then the lower ones, a box of five alike among them."));
  }
  const boxes = keys.length;
  const points = new Int32Array(ROLLS * boxes);
  const book = ruleBook(ruleSet);  // the engine's scoring: one rules authority in the page
  for (let r = 0; r < ROLLS; r++) {
    for (let c = 0; c < boxes; c++) points[r * boxes + c] = score(book, c, KEEPS[ROLL_BASE + r]);
  }
  const yahtzeeRoll = Int32Array.from({ length: FACES }, (_, f) => KEEPS.indexOf(String(f + 1).repeat(DICE)) - ROLL_BASE);
  return Object.freeze({
    book, keys, boxes, yahtzee, points, yahtzeeRoll,
    ordered: Boolean(rules.ordered),
    joker: rules.joker,
    jokerBonus: rules.yahtzee_bonus,
    yahtzeePoints: book.yahtzeePoints,
    upperBonus: rules.upper_bonus,
    threshold: rules.upper_bonus_threshold,
  });
}

/** The boxes that may be filled with the boxes of `mask` filled, in card order: every
 *  open one, or under `ordered` the first. */
export function legalBoxes(scoring, mask) {
  const open = [];
  for (let c = 0; c < scoring.boxes; c++) {
    if (mask >> c & 1) continue;
    open.push(c);
    if (scoring.ordered) break;
  }
  return open;
}

/** Where five dice of face f + 1 may go with the boxes of `mask` filled, the Yahtzee box
 *  among them holding 50 (the engine's `placements` for an extra Yahtzee): an Int32Array
 *  of each box's points there, -1 where the rule set does not allow it. */
export function jokerRow(scoring, mask, f) {
  const { book, boxes, yahtzee, yahtzeePoints } = scoring;
  const card = { boxes: Array.from({ length: boxes }, (_, c) => (mask >> c & 1 ? 0 : null)), yahtzee_bonus: 0 };
  card.boxes[yahtzee] = yahtzeePoints;
  const row = new Int32Array(boxes).fill(-1);
  for (const placed of placements(book, card, String(f + 1).repeat(DICE))) row[placed.box] = placed.points;
  return row;
}
