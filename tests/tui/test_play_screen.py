"""The play screen as a new player meets it (issue 13): each test fails on the screen as it
was before, and is named after what a player tripped over."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets.data_table import ColumnKey

from tests.tui.helpers import play_to_the_end, screen_name, settle
from tests.tui.screens_helpers import screen_lines
from yahtzee import Category, Undone
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import BOX_KEYS, Die, ScoreCard, column_name, row_of

Steps = Callable[[YahtzeeApp, Pilot[None]], Awaitable[None]]


def run_app(
    tmp_path: Path,
    steps: Steps,
    *,
    players: int = 1,
    size: tuple[int, int] = (80, 24),
    seed: int = 21,
    names: list[str] | None = None,
) -> None:
    seats = [Seat("You"), *(Seat(f"Player {n}") for n in range(2, players + 1))]
    if names is not None:
        seats = [Seat(name) for name in names]

    async def run() -> None:
        with Store(f"sqlite:///{tmp_path / 'r.db'}") as store:
            app = YahtzeeApp(store, seed=seed, bot_pause=0, seats=seats, offer_resume=False)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                assert screen_name(app) == "PlayScreen"
                await steps(app, pilot)

    asyncio.run(run())


def cell(app: YahtzeeApp, category: Category, seat: int = 0) -> str:
    table = app.screen.query_one(ScoreCard)
    return str(table.get_cell_at((row_of(category), seat + 1)))


def test_regression_resume_keeps_the_dice_selected_last(tmp_path: Path) -> None:
    """Issue 13.1: dice selected, the process killed: after resume the same dice are
    selected (not the previous keep)."""
    database = f"sqlite:///{tmp_path / 'r.db'}"

    async def run() -> None:
        with Store(database) as store:
            app = YahtzeeApp(store, seed=22, bot_pause=0, seats=[Seat("You")])
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("r", "1", "2")
                await pilot.pause()
                await pilot.press("r")  # a second roll: the dice kept stay selected
                await pilot.pause()
                screen: Any = app.screen
                kept = screen.held
                await pilot.press("3", "4", "5")  # then another selection
                await pilot.pause()
                selected = screen.held
                assert selected != kept
                assert app.session is not None
                game_id = app.session.game_id
        # a new process: no state carried over but the records
        with Store(database) as store:
            assert game_id is not None
            app = YahtzeeApp(store, seed=22, bot_pause=0, resume=game_id)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                screen = app.screen
                assert screen_name(app) == "PlayScreen"
                assert screen.held == selected
                dice = list(screen.query(Die))
                assert [d.held for d in dice] == selected

    asyncio.run(run())


def test_each_box_has_a_key_shown_on_the_card_and_one_key_scores(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        table = app.screen.query_one(ScoreCard)
        for category, key in BOX_KEYS.items():
            assert str(table.get_cell_at((row_of(category), 0))).startswith(f"{key} ")
        await pilot.press("r", "n")  # n: Chance
        await pilot.pause()
        assert app.session is not None
        assert app.session.game.cards[0][Category.CHANCE] is not None

    run_app(tmp_path, steps)


def test_one_click_on_a_box_scores_it(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        await pilot.click(ScoreCard, offset=(2, 1 + row_of(Category.CHANCE)))
        await pilot.pause()
        assert app.session is not None
        assert app.session.game.cards[0][Category.CHANCE] is not None

    run_app(tmp_path, steps)


def test_the_cursor_stays_on_its_box_after_a_roll(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        table = app.screen.query_one(ScoreCard)
        table.move_cursor(row=row_of(Category.CHANCE))
        await pilot.press("r")
        await pilot.pause()
        assert table.cursor_row == row_of(Category.CHANCE)

    run_app(tmp_path, steps)


def test_undo_takes_back_the_last_placement_and_is_recorded(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        session = app.session
        assert session is not None
        await pilot.press("r")
        await pilot.pause()
        dice = session.game.dice
        await pilot.press("n")
        await pilot.pause()
        assert session.game.cards[0][Category.CHANCE] is not None
        assert "u takes it back" in str(app.screen.query_one("#turn-info").render())
        await pilot.press("u")
        await pilot.pause()
        assert session.game.cards[0][Category.CHANCE] is None
        assert session.game.dice == dice
        assert isinstance(session.game.event_log[-1], Undone)
        assert session.store is not None and session.game_id is not None
        assert session.store.event_log(session.game_id)[-1]["type"] == "undo"
        assert cell(app, Category.CHANCE).startswith("(")  # a proposal again

    run_app(tmp_path, steps)


def test_regression_the_undo_offer_goes_with_the_next_roll(tmp_path: Path) -> None:
    """Issue 25: "(u takes it back)" stayed on screen after the next roll, when undo no
    longer applies."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        info = app.screen.query_one("#turn-info")
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert "u takes it back" in str(info.render())
        await pilot.press("r")  # the next turn's first roll
        await pilot.pause()
        assert "scored" in str(info.render()) and "u takes it back" not in str(info.render())

    run_app(tmp_path, steps)


def test_regression_keys_1_to_5_before_the_roll_say_why_nothing_happens(tmp_path: Path) -> None:
    """Issue 25: 1-5 before the first roll did nothing and said nothing."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        info = app.screen.query_one("#turn-info")
        await pilot.press("3")
        await pilot.pause()
        assert "Roll first" in str(info.render())
        assert app.session is not None and app.session.game.dice is None  # nothing changed
        await pilot.press("r", "r", "r")  # no rolls left
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert "No rolls left" in str(info.render())

    run_app(tmp_path, steps)


def test_undo_is_off_against_other_players(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "n", "u")
        await pilot.pause()
        assert app.session is not None
        assert app.session.game.cards[0][Category.CHANCE] is not None
        assert "u" not in {
            b.binding.key for b in app.screen.active_bindings.values() if b.binding.show
        }

    run_app(tmp_path, steps, players=2)


def test_regression_the_card_keeps_its_shape_after_a_zero_is_confirmed(tmp_path: Path) -> None:
    """Issue 13.3: after confirming a zero the card collapsed ("Ace", "Bon  nee")."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        table = app.screen.query_one(ScoreCard)
        await pilot.press("r")
        await pilot.pause()
        widths = [c.get_render_width(table) for c in table.ordered_columns]
        assert app.session is not None
        zero = next(c for c, p in sorted(app.session.placements().items()) if p.total == 0)
        await pilot.press(BOX_KEYS[zero])
        await pilot.pause()
        assert screen_name(app) == "ConfirmZero"
        await pilot.press("y")
        await pilot.pause()
        assert [c.get_render_width(table) for c in table.ordered_columns] == widths
        assert str(table.get_cell_at((row_of(Category.ONES), 0))).endswith("Aces")
        assert cell(app, zero) == "0"

    run_app(tmp_path, steps)


def test_regression_blank_dice_do_not_say_kept(tmp_path: Path) -> None:
    """Issue 13.3: blank dice at the start of a turn still said KEPT from the last turn."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "1", "2", "r", "n")
        await pilot.pause()
        assert app.session is not None and app.session.game.dice is None
        assert not any("KEPT" in str(d.render()) for d in app.screen.query(Die))

    run_app(tmp_path, steps)


def test_proposals_read_as_proposals_and_filled_boxes_plainly(tmp_path: Path) -> None:
    """Issue 13.3: proposed and filled scores differed only by italics (the same in a plain
    capture): proposals are in brackets."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        assert app.session is not None
        chance = app.session.placements()[Category.CHANCE].points
        assert cell(app, Category.CHANCE) == f"({chance})"
        await pilot.press("n", "r")
        await pilot.pause()
        assert cell(app, Category.CHANCE) == str(chance)

    run_app(tmp_path, steps)


def test_regression_the_game_over_card_shows_the_bonus_not_what_is_needed(
    tmp_path: Path,
) -> None:
    """Issue 13.3: at game over the card said "Bonus need 18"."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await play_to_the_end(pilot, app)
        assert screen_name(app) == "GameOverScreen"
        table = app.screen.query_one(ScoreCard)
        text = str(table.get_cell_at((row_of(Category.THREE_OF_A_KIND) - 1, 1)))
        assert app.session is not None
        assert text == str(app.session.game.cards[0].upper_bonus)

    run_app(tmp_path, steps, size=(120, 40))


def test_regression_the_best_keep_does_not_cost_minus_zero(tmp_path: Path) -> None:
    """Issue 13.3: the best keep showed a cost of "-0.00"."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "h")
        await settle(pilot)
        session = app.session
        assert session is not None
        advice = session.hint()
        best = advice.best.action
        dice = session.game.dice
        assert dice is not None
        remaining = list(getattr(best, "faces", ()))
        places = []
        for place, die in enumerate(app.screen.query(Die)):  # the dice as they lie
            if die.face in remaining:
                remaining.remove(die.face)
                places.append(str(place + 1))
        if places:
            await pilot.press(*places)
            await pilot.pause()
            text = str(app.screen.query_one("#hint").render())
            assert "is the best keep" in text and "-0.00" not in text

    run_app(tmp_path, steps, size=(120, 40))


def test_at_80x24_four_cards_and_the_whole_advisor_box_fit(tmp_path: Path) -> None:
    """Issue 13.4: with 4 players about 2.5 cards were visible; the advisor's last line
    and its box's bottom edge were cut."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        table = app.screen.query_one(ScoreCard)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        await pilot.press("r", "1", "h")
        await settle(pilot)
        hint = app.screen.query_one("#hint")
        footer_top = app.screen.size.height - 1
        assert hint.region.bottom <= footer_top
        assert "Your keep" in str(hint.render())

    run_app(tmp_path, steps, players=4)


def test_regression_four_long_names_fit_at_80x24(tmp_path: Path) -> None:
    """Issue 25: names of 9 characters or more made every column 10 wide, and the fourth
    card was cut at 80x24 (its name, "need 6", the win bar)."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        table = app.screen.query_one(ScoreCard)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert str(table.columns[ColumnKey("p3")].label) == "Dominiqu"
        await pilot.press("r")
        await settle(pilot)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        await pilot.resize_terminal(120, 40)  # room again: the whole names
        await settle(pilot)
        assert str(table.columns[ColumnKey("p3")].label) == "Dominique"

    run_app(tmp_path, steps, names=["Alexandra", "Bernadette", "Christopher", "Dominique"])


def test_the_footer_shows_theme_and_help(tmp_path: Path) -> None:
    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        shown = {b.binding.key for b in app.screen.active_bindings.values() if b.binding.show}
        assert {"r", "h", "u", "t", "question_mark", "q"} <= shown

    run_app(tmp_path, steps)


def test_the_new_game_screen_can_allow_undo_between_players(tmp_path: Path) -> None:
    """Undo is off in games against others unless the table allows it (issue 13)."""

    async def run() -> None:
        app = YahtzeeApp(None, seed=23, bot_pause=0, offer_resume=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+a")
            await pilot.pause()
            await pilot.click("#undo")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.session is not None and app.session.undo_on
            await pilot.press("r", "n", "u")
            await pilot.pause()
            assert app.session.game.cards[0][Category.CHANCE] is None

    asyncio.run(run())


def test_a_bots_column_keeps_its_seat_and_level_when_cut() -> None:
    assert column_name("Bot 3 (level 4)", 10) == "Bot 3 L4"
    assert column_name("Bot 2 (level 3)", 8) == "Bot2 L3"
    assert column_name("Bot 2 (winning)", 10) == "Bot 2"  # not "Bot 2 Win": no win
    assert column_name("Bot 4 (heuristic)", 9) == "Bot 4"
    assert column_name("Bot 2 (optimal)", 16) == "Bot 2 (optimal)"  # whole where it fits
    assert column_name("Alexandra", 10) == "Alexandra"
    assert column_name("Maximiliana", 10) == "Maximilia"


def test_kept_dice_stay_in_their_places_through_a_roll(tmp_path: Path) -> None:
    """Issue 50.8: after a roll the dice came back sorted, so dice kept in places 3 and 4
    came back in 2 and 3, and the same keys then hit other dice. Kept dice stay in their
    places, the thrown ones land in the others, and the keys 1-5 name places."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        session = app.session
        assert session is not None
        dice = list(app.screen.query(Die))
        await pilot.press("r")
        await pilot.pause()
        before = [die.face for die in dice]
        await pilot.press("3", "4", "r")
        await pilot.pause()
        after = [die.face for die in dice]
        assert after[2:4] == before[2:4]  # kept, in their places
        assert [die.held for die in dice] == [False, False, True, True, False]
        assert session.game.dice is not None
        assert sorted(after) == list(session.game.dice.faces)  # the game's dice, in places
        assert after != sorted(after)  # (this seed: a sorted row would have moved them)
        await pilot.press("4")  # releases the die in place 4, whatever its face
        await pilot.pause()
        assert [die.held for die in dice] == [False, False, True, False, False]
        assert session.keep.faces == (after[2],)

    run_app(tmp_path, steps, seed=4)


def test_the_advisor_keeps_each_option_on_one_line_at_80x24(tmp_path: Path) -> None:
    """Issue 50.9: in the narrow side panel (four players at 80x24) an option wrapped
    inside ("keep 4 4 4 / 4"). Each option is one line: the points lost and the option."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        await pilot.press("r", "h")
        await settle(pilot)
        lines = screen_lines(app, "#hint")[1:-1]  # inside the border
        assert lines[0].startswith("│ Advisor")
        options = lines[1:]
        assert len(options) == 5
        for line in options:
            assert re.fullmatch(r"│ +(best|-\d+\.\d\d) +(keep|score) [^…]+│", line), line
        assert any("keep nothing" in line for line in options)  # (this seed: it is there)

    run_app(tmp_path, steps, players=4, seed=3)


def test_the_bonus_gap_keeps_two_spaces_before_the_next_column(tmp_path: Path) -> None:
    """Issue 50.9: in a narrow column (short names, or a sitting's pad) "need 63" filled
    it but one space, and read as one with the next ("need 63 0"). There it is "-63";
    "need 63" where the column has room."""

    async def steps(app: YahtzeeApp, pilot: Pilot[None]) -> None:
        card = app.screen.query_one(ScoreCard)
        widths = [column.width for column in card.ordered_columns[1:]]
        cells = [cell.plain for cell in card.get_row("bonus")[1:]]
        for width, cell in zip(widths[:-1], cells[:-1], strict=True):  # a column follows
            assert len(cell) <= width - 2, (cell, width)
        assert len(set(cells)) == 1  # the same words in each column
        assert cells[0] == ("need 63" if len(cells) == 1 or widths[0] >= 9 else "-63")

    run_app(tmp_path, steps, names=["Ann", "Bob", "Cy"])  # columns of 8: "-63"
    run_app(tmp_path, steps, players=2, size=(120, 40))  # columns of 9: "need 63"
    run_app(tmp_path, steps, players=1)  # nothing follows: "need 63"


def test_a_written_file_shows_its_name_whole_and_its_folders_shortened() -> None:
    """Issue 50.9: "Pad written to" cut the path inside the file's name."""
    from yahtzee.tui.printing import PRINT_IT, shown_path, written_note

    home = Path.home()
    pad = home / "Downloads" / "yahtzee-pad-1a2b3c4d.html"
    assert shown_path(pad, 60) == "~/Downloads/yahtzee-pad-1a2b3c4d.html"
    assert shown_path(pad, 30) == "…/yahtzee-pad-1a2b3c4d.html"
    deep = Path("/srv/games/evening/pads/yahtzee-pad-1a2b3c4d.html")
    assert shown_path(deep, 40) == "…/evening/pads/yahtzee-pad-1a2b3c4d.html"
    assert shown_path(deep, 10) == "yahtzee-pad-1a2b3c4d.html"  # the name whole, alone
    note = written_note("Pad written to", deep, 80, PRINT_IT)
    assert note.splitlines() == [
        "Pad written to",
        "…/pads/yahtzee-pad-1a2b3c4d.html",  # 37 columns in a notification at 80 wide
        "Open it in a browser to print it.",
    ]
