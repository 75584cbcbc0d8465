"""The daily game in the terminal game, driven by keys as a player does: today's game on
the date's own duplicate dice, its result (score, skill, optimal play, days, the line to
share), one finished daily a day, a stopped one going on, the same dice for two players
making the same decisions."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot

from tests.tui.daily_helpers import KEEPS, open_daily, turns
from tests.tui.helpers import drive, screen_name, workers_done
from tests.tui.screens_helpers import screen_text
from yahtzee.service import daily
from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.daily_result import DailyResultScreen

TIMEOUT_S = 400.0
"""The longest a whole driven daily game may take (every wait inside has its own limit)."""


def run(steps: object, store: Store | None = None, size: tuple[int, int] = (100, 32)) -> None:
    drive(steps, store, size, TIMEOUT_S)


def messages(app: YahtzeeApp) -> list[str]:
    return [n.message for n in app._notifications]


def test_a_whole_daily_game_its_result_and_no_second_one_today(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'd.db'}")
    day = daily.today()
    shown: dict[str, str] = {}

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_daily(pilot)
        assert screen_name(app) == "DailyPlayScreen"
        session = app.session
        assert session is not None
        assert session.game.dice_source.seed == daily.offline_seed(day)  # type: ignore[attr-defined]
        assert not session.hints_allowed and not session.undo_on
        play = screen_text(app, "#status") + " " + screen_text(app, "#side")
        assert f"Daily {day.isoformat()}" in play and "cannot be ranked" in play
        await pilot.press("h")  # no hints in the daily game: it says so
        await pilot.pause()
        assert "Hints are off for this game." in messages(app)
        await turns(pilot, app, 13)
        assert session.game.is_over
        assert isinstance(app.screen, DailyResultScreen)
        await pilot.press("c")  # before the line is worked out: it says when it comes
        await workers_done(app, 300)  # the review and optimal play (room under load)
        await pilot.pause()
        total = session.game.cards[0].total
        text = screen_text(app, "#daily-body")
        shown["text"] = text
        assert f"Your score: {total}" in text
        result = daily.daily_result(session, day)
        assert f"Your skill: {result.loss:.1f} points lost" in text
        best = daily.best_score(daily.offline_seed(day))
        assert f"Optimal play on the same dice: {best}." in text
        assert "Daily games played: 1; 1 day in a row." in text
        assert "not be ranked" in text or "cannot be ranked" in text
        line = daily.share_line(result, best, 1)
        assert line == app.screen.share
        assert screen_text(app, "#share") == line
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == line
        shown["line"] = line
        rolls = {str(e["dice"]) for e in session.game.events if "dice" in e}
        assert rolls and not any(dice in line for dice in rolls)  # no spoilers
        assert not re.search(r"[1-6]{5}|[1-6] [1-6] [1-6]", line)
        await pilot.press("n")  # back to the new game; the daily again: refused, saying why
        await pilot.pause()
        await open_daily(pilot)
        assert screen_name(app) == "NewGameScreen"
        refusal = f"You has played the daily game of {day.isoformat()} already ({total} points)"
        assert any(m.startswith(refusal) for m in messages(app)), messages(app)

    try:
        run(steps, store)
        assert [d for d, _ in daily.offline_days(store, "You")] == [day]
        game_id = daily.offline_days(store, "You")[0][1]
        assert store.load(game_id).cards[0].total == int(
            re.search(r"Your score: (\d+)", shown["text"]).group(1)  # type: ignore[union-attr]
        )
    finally:
        store.close()


def test_two_players_making_the_same_decisions_see_the_same_dice(tmp_path: Path) -> None:
    """Two players of the day on one computer (two runs of the game), the same keys: the
    same dice, roll for roll. A third keeps other dice: the next turn starts the same."""
    store = Store(f"sqlite:///{tmp_path / 'd.db'}")
    seen: dict[str, list[str]] = {"Ann": [], "Bob": [], "Cy": []}

    def player(name: str, keeps: tuple[str, ...]) -> object:
        async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
            await open_daily(pilot, name)
            assert screen_name(app) == "DailyPlayScreen"
            assert app.session is not None and app.session.seats[0].name == name
            await turns(pilot, app, 3, keeps, seen[name])

        return steps

    try:
        run(player("Ann", KEEPS), store)
        run(player("Bob", KEEPS), store)
        run(player("Cy", ("3", "4", "5")), store)
    finally:
        store.close()
    assert len(seen["Ann"]) == 9
    assert seen["Ann"] == seen["Bob"]
    assert seen["Cy"][0::3] == seen["Ann"][0::3]  # each turn's first roll: the same
    assert seen["Cy"] != seen["Ann"]  # the keeps differed, and so did the dice kept


def test_a_stopped_daily_game_goes_on_where_it_stopped(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'd.db'}")
    first: list[str] = []

    async def stop_after_two(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_daily(pilot)
        await turns(pilot, app, 2, seen=first)
        await pilot.press("r")  # the third turn's first roll, then quit (saved)
        await pilot.pause()
        assert app.session is not None
        first.append(str(app.session.game.dice))

    async def go_on(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_daily(pilot)
        assert screen_name(app) == "DailyPlayScreen"
        session = app.session
        assert session is not None
        assert session.game.turn is not None and session.game.turn.round == 3
        assert str(session.game.dice) == first[-1]
        assert any("goes on where you stopped" in m for m in messages(app))
        assert not session.hints_allowed and not session.undo_on

    try:
        run(stop_after_two, store)
        run(go_on, store)
    finally:
        store.close()
