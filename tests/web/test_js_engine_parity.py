"""The page's offline rules engine (``static/engine_*.js``) against ``yahtzee.core``, the
one rules authority: CI runs the JavaScript under node (``tests/js_engine.py``: one node
process per test, batched) and compares.

- every dice x the card states of the core's property test (boxes filled or open, the
  five-of-a-kind box open, 0 or its points) x every rule set of every edition: the legal
  placements, with their points, Joker flag and Yahtzee bonus (digests per rule set,
  Yahtzee box and dice);
- 10,000 random games (seeded; 1-8 players; every rule set, ``+playoff`` ones too; games
  of real dice entered, with written scores; placements taken back; games whose dice make
  Yahtzees often, and games whose seats all play alike, so Jokers, bonuses and playoffs
  happen; the rule sets of every edition share the games), played by the JS engine from
  the same actions and dice: the same events, the
  same final cards and standings, and for a stratified 2,000 of them the same GAME view
  (JSON, sorted keys) after every event; and each game replayed from its events;
- illegal actions refused by both with the same code.

The rule sets come to the engine as ``GET /api/rules`` serves them."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.js_engine import run_js
from yahtzee.core import (
    Dice,
    EnterDice,
    Game,
    IllegalMove,
    InvalidInput,
    JokerRule,
    Keep,
    Phase,
    Placement,
    RuleSet,
    Score,
    Write,
    placements,
    possible_points,
)
from yahtzee.web.models import GameView
from yahtzee.web.rules_models import RuleSetView

DRIVERS = Path(__file__).parent / "js"
MODULES = ["i18n.js", "engine_errors.js", "engine_dice.js", "engine_rules.js", "engine_game.js"]
TRAY = {"slots", "held"}  # the page's tray keeps them, not the engine
GAMES = 10_000
PARTS = 4  # (GAMES a multiple of PARTS and of GAMES // VIEWED)
VIEWED = 2_000  # games whose GAME view is compared after every event (every 5th)
NAMES = [n for base in RuleSet.names() for n in (base, f"{base}+playoff")]


def rule_sets() -> dict[str, Any]:
    """Each rule set as ``GET /api/rules`` serves it (the ``+playoff`` ones built alike)."""
    return {name: RuleSetView.of(RuleSet.named(name)).model_dump(mode="json") for name in NAMES}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# -- every dice x every card state ------------------------------------------------------


def masks(dice: Dice, rules: RuleSet) -> list[int]:
    """The card states for ``dice``: which of the boxes besides the five-of-a-kind box are
    filled (bit per box, in card order). Where a Joker can decide (a Yahtzee roll under a
    Joker rule) every one of them (4,096 on the American card); for the other dice, which
    score each open box by its own definition whatever the rest of the card holds (or, in
    order, the first open box), the empty card, each box filled alone, each open alone, and
    the full one."""
    others = len(rules.boxes) - 1
    full = (1 << others) - 1
    if dice.is_yahtzee and rules.joker is not JokerRule.NONE:
        return list(range(full + 1))
    alone = [1 << i for i in range(others)]
    return [0, full, *alone, *(full ^ bit for bit in alone)]


def five_values(rules: RuleSet) -> tuple[int | None, ...]:
    """What the five-of-a-kind box holds in the card states: open, 0 or its points."""
    return (None, 0, rules.box_rules[rules.edition.five_of_a_kind].points)


class Shown(dict[tuple[type, Placement], str]):
    """A placement as the digests write it (each kind written once; keyed by its box's
    edition too: boxes of two editions are equal ints)."""

    def __missing__(self, key: tuple[type, Placement]) -> str:
        p = key[1]
        text = self[key] = f"{p.category.key},{p.points},{p.yahtzee_bonus},{int(p.joker)}"
        return text


SHOWN = Shown()


def shown(p: Placement) -> str:
    return SHOWN[type(p.category), p]


def placement_digests() -> list[str]:
    found = []
    for name in RuleSet.names():
        rules = RuleSet.named(name)
        five = rules.edition.five_of_a_kind
        others = [c for c in rules.boxes if c is not five]
        for yahtzee in five_values(rules):
            for dice in Dice.all():
                parts = []
                for mask in masks(dice, rules):
                    open_boxes = [c for bit, c in enumerate(others) if not mask >> bit & 1]
                    if yahtzee is None:
                        open_boxes.append(five)
                    if not open_boxes:
                        continue
                    parts.append(";".join(map(shown, placements(dice, open_boxes, yahtzee, rules))))
                found.append(digest("|".join(parts)))
    return found


PLACEMENTS_DRIVER = (DRIVERS / "engine_placements.js").read_text(encoding="utf-8")


def test_every_dice_on_every_card_state_has_the_cores_placements() -> None:
    expected = placement_digests()
    rules = rule_sets()
    found = run_js(MODULES, PLACEMENTS_DRIVER, {"names": list(RuleSet.names()), "rules": rules})
    assert len(found) == len(expected)
    keys = [
        (n, y, d)
        for n in RuleSet.names()
        for y in five_values(RuleSet.named(n))
        for d in Dice.all()
    ]
    wrong = [keys[i] for i, (a, b) in enumerate(zip(found, expected, strict=True)) if a != b]
    assert not wrong, (
        f"{len(wrong)} of {len(keys)} differ, e.g. (rules, Yahtzee box, dice): {wrong[:5]}"
    )


# -- random games ----------------------------------------------------------------------


class Dealer:
    """The games' dice: random, or (``yahtzees``) five of a kind whenever the keep allows
    it, every other roll; ``script`` replays the dice of another seat (seats alike)."""

    def __init__(self, rng: random.Random, yahtzees: bool) -> None:
        self.rng, self.yahtzees = rng, yahtzees
        self.script: list[Dice] = []

    def throw(self, keep: Keep) -> Dice:
        if self.script:
            return self.script.pop(0)
        rng = self.rng
        if self.yahtzees and len(set(keep.faces)) <= 1 and rng.random() < 0.5:
            face = keep.faces[0] if keep.faces else rng.randint(1, 6)
            return Dice((face,) * 5)
        return keep.with_thrown(rng.randint(1, 6) for _ in range(keep.rerolled))


def game_plan(index: int) -> dict[str, Any]:
    rng = random.Random(index)
    players = rng.choices(range(1, 9), weights=[45, 30, 8, 5, 3, 3, 3, 3])[0]
    return {
        "seed": index,
        "rules": NAMES[index % len(NAMES)],
        "players": [
            f"P{i + 1}" if rng.random() < 0.8 else f" Seat {i + 1} " for i in range(players)
        ],
        "entered": rng.random() < 0.15,
        "yahtzees": rng.random() < 0.3,
        "alike": rng.random() < 0.15,  # every seat plays the same dice and boxes: ties
        "undo": rng.random() < 0.3,
        "viewed": index % (GAMES // VIEWED) == 0,
    }


def chosen_actions(game: Game, rng: random.Random, plan: dict[str, Any]) -> Iterator[Any]:
    """A random legal action for the player to move (a roll's keep, a box, an entry)."""
    turn = game.turn
    if game.entered:
        if turn is None or turn.dice is None or rng.random() < 0.1:
            yield EnterDice(rng.choice(Dice.all()), rng.choice([None, 1, 2, 3]))
            return
        card = game.cards[turn.player]
        if rng.random() < 0.2:
            open_boxes = card.open_boxes[:1] if game.rules.ordered else card.open_boxes
            box = rng.choice(open_boxes)
            yield Write(box, rng.choice(sorted(possible_points(box, game.rules))))
            return
        yield Score(rng.choice(game.placements()).category)
        return
    if turn is None or turn.dice is None:
        yield Keep.NONE
        return
    if turn.rolls_left and rng.random() < 0.6:
        keeps = turn.dice.keeps()
        if plan["yahtzees"]:
            most = max(turn.dice.faces, key=turn.dice.count)
            keeps = (Keep((most,) * turn.dice.count(most)), *keeps[:3])
        yield rng.choice(keeps)
        return
    yield Score(rng.choice(game.placements()).category)


def record(action: Any) -> dict[str, Any]:
    if isinstance(action, Keep):
        return {"do": "roll", "keep": str(action)}
    if isinstance(action, Score):
        return {"do": "score", "box": action.category.key}
    if isinstance(action, EnterDice):
        return {"do": "dice", "dice": str(action.dice), "roll": action.roll}
    assert isinstance(action, Write)
    return {"do": "write", "box": action.category.key, "points": action.points}


def view_digest(game: Game, undo_on: bool) -> str:
    """The GAME view's JSON as the server sends it (its fields in order), less the tray's."""
    return digest(GameView.of(game, undo_on=undo_on).model_dump_json(exclude=TRAY))


def play(plan: dict[str, Any]) -> dict[str, Any]:
    """One random game in the core: the actions taken (a roll with its dice), its events,
    and for a viewed game the digest of the GAME view after each event."""
    rng = random.Random(plan["seed"] * 7919 + 1)
    dealer = Dealer(rng, plan["yahtzees"])
    game = Game(plan["players"], plan["rules"], dealer, entered=plan["entered"])
    undo_on = len(game.players) == 1 or game.entered
    alike = plan["alike"] and len(game.players) > 1
    actions: list[dict[str, Any]] = []
    views = [view_digest(game, undo_on)] if plan["viewed"] else []
    first_seat: list[tuple[Any, Dice | None]] = []  # seat 0's turn this round (seats alike)
    script: list[tuple[Any, Dice | None]] = []
    while not game.is_over:
        seat, turns = game.current_player, game.phase is Phase.TURN
        action: Any
        if alike and turns and seat != 0:
            script = script or list(first_seat)
            action, dice = script.pop(0)
            if dice is not None:
                dealer.script.append(dice)
        elif not alike and plan["undo"] and rng.random() < 0.15 and game.can_undo():
            action = "undo"
        else:
            action = next(chosen_actions(game, rng, plan))
        if alike and turns and seat == 0 and game.turn is not None and game.turn.dice is None:
            first_seat = []
        dice = None
        if action == "undo":
            game.undo()
            step: dict[str, Any] = {"do": "undo"}
        elif isinstance(action, Keep):
            dice = game.roll(action)
            step = {**record(action), "dice": str(dice)}
        else:
            game.play(action)
            step = record(action)
        actions.append(step)
        if alike and turns and seat == 0:
            first_seat.append((action, dice))
        if plan["viewed"]:
            views.append(view_digest(game, undo_on))
    final = GameView.of(game, undo_on=undo_on).model_dump(mode="json", exclude={"slots", "held"})
    return {"actions": actions, "events": game.events, "views": views, "final": final}


GAMES_DRIVER = (DRIVERS / "engine_games.js").read_text(encoding="utf-8")
REFUSALS_DRIVER = (DRIVERS / "engine_refusals.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("part", range(PARTS))
def test_ten_thousand_random_games_play_out_event_for_event_alike(part: int) -> None:
    """The 10,000 games in `PARTS` parts of their own (the test workers share them)."""
    count = GAMES // PARTS
    games = []
    for index in range(part * count, (part + 1) * count):
        plan = game_plan(index)
        played = play(plan)
        games.append({"plan": plan, **played})
    kinds = {k: sum(1 for g in games if g["plan"][k]) for k in ("entered", "yahtzees", "alike")}
    assert min(kinds.values()) > count // 20, kinds
    events = [e for g in games for e in g["events"]]
    assert sum(1 for e in events if e["type"] == "playoff_roll") > count // 100
    assert sum(1 for e in events if e["type"] == "undo") > count // 100
    assert sum(1 for e in events if e["type"] == "score" and e["yahtzee_bonus"]) > count // 100
    found = run_js(MODULES, GAMES_DRIVER, {"rules": rule_sets(), "games": games})
    assert found["played"] == count
    assert not found["wrong"], json.dumps(found["wrong"][0])[:3000]


# -- refusals ----------------------------------------------------------------------------

R, S = "roll", "score"
YAHTZEE_THEN = [{"do": R, "keep": "", "dice": "66666"}, {"do": S, "box": "yahtzee"}]
FILL_SIXES = [{"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "sixes"}]
FILL_ONES = [{"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "ones"}]
REFUSALS: list[tuple[str, int, bool, list[dict[str, Any]], str]] = [
    ("official", 2, False, [{"do": R, "keep": "", "dice": "12345", "player": 1}], "not_your_turn"),
    ("official", 1, False, [{"do": R, "keep": "3", "dice": "12345"}], "keep_before_roll"),
    ("official", 1, False, [{"do": S, "box": "chance"}], "roll_first"),
    (
        "official",
        1,
        False,
        [{"do": R, "keep": "", "dice": "12345"}, {"do": R, "keep": "66", "dice": "66123"}],
        "keep_not_in_dice",
    ),
    (
        "official",
        1,
        False,
        [{"do": R, "keep": "", "dice": "12345"}] * 3 + [{"do": R, "keep": "", "dice": "12345"}],
        "no_rolls_left",
    ),
    (
        "official",
        1,
        False,
        [*YAHTZEE_THEN, {"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "yahtzee"}],
        "box_filled",
    ),
    (
        "official",
        1,
        False,
        [*YAHTZEE_THEN, {"do": R, "keep": "", "dice": "66666"}, {"do": S, "box": "chance"}],
        "joker_rule",
    ),
    ("official", 2, False, [*FILL_SIXES, {"do": "undo", "player": 1}], "no_undo"),
    (
        "official",
        1,
        False,
        [*FILL_SIXES, {"do": R, "keep": "", "dice": "12345"}, {"do": "undo"}],
        "no_undo",
    ),
    ("official", 1, False, [{"do": "dice", "dice": "12345"}], "dice_rolled"),
    ("official", 1, True, [{"do": R, "keep": "", "dice": "12345"}], "dice_entered"),
    ("official", 1, True, [{"do": "dice", "dice": "12345", "roll": 4}], "bad_roll"),
    (
        "official",
        1,
        True,
        [{"do": "write", "box": "full_house", "points": 20}],
        "points_not_allowed",
    ),
    (
        "no-joker",
        1,
        True,
        [{"do": "write", "box": "large_straight", "points": 35}],
        "points_not_allowed",
    ),
    (
        "official",
        1,
        True,
        [
            {"do": "write", "box": "chance", "points": 20},
            {"do": "write", "box": "chance", "points": 20},
        ],
        "box_filled",
    ),
    (
        "official",
        1,
        False,
        [{"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "no_such_box"}],
        "invalid_input",
    ),
    ("official", 1, False, [{"do": R, "keep": "7", "dice": "12345"}], "invalid_input"),
    ("official", 1, False, [{"do": R, "keep": "", "dice": "1234"}], "invalid_input"),
    # Editions and the order of filling: a box of another edition, a box below the first
    # open one (rolled or written), points a Yatzy box cannot hold.
    (
        "official",
        1,
        False,
        [{"do": R, "keep": "", "dice": "11234"}, {"do": S, "box": "one_pair"}],
        "invalid_input",
    ),
    (
        "yatzy+forced",
        1,
        False,
        [{"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "chance"}],
        "out_of_order",
    ),
    (
        "official+forced",
        1,
        False,
        [*FILL_ONES, {"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "threes"}],
        "out_of_order",
    ),
    (
        "official+forced",
        1,
        False,
        [*FILL_ONES, {"do": R, "keep": "", "dice": "66666"}, {"do": S, "box": "yahtzee"}],
        "out_of_order",
    ),
    (
        "yatzy+fh5+tp4+forced",
        1,
        True,
        [{"do": "write", "box": "ones", "points": 3}, {"do": "write", "box": "sixes", "points": 6}],
        "out_of_order",
    ),
    ("yatzy", 1, True, [{"do": "write", "box": "one_pair", "points": 7}], "points_not_allowed"),
    (
        "yatzy+tp4",
        1,
        False,
        [{"do": R, "keep": "", "dice": "12345"}, {"do": S, "box": "yatzy"}] * 2,
        "box_filled",
    ),
]


def core_refusal(rules: str, players: int, entered: bool, actions: list[dict[str, Any]]) -> str:
    game = Game(players, rules, entered=entered)
    for step in actions[:-1]:
        core_step(game, step)
    try:
        core_step(game, actions[-1])
    except (IllegalMove, InvalidInput) as error:
        return error.code
    raise AssertionError(f"the core allowed {actions[-1]}")


def core_step(game: Game, step: dict[str, Any]) -> None:
    player = step.get("player")
    if step["do"] == R:
        keep = Keep.parse(step["keep"])
        game.check(keep, player)
        dice = Dice.parse(step["dice"])
        game.dice_source = Fixed(dice)
        game.roll(keep, player=player)
    elif step["do"] == S:
        game.score(step["box"], player=player)
    elif step["do"] == "dice":
        game.enter_dice(step["dice"], step.get("roll"), player=player)
    elif step["do"] == "write":
        game.write(step["box"], step["points"], player=player)
    else:
        game.undo(player=player)


class Fixed:
    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def throw(self, keep: Keep) -> Dice:
        return self.dice


def test_illegal_actions_are_refused_by_both_with_the_same_code() -> None:
    expected = [core_refusal(*case[:4]) for case in REFUSALS]
    assert expected == [case[4] for case in REFUSALS]
    cases = [{"rules": r, "players": n, "entered": e, "actions": a} for r, n, e, a, _ in REFUSALS]
    found = run_js(MODULES, REFUSALS_DRIVER, {"rules": rule_sets(), "cases": cases})
    assert found == expected
