"""History as the way back into any game: unfinished games first (resume), finished ones
replayed turn by turn, any card printed; the resume offer counts the unfinished games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import screen_name
from tests.tui.screens_helpers import (
    FINISHED_ID,
    OLDER_UNFINISHED_ID,
    UNFINISHED_ID,
    all_kinds,
    run_app,
    screen_text,
)
from yahtzee.core import Game, Rolled, Scored
from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp, printing
from yahtzee.tui.records_screen import OpenTable
from yahtzee.tui.widgets import ScoreCard

SIZE = (100, 32)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as records:
        all_kinds(records)
        yield records


def rows(app: YahtzeeApp) -> list[list[str]]:
    table = app.screen.query_one(OpenTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def row_keys(app: YahtzeeApp) -> list[str]:
    table = app.screen.query_one(OpenTable)
    return [str(row.key.value) for row in table.ordered_rows]


async def open_history(pilot: Pilot[None]) -> None:
    await pilot.press("f2")
    await pilot.pause()


def test_history_lists_unfinished_games_first_marked_with_the_round_reached(
    store: Store,
) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_history(pilot)
        assert screen_name(app) == "HistoryScreen"
        assert row_keys(app) == [UNFINISHED_ID, OLDER_UNFINISHED_ID, FINISHED_ID]
        statuses = [row[0] for row in rows(app)]
        assert statuses == ["unfinished, round 5 of 13", "unfinished, round 3 of 13", "finished"]
        assert rows(app)[2][2] == f"You {store.load(FINISHED_ID).cards[0].total}"

    run_app(steps, store, SIZE)


@pytest.mark.parametrize("mouse", [False, True], ids=["enter", "click"])
def test_an_unfinished_game_in_the_history_resumes_where_it_stopped(
    store: Store, mouse: bool
) -> None:
    """Enter on the highlighted game, or one click on another row, resumes it."""
    wanted = OLDER_UNFINISHED_ID if mouse else UNFINISHED_ID
    recorded = store.load(wanted)

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_history(pilot)
        if mouse:
            await pilot.click(OpenTable, offset=(3, 2))  # the second row, under the header
        else:
            await pilot.press("enter")
        await pilot.pause()
        assert screen_name(app) == "PlayScreen"
        assert app.session is not None and app.session.game_id == wanted
        assert app.session.game.event_log == recorded.event_log
        assert [type(s).__name__ for s in app.screen_stack] == [
            "Screen",
            "NewGameScreen",
            "PlayScreen",
        ]

    run_app(steps, store, SIZE)


def test_resume_game_is_public(store: Store) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        app.resume_game(OLDER_UNFINISHED_ID)
        await pilot.pause()
        assert app.session is not None and app.session.game_id == OLDER_UNFINISHED_ID

    run_app(steps, store, SIZE)


def turn_ends(game: Game) -> list[int]:
    """Where each turn of a solo game ends in its log (just after its placement)."""
    return [i + 1 for i, e in enumerate(game.event_log) if isinstance(e, Scored)]


def test_a_finished_game_in_the_history_replays_turn_by_turn(store: Store) -> None:
    game = store.load(FINISHED_ID)
    log = game.event_log
    ends = turn_ends(game)

    def card_total(app: YahtzeeApp) -> str:
        return str(app.screen.query_one(ScoreCard).get_cell("total", "p0"))

    def first_roll(turn: int) -> str:
        start = 1 if turn == 0 else ends[turn - 1]
        event = log[start]
        assert isinstance(event, Rolled)
        return event.dice.spaced()

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_history(pilot)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert screen_name(app) == "ReplayScreen"
        screen: Any = app.screen

        def check(turn: int) -> None:
            assert screen.index == turn
            text = str(screen.query_one("#replay-turn").render())
            assert f"Turn {turn + 1} of 13" in text
            assert f"Roll 1  {first_roll(turn)}" in text
            placed = log[ends[turn] - 1]
            assert isinstance(placed, Scored)
            assert f"Scores {placed.points} in {placed.category.display_name}" in text
            # the cards as they stood after that turn, as the core replays them
            assert card_total(app) == str(Game.replay(game.events[: ends[turn]]).cards[0].total)

        check(0)
        await pilot.press("right")
        await pilot.pause()
        check(1)
        await pilot.press("n", "n")
        await pilot.pause()
        check(3)
        await pilot.press("p")
        await pilot.pause()
        check(2)
        await pilot.press("left", "left", "left")  # stops at the first turn
        await pilot.pause()
        check(0)
        await pilot.press("end")
        await pilot.pause()
        check(12)
        text = str(screen.query_one("#replay-turn").render())
        assert f"Final score: {game.cards[0].total}" in text
        assert card_total(app) == str(game.cards[0].total)
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "HistoryScreen"

    run_app(steps, store, SIZE)


def test_c_prints_the_card_of_the_highlighted_game_from_the_history_and_the_replay(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    monkeypatch.setattr(printing, "card_folder", lambda: folder)

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await open_history(pilot)
        await pilot.press("c")
        await pilot.pause()
        page = (folder / f"yahtzee-card-{UNFINISHED_ID[:8]}.html").read_text()
        assert "Alexandra" in page and "<table>" in page and UNFINISHED_ID in page
        said = [n.message for n in app._notifications][-1]
        assert said.startswith("Card written to\n")
        assert f"/yahtzee-card-{UNFINISHED_ID[:8]}.html\n" in said  # the file's name whole
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        page = (folder / f"yahtzee-card-{FINISHED_ID[:8]}.html").read_text()
        assert f'<td class="winner">{store.load(FINISHED_ID).cards[0].total}</td>' in page

    run_app(steps, store, SIZE)


def test_the_resume_offer_counts_the_unfinished_games_and_leads_to_the_history(
    store: Store,
) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert screen_name(app) == "ResumeScreen"
        text = screen_text(app, "#dialog")
        assert "You have 2 unfinished games" in text
        assert "You, Alexandra (official rules, round 5 of 13)" in text
        await pilot.press("h")
        await pilot.pause()
        assert screen_name(app) == "HistoryScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "NewGameScreen"

    run_app(steps, store, SIZE, offer_resume=True)


@pytest.mark.parametrize("answer", ["y", "n", "f2"])
def test_each_answer_to_the_resume_offer(store: Store, answer: str) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press(answer)
        await pilot.pause()
        expected = {"y": "PlayScreen", "n": "NewGameScreen", "f2": "HistoryScreen"}[answer]
        assert screen_name(app) == expected
        if answer == "y":
            assert app.session is not None and app.session.game_id == UNFINISHED_ID

    run_app(steps, store, SIZE, offer_resume=True)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_the_resume_offer_wraps_its_whole_text(store: Store, size: tuple[int, int]) -> None:
    """Regression: the dialog cut its text at 80 columns ("last played 2026-11")."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        text = screen_text(app, "#dialog")
        assert (
            "The latest: You, Alexandra (official rules, round 5 of 13), last played "
            "2026-11-05 14:32 UTC." in text
        )
        assert "or start a new game (n)?" in text
        for button in ("Resume (y)", "History (h)", "New game (n)"):
            assert button in text

    run_app(steps, store, size, offer_resume=True)
