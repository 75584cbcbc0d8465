"""The page's offline advisor and bots (``static/advisor.js``, ``bots.js``, reading
``advisor_table.js``'s decoding of the table file) against the solver: 10,000 random
situations (random cards, Joker and Yahtzee-bonus states among them, every dice and rolls
left) advised by both, the JavaScript in one node run, spread over every card a table
file holds: the American (13 boxes, the Yahtzee box's 50 in the state), Yatzy's (15 boxes,
no Joker, no extra bonus), and each filled top to bottom (``+forced``: prefix masks only).

* every option's value within 1e-4 of `Solver.advise`'s, and the same best option
  wherever the solver's top two differ by more than 1e-4 (the official rules, Yatzy and
  both ``+forced``, each on its own table; the other Joker and bonus rules on the official
  table and Yatzy's house rules on Yatzy's, so that each rule's scoring is checked);
* the bots: level 5 and optimal take the solver's best; levels 1 to 4 give each option
  the chance `TurnPlanner.choose`'s softmax gives it (within 1e-6, over the decoded
  table) and, handed the same uniform number, choose what `PlannedStrategy` chooses;
* a table file that fails its checks is refused by the page's reader.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from tests.js_engine import node, run_js
from yahtzee.core import (
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Category,
    Dice,
    Keep,
    RuleSet,
    Score,
    Scorecard,
    Situation,
)
from yahtzee.core.scorecard import possible_points
from yahtzee.core.scoring import (
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    SMALL_STRAIGHT_POINTS,
)
from yahtzee.solver import Solver, TurnPlanner, cached_solver
from yahtzee.solver.advice import Advice
from yahtzee.solver.strategies import LEVEL_TEMPERATURES, PlannedStrategy
from yahtzee.solver.web_table import decode, encode
from yahtzee.web.rules_models import RuleSetView

SITUATIONS = 10_000
PER_CARD = 5  # each card advised on several dice
SHARES = {  # situations of each rule set (a multiple of PER_CARD)
    "official": 4_500,
    "free-choice-joker": 500,
    "no-joker": 500,
    "no-yahtzee-bonus": 500,
    "official+forced": 1_000,
    "yatzy": 2_000,
    "yatzy+fh5+tp4": 500,
    "yatzy+forced": 500,
}
TABLE_OF = {  # a rule set advised on another's table: its scoring on the same values
    "free-choice-joker": "official",
    "no-joker": "official",
    "no-yahtzee-bonus": "official",
    "yatzy+fh5+tp4": "yatzy",
}
CLOSE = 1e-4
BOT_SAMPLE = 600  # situations whose softmax chances are compared, per level
DRAWS = 4  # uniform numbers handed to both bots per situation and level
MODULES = (
    "i18n.js",
    "engine_errors.js",
    "engine_dice.js",
    "engine_rules.js",
    "advisor_dice.js",
    "advisor_scoring.js",
    "advisor_table.js",
    "advisor.js",
    "bots.js",
)


DRIVER = """\
import { input, answer } from "./js_io.js";
import { decodeAdvisorTable, TableError } from "./advisor_table.js";
import { Advisor, scoringKey } from "./advisor.js";
import { choiceChances, choose, TEMPERATURES } from "./bots.js";

const advisors = {};
for (const [name, file] of Object.entries(input.tables)) {
  const table = await decodeAdvisorTable(Buffer.from(file, "base64"));
  advisors[name] = new Advisor(table, input.rule_sets[name]);
}
const key = (o) => (o.score !== undefined ? "s:" + o.score : "k:" + o.keep);
const refused = [];
for (const file of input.bad_files) {
  try {
    await decodeAdvisorTable(Buffer.from(file, "base64"), { scoring: input.scoring });
    refused.push(null);
  } catch (error) {
    refused.push(error instanceof TableError ? error.message : "not a TableError: " + error);
  }
}
answer({
  keys: Object.fromEntries(input.every_rule_set.map((r) => [r.name, scoringKey(r.rules)])),
  temperatures: TEMPERATURES,
  refused,
  advice: input.situations.map((s) => advisors[s.rules].advise(s).map((o) => [key(o), o.value])),
  best: input.situations.map((s) =>
    ["level5", "optimal"].map((bot) => key(choose(advisors[s.rules], s, bot)))),
  chances: input.bots.map((b) =>
    choiceChances(advisors[b.rules], b, b.bot).map(({ option, chance }) => [key(option), chance])),
  drawn: input.bots.map((b) =>
    b.draws.map((u) => key(choose(advisors[b.rules], b, b.bot, () => u)))),
});
"""


def rule_set_data(rules: RuleSet) -> dict[str, Any]:
    """The rule set as the page gets it: GET /api/rules' entry with the engine's "rules"
    object (RuleSet.to_dict() and the core's numbers; the engine helper adds it to
    /api/rules: until it lands, made here from the same constants)."""
    view = RuleSetView.of(rules).model_dump()
    engine = view.get("rules") or {
        **rules.to_dict(),
        "upper_bonus": UPPER_BONUS,
        "upper_bonus_threshold": UPPER_BONUS_THRESHOLD,
        "points": {
            "full_house": FULL_HOUSE_POINTS,
            "small_straight": SMALL_STRAIGHT_POINTS,
            "large_straight": LARGE_STRAIGHT_POINTS,
            "yahtzee": YAHTZEE_POINTS,
        },
    }
    return {"name": view["name"], "boxes": view["boxes"], "rules": engine}


def random_card(rng: random.Random, rules: RuleSet) -> Scorecard:
    """A card a game under ``rules`` can reach: any boxes filled (under ``ordered`` the
    first ones) with points they can hold, the Yahtzee box often filled (50 or 0: Joker
    states), and Yahtzee bonuses with 50 there (American cards)."""
    all_boxes = list(rules.boxes)
    boxes: list[int | None] = [None] * len(all_boxes)
    count = rng.randint(0, len(all_boxes) - 1)
    five = rules.edition.five_of_a_kind
    if rules.ordered:
        filled = all_boxes[:count]
    else:
        filled = rng.sample(all_boxes, count)
        if rng.random() < 0.5 and five not in filled:
            filled[-1:] = [five]
    for box in filled:
        if box is five:
            boxes[box] = rng.choice((0, YAHTZEE_POINTS))
        elif box.is_upper:
            boxes[box] = box.face * rng.choice((0, 1, 2, 3, 3, 4, 4, 5))
        else:
            boxes[box] = rng.choice(sorted(possible_points(box, rules)))
    bonus = 0
    if boxes[five] == YAHTZEE_POINTS and rules.edition.extra_rules:
        others = sum(1 for points in boxes if points is not None) - 1
        bonus = 100 * rng.randint(0, min(others, 3))
    return Scorecard(tuple(boxes), bonus, rules.edition)


def random_dice(rng: random.Random) -> Dice:
    if rng.random() < 0.15:  # a Yahtzee: Jokers and bonuses
        return Dice((rng.randint(1, 6),) * 5)
    return rng.choice(Dice.all())


def option_key(option: Any) -> str:
    return action_key(option.action)


def action_key(action: Any) -> str:
    """``s:full_house`` or ``k:33``, as the driver names options."""
    if isinstance(action, Score):
        return f"s:{action.category.key}"  # the box's key in its edition
    assert isinstance(action, Keep)
    return "k:" + "".join(map(str, action.faces))


class Uniform(random.Random):
    """A random source whose every draw is one number (as the JS bots are handed)."""

    def __init__(self, u: float) -> None:
        super().__init__(0)
        self.u = u

    def random(self) -> float:
        return self.u


@dataclass(frozen=True)
class Case:
    rules: RuleSet
    situation: Situation

    def to_dict(self) -> dict[str, Any]:
        card = self.situation.card
        return {
            "rules": self.rules.name,
            "card": {"boxes": list(card.boxes), "yahtzee_bonus": card.yahtzee_bonus},
            "dice": str(self.situation.dice),
            "rollsLeft": self.situation.rolls_left,
        }


@dataclass(frozen=True)
class Run:
    cases: list[Case]
    bots: list[tuple[Case, str, list[float]]]
    answer: dict[str, Any]
    planners: dict[str, TurnPlanner]
    """Per rule set: the Python planner of the table as the page decodes it."""
    solvers: dict[str, TurnPlanner]
    """Per rule set: the solver's own table (official; the variants over it)."""


def make_cases() -> list[Case]:
    rng = random.Random(53)
    cases = []
    for name, share in SHARES.items():
        rules = RuleSet.named(name)
        for _ in range(share // PER_CARD):
            card = random_card(rng, rules)
            for _ in range(PER_CARD):
                situation = Situation(random_dice(rng), rng.randint(0, 2), card)
                cases.append(Case(rules, situation))
    return cases


def test_the_situations_are_spread_over_every_card() -> None:
    assert sum(SHARES.values()) == SITUATIONS
    assert all(share % PER_CARD == 0 for share in SHARES.values())


def with_header(data: bytes, **changes: object) -> bytes:
    line, _, payload = data.partition(b"\n")
    header = {k: v for k, v in {**json.loads(line), **changes}.items() if v is not ...}
    return json.dumps(header).encode() + b"\n" + payload


def bad_files(good: bytes, yatzy: bytes) -> list[str]:
    flipped = good[:-5] + bytes([good[-5] ^ 1]) + good[-4:]
    other_count = with_header(good, count=json.loads(good.partition(b"\n")[0])["count"] - 1)
    official = RuleSet.official().scoring_key  # Yatzy's states read as the American card's:
    american_card = with_header(yatzy, boxes=..., yahtzee_box=..., scoring=official)
    files = [flipped, good[:-4], good + b"\0\0\0\0", b"not a table\n", other_count, american_card]
    return [base64.b64encode(f).decode() for f in files]


@pytest.fixture(scope="module")
def parity() -> Iterator[Run]:
    node()
    names = tuple(SHARES)
    own = {n: cached_solver(RuleSet.named(n)) for n in names if n not in TABLE_OF}
    solvers: dict[str, TurnPlanner] = {
        n: Solver(RuleSet.named(n), own[TABLE_OF[n]].table) if n in TABLE_OF else own[n]
        for n in names
    }
    files = {n: encode(s.table, RuleSet.named(n)) for n, s in solvers.items()}
    planners: dict[str, TurnPlanner] = {
        n: TurnPlanner(RuleSet.named(n), decode(f, RuleSet.named(n))) for n, f in files.items()
    }
    cases = make_cases()
    rng = random.Random(54)
    bots = []
    for level in (1, 2, 3, 4):
        for case in rng.sample(cases, BOT_SAMPLE):
            bots.append((case, f"level{level}", [rng.random() for _ in range(DRAWS)]))
    data = {
        "tables": {n: base64.b64encode(f).decode() for n, f in files.items()},
        "rule_sets": {n: rule_set_data(RuleSet.named(n)) for n in names},
        "situations": [c.to_dict() for c in cases],
        "bots": [{**c.to_dict(), "bot": bot, "draws": draws} for c, bot, draws in bots],
        "every_rule_set": [rule_set_data(RuleSet.named(n)) for n in RuleSet.names()],
        "bad_files": bad_files(files["official"], files["yatzy"]),
        "scoring": RuleSet.official().scoring_key,
    }
    answer = run_js(MODULES, DRIVER, data)
    yield Run(cases, bots, answer, planners, solvers)


def test_every_option_is_valued_as_the_solver_values_it(parity: Run) -> None:
    joker_states = bonus_states = 0
    seen: dict[str, int] = {}
    for case, advised in zip(parity.cases, parity.answer["advice"], strict=True):
        expected = parity.solvers[case.rules.name].advice(case.situation)
        want = {option_key(o): o.value for o in expected}
        got = dict(advised)
        assert got.keys() == want.keys(), case
        worst = max(abs(got[k] - want[k]) for k in want)
        assert worst <= CLOSE, (case, worst)
        card = case.situation.card
        if card.edition.extra_rules and card[Category.YAHTZEE] is not None:
            joker_states += case.situation.dice.is_yahtzee
        bonus_states += card.yahtzee_bonus > 0
        seen[case.rules.name] = seen.get(case.rules.name, 0) + 1
    assert joker_states > 200 and bonus_states > 200  # the random cards reach both
    assert seen == SHARES


def test_the_best_option_is_the_solvers_wherever_it_stands_out(parity: Run) -> None:
    compared = 0
    for case, advised, bots in zip(
        parity.cases, parity.answer["advice"], parity.answer["best"], strict=True
    ):
        expected = parity.solvers[case.rules.name].advice(case.situation)
        options = expected.options
        if len(options) > 1 and options[0].value - options[1].value <= CLOSE:
            continue
        compared += 1
        best = option_key(expected.best)
        assert advised[0][0] == best, case
        assert bots == [best, best], case  # level 5 and optimal take it
    assert compared > 0.8 * SITUATIONS


def test_the_ranking_is_the_solvers_on_the_same_table(parity: Run) -> None:
    """Over the table as the page decodes it, the JS lists the options in exactly the
    order `Advice` ranks them."""
    for case, advised in zip(parity.cases, parity.answer["advice"], strict=True):
        expected: Advice = parity.planners[case.rules.name].advice(case.situation)
        values = [o.value for o in expected]
        ties = any(abs(a - b) < 1e-7 for a, b in itertools.pairwise(values))
        if not ties:
            assert [k for k, _ in advised] == [option_key(o) for o in expected], case


def test_the_bots_draw_as_the_solvers_softmax(parity: Run) -> None:
    answer = parity.answer
    assert answer["temperatures"] == {
        **{f"level{n}": t for n, t in LEVEL_TEMPERATURES.items()},
        "optimal": 0.0,
    }
    agreed = 0
    for (case, bot, draws), chances, drawn in zip(
        parity.bots, answer["chances"], answer["drawn"], strict=True
    ):
        planner = parity.planners[case.rules.name]
        temperature = LEVEL_TEMPERATURES[int(bot.removeprefix("level"))]
        options = planner.options(case.situation)
        best = Advice.from_options(case.situation, case.rules, options).best.value
        weights = np.exp((np.array([o.value for o in options]) - best) / temperature)
        want = weights / weights.sum()
        assert [k for k, _ in chances] == [option_key(o) for o in options]
        assert np.abs(np.array([c for _, c in chances]) - want).max() <= 1e-6, case
        edges = np.cumsum(want)
        for u, key in zip(draws, drawn, strict=True):
            if np.abs(edges - u).min() < 1e-6:
                continue  # on a boundary: either is right
            python = PlannedStrategy(bot, planner, temperature, Uniform(u))
            assert key == action_key(python.choose(case.situation)), (case, bot, u)
            agreed += 1
    assert agreed > 0.9 * len(parity.bots) * DRAWS


def test_a_damaged_table_file_is_refused(parity: Run) -> None:
    refused = parity.answer["refused"]
    assert None not in refused and not any(why.startswith("not a") for why in refused)
    assert "checksum" in refused[0]
    assert "truncated" in refused[1] and "truncated" in refused[2]
    assert refused[3] == "This is not an advisor table file."
    assert "does not fit" in refused[4] and "does not fit" in refused[5]


def test_the_scoring_key_is_the_rule_sets(parity: Run) -> None:
    """The page names every rule set's table file by the scoring rules as the core does."""
    assert parity.answer["keys"] == {n: RuleSet.named(n).scoring_key for n in RuleSet.names()}
