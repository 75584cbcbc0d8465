"""Playing to win: exact distributions, target tables against brute force, the winning
strategy's legality and its head-to-head edge, the meter, and the tables' files.

CI does not build the full tables (minutes): target tables are built for the states a
late card can reach, under every rule set; the full build is ``benchmarks/winning.py``.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import numpy as np
import pytest

from yahtzee import (
    Category,
    Dice,
    Game,
    IllegalMove,
    InvalidInput,
    RuleSet,
    Score,
    Scorecard,
)
from yahtzee.core import Edition
from yahtzee.solver import ScoreDistribution, TargetSolver, simulate, strategy
from yahtzee.solver.cache import CorruptTable
from yahtzee.solver.curve_table import CurveTable, build
from yahtzee.solver.distribution import exact_distribution, shipped_distribution_path
from yahtzee.solver.planner import state_of
from yahtzee.solver.winning import WinningStrategy, beat_chance, late_card, win_chances

from .brute_force import BruteTarget
from .conftest import solver_for
from .test_values import late_cards

TOLERANCE = 2e-5  # a table's 16-bit levels are within 8e-6 of the float32 build


def random_cards(seed: int, count: int, rules: RuleSet) -> list[Scorecard]:
    """Cards met in real games (optimal play), 7 to 12 boxes filled."""
    rng = random.Random(seed)
    bot = strategy("optimal", rules, seed)
    found = []
    while len(found) < count:
        game = Game(1, rules, random.Random(rng.randrange(2**31)))
        stop = rng.randint(7, 12)
        while sum(b is not None for b in game.cards[0].boxes) < stop:
            situation = game.situation()
            if situation is None:
                game.roll()
            else:
                game.play(bot.choose(situation))
        found.append(game.cards[0])
    return found


AMERICAN = [n for n in RuleSet.names() if RuleSet.named(n).edition is Edition.american()]
"""The American card's rule sets (official+forced among them); the other editions'
distributions, targets and bots are tested in test_yatzy_play.py."""


@pytest.mark.parametrize("name", AMERICAN)
def test_distribution_mean_is_the_expected_total(name: str) -> None:
    rules = RuleSet.named(name)
    solver = solver_for(name)
    for card in random_cards(zlib.crc32(name.encode()), 3, rules):
        dist = exact_distribution(rules, card, solver.table)
        assert dist.pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert dist.mean == pytest.approx(solver.expected_total(card), abs=1e-9, rel=0)
        assert dist.pmf[: card.total].sum() == 0.0
        assert dist.quantile(0.0) >= card.total


def test_distribution_of_the_empty_card_golden() -> None:
    """Glenn (2006): standard deviation about 59.61; the mean is the solver's value. The
    shipped distribution of the empty card is exactly the one computed now."""
    solver = solver_for("official")
    dist = exact_distribution(solver.rules, Scorecard.empty(), solver.table)
    shipped = np.load(shipped_distribution_path(solver.rules))
    assert np.array_equal(dist.pmf, shipped)
    assert solver.distribution().pmf.tolist() == shipped.tolist()
    assert dist.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist.mean == pytest.approx(solver.expected_total(), abs=1e-9, rel=0)
    assert dist.std == pytest.approx(59.61, abs=0.01)
    assert dist.quantile(0.5) == pytest.approx(248, abs=8)
    assert dist.at_least(0) == 1.0
    assert 0.0 < dist.at_least(400) < 0.05


def test_score_distribution_reads() -> None:
    dist = ScoreDistribution(np.array([0.0, 0.25, 0.5, 0.25]))
    assert dist.mean == pytest.approx(2.0)
    assert dist.std == pytest.approx(np.sqrt(0.5))
    assert (dist.quantile(0.2), dist.quantile(0.5), dist.quantile(1.0)) == (1, 2, 3)
    assert dist.at_least(2) == pytest.approx(0.75)
    assert dist.at_least(9) == 0.0
    with pytest.raises(InvalidInput):
        dist.quantile(1.5)


def _targets(card: Scorecard) -> list[int]:
    return [card.total + n for n in (1, 12, 30, 50, 80, 150)]


@pytest.mark.parametrize("name", AMERICAN)
def test_target_probabilities_agree_with_brute_force(name: str) -> None:
    rules = RuleSet.named(name)
    brute = BruteTarget(rules)
    checked = 0
    situations = late_cards(zlib.crc32(name.encode()) + 1, count=24, rules=rules)
    for card, dice, rolls_left in [s for s in situations if s[0].boxes.count(None) <= 2][:2]:
        solver = TargetSolver(rules, build("target", rules, base_mask=state_of(card)[0]))
        for target in _targets(card):
            expected = brute.probability(card, target)
            assert solver.probability(card, target) == pytest.approx(expected, abs=TOLERANCE)
            checked += 1
        target = card.total + 30
        advice = solver.advise(card, dice, rolls_left, target=target)
        truth = brute.option_values(card, dice, rolls_left, target)
        for option in advice:
            key = option.action.category if isinstance(option.action, Score) else option.action
            assert option.value == pytest.approx(truth[key], abs=TOLERANCE), option
            checked += 1
        assert advice.best.value == pytest.approx(max(truth.values()), abs=TOLERANCE)
    assert checked >= 2 * (len(_targets(Scorecard())) + 1)  # two cards, one option or more


def test_target_beyond_the_table_is_refused() -> None:
    rules = RuleSet.official()
    card = late_card()
    solver = TargetSolver(rules, build("target", rules, base_mask=state_of(card)[0]))
    assert solver.probability(card, card.total) == 1.0
    with pytest.raises(InvalidInput, match="at most 600 points above"):
        solver.probability(card, card.total + 601)
    with pytest.raises(InvalidInput):
        solver.advise(card, Dice((1, 1, 1, 1, 1)), 0, target="300")  # type: ignore[arg-type]


def _tables_for(*cards: Scorecard) -> tuple[CurveTable, CurveTable]:
    mask = state_of(cards[0])[0]
    for card in cards[1:]:
        mask &= state_of(card)[0]
    rules = RuleSet.official()
    return build("distribution", rules, base_mask=mask), build("target", rules, base_mask=mask)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_winning_never_makes_an_illegal_move(seed: int) -> None:
    """Two players reach round 10 playing optimally; then ``winning`` plays one seat (or
    both) to the end through :class:`Game`, which refuses any illegal action; the log
    replays to the same game."""
    rules = RuleSet.official()
    game = Game(["win", "opt"], rules, random.Random(seed))
    optimal = strategy("optimal", rules, seed)
    while game.cards[1].boxes.count(None) > 4:
        situation = game.situation()
        if situation is None:
            game.roll()
        else:
            game.play(optimal.choose(situation))
    winning = WinningStrategy(rules, tables=_tables_for(*game.cards))
    both = seed == 3
    while not game.is_over:
        situation = game.situation()
        if situation is None:
            game.roll()
            continue
        me = game.current_player
        rivals = [c for p, c in enumerate(game.cards) if p != me]
        if me == 0 or both:
            action = winning.choose_against(situation, rivals)
        else:
            action = optimal.choose(situation)
        game.check(action)
        game.play(action)
    replayed = Game.replay(game.events)
    assert replayed.cards == game.cards
    with pytest.raises(IllegalMove):
        game.play(Score(Category.CHANCE))


def test_winning_beats_optimal_head_to_head() -> None:
    """20,000 games from a late card, turn by turn, seats alternating: ``winning`` wins
    clearly more than half (ties count half), though it scores fewer points."""
    rules = RuleSet.official()
    card = late_card()
    result = simulate(
        ["winning", "optimal"], 20_000, 7, rules, start=card, tables=_tables_for(card)
    )
    totals = np.stack([s.totals for s in result.seats], axis=1)
    best = totals.max(axis=1, keepdims=True)
    shares = (totals == best)[:, 0] / (totals == best).sum(axis=1)
    half_width = 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
    assert shares.mean() - half_width > 0.5
    assert result.win_rates()[0] == pytest.approx(shares.mean())
    assert result.seats[0].totals.mean() < result.seats[1].totals.mean()


def test_optimal_seats_in_a_match_play_as_alone() -> None:
    rules = RuleSet.official()
    card = late_card()
    result = simulate(["optimal", "optimal"], 20_000, 3, rules, start=card)
    expected = solver_for("official").expected_total(card)
    for seat in result.seats:
        assert seat.totals.mean() == pytest.approx(expected, abs=4 * 18 / np.sqrt(20_000))


def test_win_chances() -> None:
    card = late_card()
    table = _tables_for(card)[0]
    even = win_chances([card, card], table)
    assert even == pytest.approx([0.5, 0.5], abs=1e-9)
    ahead = card.place(Dice((6, 6, 6, 6, 6)), Category.YAHTZEE, RuleSet.official())
    chances = win_chances([ahead, card, card], table)
    assert sum(chances) == pytest.approx(1.0, abs=1e-9)
    assert chances[0] > 0.8 and chances[1] == pytest.approx(chances[2])
    done = Scorecard(tuple(0 for _ in Category))
    assert win_chances([done, done], table) == [0.5, 0.5]
    assert beat_chance(card, card.total - 1, table) == 1.0
    assert 0.0 < beat_chance(card, card.total + 40, table) < 0.2


def test_curve_table_file_round_trip_and_damage(tmp_path: Path) -> None:
    folder = tmp_path
    card = late_card()
    table = _tables_for(card)[1]
    path = table.save(folder)
    back = CurveTable.read("target", table.rules, folder)
    assert np.array_equal(back.levels, table.levels)
    assert np.array_equal(back.curve(card), table.curve(card))
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptTable):
        CurveTable.read("target", table.rules, folder)
    path.write_bytes(b'{"format": "something else"}\n')
    with pytest.raises(CorruptTable):
        CurveTable.read("target", table.rules, folder)
    with pytest.raises(FileNotFoundError):
        CurveTable.read("target", RuleSet.named("no-joker"), folder)
