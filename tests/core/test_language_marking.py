"""The marked strings of core and solver speak the language in force: a fake catalog (no
.po or .mo file) stands in for a translation, and English stays as it was."""

from __future__ import annotations

import gettext
import re
import warnings
from collections.abc import Iterator

import pytest

from yahtzee.core import Category, InvalidInput, Keep, RuleSet, Score, language
from yahtzee.core.editions import YATZY
from yahtzee.core.language import speaking
from yahtzee.core.yatzy_boxes import YatzyBox
from yahtzee.solver.advice import action_data, action_text

_SWEDISH_BOXES = {
    ("yatzy box", "Full House"): "Kåk",
    ("yatzy box", "One Pair"): "Ett par",
    ("yatzy box", "Chance"): "Chans",
    ("american box", "Full House"): "Full House (de)",
    ("edition", "Yatzy"): "Yatzy (sv)",
}
_MESSAGES = {
    "Unknown box {name}.": "Okänd ruta {name}.",
    "{edition} boxes: {boxes}.": "Rutor i {edition}: {boxes}.",
    "score {box}": "sätt {box}",
    "keep {dice}": "spara {dice}",
}


def _loud(message: str) -> str:
    """The message upper-cased but its placeholders (``{name}``)."""
    return "".join(
        part if part.startswith("{") else part.upper()
        for part in re.split(r"(\{[^{}]*\})", message)
    )


class _Fake(gettext.NullTranslations):
    """A catalog that translates a few strings (and upper-cases the other plain ones, so
    that a string shown untranslated is seen)."""

    def gettext(self, message: str) -> str:
        return _MESSAGES.get(message, _loud(message))

    def pgettext(self, context: str, message: str) -> str:
        return _SWEDISH_BOXES.get((context, message), message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _loud(msgid1 if n == 1 else msgid2)


@pytest.fixture
def swedish(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    fake = _Fake()
    monkeypatch.setattr(language, "translations", lambda code: fake)
    with speaking("sv"):
        yield


def test_box_names_come_from_the_catalog_by_edition(swedish: None) -> None:
    assert YatzyBox.FULL_HOUSE.display_name == "Kåk"
    assert YatzyBox.FULL_HOUSE.short_name == "Full house"  # not translated: as it was
    assert Category.FULL_HOUSE.display_name == "Full House (de)"  # its own context
    assert YatzyBox.FULL_HOUSE.english_name == "Full House"
    assert YATZY.display_title == "Yatzy (sv)"
    assert YATZY.title == "Yatzy"  # the data stays English


def test_parse_box_reads_the_names_of_the_language(swedish: None) -> None:
    assert YatzyBox.parse("Kåk") is YatzyBox.FULL_HOUSE
    assert YatzyBox.parse(" kak ") is YatzyBox.FULL_HOUSE  # accents may be left out
    assert YatzyBox.parse("ETT PAR") is YatzyBox.ONE_PAIR
    assert YatzyBox.parse("full house") is YatzyBox.FULL_HOUSE  # English still read
    assert YatzyBox.parse("fh") is YatzyBox.FULL_HOUSE


def test_an_error_lists_the_boxes_in_the_language(swedish: None) -> None:
    with pytest.raises(InvalidInput) as caught:
        YatzyBox.parse("Stege")
    message = str(caught.value)
    assert message.startswith("Okänd ruta 'Stege'. Rutor i Yatzy (sv): Ones,")
    assert "Kåk" in message
    assert "Chans" in message


def test_an_error_message_is_translated(swedish: None) -> None:
    with pytest.raises(InvalidInput) as caught:
        RuleSet.named("nonsense")
    assert str(caught.value).startswith("UNKNOWN RULE SET 'nonsense'. RULE SETS: official,")


def test_the_rules_in_words_are_translated(swedish: None) -> None:
    text = RuleSet.named("yatzy").describe()
    assert "UPPER SECTION: ONES TO SIXES" in text.upper()
    assert "Kåk: THREE OF ONE FACE" in text
    assert "TIES:" in text


def test_advisor_options_are_translated_but_data_stays_english(swedish: None) -> None:
    assert action_text(Score(YatzyBox.FULL_HOUSE)) == "sätt Kåk"
    assert action_text(Keep.parse("33")) == "spara 3 3"
    assert action_data(Score(YatzyBox.FULL_HOUSE)) == "score Full House"
    assert action_data(Keep.parse("33")) == "keep 3 3"


def test_english_is_unchanged_with_the_real_catalogs() -> None:
    with speaking("en"):
        assert YatzyBox.FULL_HOUSE.display_name == "Full House"
        assert Category.SMALL_STRAIGHT.short_name == "Sm. straight"
        assert YatzyBox.parse("Full House") is YatzyBox.FULL_HOUSE
        with pytest.raises(InvalidInput) as caught:
            YatzyBox.parse("Kåk")
        assert str(caught.value).startswith("Unknown box 'Kåk'. Yatzy boxes: Ones, Twos,")
        assert action_text(Score(Category.CHANCE)) == "score Chance"
        assert action_text(Keep.parse("")) == "keep nothing"
    with speaking("sv"), warnings.catch_warnings():  # a catalog missing: English, a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        assert YatzyBox.FULL_HOUSE.display_name in {"Full House", "Kåk"}
