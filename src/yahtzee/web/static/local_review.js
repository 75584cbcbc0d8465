// A device table's advice in the server's words (solver/review.py, web/messages.py): the
// hint's five best options, and after the game each human's decisions against the
// optimal ones. The chance to win is not known offline (`win_swing` null). No DOM.

import { Game } from "./engine_game.js";
import { spaced } from "./engine_dice.js";
import { boxLabel } from "./engine_rules.js";
import { t } from "./i18n.js";

const TIE = 1e-9;
const HINT_OPTIONS = 5;
const COSTLIEST = 3;

/** "score Full House" or "keep 3 3" ("keep nothing" rolls all five). */
export function actionText(book, option) {
  // Translators: an action the advisor names: placing the dice in a box ({box} its name)
  if (option.score !== undefined) return t("score {box}", { box: boxLabel(book, book.index[option.score]) });
  // Translators: an action the advisor names: keeping some dice ("keep 3 3", "keep nothing") and rolling the others
  return t("keep {dice}", { dice: spaced(option.keep) });
}

/** The situation as the core writes it ("13356 2 fh=25 bonus=100": box codes aside, the
 *  boxes' keys). */
function situationText(book, situation) {
  const parts = [situation.dice, String(situation.rollsLeft)];
  situation.card.boxes.forEach((points, box) => { if (points !== null) parts.push(`${book.boxes[box].key}=${points}`); });
  if (situation.card.yahtzee_bonus) parts.push(`bonus=${situation.card.yahtzee_bonus}`);
  return parts.join(" ");
}

/** The situation of the player to move (null when there is no decision: no dice, a playoff). */
export function situationOf(game) {
  const turn = game.turn;
  if (!turn || turn.dice === null || game.phase !== "turn") return null;
  return { card: game.cards[turn.player], dice: turn.dice, rollsLeft: game.book.rules.rolls_per_turn - turn.rolls };
}

/** The server's `hint` message for `situation`. */
export function hintMessage(advisor, book, situation) {
  const options = advisor.advise(situation);
  const best = options[0].value;
  return {
    type: "hint",
    situation: situationText(book, situation),
    options: options.slice(0, HINT_OPTIONS).map((o) => ({ action: actionText(book, o), value: o.value, regret: best - o.value })),
  };
}

// The value of the action of `event` in `situation`: the option's, and for keeping all five
// (not an option) the best of standing on them (one roll fewer).
function valueOf(advisor, situation, options, event) {
  const found = event.type === "score"
    ? options.find((o) => o.score === event.category)
    : options.find((o) => o.keep === (event.keep === "-" ? "" : event.keep));
  if (found) return found.value;
  return advisor.advise({ ...situation, rollsLeft: situation.rollsLeft - 1 })[0].value;
}

/** Each decision of the `humans` in the game's events, valued by the advisor: a placement
 *  taken back is not a decision (the one made instead is); a written score weighs nothing. */
export function decisions(advisor, book, events, humans) {
  const replay = new Game(book, events[0].players, { entered: events[0].dice === "entered" });
  const found = [];
  const placed = [];
  for (const event of events.slice(1)) {
    const turn = replay.turn;
    if (event.type === "undo") {
      if (placed.pop()) found.pop();
    } else if (event.type === "write") {
      placed.push(false);
    } else if (turn && turn.dice !== null && (event.type === "roll" || event.type === "score")) {
      const weighed = humans.includes(turn.player);
      if (event.type === "score") placed.push(weighed);
      if (weighed) {
        const situation = situationOf(replay);
        const listed = advisor.advise(situation);
        const action = event.type === "score" ? { score: event.category } : { keep: event.keep === "-" ? "" : event.keep };
        found.push({
          player: turn.player, round: turn.round, dice: spaced(turn.dice),
          chosen: actionText(book, action), best: actionText(book, listed[0]),
          loss: Math.max(0, listed[0].value - valueOf(advisor, situation, listed, event)),
        });
      }
    }
    replay.append(event);
  }
  return found;
}

/** The server's `review` message for the finished game. */
export function reviewMessage(advisor, book, events, humans) {
  const all = decisions(advisor, book, events, humans);
  const names = events[0].players;
  return {
    type: "review",
    notes: [],
    players: humans.map((seat) => {
      const mine = all.filter((d) => d.player === seat);
      const costliest = [...mine].sort((a, b) => b.loss - a.loss).slice(0, COSTLIEST).filter((d) => d.loss > TIE);
      return {
        seat, name: names[seat], total_loss: mine.reduce((sum, d) => sum + d.loss, 0), decisions: mine.length,
        costliest: costliest.map((d) => ({ round: d.round, dice: d.dice, chosen: d.chosen, best: d.best, loss: d.loss, win_swing: null })),
      };
    }),
  };
}
