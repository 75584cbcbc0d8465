"""The game-over screen: a solo game's final score and best (no "winner"), the review
scrolled from the keyboard at once, the rematch key."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.worker import WorkerState

from tests.tui.helpers import screen_name, workers_done
from tests.tui.screens_helpers import FINISHED_ID, finished_solo, record, run_app
from yahtzee.service import GameSession
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.over_screen import GameOverScreen

WAIT_S = 10.0


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as records:
        record(records, "aaaa0000-0000-4000-8000-000000000009", [Seat("You")], seed=9,
               when=datetime(2026, 10, 1, tzinfo=UTC))  # fmt: skip
        finished_solo(records)
        yield records


async def game_over(pilot: Pilot[None], app: YahtzeeApp) -> None:
    assert app.store is not None
    app.push_screen(GameOverScreen(GameSession.resume(app.store, FINISHED_ID)))
    await pilot.pause()
    await workers_done(app)
    await pilot.pause()


def test_a_solo_game_over_shows_the_final_score_and_the_best_not_a_winner(
    store: Store,
) -> None:
    total = store.load(FINISHED_ID).cards[0].total
    best = store.load("aaaa0000-0000-4000-8000-000000000009").cards[0].total

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await game_over(pilot, app)
        text = str(app.screen.query_one("#standings").render())
        assert "winner" not in text
        assert f"Final score: {total}" in text
        assert f"Your best before this game: {best}." in text
        assert ("A new best!" in text) == (total > best)

    run_app(steps, store)


def test_the_review_scrolls_from_the_keyboard_at_once(store: Store) -> None:
    """Regression: the review's table scrolled only after Tab, and nothing said so."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await game_over(pilot, app)
        body = app.screen.query_one("#over-body", VerticalScroll)
        table = app.screen.query_one(".decisions", DataTable)
        assert body.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        # the last decision shows on the screen
        assert table.region.bottom <= body.region.bottom
        assert table.region.bottom > body.region.y
        assert table.virtual_size.height == table.size.height  # no scrolling inside
        assert "arrows or PgDn" in str(app.screen.query_one("#standings").render())

    run_app(steps, store)


def test_the_rematch_key_starts_the_same_seats_again(store: Store) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await game_over(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert screen_name(app) == "PlayScreen"
        assert app.session is not None and app.session.game_id != FINISHED_ID
        assert [s.name for s in app.session.seats] == ["You"]

    run_app(steps, store)


def test_leaving_while_the_review_is_made_ends_its_worker_and_the_game_goes_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review's worker goes with the screen: the player leaves (n: a new game) while
    the review is being made; once made (and recorded all the same), nothing is drawn on
    the screen gone and the app goes on."""
    asked, go_on, done = threading.Event(), threading.Event(), threading.Event()
    made = GameSession.review

    def slow(self: GameSession) -> Any:
        asked.set()
        go_on.wait(WAIT_S)
        try:
            return made(self)
        finally:
            done.set()

    monkeypatch.setattr(GameSession, "review", slow)

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert app.store is not None
        over = GameOverScreen(GameSession.resume(app.store, FINISHED_ID))
        app.push_screen(over)
        assert await asyncio.to_thread(asked.wait, WAIT_S), "the review never started"
        review = next(w for w in app.workers if w.node is over and w.group == "review")
        await pilot.press("n")
        await pilot.pause()
        assert screen_name(app) == "NewGameScreen"
        assert review.state is WorkerState.CANCELLED
        go_on.set()
        assert await asyncio.to_thread(done.wait, WAIT_S), "the review never ended"
        await workers_done(app)
        await pilot.pause()
        assert screen_name(app) == "NewGameScreen" and app.is_running

    run_app(steps, store)
