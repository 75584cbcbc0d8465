"""Real dice in the terminal game: the players roll at the table and type the dice, or
write a box's points; a bot cannot sit. Driven by keys as a player does, checked against
the engine and the records."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from tests.tui.helpers import drive, screen_name, settle
from tests.tui.screens_helpers import screen_text
from yahtzee.core import Category, Dice, Game, RuleSet
from yahtzee.service.session import NO_BOTS_ENTERED
from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import BOX_KEYS, ScoreCard, row_of

TIMEOUT_S = 400.0
"""The longest a whole driven game may take (every wait inside has its own limit)."""

C = Category
PLAIN = [  # a turn per box, in card order: the dice typed and the box filled
    ("11123", C.ONES), ("22213", C.TWOS), ("33312", C.THREES), ("44412", C.FOURS),
    ("55512", C.FIVES), ("66612", C.SIXES), ("44456", C.THREE_OF_A_KIND),
    ("66662", C.FOUR_OF_A_KIND), ("22333", C.FULL_HOUSE), ("12346", C.SMALL_STRAIGHT),
    ("23456", C.LARGE_STRAIGHT), ("12345", C.YAHTZEE), ("65431", C.CHANCE),
]  # fmt: skip
YAHTZEES = [  # a Yahtzee (the "Yahtzee of" shortcut), one forced in Fives, one a Joker
    ("55555", C.YAHTZEE), ("55555", C.FIVES), ("55555", C.LARGE_STRAIGHT),
    *[(dice, box) for dice, box in PLAIN if box not in (C.YAHTZEE, C.FIVES, C.LARGE_STRAIGHT)],
]  # fmt: skip


def run(steps: object, store: Store | None = None, size: tuple[int, int] = (100, 32)) -> None:
    drive(steps, store, size, TIMEOUT_S)


async def new_real_game(pilot: Pilot[None], players: int, *, bot: bool = False) -> None:
    """On the new-game screen: more players (or a bot), real dice on, start."""
    for _ in range(players - 1):
        await pilot.press("ctrl+a")
    if bot:
        await pilot.press("ctrl+b")
    await pilot.press("ctrl+e", "ctrl+s")
    await pilot.pause()


async def type_dice(pilot: Pilot[None], dice: str, roll: int = 0) -> None:
    """Say which roll it is (r once per step from "not said"), type the dice, Enter."""
    for _ in range(roll):
        await pilot.press("r")
    await pilot.press(*dice, "enter")
    await pilot.pause()


async def fill(pilot: Pilot[None], app: YahtzeeApp, box: Category) -> None:
    await pilot.press(BOX_KEYS[box])
    await pilot.pause()
    if screen_name(app) == "ConfirmZero":
        await pilot.press("y")
        await pilot.pause()


def messages(app: YahtzeeApp) -> list[str]:
    return [n.message for n in app._notifications]


def test_a_whole_game_of_entered_dice_for_three_with_a_yahtzee_a_joker_and_its_bonus(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    engine = Game(["You", "Player 2", "Player 3"], RuleSet.official(), None, entered=True)
    plans = [YAHTZEES, PLAIN, PLAIN]

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 3)
        session = app.session
        assert session is not None and session.game.entered
        assert "w Write" in screen_text(app, "Footer")
        assert "Roll" not in screen_text(app, "Footer")
        assert not app.screen.query_one("#roll").display  # no Roll button: dice are typed
        for round_ in range(13):
            for seat, plan in enumerate(plans):
                dice, box = plan[round_]
                if seat == 0 and round_ == 0:  # "a Yahtzee of fives", asked for explicitly
                    await pilot.press("x")
                    await pilot.pause()
                    assert screen_name(app) == "YahtzeeOfScreen"
                    await pilot.press("5")
                    await pilot.pause()
                elif seat == 2 and round_ == 0:  # a mistyped die, corrected before placing
                    await type_dice(pilot, "11124")
                    await type_dice(pilot, dice)
                else:
                    await type_dice(pilot, dice, roll=round_ % 4)
                assert session.game.dice == Dice.parse(dice)
                options = session.placements()
                if seat == 0 and round_ == 1:  # forced: a Yahtzee goes in its upper box
                    assert set(options) == {C.FIVES}
                    assert options[C.FIVES].yahtzee_bonus == 100
                if seat == 0 and round_ == 2:  # its upper box filled: a Joker anywhere
                    assert options[C.LARGE_STRAIGHT].joker
                    assert "40+100J" in screen_text(app, "ScoreCard")
                await fill(pilot, app, box)
                engine.enter_dice(dice)
                engine.score(box)
                if round_ == 0 and seat == 1:  # undo: the box opens again, the dice show
                    await pilot.press("u")
                    await pilot.pause()
                    assert session.game.cards[1].is_open(box)
                    await fill(pilot, app, box)
        await settle(pilot)
        assert screen_name(app) == "GameOverScreen"
        game = session.game
        assert game.is_over
        assert [c.total for c in game.cards] == [c.total for c in engine.cards]
        assert game.cards[0].yahtzee_bonus == 200
        assert game.cards[0][C.LARGE_STRAIGHT] == 40
        assert session.game_id is not None
        summary = store.summary(session.game_id)
        assert summary.dice == "entered" and summary.status == "finished"
        assert summary.totals == tuple(c.total for c in engine.cards)
        assert store.event_log(session.game_id) == game.events  # every entry saved

    with store:
        run(steps, store)


def test_bad_dice_are_refused_with_the_engines_sentence_and_nothing_changes() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 1)
        session = app.session
        assert session is not None
        before = session.game.event_log
        for typed, said in (
            ("33376", "'7' in '33376' is not a die face: each die shows 1 to 6."),
            ("3335", "4 dice in '3335'; a roll has exactly five dice, like 13356."),
            ("333566", "6 dice in '333566'; a roll has exactly five dice, like 13356."),
        ):
            await type_dice(pilot, typed)
            assert messages(app)[-1] == said
            assert session.game.event_log == before  # nothing changed
            assert screen_text(app, "#entry").startswith("Dice " + "".join(f"[{d}]" for d in typed))
            await pilot.press("escape")  # the typed dice cleared
        await pilot.press("space")
        await pilot.pause()
        assert "roll them, type the five showing" in messages(app)[-1]
        assert session.game.event_log == before

    run(steps)


def test_quick_score_entry_refuses_points_a_box_cannot_hold_and_takes_good_ones() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 2)
        session = app.session
        assert session is not None
        card = app.screen.query_one(ScoreCard)
        for _ in range(row_of(C.FOURS) - card.cursor_row):  # to Fours on the card
            await pilot.press("down")
        await pilot.press("w")
        await pilot.pause()
        assert screen_name(app) == "WriteScreen"
        before = session.game.event_log
        await pilot.press("7", "enter")
        await pilot.pause()
        assert screen_name(app) == "WriteScreen"  # still asking
        assert screen_text(app, "#write-error") == (
            "Fours holds 0, 4, 8, 12, 16 or 20 points under the official rules, not 7."
        )
        assert session.game.event_log == before and session.game.cards[0][C.FOURS] is None
        await pilot.press("backspace", "1", "6", "enter")
        await pilot.pause()
        assert screen_name(app) == "PlayScreen"
        assert session.game.cards[0][C.FOURS] == 16
        assert session.game.current_player == 1  # the next player's turn
        events = session.game.events
        assert events[-1] == {"type": "write", "player": 0, "category": "fours", "points": 16}
        await pilot.press("w", "escape")  # cancelled: nothing written
        await pilot.pause()
        assert session.game.event_log == session.game.event_log[: len(events)]
        assert len(session.game.events) == len(events)

    run(steps)


def test_a_bot_cannot_sit_in_a_game_of_real_dice() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 1, bot=True)
        assert screen_name(app) == "NewGameScreen"  # the game did not start
        assert app.session is None
        assert messages(app)[-1] == NO_BOTS_ENTERED
        await pilot.press("ctrl+e", "ctrl+s")  # real dice off: the bot may sit
        await pilot.pause()
        assert screen_name(app) == "PlayScreen"
        assert app.session is not None and not app.session.game.entered

    run(steps)


def test_the_roll_said_makes_the_hint_advise_a_keep() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 1)
        await type_dice(pilot, "33356", roll=1)
        assert "roll 1 of 3" in screen_text(app, "#turn-info")
        await pilot.press("h")
        await settle(pilot)
        assert "keep 3 3 3" in screen_text(app, "#hint")
        await pilot.press("r", "r", "r")  # roll 2, 3, then not said: about the box
        await settle(pilot)
        assert "roll not said" in screen_text(app, "#turn-info")
        assert "keep" not in screen_text(app, "#hint")
        assert "score" in screen_text(app, "#hint")

    run(steps)


def test_dice_typed_after_a_roll_said_are_the_next_roll_and_r_makes_them_a_correction() -> None:
    """Issue 50.6: typing the dice after a re-roll "corrected" the roll said before (unless
    r was pressed first), so the review judged a last roll as one with two rolls left.
    Now they are the next roll; r on the dice typed makes them a correction instead."""
    from yahtzee.core import DiceEntered
    from yahtzee.solver.review import decisions

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await new_real_game(pilot, 1)
        session = app.session
        assert session is not None
        await type_dice(pilot, "11234", roll=1)
        assert "Dice typed next: roll 2 (r corrects)." in screen_text(app, "#turn-info")
        await pilot.press(*"11165")
        await pilot.pause()
        assert "roll 2 of 3: a new roll (r)" in screen_text(app, "#entry")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(*"11166", "r")  # mistyped: a correction of roll 2
        await pilot.pause()
        assert "roll 2 of 3: corrects them (r)" in screen_text(app, "#entry")
        await pilot.press("enter")
        await pilot.pause()
        await type_dice(pilot, "11666")  # thrown again: roll 3
        assert "roll 3 of 3" in screen_text(app, "#turn-info")
        await fill(pilot, app, C.THREE_OF_A_KIND)
        log = session.game.event_log
        assert [e.roll for e in log if isinstance(e, DiceEntered)] == [1, 2, 2, 3]
        (placed,) = decisions(session.game)
        assert placed.situation.rolls_left == 0  # the review judges the last roll as one

    run(steps)
