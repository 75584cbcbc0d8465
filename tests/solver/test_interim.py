"""The interim win chances and ``winning`` play, from what ships with the package: the
shipped variance table against a fresh build, the estimate against the exact meter on
late-game cards (tables of the states below a late card), and the interim bot's moves."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from yahtzee import RuleSet, Scorecard
from yahtzee.core import Category, Game, Keep, RandomDice, Score
from yahtzee.solver import strategy
from yahtzee.solver.curve_table import CurveTable, build
from yahtzee.solver.interim import (
    ESTIMATE_MARGIN,
    INTERIM_METHOD,
    LATE_MARGIN,
    TYPICAL_ERROR,
    build_variance,
    chances_of,
    compile_interim,
    estimate_beat,
    estimate_chances,
    estimate_pmfs,
    final_normal,
    final_normal_pmf,
    interim_options,
    late_pmf,
    normal_pmf,
    shipped_variance,
)
from yahtzee.solver.interim_match import simulate_interim
from yahtzee.solver.planner import state_of
from yahtzee.solver.solver import TABLE_SHAPE, table_shape
from yahtzee.solver.winning import LATE_OPEN, WinningStrategy, beat_chance, late_card, win_chances

from .test_values import _POINTS

OFFICIAL = RuleSet.official()


@pytest.fixture(scope="module")
def late_distribution() -> CurveTable:
    """The exact ``distribution`` table of every state below the late card."""
    return build("distribution", OFFICIAL, base_mask=state_of(late_card())[0])


def below_late(rng: random.Random) -> Scorecard:
    """A random card whose open boxes are some of the late card's (Aces, Yahtzee box,
    Chance), the others filled with random legal points."""
    boxes: dict[str, int] = {}
    for c in Category:
        if c in LATE_OPEN and rng.random() < 0.7:
            continue
        boxes[c.key] = (c + 1) * rng.randint(0, 5) if c.is_upper else rng.choice(sorted(_POINTS[c]))
    return Scorecard.from_dict({"boxes": boxes, "yahtzee_bonus": 0})


def test_the_shipped_variance_table_is_the_built_one_below_a_late_card() -> None:
    shipped = shipped_variance(OFFICIAL)
    assert shipped is not None
    mask = state_of(late_card())[0]
    built = build_variance(OFFICIAL, base_mask=mask).reshape(TABLE_SHAPE)
    masks = np.arange(TABLE_SHAPE[0])
    below = (masks & mask) == mask
    mine, theirs = np.sqrt(built[below]), np.sqrt(shipped.reshape(TABLE_SHAPE)[below])
    assert np.abs(mine - theirs).max() <= 0.005 + 1e-9  # kept to a hundredth of a point
    assert built[below].max() > 100  # (not a table of zeros: a Yahtzee box is 0 or 50)


def test_the_shipped_yatzy_variance_table_is_the_built_one_below_a_late_card() -> None:
    yatzy = RuleSet.named("yatzy")
    shipped = shipped_variance(yatzy)
    assert shipped is not None
    shape = table_shape(yatzy)
    late = {"ones", "chance", "yatzy"}  # open; every other box filled
    mask = sum(1 << box for box in yatzy.boxes if box.key not in late)
    built = build_variance(yatzy, base_mask=mask).reshape(shape)
    below = (np.arange(shape[0]) & mask) == mask
    mine, theirs = np.sqrt(built[below]), np.sqrt(shipped.reshape(shape)[below])
    assert np.abs(mine - theirs).max() <= 0.005 + 1e-9  # kept to a hundredth of a point
    assert built[below].max() > 100  # (not a table of zeros: the Yatzy box is 0 or 50)


@pytest.mark.parametrize("name", ["official", "yatzy"])
def test_the_empty_cards_spread_is_that_of_the_shipped_distribution(name: str) -> None:
    from yahtzee.solver.distribution import shipped_distribution_path

    rules = RuleSet.named(name)
    pmf = np.load(shipped_distribution_path(rules))
    totals = np.arange(len(pmf))
    mean = float((pmf * totals).sum())
    std = float(np.sqrt((pmf * totals**2).sum() - mean**2))
    found_mean, found_var = final_normal(Scorecard.empty(rules), rules)
    assert found_mean == pytest.approx(mean, abs=1e-9)
    assert np.sqrt(found_var) == pytest.approx(std, abs=0.01)
    if name == "yatzy":  # dlangk/yatzy: a mean of 248.4, a standard deviation of 38.5
        assert mean == pytest.approx(248.4399894, abs=1e-6)
        assert std == pytest.approx(38.5, abs=0.05)


def estimate_errors(table: CurveTable, *, exact_late: bool) -> tuple[list[float], set[float]]:
    """How far estimates are from the exact meter on random cards below the late card
    (150 tables of 2 or 3 players, 50 solo "beat this score"), and the margins stated."""
    rng = random.Random(24)
    errors, margins = [], set()
    for _ in range(150):
        cards = [below_late(rng) for _ in range(rng.choice((2, 2, 3)))]
        exact = win_chances(cards, table)
        estimated, margin = estimate_chances(cards, OFFICIAL, exact_late=exact_late)
        assert sum(estimated) == pytest.approx(1.0)
        errors += [abs(a - b) for a, b in zip(exact, estimated, strict=True)]
        margins.add(margin)
    for _ in range(50):
        card, score = below_late(rng), rng.randint(150, 350)
        chance, margin = estimate_beat(card, score, OFFICIAL, exact_late=exact_late)
        errors.append(abs(beat_chance(card, score, table) - chance))
        margins.add(margin)
    return errors, margins


def test_the_normal_estimate_agrees_with_the_exact_meter_on_late_cards_within_its_margin(
    late_distribution: CurveTable,
) -> None:
    errors, margins = estimate_errors(late_distribution, exact_late=False)
    assert margins == {ESTIMATE_MARGIN}
    assert max(errors) <= ESTIMATE_MARGIN
    assert float(np.mean(errors)) <= TYPICAL_ERROR


def test_late_in_a_game_the_estimate_is_the_exact_meter_within_its_margin(
    late_distribution: CurveTable,
) -> None:
    """At most three boxes open (and the curve kernels compiled: the fixture did), each
    card's distribution is worked out exactly."""
    errors, margins = estimate_errors(late_distribution, exact_late=True)
    assert margins == {LATE_MARGIN}
    assert max(errors) <= LATE_MARGIN


def test_the_interim_bot_never_makes_an_illegal_move_and_says_how_it_plays() -> None:
    """Whole games of the interim ``winning`` bot against optimal bots (the
    exact tables are never built in the suite): every action is checked by the game. The
    kernels are compiled first (until they are, the bot plays for expected points and says
    so: another test), so that the method does not depend on the tests run before."""
    compile_interim()
    rng = random.Random(7)
    bot = WinningStrategy(OFFICIAL)
    optimal = strategy("optimal", OFFICIAL, 1)
    for g in range(4):
        players = 2 + g % 2
        game = Game(players, OFFICIAL, random.Random(rng.randrange(2**31)))
        while not game.is_over:
            situation = game.situation()
            if situation is None:
                game.roll()
                continue
            me = game.current_player
            if me == g % players:
                rivals = [c for p, c in enumerate(game.cards) if p != me]
                action = bot.choose_against(situation, rivals)
                assert bot.method == INTERIM_METHOD
            else:
                action = optimal.choose(situation)
            game.check(action, me)
            game.play(action)
        assert all(card.is_complete for card in game.cards)


def test_the_interim_options_are_chances_and_list_every_placement() -> None:
    rng = random.Random(3)
    game = Game(2, OFFICIAL, rng)
    game.roll()
    situation = game.situation()
    assert situation is not None
    codes, values = interim_options(situation, [game.cards[1]], OFFICIAL)
    assert len(codes) == len(values) > len(Category)  # every box and the keeps
    assert all(-1e-9 <= v <= 1.01 for v in values)  # a chance, and a point worth 1e-5


def test_the_compiled_interim_games_play_every_box() -> None:
    totals = simulate_interim(["winning", "optimal"], 200, 5)
    assert totals.shape == (200, 2)
    assert (totals >= 0).all() and (totals <= 1575).all()
    assert 180 < totals.mean() < 300  # real games, not empty cards


def test_while_its_kernels_compile_the_bot_plays_for_points_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from yahtzee.solver import winning
    from yahtzee.solver.interim import EV_METHOD

    monkeypatch.setattr(winning, "kernels_ready", lambda: False)
    game = Game(2, OFFICIAL, random.Random(11))
    game.roll()
    situation = game.situation()
    assert situation is not None
    bot = WinningStrategy(OFFICIAL)
    action = bot.choose_against(situation, [game.cards[1]])
    assert bot.method == EV_METHOD
    assert action == strategy("optimal", OFFICIAL, 1).choose(situation)


def test_cards_in_the_same_state_share_a_late_distribution_shifted_by_their_totals(
    late_distribution: CurveTable,
) -> None:
    """The late distribution is kept by state (open boxes, Yahtzee box, upper subtotal):
    a card with other lower-box points reads it shifted, and it is that card's own."""
    from yahtzee.solver.distribution import exact_distribution
    from yahtzee.solver.solver import cached_solver

    first = late_card()
    boxes = first.to_dict()["boxes"]
    points = {**boxes, "full_house": 25, "small_straight": 30}
    second = Scorecard.from_dict({"boxes": points, "yahtzee_bonus": 0})
    assert state_of(first) == state_of(second) and first.total != second.total
    late_pmf(first, OFFICIAL)  # kept
    shared = late_pmf(second, OFFICIAL)
    own = exact_distribution(OFFICIAL, second, cached_solver(OFFICIAL).table).pmf
    assert shared is not None and np.array_equal(shared, own)


def test_the_normal_distribution_of_a_final_total_is_the_erf_s_to_2e_7() -> None:
    """`normal_pmf` reads erf from a grid: each whole total's chance within 2e-7 of the
    one `math.erf` gives, and the chances sum to 1."""
    for mean, var in [(254.6, 3553.4), (120.0, 30.0), (61.5, 0.8), (300.0, 9000.0)]:
        pmf = normal_pmf(mean, var)

        def cdf(x: float, mean: float = mean, var: float = var) -> float:
            return 0.5 * (1.0 + math.erf((x - mean) / math.sqrt(2.0 * var)))

        exact = np.diff([0.0, *(cdf(t + 0.5) for t in range(len(pmf)))])
        assert np.abs(pmf - exact).max() < 2e-7
        assert pmf.sum() == pytest.approx(1.0, abs=1e-9)


def test_a_card_s_normal_distribution_is_the_same_from_its_state_s_points_to_come() -> None:
    """`final_normal_pmf` (kept per state, shifted by the total) gives what `normal_pmf`
    of the card's mean and variance gives, also when the normal's tail reaches below 0
    and for a finished card; a second card in the same state shares the first's."""
    rng, tails = random.Random(8), set()
    for _ in range(60):
        game = Game(["Ann"], OFFICIAL, RandomDice(rng.random()))
        for _ in range(rng.randrange(0, 14)):
            game.play(Keep.NONE)
            game.play(rng.choice([a for a in game.legal_actions() if isinstance(a, Score)]))
        card = game.cards[0]
        mean, var = final_normal(card, OFFICIAL)
        tails.add(card.total - 8 * math.sqrt(var) < 0)
        for _ in range(2):  # worked out, then kept
            found, expected = final_normal_pmf(card, OFFICIAL), normal_pmf(mean, var)
            assert len(found) == len(expected)
            assert np.abs(found - expected).max() < 1e-12
    assert tails == {True, False}


def test_two_players_chances_are_those_of_their_rounded_distributions_to_001() -> None:
    """`estimate_chances` for two, both final totals normal (their difference), gives
    what `chances_of` gives from the two distributions rounded to whole points, to 0.01
    (far inside `ESTIMATE_MARGIN`); the chances sum to 1, finished cards' are 1 and 0."""
    rng, worst = random.Random(11), 0.0
    for _ in range(300):
        game = Game(["Ann", "Bob"], OFFICIAL, RandomDice(rng.random()))
        for _ in range(rng.randrange(0, 27)):
            game.play(Keep.NONE)
            game.play(rng.choice([a for a in game.legal_actions() if isinstance(a, Score)]))
        found, margin = estimate_chances(game.cards, OFFICIAL, exact_late=False)
        pmfs, expected_margin = estimate_pmfs(game.cards, OFFICIAL, exact_late=False)
        assert margin == expected_margin == ESTIMATE_MARGIN
        assert sum(found) == pytest.approx(1.0)
        expected = chances_of(pmfs)
        worst = max(worst, *(abs(f - e) for f, e in zip(found, expected, strict=True)))
        if game.is_over:
            assert found == expected
    assert 0.0 < worst < 0.01
