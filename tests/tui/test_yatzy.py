"""The terminal game of Scandinavian Yatzy (issue 54): its card of fifteen boxes with their
keys, a whole game of human seats through the pilot, and the `+forced` order refused with
the core's sentence (the American card's look: ``test_snapshots.py``)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from tests.tui.helpers import play_to_the_end, screen_name, settle
from yahtzee.core import BotSpec, Category, RuleSet, YatzyBox
from yahtzee.store import Seat, Store, unfinished
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.help_screen import help_text
from yahtzee.tui.widgets import ScoreCard, box_keys, row_of

YATZY = RuleSet.named("yatzy")
FOUR = [Seat("You"), *(Seat(f"Player {n}") for n in range(2, 5))]
TIMEOUT_S = 120


def run(app: YahtzeeApp, steps: Any, size: tuple[int, int] = (80, 24)) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await asyncio.wait_for(steps(pilot, app), TIMEOUT_S)

    asyncio.run(go())


def cell(app: YahtzeeApp, row: int, column: int) -> str:
    return str(app.screen.query_one(ScoreCard).get_cell_at((row, column)))


async def roll(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.press("r", "1", "2")
    await pilot.pause()


def test_the_yatzy_card_of_four_players_fits_80x24(snap_compare: Any) -> None:
    """Fifteen boxes, Upper, Bonus (63+) and Total: every row of four players' cards shows
    on an 80x24 terminal, with the dice beside it."""
    app = YahtzeeApp(None, seed=3, bot_pause=0, seats=FOUR, offer_resume=False, rules=YATZY)
    assert snap_compare(app, terminal_size=(80, 24), run_before=roll)


def test_the_card_has_each_yatzy_box_with_its_key_and_the_edition_numbers() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await roll(pilot)
        table = app.screen.query_one(ScoreCard)
        assert table.row_count == 15 + 3  # the boxes, Upper, Bonus, Total: no Yahtzee bonus
        assert table.scrollable_content_region.height >= table.row_count + 1  # all shown
        keys = box_keys(YATZY.edition)
        assert len(set(keys.values())) == 15
        for box in YatzyBox:
            assert cell(app, row_of(box), 0).startswith(f"{keys[box]} ")
        assert cell(app, row_of(YatzyBox.ONE_PAIR) - 1, 0) == "Bonus (63+)"
        assert cell(app, table.row_count - 1, 0) == "Total"
        assert "Round 1/15" in str(app.screen.query_one("#status").render())
        await pilot.press(keys[YatzyBox.ONE_PAIR])  # its key scores the pair
        await pilot.pause()
        if screen_name(app) == "ConfirmZero":
            await pilot.press("y")
            await pilot.pause()
        session = app.session
        assert session is not None
        assert session.game.cards[0][YatzyBox.ONE_PAIR] is not None

    app = YahtzeeApp(None, seed=3, bot_pause=0, seats=FOUR[:1], offer_resume=False, rules=YATZY)
    run(app, steps)


def test_a_whole_yatzy_game_of_a_player_and_a_bot_with_a_hint() -> None:
    """A player at the keyboard and a bot (the solver of the Yatzy rules) play a whole
    game through the pilot; the advisor's hint ranks Yatzy options."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None
        await pilot.press("r", "h")
        await settle(pilot)
        hint = str(app.screen.query_one("#hint").render())
        assert hint.startswith("Advisor (") and "best  keep" in hint
        await pilot.press("h")
        await play_to_the_end(pilot, app)
        game = session.game
        assert game.is_over
        assert screen_name(app) == "GameOverScreen"
        for card in game.cards:
            assert card.edition.name == "yatzy"
            assert card.is_complete and len(card.filled_boxes) == 15
            assert card.yahtzee_bonus == 0
        assert game.cards[1].total > 150  # the bot plays Yatzy well, not at random

    seats = [FOUR[0], Seat("Bot 2 (optimal)", BotSpec("optimal"))]
    app = YahtzeeApp(None, seed=5, bot_pause=0, seats=seats, offer_resume=False, rules=YATZY)
    run(app, steps)


@pytest.mark.parametrize("name", ["official+forced", "yatzy+forced"])
def test_forced_order_refuses_a_box_out_of_order_and_changes_nothing(name: str) -> None:
    rules = RuleSet.named(name)
    chance = rules.edition.parse_box("chance")
    first = rules.boxes[0]

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None
        await roll(pilot)
        before = session.game.event_log
        await pilot.press(box_keys(rules.edition)[chance])
        await pilot.pause()
        assert session.game.event_log == before  # nothing changed
        shown = [n.message for n in app._notifications]
        expected = (
            f"Under the {name} rules the boxes are filled top to bottom: "
            f"the next is {first.display_name}."
        )
        assert shown == [expected]  # one clear line: the core's
        assert cell(app, row_of(chance), 1) == "·"  # not a choice on the card
        await pilot.press(box_keys(rules.edition)[first])  # the first open box is
        await pilot.pause()
        if screen_name(app) == "ConfirmZero":
            await pilot.press("y")
            await pilot.pause()
        assert session.game.cards[0][first] is not None

    app = YahtzeeApp(None, seed=3, bot_pause=0, seats=FOUR[:1], offer_resume=False, rules=rules)
    run(app, steps)


def test_a_yatzy_key_does_nothing_on_the_american_card() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        session = app.session
        assert session is not None
        await roll(pilot)
        before = session.game.event_log
        await pilot.press("m", "o")  # Yatzy's Large Straight and Full House
        await pilot.pause()
        assert session.game.event_log == before
        assert screen_name(app) == "PlayScreen"
        assert box_keys(RuleSet.official().edition)[Category.CHANCE] == "n"

    app = YahtzeeApp(None, seed=3, bot_pause=0, seats=FOUR[:1], offer_resume=False)
    run(app, steps)


def test_a_recorded_yatzy_game_resumes_with_its_card(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    try:

        async def first(pilot: Pilot[None], app: YahtzeeApp) -> None:
            await roll(pilot)
            await pilot.press("n")  # Chance
            await pilot.pause()

        app = YahtzeeApp(store, seed=3, bot_pause=0, seats=FOUR[:1], offer_resume=False,
                         rules=YATZY)  # fmt: skip
        run(app, first)
        game_id = unfinished(store)[0].id

        async def again(pilot: Pilot[None], app: YahtzeeApp) -> None:
            await pilot.pause()
            session = app.session
            assert session is not None and session.rules.name == "yatzy"
            assert session.game.cards[0][YatzyBox.CHANCE] is not None
            assert app.screen.query_one(ScoreCard).row_count == 18

        run(YahtzeeApp(store, bot_pause=0, resume=game_id, offer_resume=False), again)
    finally:
        store.close()


def test_the_help_of_a_yatzy_game_lists_its_boxes_keys() -> None:
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(help_text(YATZY))
    text = console.export_text()
    assert "a-o, y" in text and "a Yatzy of a face" in text
    assert "g i j           One Pair, Two Pairs, Three of a Kind" in text
    assert "m o n y         Large Straight, Full House, Chance, Yatzy" in text
    assert "Yahtzee" not in text.split("Rules")[0]
