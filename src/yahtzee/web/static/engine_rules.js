// The rules of a rule set for the offline engine, as yahtzee.core's scoring, scorecard
// and entries, for every edition (American Yahtzee, Scandinavian Yatzy): what dice score
// in each box (each box's scoring is data: GET /api/rules' "scoring", the core's
// BoxRule), the legal boxes under the Joker rule (forced, free choice or none) and the
// order of filling (free, or top to bottom), the extra and upper bonuses, a card's totals,
// and the points a box written on a pad can hold. Every number and box comes from the
// server (GET /api/rules: a rule set's "boxes" and "rules"); none is written here. No DOM.

import { illegal, invalid, show } from "./engine_errors.js";
import { allDice, counts, diceRules, isYahtzee, total } from "./engine_dice.js";
import { boxWords, t } from "./i18n.js";

/** A rule book from one of GET /api/rules' rule sets ({name, boxes, rules}): the engine's
 *  view of it, with what each roll scores in each box worked out once. */
export function ruleBook(ruleSet) {
  const rules = ruleSet.rules;
  const dice = diceRules(rules);
  const boxes = ruleSet.boxes.map((box, index) => ({ key: box.key, label: box.label, index, upper: box.section === "upper", scoring: box.scoring }));
  const index = Object.fromEntries(boxes.map((box) => [box.key, box.index]));
  const scorers = boxes.map((box) => scorer(box, dice));
  const rolls = allDice(dice);
  const natural = new Map(rolls.map((faces) => [faces, scorers.map((score) => score(faces))]));
  // A Joker scores a box of fixed points (Full House, the straights) at those points.
  const jokerFlat = new Map(boxes.flatMap((box) => (box.scoring.points && box.scoring.kind !== "five-alike" ? [[box.index, box.scoring.points]] : [])));
  const yahtzee = index[rules.five_of_a_kind];
  const book = {
    name: ruleSet.name, rules, dice, boxes, index, rolls, natural, jokerFlat,
    upperBoxes: boxes.filter((box) => box.upper).map((box) => box.index),
    yahtzee,
    yahtzeePoints: boxes[yahtzee].scoring.points,
    rounds: boxes.length,
  };
  book.possible = boxes.map((box) => possibleOf(book, box.index));
  return book;
}

/** A box's name as its edition names it in the player's language (the rules data is
 *  English; contexts "american box", "yatzy box"). */
export function boxLabel(book, box) {
  return boxWords(book.rules.edition, book.boxes[box].label);
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

const PAIR = 2;

/** The highest faces first that show at least `n` times. */
function facesWith(tally, n) {
  const found = [];
  for (let face = tally.length; face >= 1; face--) if (tally[face - 1] >= n) found.push(face);
  return found;
}

/** What dice score in a box, from its scoring data (core's `BoxRule.score`). */
function scorer(box, dice) {
  const rule = box.scoring;
  const tally = (faces) => counts(faces, dice);
  switch (rule.kind) {
    case "face": return (faces) => rule.n * tally(faces)[rule.n - 1];
    case "chance": return total;
    case "sum-if-kind": return (faces) => (Math.max(...tally(faces)) >= rule.n ? total(faces) : 0);
    case "kind": return (faces) => { const [face] = facesWith(tally(faces), rule.n); return face ? rule.n * face : 0; };
    case "two-pairs": return (faces) => {
      const tallied = tally(faces);
      const pairs = facesWith(tallied, PAIR);
      if (pairs.length >= PAIR) return PAIR * (pairs[0] + pairs[1]);
      const four = rule.also && pairs.length && tallied[pairs[0] - 1] >= 2 * PAIR;
      return four ? 2 * PAIR * pairs[0] : 0;
    };
    case "full-house": return (faces) => {
      const shape = tally(faces).filter(Boolean).sort().join(",");
      const fits = shape === "2,3" || (rule.also && shape === String(dice.count));
      return fits ? rule.points || total(faces) : 0;
    };
    case "run": {
      const runs = run(1, dice.faces.length - rule.n + 1).map((start) => run(start, rule.n));
      return (faces) => (runs.some((r) => r.every((face) => faces.includes(String(face)))) ? rule.points : 0);
    }
    case "exact": {
      const wanted = rule.faces.join("");
      return (faces) => (faces === wanted ? rule.points : 0);
    }
    case "five-alike": return (faces) => (isYahtzee(faces) ? rule.points : 0);
    default: throw invalid(t("This engine does not know how {box} scores ({kind}).", { box: show(box.key), kind: show(rule.kind) }));
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

/** A card as the protocol shows it (core's `Scorecard.to_dict`: a card of an edition
 *  other than the American says its edition). */
export function cardView(book, card) {
  const upper = upperSubtotal(book, card);
  const lower = card.boxes.reduce((sum, points, box) => (book.upperBoxes.includes(box) ? sum : sum + (points || 0)), 0);
  const view = {
    boxes: Object.fromEntries(book.boxes.map((box) => [box.key, card.boxes[box.index]])),
    yahtzee_bonus: card.yahtzee_bonus,
    upper_subtotal: upper,
    upper_bonus: upperBonus(book, card),
    lower_total: lower + card.yahtzee_bonus,
    total: cardTotal(book, card),
  };
  if (book.rules.card_edition) view.edition = book.rules.card_edition;
  return view;
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
  return isYahtzee(faces) && card.boxes[book.yahtzee] === book.yahtzeePoints ? book.rules.yahtzee_bonus : 0;
}

/** Exactly the legal boxes for the dice, in card order: {box, points, yahtzee_bonus,
 *  joker} each (core's `placements`: the only place the Joker rules and the order of
 *  filling live; under `ordered` only the first open box). */
export function placements(book, card, faces) {
  let open = openBoxes(card);
  if (book.rules.ordered && open.length > 1) open = open.slice(0, 1);
  const bonus = bonusOf(book, card, faces);
  if (!jokerDecides(book, card, faces)) return open.map((box) => placed(box, score(book, box, faces), bonus));
  const matching = book.upperBoxes[Number(faces[0]) - 1];
  if (book.rules.joker === "free-choice") {
    const fullValue = !open.includes(matching);
    return open.map((box) => {
      const joker = jokerScore(book, box, faces);
      return fullValue && joker !== score(book, box, faces) ? placed(box, joker, bonus, true) : placed(box, score(book, box, faces), bonus);
    });
  }
  // Forced Joker: the matching upper box, else any open lower box, else zero in an upper box.
  if (open.includes(matching)) return [placed(matching, score(book, matching, faces), bonus, true)];
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
  if (book.rules.ordered) throw outOfOrder(book, card);
  throw illegal(t("The Joker rule does not allow {box} now. {allowed}", { box: boxLabel(book, box), allowed: allowedText(book, card, legal) }), "joker_rule");
}

/** The refusal of a box below the first open one, under `ordered` (core's). */
export function outOfOrder(book, card) {
  const next = boxLabel(book, openBoxes(card)[0]);
  return illegal(t("Under the {rules} rules the boxes are filled top to bottom: the next is {box}.", { rules: book.name, box: next }), "out_of_order");
}

function filledMessage(book, card, box, legal) {
  if (isComplete(card)) return t("The scorecard is complete: every box is filled.");
  return t("{box} is already filled ({points}). {allowed}", { box: boxLabel(book, box), points: card.boxes[box], allowed: allowedText(book, card, legal) });
}

/** "Open boxes: ...", or "Allowed: ..." when a Joker rule narrows them. */
export function allowedText(book, card, legal) {
  const open = openBoxes(card);
  const names = (boxes) => boxes.map((box) => boxLabel(book, box)).join(", ");
  if (!legal.length || new Set(legal.map((p) => p.box)).size === open.length) return t("Open boxes: {boxes}.", { boxes: names(open) });
  return t("Allowed: {boxes}.", { boxes: names(legal.map((p) => p.box)) });
}

/** The box of a key ("full_house") or an index, or a RuleError. */
export function boxOf(book, value) {
  if (Number.isInteger(value) && value >= 0 && value < book.boxes.length) return value;
  if (typeof value === "string" && value in book.index) return book.index[value];
  const names = book.boxes.map((box) => boxLabel(book, box.index)).join(", ");
  throw invalid(t("Unknown box {name}. Boxes: {boxes}.", { name: show(value), boxes: names }));
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
    // Translators: a range of points a box can hold ("5 to 30")
    parts.push(start === previous ? String(start) : t("{low} to {high}", { low: start, high: previous }));
    if (value !== null) { start = value; previous = value; }
  }
  // Translators: the last of the points a box can hold ("0, 4, 8 or 12": {list} is "0, 4, 8")
  return parts.length === 1 ? parts[0] : t("{list} or {last}", { list: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] });
}

/** `points` written in `box`, checked against what the box can hold under the rules. */
export function checkEntry(book, box, points) {
  const allowed = book.possible[box];
  if (!Number.isInteger(points) || !allowed.has(points)) {
    throw invalid(
      t("{box} holds {allowed} points under the {rules} rules, not {points}.", { box: boxLabel(book, box), allowed: pointsText(allowed), rules: book.name, points: show(points) }),
      "points_not_allowed",
    );
  }
  return points;
}
