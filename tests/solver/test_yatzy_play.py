"""Playing Yatzy beyond the expected value: the final score's distribution, target play
and the target bot, the ``winning`` bot and its match, and a whole game by every bot.

Full score-curve tables are built only for ``yatzy+forced`` (a second: fifteen states a
layer); ``yatzy`` gets the tables of the states a late card reaches (its full tables take
minutes: see docs/guides/winning.md).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

from yahtzee import Game, Keep, RuleSet, Score, Scorecard, Situation, YatzyBox
from yahtzee.core import Dice
from yahtzee.solver import TargetSolver, simulate, strategy
from yahtzee.solver.curve_table import CurveTable, build
from yahtzee.solver.distribution import exact_distribution
from yahtzee.solver.planner import state_of
from yahtzee.solver.strategies import box_pars
from yahtzee.solver.winning import WinningStrategy, win_chances

from .conftest import solver_for

FORCED = RuleSet.named("yatzy+forced")
YATZY = RuleSet.named("yatzy")
TOLERANCE = 2e-5  # a table's 16-bit levels are within 8e-6 of the float32 build


@cache
def forced_tables() -> tuple[CurveTable, CurveTable]:
    """The full ``distribution`` and ``target`` tables of ``yatzy+forced``."""
    return build("distribution", FORCED), build("target", FORCED)


def late_card() -> Scorecard:
    """A Yatzy card with Ones, Four of a Kind, Chance and Yatzy open; 60 in the upper
    section (three Ones make the bonus)."""
    filled = {
        YatzyBox.TWOS: 6, YatzyBox.THREES: 9, YatzyBox.FOURS: 12, YatzyBox.FIVES: 15,
        YatzyBox.SIXES: 18, YatzyBox.ONE_PAIR: 10, YatzyBox.TWO_PAIRS: 14,
        YatzyBox.THREE_OF_A_KIND: 12, YatzyBox.SMALL_STRAIGHT: 15, YatzyBox.LARGE_STRAIGHT: 0,
        YatzyBox.FULL_HOUSE: 18,
    }  # fmt: skip
    return Scorecard(tuple(filled.get(YatzyBox(b)) for b in YATZY.boxes), 0, YATZY.edition)


def test_forced_distribution_mean_is_the_expected_value_and_tables_agree() -> None:
    solver = solver_for("yatzy+forced")
    empty = Scorecard.empty(FORCED)
    dist = exact_distribution(FORCED, empty, solver.table)
    assert dist.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist.mean == pytest.approx(122.55852739642337, abs=1e-9, rel=0)
    assert solver.distribution().pmf.tolist() == dist.pmf.tolist()  # the rules' empty card
    distribution, target = forced_tables()
    survival = 1.0 - np.concatenate(([0.0], np.cumsum(dist.pmf)))[: len(dist.pmf)]
    width = min(len(survival), distribution.cap + 1)
    assert distribution.curve(empty)[:width] == pytest.approx(survival[:width], abs=TOLERANCE)
    best = TargetSolver(FORCED, target)
    above = 0
    for total in range(60, 260, 10):  # the best chance of a total is at least the EV play's
        chance = best.probability(empty, total)
        assert chance >= dist.at_least(total) - TOLERANCE
        above += chance > dist.at_least(total) + 1e-3
    assert above >= 5


def test_yatzy_late_distribution_and_target() -> None:
    solver, card = solver_for("yatzy"), late_card()
    dist = solver.distribution(card)
    assert dist.mean == pytest.approx(solver.expected_total(card), abs=1e-9, rel=0)
    assert dist.pmf[: card.total].sum() == 0.0
    best = TargetSolver(YATZY, build("target", YATZY, base_mask=state_of(card)[0]))
    goal = card.total + 110  # Yatzy, the bonus or both: EV play settles for the bonus
    assert best.probability(card, goal) > 1.5 * dist.at_least(goal)
    advice = best.advise(card, Dice((1, 1, 6, 6, 6)), 2, target=goal)
    assert advice.best.action == Keep((6, 6, 6))  # chase the Yatzy, not the Ones
    assert solver.advise(card, Dice((1, 1, 6, 6, 6)), 2).best.action == Keep((1, 1))


def _throw(keep: Keep, rng: random.Random) -> Dice:
    return keep.with_thrown(rng.randint(1, 6) for _ in range(keep.rerolled))


def _play_for(target: int, solver: TargetSolver, card: Scorecard, rng: random.Random) -> int:
    """The target bot's final total from ``card`` (its own dice)."""
    while not card.is_complete:
        dice, rolls_left = _throw(Keep.NONE, rng), 2
        while True:
            action = solver.choose(Situation(dice, rolls_left, card), target)
            if isinstance(action, Score):
                card = card.place(dice, action.category, YATZY)
                break
            dice, rolls_left = _throw(action, rng), rolls_left - 1
    return card.total


def test_target_bot_reaches_its_target_more_often_than_the_ev_bot() -> None:
    """From a late card, 1,000 games of the target bot against 20,000 of ``optimal``:
    the bot reaches the target clearly more often, at the rate its table promises."""
    card = late_card()
    goal = card.total + 110
    best = TargetSolver(YATZY, build("target", YATZY, base_mask=state_of(card)[0]))
    rng = random.Random(5)
    games = 1000
    hits = np.array([_play_for(goal, best, card, rng) >= goal for _ in range(games)])
    rate, error = hits.mean(), hits.std(ddof=1) / np.sqrt(games)
    ev = simulate(["optimal"], 20_000, 3, YATZY, start=card).seats[0].totals
    ev_rate = (ev >= goal).mean()
    assert rate - 3 * error > ev_rate + 3 * np.sqrt(ev_rate * (1 - ev_rate) / len(ev))
    assert rate == pytest.approx(best.probability(card, goal), abs=4 * error)


BOTS = ("random", "greedy", "heuristic", "level1", "level2", "level3", "level4", "optimal")


def _finish(game: Game, choose: dict[int, Any]) -> None:
    while not game.is_over:
        situation = game.situation()
        if situation is None:
            game.roll()
            continue
        me = game.current_player
        assert me is not None
        bot = choose[me]
        if isinstance(bot, WinningStrategy):
            rivals = [c for p, c in enumerate(game.cards) if p != me]
            action = bot.choose_against(situation, rivals)
        elif isinstance(bot, tuple):
            action = bot[0].choose(situation, bot[1])
        else:
            action = bot.choose(situation)
        game.check(action)
        game.play(action)


def test_every_bot_plays_a_whole_yatzy_game() -> None:
    game = Game(list(BOTS), YATZY, random.Random(11))
    _finish(game, {i: strategy(name, YATZY, i) for i, name in enumerate(BOTS)})
    assert all(card.is_complete and card.edition.name == "yatzy" for card in game.cards)
    assert Game.replay(game.events).cards == game.cards
    pars = box_pars(YATZY)
    assert len(pars) == len(YATZY.boxes) and pars[YatzyBox.YATZY] > pars[YatzyBox.ONES]


def test_winning_and_target_bots_play_a_whole_forced_game() -> None:
    distribution, target = forced_tables()
    seats: dict[int, Any] = {
        0: WinningStrategy(FORCED, tables=(distribution, target)),
        1: (TargetSolver(FORCED, target), 160),
        2: strategy("level5", FORCED, 2),
    }
    game = Game(["win", "target", "five"], FORCED, random.Random(4))
    _finish(game, seats)
    assert Game.replay(game.events).cards == game.cards
    assert seats[0].method == "score-curve tables"
    chances = win_chances(list(game.cards), distribution)
    assert sum(chances) == pytest.approx(1.0, abs=1e-9)


def test_simulate_yatzy() -> None:
    result = simulate(["optimal", "level3", "heuristic"], 4000, 1, YATZY)
    optimal = result.seats[0].summary()
    assert optimal["mean"] == pytest.approx(248.4399894, abs=4 * optimal["std_error"])
    assert 0.8 < optimal["upper_bonus_rate"] < 0.95
    assert 0.3 < optimal["yahtzee_rate"] < 0.5  # the Yatzy box scored (40 % in 2,000 games)
    assert optimal["mean"] > result.seats[1].summary()["mean"]
    distribution, target = forced_tables()
    match = simulate(["winning", "optimal"], 2000, 2, FORCED, tables=(distribution, target))
    assert sum(match.win_rates()) == pytest.approx(1.0)
    assert 0 < match.seats[1].summary()["yahtzee_rate"] < 1
    assert match.seats[1].totals.mean() == pytest.approx(
        122.5585, abs=4 * match.seats[1].totals.std() / np.sqrt(2000)
    )
