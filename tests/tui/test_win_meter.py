"""The win-chance meter of the play screen and the review's swing in win chance (issue 15).

The suite never builds the meter's table (``YAHTZEE_NO_TABLE_BUILDS``): the session's
answers are replaced here, as the meter reads them, and every wait has a time limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.widgets.data_table import RowDoesNotExist

from tests.tui.helpers import screen_name, workers_done
from tests.tui.screens_helpers import record, screen_text
from yahtzee.core import Category, Dice, Keep, Score, Situation
from yahtzee.service import GameSession
from yahtzee.solver.review import Decision, PlayerReview
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.over_screen import GameOverScreen, swing_text
from yahtzee.tui.widgets import ScoreCard, WinProgress, chance_bar, chance_cell, percent

WAIT_S = 5.0
Steps = Callable[[YahtzeeApp, Pilot[None]], Awaitable[None]]


async def wait_until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until ``done()``, for :data:`WAIT_S` seconds at most."""
    deadline = time.monotonic() + WAIT_S
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.05)


async def meter_read(app: YahtzeeApp, pilot: Pilot[None]) -> None:
    """Let the app run until the room has read the meter (and looks at it no more)."""
    await wait_until(pilot, lambda: not app.screen.room.meter_pending(), "the meter read")  # type: ignore[attr-defined]


def run_app(
    tmp_path: Path,
    steps: Steps,
    *,
    players: int = 2,
    size: tuple[int, int] = (80, 24),
    before: Callable[[Store], Any] | None = None,
) -> None:
    seats = [Seat("You"), *(Seat(f"Player {n}") for n in range(2, players + 1))]

    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            if before is not None:
                before(store)
            app = YahtzeeApp(store, seed=21, bot_pause=0, seats=seats, offer_resume=False)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                assert screen_name(app) == "PlayScreen"
                await asyncio.wait_for(steps(app, pilot), 30)

    asyncio.run(run())


def win_row(app: YahtzeeApp) -> list[str] | None:
    """The card's win row as text (its label first), or None when it is not there."""
    table = app.screen.query_one(ScoreCard)
    try:
        return [str(cell) for cell in table.get_row("win")]
    except RowDoesNotExist:
        return None


def progress_text(app: YahtzeeApp) -> str | None:
    """What the line under the card says while the meter's table is prepared, or None
    when it is hidden."""
    meter = app.screen.query_one(WinProgress)
    return str(meter.render()) if meter.display else None


def meter(
    monkeypatch: pytest.MonkeyPatch,
    chances: Callable[[GameSession], list[float] | None],
    progress: Callable[[GameSession], tuple[int, int] | None] = lambda self: None,
    ready: Callable[[GameSession], bool] = lambda self: True,
) -> None:
    """The session's exact meter answers ``chances`` (its table loaded while ``ready``;
    until then the meter is the estimate from the shipped tables)."""
    monkeypatch.setattr(GameSession, "win_chances", lambda self, cards=None: chances(self))
    monkeypatch.setattr(GameSession, "win_meter_progress", progress)
    monkeypatch.setattr(GameSession, "win_meter_ready", ready)


def placed(session: GameSession) -> bool:
    return any(box is not None for card in session.game.cards for box in card.boxes)


def test_the_card_shows_each_players_chance_to_win_and_reads_it_after_a_placement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meter(monkeypatch, lambda self: [0.62, 0.38] if placed(self) else [0.5, 0.5])

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: win_row(app) is not None, "the win row")
        row = win_row(app)
        assert row is not None and row[0] == "Win chance"
        assert [cell.split()[0] for cell in row[1:]] == ["50%", "50%"]
        assert progress_text(app) is None
        await pilot.press("r", "n")  # You scores Chance
        await wait_until(pilot, lambda: "62%" in str(win_row(app)), "the meter after a box")
        row = win_row(app)
        assert row is not None
        assert [cell.split()[0] for cell in row[1:]] == ["62%", "38%"]
        assert row[1].startswith("62%  █")  # a bar on its track
        assert not app.screen.room.meter_pending()  # type: ignore[attr-defined]

    run_app(tmp_path, steps)


def test_while_its_table_is_prepared_the_meter_estimates_and_says_how_far_then_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready = False
    meter(
        monkeypatch,
        lambda self: [0.25, 0.75] if ready else None,
        lambda self: None if ready else (5, 14),
        lambda self: ready,
    )

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        nonlocal ready
        await wait_until(pilot, lambda: progress_text(app) is not None, "the progress")
        assert progress_text(app) == "Exact win chances: building 5/14 (once, in the background)"
        await wait_until(pilot, lambda: win_row(app) is not None, "the estimate")
        row = win_row(app)
        assert row is not None and row[0] == "Win chance"
        assert [cell.split()[0] for cell in row[1:]] == ["≈50%", "≈50%"]  # two empty cards
        ready = True  # the table is loaded: the screen looks again by itself
        await wait_until(pilot, lambda: "25%" in str(win_row(app)), "the meter once ready")
        assert progress_text(app) is None
        row = win_row(app)
        assert row is not None
        assert [cell.split()[0] for cell in row[1:]] == ["25%", "75%"]
        await meter_read(app, pilot)  # the looks stop

    run_app(tmp_path, steps)


def test_without_its_table_the_meter_is_an_estimate_after_each_placement(
    tmp_path: Path,
) -> None:
    """The suite never builds the table: the card shows the estimate, marked "≈"."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: win_row(app) is not None, "the estimate")
        assert [cell.split()[0] for cell in win_row(app)[1:]] == ["≈50%", "≈50%"]  # type: ignore[index]
        await pilot.press("r", "n")  # You scores Chance: the estimate moves
        await wait_until(pilot, lambda: "≈50%" not in str(win_row(app)), "a new estimate")
        row = win_row(app)
        assert row is not None and all(cell.startswith("≈") for cell in row[1:])
        assert progress_text(app) is None
        assert not app.screen.room.meter_pending()  # type: ignore[attr-defined]

    run_app(tmp_path, steps)


def test_nothing_shows_when_there_is_no_meter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meter(monkeypatch, lambda self: None)

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "n")
        await meter_read(app, pilot)
        await pilot.pause()
        assert win_row(app) is None
        assert progress_text(app) is None

    run_app(tmp_path, steps)


def test_a_meter_that_cannot_be_read_leaves_the_game_going(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: GameSession) -> list[float] | None:
        raise OSError("the table's file cannot be read")

    meter(monkeypatch, broken)

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "n")
        await meter_read(app, pilot)
        await pilot.pause()
        assert screen_name(app) == "PlayScreen"
        assert app.session is not None
        assert app.session.game.cards[0][Category.CHANCE] is not None
        assert win_row(app) is None
        assert progress_text(app) is None

    run_app(tmp_path, steps)


def test_alone_the_meter_is_the_chance_to_beat_the_players_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meter(monkeypatch, lambda self: [0.04])
    best = 0

    def earlier_game(store: Store) -> None:
        nonlocal best
        game = record(store, "aaaa0000-0000-4000-8000-000000000009", [Seat("You")], seed=9,
                      when=datetime(2026, 10, 1, tzinfo=UTC))  # fmt: skip
        best = game.cards[0].total

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: win_row(app) is not None, "the win row")
        row = win_row(app)
        assert row is not None
        assert row[0] == f"Beat best {best}"
        assert row[1].startswith("4%")

    run_app(tmp_path, steps, players=1, before=earlier_game)


def test_at_80x24_four_players_and_the_meter_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meter(monkeypatch, lambda self: [0.41, 0.003, 0.25, 0.337])

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await wait_until(pilot, lambda: win_row(app) is not None, "the win row")
        table = app.screen.query_one(ScoreCard)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert table.virtual_size.height <= table.scrollable_content_region.height
        row = win_row(app)
        assert row is not None
        assert [cell.split()[0] for cell in row[1:]] == ["41%", "<1%", "25%", "34%"]

    run_app(tmp_path, steps, players=4)


def test_a_chance_reads_as_percent_and_a_bar() -> None:
    assert [percent(p) for p in (0, 0.001, 0.5, 0.994, 0.999, 1)] == [
        "0%", "<1%", "50%", "99%", ">99%", "100%",
    ]  # fmt: skip
    assert chance_bar(0, 2) == ""
    assert chance_bar(0.01, 2) == "▏"  # any chance shows
    assert chance_bar(0.5, 2) == "█"
    assert chance_bar(0.999, 2) == "█▉"  # full only when sure
    assert chance_bar(1, 2) == "██"
    assert str(chance_cell(0.5, 9)) == "50%  ██░░"


# The review ---------------------------------------------------------------------------

GAME_ID = "f1a2b3c4-0000-4000-8000-000000000077"


def decision(round_: int, action: Score | Keep, swing: float | None) -> Decision:
    return Decision(
        player=0,
        round=round_,
        situation=Situation(Dice.parse("1 1 1 2 4"), 0),
        action=action,
        value=200.0,
        best=Score(Category.THREE_OF_A_KIND),
        best_value=200.0 + 10.91 * (action != Score(Category.THREE_OF_A_KIND)),
        win_swing=swing,
    )


def test_the_review_shows_the_chance_to_win_given_up_beside_the_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reviews = [
        PlayerReview(
            0,
            "You",
            (
                decision(1, Score(Category.SMALL_STRAIGHT), 0.1234),
                decision(2, Score(Category.THREE_OF_A_KIND), 0.0),
                decision(3, Score(Category.LARGE_STRAIGHT), None),
            ),
        )
    ]
    monkeypatch.setattr(GameSession, "review", lambda self: reviews)

    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            record(store, GAME_ID, [Seat("You"), Seat("Ann")], seed=5,
                   when=datetime(2026, 11, 2, tzinfo=UTC))  # fmt: skip
            app = YahtzeeApp(store, bot_pause=0, offer_resume=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                app.push_screen(GameOverScreen(GameSession.resume(store, GAME_ID)))
                await pilot.pause()
                await workers_done(app, WAIT_S)
                await pilot.pause()
                summary = str(app.screen.query_one(".review").render())
                assert "lost 10.91 (-12.3% win)" in summary
                table = app.screen.query_one(".decisions", DataTable)
                assert [str(c.label) for c in table.ordered_columns][-2:] == ["Lost", "Win"]
                rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
                assert [r[-2:] for r in rows] == [
                    ["10.91", "-12.3%"], ["0.00", "best"], ["10.91", ""],
                ]  # fmt: skip
                assert rows[0][3] == "score Sm straight"  # the card's short names
                # the longest choices and the win column fit 80 columns: nothing hidden
                assert table.virtual_size.width <= table.scrollable_content_region.width

    asyncio.run(run())


def test_the_review_gets_its_win_column_once_the_tables_are_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game over before the win tables were there: the review comes without the win
    column, the screen looks for the tables while they build, and shows it again. The
    meter's table (distribution) is loaded already and only the target table is still
    being built (seen in tmux: the screen stopped looking when the meter's table was in)."""
    built = {"ready": False}

    def progress(rules: object, kind: str) -> tuple[int, int] | None:
        return None if built["ready"] or kind == "distribution" else (3, 14)

    def made(self: GameSession) -> list[PlayerReview]:
        swing = 0.25 if built["ready"] else None
        return [PlayerReview(0, "You", (decision(1, Score(Category.CHANCE), swing),))]

    monkeypatch.setattr(GameSession, "review", made)
    monkeypatch.setattr(GameSession, "review_has_win", lambda self: built["ready"])
    monkeypatch.setattr("yahtzee.solver.winning.table_progress", progress)

    def columns(app: YahtzeeApp) -> list[str]:
        table = app.screen.query_one(".decisions", DataTable)
        return [str(c.label) for c in table.ordered_columns]

    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            record(store, GAME_ID, [Seat("You"), Seat("Ann")], seed=5,
                   when=datetime(2026, 11, 2, tzinfo=UTC))  # fmt: skip
            app = YahtzeeApp(store, bot_pause=0, offer_resume=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                app.push_screen(GameOverScreen(GameSession.resume(store, GAME_ID)))
                await wait_until(pilot, lambda: bool(app.screen.query(".decisions")), "review")
                assert columns(app)[-1] == "Lost"  # no win column yet
                built["ready"] = True  # the tables are loaded: the screen looks by itself
                await wait_until(pilot, lambda: columns(app)[-1] == "Win", "the win column")
                assert len(app.screen.query(".decisions")) == 1  # shown once, not twice
                assert app.screen.win_timer is None  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_swing_reads_as_percent_given_up() -> None:
    assert swing_text(None) == ""
    assert swing_text(0.0) == "best"
    assert swing_text(-1e-12) == "best"
    assert swing_text(0.031) == "-3.1%"


def test_a_solo_game_builds_no_table_and_says_nothing_of_win_chances(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 50.7: a solo game started the build of the win-chance tables and said "Exact
    win chances: building..." though it shows no win chance (without a best score to
    beat, no chance at all)."""
    from yahtzee.solver import winning

    asked: list[object] = []
    monkeypatch.setattr(winning, "request_tables", lambda rules, kinds=(): asked.append(kinds))
    monkeypatch.setattr(winning, "table_progress", lambda rules, kind: (3, 14))  # one builds

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "n")
        await meter_read(app, pilot)
        await pilot.pause()
        assert progress_text(app) is None
        assert "building" not in screen_text(app, "#card-area")
        assert win_row(app) is None  # no best score to beat
        assert asked == []

    run_app(tmp_path, steps, players=1)
