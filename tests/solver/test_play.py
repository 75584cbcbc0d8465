"""Bots and simulation: the fast simulator plays legal games the engine agrees with,
the bots play through the engine, and the strategies rank as they should."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.solver.conftest import solver_for
from yahtzee import (
    BotSpec,
    Dice,
    Game,
    IllegalMove,
    InvalidInput,
    Keep,
    RuleSet,
    Score,
    Scorecard,
    ScriptedDice,
)
from yahtzee.service import GameSession
from yahtzee.solver import STRATEGIES, policy, simulate, strategy
from yahtzee.solver.layout import LOG_WIDTH
from yahtzee.solver.tables import ROLL_BASE, model
from yahtzee.store import Seat

ROLLS = Dice.all()
KEEPS = Keep.all()


def replay_logged_games(rules_name: str, games: int, seed: int) -> None:
    """The simulator's own action log, played through the core engine, scores the same,
    and every logged choice is the one the Python-side optimal bot makes."""
    rules = RuleSet.named(rules_name)
    solver = solver_for(rules_name)
    out = [np.zeros(games, dtype=np.int64) for _ in range(4)]
    log = np.zeros((games, rules.rounds, LOG_WIDTH), dtype=np.int64)
    policy.simulate(games, 0, seed, 0, solver.table, model(rules), 0.0, False, *out, log)
    bot = strategy("optimal", rules)
    for g in range(games):
        rolls = [str(ROLLS[r]) for t in range(rules.rounds) for r in log[g, t, 0:5:2] if r >= 0]
        game = Game(1, rules, ScriptedDice(rolls))
        for t in range(rules.rounds):
            game.roll()
            for step in range(2):
                keep = log[g, t, 1 + 2 * step]
                if keep < 0:
                    break
                assert bot.choose(game.situation()) == KEEPS[keep]  # type: ignore[arg-type]
                game.roll(KEEPS[keep])
            action = Score(rules.boxes[int(log[g, t, 5])])
            assert bot.choose(game.situation()) == action  # type: ignore[arg-type]
            game.score(action.category)
        assert game.is_over
        assert game.cards[0].total == out[0][g]
        assert game.cards[0].upper_subtotal == out[1][g]


@pytest.mark.parametrize("rules_name", RuleSet.names())
def test_simulator_games_replay_through_the_engine(rules_name: str) -> None:
    replay_logged_games(rules_name, games=40, seed=7)


def test_optimal_simulation_matches_the_solver_value() -> None:
    n = 100_000
    result = simulate(["optimal"], n, seed=2026)
    seat = result.to_dict()["seats"][0]
    expected = solver_for("official").expected_total()
    assert abs(seat["mean"] - expected) < 3 * seat["std_error"], (seat["mean"], expected)
    assert 0.6 < seat["upper_bonus_rate"] < 0.75
    assert 0.25 < seat["yahtzee_rate"] < 0.45


def test_simulation_is_reproducible_and_seeded() -> None:
    a = simulate(["heuristic"], 500, seed=5).seats[0].totals
    b = simulate(["heuristic"], 500, seed=5).seats[0].totals
    c = simulate(["heuristic"], 500, seed=6).seats[0].totals
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_strategies_rank_random_greedy_heuristic_optimal() -> None:
    """Means over 4,000 games each; every gap must exceed 6 standard errors of the
    difference (a false failure has odds below one in a hundred million)."""
    result = simulate(["random", "greedy", "heuristic", "optimal"], 4000, seed=11)
    seats = result.to_dict()["seats"]
    for worse, better in itertools.pairwise(seats):
        gap = better["mean"] - worse["mean"]
        se = math.hypot(better["std_error"], worse["std_error"])
        assert gap > 6 * se, (worse["strategy"], better["strategy"], gap, se)
    assert [round(s["mean"], -1) for s in seats[:3]] == [50, 220, 240]


def test_levels_get_stronger() -> None:
    means = [
        s["mean"]
        for s in simulate([f"level{n}" for n in range(1, 6)], 3000, seed=3).to_dict()["seats"]
    ]
    assert means == sorted(means)
    assert means[0] > 150  # human-sized mistakes, not random play


def test_multiplayer_win_rates() -> None:
    result = simulate(["optimal", "random"], 300, seed=1)
    rates = result.win_rates()
    assert rates[0] > 0.99 and math.isclose(sum(rates), 1.0)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_every_bot_plays_whole_games_through_the_engine(name: str) -> None:
    spec = BotSpec.parse(name)
    seats = [Seat(spec.seat_name(0), spec), Seat(spec.seat_name(1), spec)]
    session = GameSession.new(seats, RuleSet.named("official+playoff"), seed=4)
    list(session.bot_moves())
    game = session.game
    assert game.is_over and all(card.is_complete for card in game.cards)
    assert Game.replay(game.events) == game


def test_the_registry_has_a_strategy_for_every_bot_spec() -> None:
    assert set(STRATEGIES) == {spec.key for spec in BotSpec.all()}


def test_unknown_strategy() -> None:
    with pytest.raises(InvalidInput, match="Strategies: random, greedy"):
        strategy("clever")
    assert strategy("5").name == "level5"


def test_regret_of_an_action_that_is_not_an_option() -> None:
    advice = solver_for("official").advise(Scorecard.empty(), Dice.parse("12345"), 0)
    with pytest.raises(IllegalMove, match="not an option"):
        advice.regret(Keep.parse("12"))
    assert advice.regret(advice.best.action) == 0
    assert ROLL_BASE == 210
