// Exact advice offline: every distinct option of a situation (the legal boxes, and with
// rolls left every keep of under five dice) with the expected final total it leads to,
// best first, as yahtzee.solver's `Solver.advise` ranks them (advice.py, planner.py,
// turn_numpy.py), from the rule set's table file (advisor_table.js). ES module, no DOM.
//
// A situation: {card, dice, rollsLeft}; a card {boxes: [points or null, ...] in card
// order, yahtzee_bonus}; dice "13356" (any order; an array of faces too). An option:
// {score: "full_house", value} or {keep: "33", value} ("" keeps nothing).

import { ADD, BY_SIZE, COUNTS, DICE, FACES, KEEPS, REMOVE, ROLL_BASE, ROLLS, SUB_KEEPS, rollIndex } from "./advisor_dice.js";
import { jokerRow, legalBoxes, scoringOf } from "./advisor_scoring.js";
import { t } from "./i18n.js";

export const TIE = 1e-9; // options closer than this are equal: the first listed is taken
const NEG = -1.0e18;
const UPPER_ROWS = DICE + 1;
const ROW_UPPER = 1;
const ROW_LOWER = ROW_UPPER + FACES * UPPER_ROWS - FACES; // lower box c: row ROW_LOWER + c
const TURNS_KEPT = 512;

/** The scoring key of a rule set, as its table file names it (RuleSet.scoring_key): the
 *  Joker rule and extra bonus, and where not the American defaults the edition (as its
 *  cards name it), the house rules and the order of filling. */
export function scoringKey(rules) {
  let key = `joker=${rules.joker};bonus=${rules.yahtzee_bonus}`;
  if (rules.card_edition) key += `;edition=${rules.card_edition}`;
  if (rules.house && rules.house.length) key += `;house=${rules.house.join(",")}`;
  if (rules.ordered) key += ";ordered";
  return key;
}

export class Advisor {
  /** `table`: an AdvisorTable of the rule set; `ruleSet`: the rule set as GET /api/rules
   *  gives it ({name, boxes, rules}). */
  constructor(table, ruleSet) {
    const scoring = scoringOf(ruleSet);
    if (table.scoring !== scoringKey(ruleSet.rules)) throw new Error(t("This advisor table is for other rules ({scoring}).", { scoring: table.scoring }));
    if (table.cap !== scoring.threshold) throw new Error(t("This advisor table caps the upper subtotal elsewhere than the rule set."));
    if (table.boxes !== scoring.boxes || table.ordered !== scoring.ordered) throw new Error(t("This advisor table is for another card."));
    // The states tell the Yahtzee box's 50 (yf) where an extra Yahtzee's Joker or bonus
    // may look at it; a table whose states do not, fits rules with neither.
    const ybox = table.yahtzeeBox;
    if (ybox >= 0 ? ybox !== scoring.yahtzee : scoring.joker !== "none" || scoring.jokerBonus) {
      throw new Error(t("This advisor table does not tell the box of five alike as the rule set needs."));
    }
    this.table = table;
    this.ruleSet = ruleSet;
    this.scoring = scoring;
    this.ybox = ybox; // the Yahtzee box of the states (-1: none, no Joker, no extra bonus)
    this.yahtzeeRow0 = ROW_LOWER + scoring.boxes;
    this.rows = this.yahtzeeRow0 + 2;
    this.turns = new Map(); // solved turns by state, the latest last
    this.jokers = new Map();
    this.legal = new Map(); // mask -> the boxes that may be filled
    const [rows, adds] = rowsAndAdds(scoring, ybox, ROW_LOWER, this.yahtzeeRow0);
    this.rowOf = rows;
    this.addOf = adds;
  }

  /** The card's state (mask, yf, capped upper subtotal) and total. */
  state(card) {
    const { boxes, yahtzeePoints, upperBonus, threshold } = this.scoring;
    let mask = 0;
    let upper = 0;
    let total = card.yahtzee_bonus || 0;
    for (let c = 0; c < boxes; c++) {
      const points = card.boxes[c];
      if (points === null || points === undefined) continue;
      mask |= 1 << c;
      total += points;
      if (c < FACES) upper += points;
    }
    if (mask === (1 << boxes) - 1) throw new Error(t("The card is complete: there is no decision to make."));
    if (upper >= threshold) total += upperBonus;
    const yf = this.ybox >= 0 && card.boxes[this.ybox] === yahtzeePoints ? 1 : 0;
    const u = Math.min(upper, this.table.cap);
    if (this.table.index(mask, yf, u) < 0) throw new Error(t("No game reaches this card."));
    return { mask, yf, u, total };
  }

  /** Every distinct option, best first (the best: the first listed of the highest,
   *  within TIE; the others by value, boxes before keeps on equal values). */
  advise({ card, dice, rollsLeft }) {
    const listed = this.options({ card, dice, rollsLeft });
    let best = listed[0];
    for (const option of listed) if (option.value > best.value + TIE) best = option;
    const rest = listed.filter((option) => option !== best).sort((a, b) => b.value - a.value);
    return [best, ...rest];
  }

  /** Every distinct option in listing order: the legal boxes in card order, then (with
   *  rolls left) the keeps of under five dice in Keep.all order. */
  options({ card, dice, rollsLeft }) {
    const r = rollIndex(dice);
    if (r < 0) throw new Error(t("Five dice, faces 1 to 6, not {dice}.", { dice: JSON.stringify(dice) }));
    if (!(rollsLeft === 0 || rollsLeft === 1 || rollsLeft === 2)) throw new Error(t("Rolls left is 0, 1 or 2."));
    const { mask, yf, u, total } = this.state(card);
    const turn = this.turn(mask, yf, u);
    const found = [];
    const { keys } = this.scoring;
    const [boxes, rows, adds] = this.candidates(mask, yf, r);
    for (let i = 0; i < boxes.length; i++) found.push({ score: keys[boxes[i]], value: total + turn.R[rows[i]] + adds[i] });
    if (rollsLeft > 0) {
      const K = rollsLeft === 1 ? turn.K1 : turn.K2;
      for (const k of SUB_KEEPS[r]) found.push({ keep: KEEPS[k], value: total + K[k] });
    }
    return found;
  }

  /** The boxes that may be filled with the boxes of `mask` filled (under `ordered`, the
   *  first open one), kept. */
  boxesOpen(mask) {
    let found = this.legal.get(mask);
    if (found === undefined) {
      found = legalBoxes(this.scoring, mask);
      this.legal.set(mask, found);
    }
    return found;
  }

  /** The legal placements of roll r: boxes, their rows of R and the points added. */
  candidates(mask, yf, r) {
    const { boxes: n, yahtzeeRoll } = this.scoring;
    if (this.ybox >= 0 && mask >> this.ybox & 1) {
      const f = yahtzeeRoll.indexOf(r);
      if (f >= 0) return this.jokerCandidates(mask, yf, f);
    }
    const boxes = [], rows = [], adds = [];
    for (const c of this.boxesOpen(mask)) {
      boxes.push(c);
      rows.push(this.rowOf[r * n + c]);
      adds.push(this.addOf[r * n + c]);
    }
    return [boxes, rows, adds];
  }

  jokerCandidates(mask, yf, f) {
    const key = (mask * FACES + f) * 2 + yf;
    let found = this.jokers.get(key);
    if (found === undefined) {
      const bonus = yf ? this.scoring.jokerBonus : 0;
      const points = jokerRow(this.scoring, mask, f);
      const boxes = [], rows = [], adds = [];
      points.forEach((p, c) => {
        if (p < 0) return;
        boxes.push(c);
        rows.push(c < FACES ? ROW_UPPER + UPPER_ROWS * c + Math.floor(p / (c + 1)) : ROW_LOWER + c);
        adds.push(c < FACES ? bonus : p + bonus);
      });
      found = [boxes, rows, adds];
      this.jokers.set(key, found);
    }
    return found;
  }

  /** The state's turn: R (value after each placement row), K1 and K2 (each keep's value
   *  with one and two rolls left; K1[ROLL_BASE + r] stands on roll r), kept for later. */
  turn(mask, yf, u) {
    const key = (mask * 2 + yf) * 64 + u;
    const turns = this.turns;
    let found = turns.get(key);
    if (found !== undefined) {
      turns.delete(key);
      turns.set(key, found);
      return found;
    }
    found = this.solve(mask, yf, u);
    turns.set(key, found);
    if (turns.size > TURNS_KEPT) turns.delete(turns.keys().next().value);
    return found;
  }

  solve(mask, yf, u) {
    const { boxes: n, upperBonus, yahtzeeRoll } = this.scoring;
    const yahtzee = this.ybox;
    const table = this.table;
    const cap = table.cap;
    const open = this.boxesOpen(mask);
    const R = new Float64Array(this.rows).fill(NEG);
    for (const c of open) {
      const filled = mask | (1 << c);
      if (c < FACES) {
        for (let k = 0; k < UPPER_ROWS; k++) {
          const p = (c + 1) * k;
          const after = u + p;
          const gain = after < cap ? p : p + (u < cap ? upperBonus : 0);
          R[ROW_UPPER + UPPER_ROWS * c + k] = gain + table.value(filled, yf, Math.min(after, cap));
        }
      } else if (c === yahtzee) {
        R[this.yahtzeeRow0] = table.value(filled, 0, u);
        R[this.yahtzeeRow0 + 1] = table.value(filled, 1, u);
      } else {
        R[ROW_LOWER + c] = table.value(filled, yf, u);
      }
    }
    R[0] = NEG;
    const A = new Float64Array(KEEPS.length);
    for (let r = 0; r < ROLLS; r++) {
      let best = NEG;
      for (const c of open) {
        const value = R[this.rowOf[r * n + c]] + this.addOf[r * n + c];
        if (value > best) best = value;
      }
      A[ROLL_BASE + r] = best;
    }
    if (yahtzee >= 0 && mask >> yahtzee & 1) {
      for (let f = 0; f < FACES; f++) {
        const [, rows, adds] = this.jokerCandidates(mask, yf, f);
        let best = NEG;
        for (let i = 0; i < rows.length; i++) best = Math.max(best, R[rows[i]] + adds[i]);
        A[ROLL_BASE + yahtzeeRoll[f]] = best;
      }
    }
    keepMeans(A);
    const K1 = A.slice();
    for (let size = 1; size <= DICE; size++) {
      for (const k of BY_SIZE[size]) {
        let best = A[k];
        for (let f = 0; f < FACES; f++) best = Math.max(best, A[REMOVE[k * FACES + f]]);
        A[k] = best;
      }
    }
    keepMeans(A);
    return { R, K1, K2: A };
  }
}

/** Every keep of under five dice: the mean over the next die's face. */
function keepMeans(A) {
  for (let size = DICE - 1; size >= 0; size--) {
    for (const k of BY_SIZE[size]) {
      let sum = 0;
      for (let f = 0; f < FACES; f++) sum += A[ADD[k * FACES + f]];
      A[k] = sum / FACES;
    }
  }
}

/** Per roll and box (no Joker): the row of R a placement lands on, and the points added
 *  on top of that row's value (`yahtzee`: the box whose 50 the states tell, -1: none). */
function rowsAndAdds(scoring, yahtzee, rowLower, yahtzeeRow0) {
  const { boxes: n, points } = scoring;
  const rows = new Int32Array(ROLLS * n);
  const adds = new Float64Array(ROLLS * n);
  for (let r = 0; r < ROLLS; r++) {
    for (let c = 0; c < n; c++) {
      const p = points[r * n + c];
      if (c < FACES) {
        rows[r * n + c] = ROW_UPPER + UPPER_ROWS * c + COUNTS[r * FACES + c];
      } else if (c === yahtzee) {
        rows[r * n + c] = p > 0 ? yahtzeeRow0 + 1 : yahtzeeRow0;
        adds[r * n + c] = p;
      } else {
        rows[r * n + c] = rowLower + c;
        adds[r * n + c] = p;
      }
    }
  }
  return [rows, adds];
}
