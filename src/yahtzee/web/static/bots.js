// The computer players offline: levels 1 to 5 and "optimal", as yahtzee.solver.strategies
// defines them. Each decision is a softmax draw over the options' exact values (an option
// worse by the level's temperature in points is e times less likely); level 5 and optimal
// take the best. The random source is injectable (a function answering a number in
// [0, 1), like Math.random) so that tests can seed it. ES module, no DOM.

import { DICE, FACES } from "./advisor_dice.js";

/** Softmax temperatures by bot (strategies.LEVEL_TEMPERATURES; the parity tests check them). */
export const TEMPERATURES = Object.freeze({ level1: 2.5, level2: 1.5, level3: 1.0, level4: 0.5, level5: 0.0, optimal: 0.0 });

/** The bots this module plays (the winning bot is not offline). */
export const OFFLINE_BOTS = Object.freeze(Object.keys(TEMPERATURES));

function temperatureOf(bot) {
  if (!(bot in TEMPERATURES)) throw new Error(`No offline bot ${JSON.stringify(bot)}: ${OFFLINE_BOTS.join(", ")}.`);
  return TEMPERATURES[bot];
}

/** Each option's chance of being chosen by `bot`, in the advisor's listing order:
 *  [{option, chance}]. */
export function choiceChances(advisor, situation, bot) {
  const temperature = temperatureOf(bot);
  const options = advisor.options(situation);
  const best = advisor.advise(situation)[0];
  if (temperature <= 0) return options.map((option) => ({ option, chance: sameAction(option, best) ? 1 : 0 }));
  const weights = options.map((option) => Math.exp((option.value - best.value) / temperature));
  const sum = weights.reduce((a, b) => a + b, 0);
  return options.map((option, i) => ({ option, chance: weights[i] / sum }));
}

const sameAction = (a, b) => a.score === b.score && a.keep === b.keep;

/** The option `bot` takes in the situation ({score} or {keep}, with its value). */
export function choose(advisor, situation, bot, random = Math.random) {
  const temperature = temperatureOf(bot);
  if (temperature <= 0) return advisor.advise(situation)[0];
  const chances = choiceChances(advisor, situation, bot);
  let left = random();
  for (const { option, chance } of chances) {
    left -= chance;
    if (left < 0) return option;
  }
  return chances[chances.length - 1].option;
}

/** Throw the dice not kept: the roll, as sorted faces ("13356"). */
export function throwAround(keep, random = Math.random) {
  const faces = [...keep];
  while (faces.length < DICE) faces.push(String(1 + Math.floor(random() * FACES)));
  return faces.sort().join("");
}

/** A bot's whole turn on `card`: throw all five, keep and throw again while it chooses to
 *  (at most twice), then score. Answers the steps, as the core's events name them:
 *  [{keep, dice}, ..., {score, value}]. `random` draws the choices, `dice` the throws. */
export function playTurn(advisor, card, bot, { random = Math.random, dice = random } = {}) {
  let keep = "";
  const steps = [];
  for (let rollsLeft = 2; ; rollsLeft--) {
    const thrown = throwAround(keep, dice);
    steps.push({ keep, dice: thrown });
    const option = choose(advisor, { card, dice: thrown, rollsLeft }, bot, random);
    if (option.score !== undefined) {
      steps.push({ score: option.score, value: option.value });
      return steps;
    }
    keep = option.keep;
  }
}
