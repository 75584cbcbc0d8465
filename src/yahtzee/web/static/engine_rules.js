// The rules of a rule set for the offline engine, as yahtzee.core's scoring, scorecard
// and entries: what dice score in each box, the legal boxes under the Joker rule (forced,
// free choice or none), the Yahtzee and upper bonuses, a card's totals, and the points a
// box written on a pad can hold. Every number comes from the server (GET /api/rules: a
// rule set's "boxes" and "rules"); none is written here. No DOM.

import { illegal, invalid, show } from "./engine_errors.js";
import { allDice, counts, diceRules, isYahtzee, total } from "./engine_dice.js";

const JOKER_FLAT = ["full_house", "small_straight", "large_straight"];  // a Joker scores their fixed points

/** A rule book from one of GET /api/rules' rule sets ({name, boxes, rules}): the engine's
 *  view of it, with what each roll scores in each box worked out once. */
export function ruleBook(ruleSet) {
  const rules = ruleSet.rules;
  const dice = diceRules(rules);
  const boxes = ruleSet.boxes.map((box, index) => ({ key: box.key, label: box.label, index, upper: box.section === "upper" }));
  const index = Object.fromEntries(boxes.map((box) => [box.key, box.index]));
  const upper = boxes.filter((box) => box.upper);
  const scorers = boxes.map((box) => scorer(box, upper, rules, dice));
  const rolls = allDice(dice);
  const natural = new Map(rolls.map((faces) => [faces, scorers.map((score) => score(faces))]));
  const jokerFlat = new Map(JOKER_FLAT.map((key) => [index[key], rules.points[key]]));
  const book = {
    name: ruleSet.name, rules, dice, boxes, index, rolls, natural, jokerFlat,
    upperBoxes: upper.map((box) => box.index),
    yahtzee: index.yahtzee,
    rounds: boxes.length,
  };
  book.possible = boxes.map((box) => possibleOf(book, box.index));
  return book;
}

/** The same rules with ties for first place settled by a one-roll playoff (core's
 *  `RuleSet.with_playoff`: the name gains "+playoff"). */
export function withPlayoff(ruleSet) {
  if (ruleSet.rules.tie_break === "playoff") return ruleSet;
  const name = `${ruleSet.name}+playoff`;
  return { ...ruleSet, name, rules: { ...ruleSet.rules, name, tie_break: "playoff" } };
}

function run(start, length) {
  return Array.from({ length }, (_, i) => start + i);
}

function scorer(box, upper, rules, dice) {
  if (box.upper) {
    const face = upper.indexOf(box) + 1;
    return (faces) => face * counts(faces, dice)[face - 1];
  }
  const most = (faces) => Math.max(...counts(faces, dice));
  const hasRun = (length) => {
    const runs = run(1, dice.faces.length - length + 1).map((start) => run(start, length));
    return (faces) => runs.some((r) => r.every((face) => faces.includes(String(face))));
  };
  const small = hasRun(dice.count - 1);
  const large = hasRun(dice.count);
  const fullHouse = (faces) => counts(faces, dice).filter(Boolean).sort().join(",") === "2,3";
  const points = rules.points;
  switch (box.key) {
    case "three_of_a_kind": return (faces) => (most(faces) >= 3 ? total(faces) : 0);
    case "four_of_a_kind": return (faces) => (most(faces) >= 4 ? total(faces) : 0);
    case "full_house": return (faces) => (fullHouse(faces) ? points.full_house : 0);
    case "small_straight": return (faces) => (small(faces) ? points.small_straight : 0);
    case "large_straight": return (faces) => (large(faces) ? points.large_straight : 0);
    case "yahtzee": return (faces) => (isYahtzee(faces) ? points.yahtzee : 0);
    case "chance": return total;
    default: throw invalid(`This engine does not know the box ${show(box.key)}.`);
  }
}

/** What the dice score in a box by its own definition (no Joker). */
export const score = (book, box, faces) => book.natural.get(faces)[box];

/** What a Yahtzee used as a Joker scores in a box: Full House and the straights their
 *  fixed points, the other boxes as they score. */
export const jokerScore = (book, box, faces) => book.jokerFlat.get(box) || score(book, box, faces);

// Cards -------------------------------------------------------------------------------

/** A card with every box open: boxes[i] is a box's points, null while open. */
export const emptyCard = (book) => ({ boxes: book.boxes.map(() => null), yahtzee_bonus: 0 });

export const openBoxes = (card) => card.boxes.flatMap((points, box) => (points === null ? [box] : []));
export const isComplete = (card) => !card.boxes.includes(null);

export function upperSubtotal(book, card) {
  let sum = 0;
  for (const box of book.upperBoxes) sum += card.boxes[box] || 0;
  return sum;
}

export function upperBonus(book, card) {
  return upperSubtotal(book, card) >= book.rules.upper_bonus_threshold ? book.rules.upper_bonus : 0;
}

export function cardTotal(book, card) {
  const filled = card.boxes.reduce((sum, points) => sum + (points || 0), 0);
  return filled + upperBonus(book, card) + card.yahtzee_bonus;
}

/** A card as the protocol shows it (core's `Scorecard.to_dict`). */
export function cardView(book, card) {
  const upper = upperSubtotal(book, card);
  const lower = card.boxes.reduce((sum, points, box) => (book.upperBoxes.includes(box) ? sum : sum + (points || 0)), 0);
  return {
    boxes: Object.fromEntries(book.boxes.map((box) => [box.key, card.boxes[box.index]])),
    yahtzee_bonus: card.yahtzee_bonus,
    upper_subtotal: upper,
    upper_bonus: upperBonus(book, card),
    lower_total: lower + card.yahtzee_bonus,
    total: cardTotal(book, card),
  };
}

/** The card after a placement (a new card; this one is unchanged). */
export function withPlacement(book, card, placement) {
  if (card.boxes[placement.box] !== null) throw illegal(filledMessage(book, card, placement.box, []), "box_filled");
  const boxes = [...card.boxes];
  boxes[placement.box] = placement.points;
  return { boxes, yahtzee_bonus: card.yahtzee_bonus + placement.yahtzee_bonus };
}

// Placements ----------------------------------------------------------------------------

const placed = (box, points, bonus, joker = false) => ({ box, points, yahtzee_bonus: bonus, joker });

/** Whether a Joker rule decides where the dice may go (an extra Yahtzee, rolled with the
 *  Yahtzee box filled, under a rule set with a Joker). */
export function jokerDecides(book, card, faces) {
  return isYahtzee(faces) && card.boxes[book.yahtzee] !== null && book.rules.joker !== "none";
}

function bonusOf(book, card, faces) {
  return isYahtzee(faces) && card.boxes[book.yahtzee] === book.rules.points.yahtzee ? book.rules.yahtzee_bonus : 0;
}

/** Exactly the legal boxes for the dice, in card order: {box, points, yahtzee_bonus,
 *  joker} each (core's `placements`: the only place the Joker rules live). */
export function placements(book, card, faces) {
  const open = openBoxes(card);
  const bonus = bonusOf(book, card, faces);
  if (!jokerDecides(book, card, faces)) return open.map((box) => placed(box, score(book, box, faces), bonus));
  const matching = book.upperBoxes[Number(faces[0]) - 1];
  if (book.rules.joker === "free-choice") {
    const fullValue = card.boxes[matching] !== null;
    return open.map((box) => {
      const joker = jokerScore(book, box, faces);
      return fullValue && joker !== score(book, box, faces) ? placed(box, joker, bonus, true) : placed(box, score(book, box, faces), bonus);
    });
  }
  // Forced Joker: the matching upper box, else any open lower box, else zero in an upper box.
  if (card.boxes[matching] === null) return [placed(matching, score(book, matching, faces), bonus, true)];
  const lower = open.filter((box) => !book.upperBoxes.includes(box));
  if (lower.length) return lower.map((box) => placed(box, jokerScore(book, box, faces), bonus, true));
  return open.map((box) => placed(box, 0, bonus, true));
}

/** The placement of the dice in `box`, or a RuleError saying why not. */
export function placement(book, card, faces, box) {
  const legal = placements(book, card, faces);
  const found = legal.find((option) => option.box === box);
  if (found) return found;
  if (card.boxes[box] !== null) throw illegal(filledMessage(book, card, box, legal), "box_filled");
  throw illegal(`The Joker rule does not allow ${book.boxes[box].label} now. ${allowedText(book, card, legal)}`, "joker_rule");
}

function filledMessage(book, card, box, legal) {
  if (isComplete(card)) return "The scorecard is complete: every box is filled.";
  return `${book.boxes[box].label} is already filled (${card.boxes[box]}). ${allowedText(book, card, legal)}`;
}

/** "Open boxes: ...", or "Allowed: ..." when a Joker rule narrows them. */
export function allowedText(book, card, legal) {
  const open = openBoxes(card);
  const names = (boxes) => boxes.map((box) => book.boxes[box].label).join(", ");
  if (!legal.length || new Set(legal.map((p) => p.box)).size === open.length) return `Open boxes: ${names(open)}.`;
  return `Allowed: ${names(legal.map((p) => p.box))}.`;
}

/** The box of a key ("full_house") or an index, or a RuleError. */
export function boxOf(book, value) {
  if (Number.isInteger(value) && value >= 0 && value < book.boxes.length) return value;
  if (typeof value === "string" && value in book.index) return book.index[value];
  const names = book.boxes.map((box) => box.label).join(", ");
  throw invalid(`Unknown box ${show(value)}. Boxes: ${names}.`);
}

// Entries written on a pad --------------------------------------------------------------

function possibleOf(book, box) {
  const points = new Set();
  for (const faces of book.rolls) {
    points.add(score(book, box, faces));
    if (book.rules.joker !== "none" && isYahtzee(faces)) points.add(jokerScore(book, box, faces));
  }
  return points;
}

/** The points as a player reads them: "0, 4, 8, 12, 16 or 20"; "0 or 5 to 30". */
export function pointsText(points) {
  const ordered = [...points].sort((a, b) => a - b);
  const parts = [];
  let start = ordered[0];
  let previous = start;
  for (const value of [...ordered.slice(1), null]) {
    if (value !== null && value === previous + 1) { previous = value; continue; }
    parts.push(start === previous ? String(start) : `${start} to ${previous}`);
    if (value !== null) { start = value; previous = value; }
  }
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}`;
}

/** `points` written in `box`, checked against what the box can hold under the rules. */
export function checkEntry(book, box, points) {
  const allowed = book.possible[box];
  if (!Number.isInteger(points) || !allowed.has(points)) {
    throw invalid(
      `${book.boxes[box].label} holds ${pointsText(allowed)} points under the ${book.name} rules, not ${show(points)}.`,
      "points_not_allowed",
    );
  }
  return points;
}
