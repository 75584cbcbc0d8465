"""A sitting in the terminal game: "Next game" at the end of each continues it; the card
shows one column per game per player and the running total, the game-over screen the
sitting's standings; its pad prints, and a blank pad from the new-game screen. For
rolled dice not recorded (the games kept in memory) and entered dice recorded."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot

from tests.tui.helpers import human_turn_by_keys, screen_name, settle, start_game
from tests.tui.screens_helpers import screen_text
from tests.tui.test_real_dice import PLAIN, fill, new_real_game, type_dice
from yahtzee.core import Category, Game, RuleSet
from yahtzee.service import GameSession
from yahtzee.service.sitting import running_totals, sitting_of
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp, printing
from yahtzee.tui.widgets import ScoreCard

GAMES = 3
TIMEOUT_S = 480.0
"""Three whole games (the win chances of two players are worked out meanwhile)."""


def running_row(app: YahtzeeApp, players: int, games: int) -> list[list[int]]:
    """The card's running-total line: per player, the total after each game."""
    card = app.screen.query_one(ScoreCard)
    cells = card.get_row("running")
    numbers = [int(cell.plain) if isinstance(cell, Text) else int(cell) for cell in cells[1:]]
    return [numbers[p * games : (p + 1) * games] for p in range(players)]


def check_sitting(app: YahtzeeApp, finished: list[Game]) -> None:
    """The game-over screen of the sitting's last game: the running totals on the card
    and the sitting's standings equal the sums of the games' totals."""
    players = len(finished[0].players)
    sums = [[sum(g.cards[p].total for g in finished[: n + 1]) for n in range(len(finished))]
            for p in range(players)]  # fmt: skip
    assert running_row(app, players, len(finished)) == sums
    shown = screen_text(app, "#sitting")
    assert shown.startswith(f"The sitting, {len(finished)} games:")
    for p, name in enumerate(finished[0].players):
        won = sum(p in g.winners for g in finished)
        assert f"{name}: {sums[p][-1]} ({won} won)" in shown


def test_a_sitting_of_three_rolled_games_not_recorded(tmp_path: Path) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await start_game(pilot, mouse=False, add=("add",))
        finished: list[Game] = []
        for n in range(GAMES):
            session = app.session
            assert session is not None and session.store is None
            if n:  # the earlier games' columns: G1, G2 ... before this game's
                assert f"G{n + 1}" in screen_text(app, "ScoreCard")
                assert len(app.screen.query_one(ScoreCard).columns) == 1 + 2 * (n + 1)
            while not session.game.is_over:  # a roll each turn, the highlighted box
                await human_turn_by_keys(pilot, app, keep=False)
            await settle(pilot)
            assert screen_name(app) == "GameOverScreen"
            finished.append(session.game)
            if n < GAMES - 1:
                assert "r Next game" in screen_text(app, "Footer")
                await pilot.press("r")
                await pilot.pause()
        check_sitting(app, finished)

    run(steps, None)


def test_a_sitting_of_three_entered_games_recorded_and_its_pad(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "prints"
    folder.mkdir()
    monkeypatch.setattr(printing, "card_folder", lambda: folder)
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 1)
        finished: list[Game] = []
        for n in range(GAMES):
            session = app.session
            assert session is not None and session.game.entered
            for round_, (dice, box) in enumerate(PLAIN):
                await type_dice(pilot, dice if round_ != n else "66666")  # each game its own total
                await fill(pilot, app, box)
            await settle(pilot)
            assert screen_name(app) == "GameOverScreen"
            finished.append(session.game)
            if n < GAMES - 1:
                await pilot.press("r")
                await pilot.pause()
        check_sitting(app, finished)
        assert session.sitting is not None
        sitting = sitting_of(store, session.sitting)
        totals = [g.cards[0].total for g in finished]
        assert [g.totals for g in sitting.games] == [(t,) for t in totals]
        assert running_totals(sitting)[-1] == (sum(totals),)
        await pilot.press("p")  # the sitting's pad, to print
        await pilot.pause()
        pad = folder / f"yahtzee-pad-{session.sitting[:8]}.html"
        said = [n.message for n in app._notifications][-1]
        assert said.startswith("Pad written to\n") and f"/{pad.name}\n" in said  # name whole
        page = pad.read_text(encoding="utf-8")
        assert "Running total" in page and f"<td>{sum(totals)}</td>" in page

    with store:
        run(steps, store)


def test_a_blank_pad_from_the_new_game_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printing, "card_folder", lambda: tmp_path)

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press("ctrl+a", "ctrl+a", "f4")
        await pilot.pause()
        pad = tmp_path / "yahtzee-pad-blank.html"
        said = [n.message for n in app._notifications][-1]
        assert said.startswith("Blank pad written to\n") and f"/{pad.name}\n" in said
        page = pad.read_text(encoding="utf-8")
        assert page.count('<th class="game" scope="col">') == 12  # 3 players, 4 games each
        assert "Player 3" in page

    run(steps, None)


def run(steps: object, store: Store | None) -> None:
    async def go() -> None:
        app = YahtzeeApp(store, seed=21, bot_pause=0, offer_resume=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await asyncio.wait_for(steps(pilot, app), TIMEOUT_S)  # type: ignore[operator]

    asyncio.run(go())


def test_a_game_of_a_sitting_resumed_shows_the_sittings_earlier_games(tmp_path: Path) -> None:
    """Quit mid-game of a sitting's second game, resume it: the first game's columns and
    the running total are back on the card, and the next game continues the sitting."""
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    with store:
        first = GameSession.new([Seat("Ann"), Seat("Bob")], RuleSet.official(), store=store,
                                entered=True)  # fmt: skip
        while not first.game.is_over:
            first.enter_dice("66655")
            first.score(min(first.placements()))
        second = first.rematch()
        second.enter_dice("11111")
        second.score("yahtzee")
        assert second.game_id is not None

        async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
            assert screen_name(app) == "PlayScreen"
            session = app.session
            assert session is not None and session.sitting == first.sitting
            assert session.game.cards[0][Category.YAHTZEE] == 50  # nothing lost
            assert running_row(app, 2, 2) == [
                [first.game.cards[p].total, first.game.cards[p].total + (50 if p == 0 else 0)]
                for p in range(2)
            ]

        async def go() -> None:
            app = YahtzeeApp(store, bot_pause=0, offer_resume=False, resume=second.game_id)
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                await asyncio.wait_for(steps(pilot, app), TIMEOUT_S)

        asyncio.run(go())
