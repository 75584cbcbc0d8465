"""The daily game's records and rules (issue 29, items 3-4): the same committed dice for
everyone, one attempt a player a day (on every node at once), the seed shown only once
the day is over, rankings by score and by skill."""

from __future__ import annotations

import random
import threading
from datetime import date, timedelta

import pytest

from yahtzee.core import IllegalMove, check_rolls, commitment
from yahtzee.service import GameSession
from yahtzee.service.daily import (
    best_score,
    finish_daily,
    leaderboard,
    offline_seed,
    share_line,
    start_daily,
    streak,
)
from yahtzee.store import Store
from yahtzee.store import daily as records

DAY = date(2026, 12, 2)


def play_out(session: GameSession, seed: int) -> None:
    rng = random.Random(seed)
    while not session.is_over:
        session.act(rng.choice(list(session.game.legal_actions())), review=False)


def test_everyone_plays_the_committed_dice_and_the_seed_is_shown_the_next_day(
    db_url: str,
) -> None:
    with Store(db_url) as store:
        ann, bob = start_daily(store, "Ann", DAY), start_daily(store, "Bob", DAY)
        play_out(ann, 1)
        play_out(bob, 1)  # the same decisions: the same dice
        assert ann.game.events[1:] == bob.game.events[1:]
        seed = records.seed_of_day(store, DAY)
        assert ann.game.events[0]["commitment"] == seed.commitment == commitment(seed.seed)
        assert ann.game.events[0]["draw"] == "duplicate"  # the daily game only
        assert records.revealed_seed(store, DAY, DAY) is None  # not while the day lasts
        assert records.revealed_seed(store, DAY, DAY + timedelta(days=1)) == seed.seed
        check_rolls(seed.seed, ann.game.events)
        ahead = records.seed_of_day(store, DAY + timedelta(days=1))  # made with the day's start
        assert ahead.commitment != seed.commitment
        assert store.summary(ann.game_id or "").seed is None  # the game's record keeps no seed


def test_one_attempt_a_day_an_unfinished_one_goes_on(db_url: str) -> None:
    with Store(db_url) as store:
        first = start_daily(store, "Ann", DAY)
        first.roll()
        again = start_daily(store, "Ann", DAY)  # a closed window: the same attempt
        assert again.game_id == first.game_id and again.game.events == first.game.events
        play_out(again, 2)
        result = finish_daily(store, again)
        assert result.score == again.game.cards[0].total and result.loss is not None
        with pytest.raises(IllegalMove, match="one attempt a day") as refused:
            start_daily(store, "Ann", DAY)
        assert refused.value.code == "daily_played"
        assert len(records.results_of_day(store, DAY)) == 1
        tomorrow = start_daily(store, "Ann", DAY + timedelta(days=1))
        assert tomorrow.game_id != first.game_id


def test_one_attempt_a_person_whatever_the_spelling(db_url: str) -> None:
    """Capitals, a fullwidth letter and a Cyrillic look-alike are the same person: the
    same attempt while it is unfinished, refused once it is finished; the name keeps the
    spelling it was begun under; the person's days are theirs under any spelling."""
    with Store(db_url) as store:
        first = start_daily(store, "Vera1", DAY)
        for spelling in ("VERA1", "vera1", "\uff36era1", "V\u0435ra1"):
            again = start_daily(store, spelling, DAY)
            assert again.game_id == first.game_id, spelling
        play_out(first, 3)
        finish_daily(store, first)
        for spelling in ("VERA1", "\uff36era1", "V\u0435ra1"):
            with pytest.raises(IllegalMove, match=r"\(as Vera1\) has played") as refused:
                start_daily(store, spelling, DAY)
            assert refused.value.code == "daily_played"
        (attempt,) = records.results_of_day(store, DAY)
        assert (attempt.player, attempt.game_id) == ("Vera1", first.game_id)
        start_daily(store, "VERA1", DAY + timedelta(days=1))
        days = records.days_of(store, "vera1")
        assert [(r.day, r.player) for r in days] == [(DAY, "Vera1"), (DAY + timedelta(1), "VERA1")]


def test_daily_tables_in_play_expire_in_the_records_once_their_day_is_over(
    db_url: str,
) -> None:
    """A node that serves none of them still ends the unfinished daily tables of days
    over, and so frees their owner's quota (counted in the records by a cluster)."""
    from yahtzee.store import TableRecord, TableSeatRecord
    from yahtzee.store import tables as table_records

    with Store(db_url) as store:
        for name, day in (("Ann", DAY - timedelta(days=1)), ("Bob", DAY)):
            game_id = start_daily(store, name, day).game_id or ""
            row = TableRecord(
                game_id, "official", False, None, f"i-{name}", f"s-{name}", "10.0.0.1",
                table_records.PLAYING, game_id, (TableSeatRecord(0, name, None, "h" * 64),),
            )  # fmt: skip
            assert table_records.create_table(store, row)
        assert table_records.count_open(store, "10.0.0.1", 0.0) == 2
        assert table_records.expire_days_over(store, DAY, 0.0) == 1
        assert table_records.count_open(store, "10.0.0.1", 0.0) == 1
        ann = records.attempt_of(store, DAY - timedelta(days=1), "ann")
        assert ann is not None
        expired = table_records.load_table(store, ann.game_id)
        assert expired is not None and expired.status == table_records.EXPIRED
        assert expired.game_id == ann.game_id  # the game it played stays named
        assert table_records.expire_days_over(store, DAY, 0.0) == 0


def test_a_second_attempt_on_two_nodes_at_once_is_written_once(db_url: str) -> None:
    """Two server nodes (two stores on one database) start the same player's daily game
    at the same moment, for ten players: each player ends with one attempt, one game."""
    with Store(db_url) as setup:
        records.seed_of_day(setup, DAY)
        records.seed_of_day(setup, DAY + timedelta(days=1))
    nodes = [Store(db_url), Store(db_url)]
    try:
        for n in range(10):
            name, outcomes = f"P{n}", []
            gate = threading.Barrier(2)

            def attempt(
                store: Store,
                name: str = name,
                outcomes: list[object] = outcomes,
                gate: threading.Barrier = gate,
            ) -> None:
                gate.wait(timeout=10)
                try:
                    outcomes.append(start_daily(store, name, DAY).game_id)
                except IllegalMove as error:
                    outcomes.append(error.code)

            threads = [threading.Thread(target=attempt, args=(s,)) for s in nodes]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=30)
            assert not any(t.is_alive() for t in threads)
            games = {o for o in outcomes if o != "daily_played"}
            assert len(outcomes) == 2 and len(games) == 1  # one game (resumed or refused)
        rows = records.results_of_day(nodes[0], DAY)
        assert sorted(r.player for r in rows) == sorted(f"P{n}" for n in range(10))
    finally:
        for store in nodes:
            store.close()


def test_the_leaderboard_ranks_by_score_and_by_skill(db_url: str) -> None:
    with Store(db_url) as store:
        for name, score, loss in [("Ann", 240, 9.5), ("Bob", 260, 14.0), ("Cy", 240, 3.25),
                                  ("Di", 200, 3.25)]:  # fmt: skip
            session = start_daily(store, name, DAY)
            records.finish_attempt(store, session.game_id or "", score, loss)
        start_daily(store, "Eve", DAY)  # unfinished: not ranked yet
        records.set_best(store, DAY, 281)
        board = leaderboard(store, DAY)
        assert board.best == 281
        assert [(r.place, r.result.player) for r in board.by_score] == [
            (1, "Bob"), (2, "Cy"), (3, "Ann"), (4, "Di"),
        ]  # fmt: skip
        assert [(r.place, r.result.player) for r in board.by_skill] == [
            (1, "Cy"), (2, "Di"), (3, "Ann"), (4, "Bob"),
        ]  # fmt: skip


def test_optimal_play_on_the_days_dice_is_the_yardstick() -> None:
    seed = offline_seed(DAY)
    best = best_score(seed)
    assert best == best_score(seed) and 150 <= best <= 1575


def test_streaks_and_a_share_line_without_spoilers() -> None:
    days = [DAY - timedelta(days=n) for n in (0, 1, 2, 4)]
    assert streak(days, DAY) == 3 and streak(days, DAY + timedelta(days=1)) == 3
    assert streak(days, DAY + timedelta(days=2)) == 0
    result = records.DailyResult(DAY, "Ann", "g", 254, 6.125, None, None)  # type: ignore[arg-type]
    line = share_line(result, 281, 3)
    assert line == (
        "Yahtzee daily 2026-12-02: 254 points (optimal play: 281), 6.1 points lost to the "
        "best choices, 3 days in a row."
    )
    assert not any(word in line.lower() for word in ("yahtzee bonus", "full house", "dice"))


def test_the_offline_daily_is_the_dates_own() -> None:
    assert offline_seed(DAY) == offline_seed(date(2026, 12, 2)) != offline_seed(DAY + timedelta(1))


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_daily_results_round_trip_and_a_forged_one_is_refused(
    fmt: str, tmp_path: pytest.TempPathFactory
) -> None:
    import json

    from yahtzee.core import InvalidInput
    from yahtzee.store import export_csv, export_json, import_games

    def export(store: Store) -> str:
        return export_json(store) if fmt == "json" else export_csv(store)

    with Store(f"sqlite:///{tmp_path}/a.db") as source:  # type: ignore[str-bytes-safe]
        for day, name in ((DAY - timedelta(days=1), "Ann"), (DAY, "Ann"), (DAY, "Bob")):
            session = start_daily(source, name, day)
            play_out(session, 5)
            finish_daily(source, session)
        text = export(source)
    with Store(f"sqlite:///{tmp_path}/b.db") as target:  # type: ignore[str-bytes-safe]
        assert import_games(target, text)[0] == 3
        assert export(target) == text
        assert [r.score is not None for r in records.results_of_day(target, DAY)] == [True, True]
        assert len(records.days_of(target, "Ann")) == 2
    if fmt != "json":
        return
    data = json.loads(text)
    with Store(f"sqlite:///{tmp_path}/c.db") as other:  # type: ignore[str-bytes-safe]
        records.seed_of_day(other, DAY)  # this database's own daily of the day
        forged = {**data, "games": [g for g in data["games"] if g["daily"] == DAY.isoformat()]}
        with pytest.raises(InvalidInput, match="not played on the dice of the daily game"):
            import_games(other, json.dumps(forged))
        assert records.results_of_day(other, DAY) == []
        twice = json.loads(text)
        twice["games"][1]["id"] = "another-game"
        twice["games"][1]["daily"] = twice["games"][0]["daily"]
        with pytest.raises(InvalidInput):
            import_games(other, json.dumps({**twice, "games": twice["games"][:2]}))
