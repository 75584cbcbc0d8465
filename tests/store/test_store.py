"""The store on SQLite and on PostgreSQL: recording, resuming and the queries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from yahtzee import BotSpec, Game, InvalidInput, RandomDice, ScriptedDice
from yahtzee.store import (
    Seat,
    Store,
    StoreError,
    high_scores,
    history,
    stats,
    unfinished,
)


def play_out(game: Game, store: Store, game_id: str, seed: int = 0) -> None:
    import random

    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
        store.save(game_id, game)


def test_a_game_is_saved_event_by_event_and_resumes_mid_turn(db_url: str) -> None:
    with Store(db_url) as store:
        game = Game(["Ann", "Bob"], dice=RandomDice(3))
        game_id = store.start(game, [Seat("Ann"), Seat("Bob", BotSpec.at_level(3))], seed=3)
        game.roll()
        game.roll(str(game.dice)[:2])
        assert store.save(game_id, game) == 2
        assert store.save(game_id, game) == 0
    with Store(db_url) as store:  # a new process would see the same
        again = store.load(game_id)
        assert again == game
        assert again.turn == game.turn and again.dice == game.dice
        summary = store.summary(game_id)
        assert summary.status == "active" and summary.event_count == 3
        assert summary.players == ("Ann", "Bob") and summary.seed == "3"
        assert [s.bot for s in store.seats_of(game_id)] == [None, BotSpec.at_level(3)]
        assert [g.id for g in unfinished(store)] == [game_id]
        assert store.resolve(game_id[:8]) == game_id


def test_finished_games_have_cards_and_statistics(db_url: str) -> None:
    with Store(db_url) as store:
        ids = []
        for seed in range(3):
            game = Game(["Ann", "Bob"], dice=RandomDice(seed))
            game_id = store.start(game)
            play_out(game, store, game_id, seed)
            ids.append((game_id, game))
        solo = Game(["Ann"], "no-joker", RandomDice(9))
        solo_id = store.start(solo)
        play_out(solo, store, solo_id)
        assert unfinished(store) == []
        summary = store.summary(ids[0][0])
        assert summary.status == "finished" and summary.finished_at is not None
        assert summary.totals == tuple(card.total for card in ids[0][1].cards)

        ann_totals = [g.cards[0].total for _, g in ids] + [solo.cards[0].total]
        ann = {s.player: s for s in stats(store)}["Ann"]
        assert ann.games == 4
        assert ann.best == max(ann_totals)
        assert ann.average == pytest.approx(sum(ann_totals) / 4)
        wins = sum(1 for _, g in ids if 0 in g.winners)  # the game alone is no win
        assert ann.wins == wins and ann.solo_games == 1
        assert {s.player: s for s in stats(store)}["Bob"].solo_games == 0
        assert ann.loss_per_decision is None
        store.set_review(solo_id, 0, decisions=39, loss=19.5)
        ann = stats(store, "Ann")[0]
        assert ann.reviewed_games == 1 and ann.loss_per_decision == pytest.approx(0.5)
        assert [s.player for s in stats(store)] == ["Ann", "Bob"]

        table = high_scores(store, "official")
        official = sorted((c.total for _, g in ids for c in g.cards), reverse=True)
        assert [h.total for h in table] == official[:10]
        assert [h.rank for h in table] == list(range(1, len(table) + 1))
        assert [h.total for h in high_scores(store, "no-joker")] == [solo.cards[0].total]


def test_a_players_best_total_is_their_best_finished_card_under_the_rules(db_url: str) -> None:
    """`best_total` (a solo game's score to beat, asked at each new game) is `stats`' best
    of the player under those rules, from their own finished games only: not an unfinished
    one, not another player's, not a bot's seat, not another rule set's."""
    from yahtzee.store.queries import best_total

    with Store(db_url) as store:
        assert best_total(store, "Ann", "official") is None  # nothing recorded yet
        for seed in range(3):
            game = Game(["Ann", "Bob"], dice=RandomDice(seed))
            play_out(game, store, store.start(game), seed)
        solo = Game(["Ann"], "no-joker", RandomDice(9))
        play_out(solo, store, store.start(solo))
        bot = Game(["Cy", "Ann"], dice=RandomDice(4))  # Ann's name at a bot's seat
        play_out(bot, store, store.start(bot, [Seat("Cy"), Seat("Ann", BotSpec.at_level(5))]), 4)
        going = Game(["Ann"], dice=ScriptedDice(["66666"]))
        going_id = store.start(going)
        going.roll()
        going.score("yahtzee")  # 50 in an unfinished game: not a finished card
        store.save(going_id, going)
        for name in ("Ann", "Bob", "Cy"):
            for rules in ("official", "no-joker"):
                mine = stats(store, name, rules)
                assert best_total(store, name, rules) == (mine[0].best if mine else None)
        assert best_total(store, "Ann", "no-joker") == solo.cards[0].total
        assert best_total(store, "Nobody", "official") is None


def test_history_filters(db_url: str) -> None:
    with Store(db_url) as store:
        a = store.start(Game(["Ann"], dice=RandomDice(1)))
        b = store.start(Game(["Bob", "Cy"], "no-joker", RandomDice(2)))
        assert {g.id for g in history(store)} == {a, b}
        assert [g.id for g in history(store, player="Cy")] == [b]
        assert [g.id for g in history(store, rules="official")] == [a]
        assert history(store, player="Nobody") == []
        future = datetime.now(UTC) + timedelta(days=1)
        assert history(store, since=future) == []
        assert len(history(store, until=future)) == 2
        assert len(history(store, limit=1)) == 1


def test_stale_and_unknown_games(db_url: str) -> None:
    with Store(db_url) as store:
        game = Game(["Ann"], dice=ScriptedDice(["12345", "12345"]))
        game_id = store.start(game)
        game.roll()
        store.save(game_id, game)
        old = Game(["Ann"], dice=ScriptedDice([]))
        with pytest.raises(StoreError, match="ahead"):
            store.save(game_id, old)
        with pytest.raises(StoreError, match="No game"):
            store.save("0000-none", game)
        with pytest.raises(InvalidInput):
            store.resolve("zz")
        with pytest.raises(InvalidInput, match="No game"):
            store.load("00000000-0000-0000-0000-000000000000")
        assert store.hinted_seats(game_id) == frozenset()
        store.mark_hints_used(game_id, 0)
        assert store.summary(game_id).hints_used
        assert store.hinted_seats(game_id) == {0}


def test_bad_database_urls() -> None:
    for url in ["nonsense", "mysql://x/y", "oracle://a"]:
        with pytest.raises(InvalidInput):
            Store(url)
