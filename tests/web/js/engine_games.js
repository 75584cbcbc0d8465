// The driver of tests/web/test_js_engine_parity.py (run by tests/js_engine.py).
import { createHash } from "node:crypto";
import { input, answer } from "./js_io.js";
import { ruleBook } from "./engine_rules.js";
import { Game } from "./engine_game.js";

const digest = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
const books = Object.fromEntries(Object.entries(input.rules).map(([name, rules]) => [name, ruleBook(rules)]));
const wrong = [];
for (const game of input.games) {
  const plan = game.plan;
  const js = new Game(books[plan.rules], plan.players, { entered: plan.entered });
  const undoOn = js.players.length === 1 || js.entered;
  const views = plan.viewed ? [digest(JSON.stringify(js.view({ undoOn })))] : [];
  let failed = null;
  try {
    for (const step of game.actions) {
      if (step.do === "roll") js.roll(step.keep, { dice: step.dice });
      else if (step.do === "score") js.score(step.box);
      else if (step.do === "dice") js.enterDice(step.dice, { roll: step.roll });
      else if (step.do === "write") js.write(step.box, step.points);
      else js.undo();
      if (plan.viewed) {
        views.push(digest(JSON.stringify(js.view({ undoOn }))));
        const at = views.length - 1;
        if (views[at] !== game.views[at]) { failed = { at, view: js.view({ undoOn }) }; break; }
      }
    }
  } catch (error) {
    failed = { error: `${error.code}: ${error.message}`, stack: String(error.stack) };
  }
  const events = js.events;
  if (!failed && canonical(events) !== canonical(game.events)) failed = { events };
  if (!failed && canonical(js.view({ undoOn })) !== canonical(game.final)) failed = { final: js.view({ undoOn }) };
  if (!failed) {
    const replayed = Game.replay(books[plan.rules], game.events);
    if (canonical(replayed.view({ undoOn })) !== canonical(game.final)) failed = { replayed: replayed.view({ undoOn }) };
  }
  if (failed) wrong.push({ seed: plan.seed, ...failed });
  if (wrong.length >= 3) break;
}
answer({ played: input.games.length, wrong });
