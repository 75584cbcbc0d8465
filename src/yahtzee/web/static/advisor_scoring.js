// A rule set's scoring as the advisor reads it (yahtzee.solver.tables' ScoringTables):
// what each roll scores in each box, and where an extra Yahtzee may go under the rule
// set's Joker rule. Every number comes from the rule set as GET /api/rules gives it
// ({name, boxes, rules}: the "rules" object is RuleSet.to_dict() plus the upper bonus and
// its threshold and the boxes' fixed points); none is written here. (The page's rules
// engine, engine_rules.js, holds the same rules for play; the parity tests check both
// against yahtzee.core.) ES module, no DOM.

import { COUNTS, DICE, FACES, KEEPS, ROLL_BASE, ROLLS } from "./advisor_dice.js";

/** The boxes (card order) and the scoring of a rule set. */
export function scoringOf(ruleSet) {
  const rules = ruleSet.rules;
  const keys = ruleSet.boxes.map((box) => box.key);
  const upper = ruleSet.boxes.flatMap((box, index) => (box.section === "upper" ? [index] : []));
  const yahtzee = keys.indexOf("yahtzee");
  if (upper.length !== FACES || upper.some((box, f) => box !== f) || yahtzee < 0) {
    throw new Error("The advisor knows a card of six upper boxes, then the lower ones, Yahtzee among them.");
  }
  const boxes = keys.length;
  const points = new Int32Array(ROLLS * boxes);
  for (let r = 0; r < ROLLS; r++) {
    for (let c = 0; c < boxes; c++) points[r * boxes + c] = natural(keys[c], r, rules);
  }
  const yahtzeeRoll = Int32Array.from({ length: FACES }, (_, f) => KEEPS.indexOf(String(f + 1).repeat(DICE)) - ROLL_BASE);
  return Object.freeze({
    keys, boxes, yahtzee, points, yahtzeeRoll,
    joker: rules.joker,
    jokerBonus: rules.yahtzee_bonus,
    yahtzeePoints: rules.points.yahtzee,
    upperBonus: rules.upper_bonus,
    threshold: rules.upper_bonus_threshold,
    flat: keys.map((key) => (key in JOKER_FLAT ? rules.points[key] : -1)),
  });
}

const JOKER_FLAT = { full_house: true, small_straight: true, large_straight: true };

function natural(key, r, rules) {
  const counts = Array.from({ length: FACES }, (_, f) => COUNTS[r * FACES + f]);
  const sum = counts.reduce((total, n, f) => total + n * (f + 1), 0);
  const most = Math.max(...counts);
  const run = (length) => {
    let best = 0;
    let now = 0;
    for (const n of counts) {
      now = n ? now + 1 : 0;
      best = Math.max(best, now);
    }
    return best >= length;
  };
  const shape = counts.filter(Boolean).sort().join(",");
  switch (key) {
    case "ones": case "twos": case "threes": case "fours": case "fives": case "sixes": {
      const face = ["ones", "twos", "threes", "fours", "fives", "sixes"].indexOf(key) + 1;
      return face * counts[face - 1];
    }
    case "three_of_a_kind": return most >= 3 ? sum : 0;
    case "four_of_a_kind": return most >= 4 ? sum : 0;
    case "full_house": return shape === "2,3" ? rules.points.full_house : 0;
    case "small_straight": return run(DICE - 1) ? rules.points.small_straight : 0;
    case "large_straight": return run(DICE) ? rules.points.large_straight : 0;
    case "yahtzee": return most === DICE ? rules.points.yahtzee : 0;
    case "chance": return sum;
    default: throw new Error(`The advisor does not know the box ${JSON.stringify(key)}.`);
  }
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
