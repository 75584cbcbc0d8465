"""The advisor's review of played games."""

from __future__ import annotations

import random

from yahtzee import BotSpec, Game, Keep, RandomDice, RuleSet, ScriptedDice
from yahtzee.service import GameSession
from yahtzee.solver.review import review
from yahtzee.store import Seat


def test_optimal_play_loses_nothing_and_random_play_loses_points() -> None:
    seats = [Seat("Opt", BotSpec("optimal")), Seat("Rnd", BotSpec("random"))]
    session = GameSession.new(seats, RuleSet.official(), dice=RandomDice(12), seed=3)
    list(session.bot_moves())
    game = session.game
    opt, rnd = review(game)
    assert opt.total_loss < 1e-6 and opt.costliest() == []
    assert rnd.total_loss > 50
    worst = rnd.costliest(3)
    assert len(worst) == 3 and worst[0].loss >= worst[1].loss >= worst[2].loss
    assert all(d.player == 1 for d in rnd.decisions)
    scores = [d for d in rnd.decisions if d.text.startswith("score")]
    assert len(scores) == 13


def test_keeping_all_five_is_valued() -> None:
    game = Game(1, dice=ScriptedDice(["11234"]))
    game.roll()
    game.roll(Keep.parse("11234"))  # legal: it wastes a roll
    game.score("ss")
    (only,) = review(game)
    keep_all, score = only.decisions
    assert keep_all.text == "keep 1 1 2 3 4" and keep_all.loss > 0.1
    assert keep_all.situation.rolls_left == 2 and score.situation.rolls_left == 1


def test_review_of_some_players_only() -> None:
    rng = random.Random(1)
    game = Game(["A", "B"], dice=RandomDice(2))
    for _ in range(12):
        game.play(rng.choice(list(game.legal_actions())))
    (b,) = review(game, [1])
    assert b.name == "B" and all(d.player == 1 for d in b.decisions)


def test_some_players_decisions_are_theirs_in_the_whole_list_undos_included() -> None:
    """A review of some players weighs only their decisions (a bot's are not worked out
    at every game's end), and they are the same as in the review of everyone: placements
    taken back, by either player, are left out as before."""
    from yahtzee.solver.review import decisions

    rng = random.Random(4)
    game = Game(["A", "B"], dice=RandomDice(5))
    undone = 0
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
        if not game.is_over and game.can_undo() and rng.random() < 0.3:
            game.undo()
            undone += 1
    assert undone >= 4
    everyone = list(decisions(game))
    for player in (0, 1):
        mine = list(decisions(game, [player]))
        assert mine == [d for d in everyone if d.player == player]
        assert sum(d.text.startswith("score") for d in mine) == 13
