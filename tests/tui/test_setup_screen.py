"""The new-game screen: q and ctrl+q quit, the whole footer at 80 columns, the rules
named on the command line preselected."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.tui.screens_helpers import run_app, screen_text
from yahtzee.core import RuleSet
from yahtzee.tui import YahtzeeApp


def test_q_quits_the_new_game_screen_but_types_in_a_name() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        name = app.screen.query(Input).first()
        name.focus()
        await pilot.press("end", "q")
        await pilot.pause()
        assert name.value == "Youq"
        assert app.return_code is None  # still running
        app.screen.query_one("#rules", Select).focus()
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0

    run_app(steps)


def test_ctrl_q_quits_from_a_name_field() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        app.screen.query(Input).first().focus()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0

    run_app(steps)


def test_the_whole_new_game_footer_shows_at_80_columns_with_how_to_quit() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        footer = screen_text(app, "Footer")
        for shown in ("^s Start", "^a Player", "^b Bot", "f2 History", "f3 Stats", "f1 Help"):
            assert shown in footer
        assert footer.endswith("^q Quit")

    run_app(steps)


def test_the_rules_option_preselects_the_rule_set() -> None:
    """``yahtzee play --rules no-joker`` gives the app these rules: the new-game screen
    opens with them selected, and a game started there plays them."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert app.screen.query_one("#rules", Select).value == "no-joker"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.session is not None and app.session.rules.name == "no-joker"

    run_app(steps, rules=RuleSet.named("no-joker"))


def test_history_and_statistics_say_why_there_are_none_without_records() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press("f2")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"
        assert any("--no-record" in n.message for n in app._notifications)

    run_app(steps)
