"""The terminal game in the player's language (issue 55): the Language setting on the
new-game screen, every later screen and footer speaking the language chosen, and layouts
that hold longer words at 80x24.

A stand-in catalog (`Longer`: each word with its vowels doubled, ~40% longer, as German and
Dutch run) takes the German catalog's place, so that these tests need no translation;
the snapshots of the real German screens are in ``test_snapshots_de.py``.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.tui.screens_helpers import run_app, screen_text
from yahtzee.core import Edition, language
from yahtzee.core.language import LANGUAGES, current, set_language
from yahtzee.store import Seat
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import BOX_WIDTH, MAX_BOX_WIDTH, box_width


def longer(message: str) -> str:
    """``message`` as the stand-in catalog says it: the vowels of each word of three
    letters or more doubled ("Start" "Staart"); placeholders and newlines kept."""
    words = []
    for word in message.split(" "):
        if "{" in word or len(word) < 3:
            words.append(word)
        else:
            words.append(word[0] + "".join(c * 2 if c in "aeiouAEIOU" else c for c in word[1:]))
    return " ".join(words)


class Longer(gettext.NullTranslations):
    """A catalog that says every string ~40% longer."""

    def gettext(self, message: str) -> str:
        return longer(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return longer(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return longer(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return longer(msgid1 if n == 1 else msgid2)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test ends in English, whatever it chose (the language is process-wide)."""
    yield
    set_language("en")


@pytest.fixture
def german_is_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """German speaks the stand-in catalog (English stays the code's own text)."""
    real = language.translations

    def translations(code: str) -> gettext.NullTranslations:
        return Longer() if code == "de" else real(code)

    monkeypatch.setattr(language, "translations", translations)


def footer(app: YahtzeeApp) -> list[str]:
    """The descriptions the footer of the top screen shows."""
    return [str(key.description) for key in app.screen.query("FooterKey")]


async def choose_language(pilot: Pilot[None], app: YahtzeeApp, code: str) -> None:
    app.screen.query_one("#language", Select).value = code
    await pilot.pause()
    await pilot.pause()


def test_the_language_setting_lists_every_language_by_its_own_name() -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        chooser: Select[str] = app.screen.query_one("#language", Select)
        assert chooser.value == "en"
        assert screen_text(app, "#language-label") == "Language"
        overlay: Any = chooser.query_one("SelectOverlay")  # its menu, an OptionList
        names = [
            str(overlay.get_option_at_index(index).prompt) for index in range(overlay.option_count)
        ]
        assert names == [language.name for language in LANGUAGES]
        assert "Deutsch" in names and "Norsk bokmål" in names

    run_app(steps)


def test_the_game_starts_in_the_language_set_before_it(german_is_longer: None) -> None:
    """The command line sets the language (``--lang de``, ``LANG``) before the game
    starts: the new-game screen speaks it and preselects it."""
    set_language("de")

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert app.screen.query_one("#language", Select).value == "de"
        assert screen_text(app, "#title") == "Neew gaamee"
        assert "Staart" in footer(app)

    run_app(steps)


def test_choosing_a_language_redraws_the_setup_in_it_and_every_later_screen_speaks_it(
    german_is_longer: None,
) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        assert "Start" in footer(app)
        first = app.screen.query(Input).first()
        first.value = "Ann"
        await pilot.press("ctrl+a")  # a second seat, its name the screen's ("Player 2")
        await pilot.pause()
        app.screen.query_one("#undo").value = True  # type: ignore[attr-defined]
        await choose_language(pilot, app, "de")
        assert current() == "de"
        assert screen_text(app, "#title") == "Neew gaamee"
        assert "Staart" in footer(app) and "Start" not in footer(app)
        # what was set up is kept: a typed name as typed, the screen's own in German
        names = [field.value for field in app.screen.query(".seat-name").results(Input)]
        assert names == ["Ann", "Plaayeer 2"]
        assert app.screen.query_one("#undo").value  # type: ignore[attr-defined]
        assert app.screen.query_one("#language", Select).has_focus
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert type(app.screen).__name__ == "PlayScreen"
        assert "Rooll" in footer(app) and "Heelp" in footer(app)
        assert "Roouund 1/13" in screen_text(app, "#status")
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Plaayiing" in screen_text(app, "#help-text")

    run_app(steps)


def test_english_again_after_another_language(german_is_longer: None) -> None:
    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await choose_language(pilot, app, "de")
        await choose_language(pilot, app, "en")
        assert current() == "en"
        assert screen_text(app, "#title") == "New game"
        assert "Start" in footer(app)
        assert app.screen.query(Input).first().value == "You"

    run_app(steps)


def test_longer_words_leave_the_new_game_screen_whole_at_80_columns(
    german_is_longer: None,
) -> None:
    """The rows of options and buttons are drawn tight where longer words would push
    their last field or button off an 80-column screen."""
    set_language("de")

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.pause()
        for row in ("#options", "#buttons"):
            for widget in app.screen.query_one(row).children:
                assert widget.region.right <= 80, (row, widget)

    run_app(steps)


def test_the_card_s_box_column_grows_for_longer_names(german_is_longer: None) -> None:
    american = Edition.american()
    assert box_width(american) == BOX_WIDTH  # English: as always
    set_language("de")
    assert BOX_WIDTH < box_width(american) <= MAX_BOX_WIDTH  # "Yahtzee boonuus"


def test_a_kept_die_s_mark_never_runs_past_the_die(german_is_longer: None) -> None:
    set_language("de")

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press("r", "1")
        await pilot.pause()
        text: Any = app.screen.query_one("#die-1").render()
        lines = str(text).splitlines()
        assert lines[-1].strip() == "1 KEEPT"
        assert all(len(line) <= 7 for line in lines)

    run_app(steps, seats=[Seat("You")], seed=3)
