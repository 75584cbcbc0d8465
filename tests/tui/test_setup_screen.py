"""The new-game screen: q and ctrl+q quit, the whole footer at 80 columns, the rules
named on the command line preselected."""

from __future__ import annotations

import re
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests import waiting
from tests.tui.screens_helpers import run_app, screen_text
from yahtzee.core import BotSpec, RuleSet
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.setup_screen import kinds


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
        # drawn after the screen's first refresh (a busy CI worker: not yet at the first pause)
        await waiting.until(lambda: screen_text(app, "Footer"), "the footer drawn", 10.0)
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


def test_the_new_game_screen_offers_the_winning_and_optimal_bots_saying_what_each_does() -> None:
    """Issue 50.2: a seat was a human or a bot of level 1-5; ``winning`` (the headline)
    and ``optimal`` were reached only by ``--bot``. Now a seat offers them, and the screen
    says in a line each what every choice of bot plays for."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press("ctrl+b")
        await pilot.pause()
        kind = list(app.screen.query(".seat-kind").results(Select))[-1]
        offered = [str(prompt) for prompt, _ in kind._options]
        assert "Bot, optimal" in offered and "Bot, winning" in offered
        said = screen_text(app, "#kinds-help")
        assert "winning: plays for the best chance to finish first" in said
        assert "optimal: plays for the most points" in said
        assert "level 1-5: plays for points, from many mistakes (1) to none (5)" in said
        kind.value = "winning"
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = app.session
        assert session is not None
        assert session.seats[1].bot == BotSpec("winning")
        assert session.seats[1].name == "Bot 2 (winning)"

    run_app(steps)


def test_every_bot_the_readme_names_for_the_new_game_screen_is_offered_there() -> None:
    """The README's sentence about the new-game screen names its bots (`optimal`,
    `winning`): each one is a choice of a seat there."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    sentence = " ".join(readme.split("`yahtzee` opens a new-game screen", 1)[1].split())
    named = re.findall(r"`([a-z]+)`", sentence.split("rule set", 1)[0])
    assert named, "the README no longer names the new-game screen's bots"
    offered = {value for _name, value in kinds()}
    for kind in named:
        assert BotSpec.parse(kind).key in offered, f"the README offers {kind!r}"


def test_a_checkbox_shows_on_and_off_by_its_mark_not_only_its_colour() -> None:
    """Issue 50.9: the Hints, Undo and Real dice boxes looked alike on and off but for
    the colour; on, the box holds a tick, off it is blank."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert screen_text(app, "#hints") == "▐✓▌ Hints"
        assert screen_text(app, "#undo") == "▐ ▌ Undo"
        await pilot.click("#undo")
        await pilot.pause()
        assert screen_text(app, "#undo") == "▐✓▌ Undo"
        await pilot.click("#hints")
        await pilot.pause()
        assert screen_text(app, "#hints") == "▐ ▌ Hints"

    run_app(steps)
