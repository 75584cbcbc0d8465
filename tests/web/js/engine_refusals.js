// The driver of tests/web/test_js_engine_parity.py (run by tests/js_engine.py): each case's
// actions played by the JS engine; the code of the last one's refusal (null: none).
import { input, answer } from "./js_io.js";
import { Game } from "./engine_game.js";

const found = input.cases.map(({ rules, players, entered, actions }) => {
  const game = new Game(input.rules[rules], players, { entered });
  for (const [index, step] of actions.entries()) {
    const last = index === actions.length - 1;
    try {
      const player = step.player ?? null;
      if (step.do === "roll") game.roll(step.keep, { dice: step.dice, player });
      else if (step.do === "score") game.score(step.box, { player });
      else if (step.do === "dice") game.enterDice(step.dice, { roll: step.roll ?? null, player });
      else if (step.do === "write") game.write(step.box, step.points, { player });
      else game.undo({ player });
      if (last) return null;
    } catch (error) {
      if (!last || !error.code) throw error;
      return error.code;
    }
  }
  return null;
});
answer(found);
