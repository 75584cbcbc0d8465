"""Names and chat as plain text: joiners kept (emoji families, Indic, Persian), stacked
combining marks limited, control and formatting characters gone (property tests)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.core import clean_text, name_key, same_name
from yahtzee.core.players import JOINERS, MAX_MARKS, ZWJ, ZWNJ

LIMIT = 200


def is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def longest_mark_run(text: str) -> int:
    """The most combining marks on one character (joiners do not start a new one)."""
    longest = run = 0
    for ch in text:
        if ch in JOINERS:
            continue
        run = run + 1 if is_mark(ch) else 0
        longest = max(longest, run)
    return longest


@pytest.mark.parametrize(
    "text",
    [
        f"\U0001f468{ZWJ}\U0001f469{ZWJ}\U0001f467{ZWJ}\U0001f466",  # a family, one glyph
        f"\U0001f3f3\ufe0f{ZWJ}\U0001f308",  # the rainbow flag
        f"\U0001f469\U0001f3fd{ZWJ}\U0001f4bb",  # a technologist with a skin tone
        f"\u0645\u06cc{ZWNJ}\u062e\u0648\u0627\u0647\u0645",  # Persian "I want"
        f"\u0915\u094d{ZWJ}\u0937",  # Devanagari half form
        f"\u0d28\u0d4d{ZWJ}",  # a Malayalam chillu, written with a joiner at the end
        "Nguyễn Thị Minh Khai",  # Vietnamese
        "\u0e01\u0e34\u0e48",  # Thai: a vowel and a tone mark on one consonant
        "\u0f56\u0f66\u0f92\u0fb2\u0f74\u0f56\u0f66",  # Tibetan: a stack of three
        "1\ufe0f\u20e3 ok",  # a keycap
    ],
)
def test_real_text_stays_as_it_is(text: str) -> None:
    assert clean_text(text, LIMIT) == unicodedata.normalize("NFC", text)


def test_a_tower_of_marks_is_cut() -> None:
    zalgo = "H" + "\u0336\u0334\u0301\u0300\u0302\u0303\u0304\u0305" * 5 + "i"
    cleaned = clean_text(zalgo, LIMIT)
    assert cleaned.startswith("H") and cleaned.endswith("i")
    assert longest_mark_run(cleaned) == MAX_MARKS
    assert longest_mark_run(clean_text("a" + f"\u0301{ZWJ}" * 20, LIMIT)) == MAX_MARKS


def test_control_and_formatting_characters_go() -> None:
    assert clean_text("a\u202eb\x00c\u200bd\u2066e\u2028f\nline", LIMIT) == "a b c d e f line"
    assert clean_text(f" hi{ZWJ} \t", LIMIT) == f"hi{ZWJ}"
    assert clean_text(f" {ZWJ} {ZWNJ}\u200b", LIMIT) == ""  # nothing a reader would see
    assert clean_text(f"a{ZWJ}{ZWJ}{ZWNJ}{ZWJ}b", LIMIT) == f"a{ZWJ}b"


TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from([ZWJ, ZWNJ, "\u0301", "\u0489", "\u094d", " ", "\t", "\u202e"]),
    ),
    max_size=300,
)


@given(TEXT, st.integers(min_value=0, max_value=250))
def test_clean_text_properties(text: str, limit: int) -> None:
    cleaned = clean_text(text, limit)
    assert len(cleaned) <= limit
    assert all(ch.isprintable() or ch in JOINERS for ch in cleaned)
    assert longest_mark_run(cleaned) <= MAX_MARKS
    assert cleaned == cleaned.strip()
    assert "  " not in cleaned
    assert clean_text(cleaned, limit) == cleaned


PLAIN = st.characters(categories=["Lu", "Ll", "Lo", "Nd", "Po", "So", "Sm"], exclude_characters=" ")


@given(st.lists(st.tuples(PLAIN, st.sampled_from(["", " ", ZWJ, ZWNJ])), max_size=60))
def test_plain_text_with_joiners_passes_unchanged(parts: list[tuple[str, str]]) -> None:
    text = unicodedata.normalize("NFC", "".join(ch + sep for ch, sep in parts).rstrip())
    assert clean_text(text, LIMIT) == text[:LIMIT].rstrip()


# Names compared ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann", "ANN"),
        ("Ann", "\uff21\uff4e\uff4e"),  # fullwidth
        ("fifi", "\ufb01\ufb01"),  # the ligature fi
        ("Stra\u00dfe", "STRASSE"),
        ("Ann", "Ann\u200d"),  # an invisible joiner
        ("Bot 2 (level 3)", "bot \uff12 (LEVEL 3)"),
        ("Jose\u0301", "Jos\u00e9"),  # composed or not
    ],
)
def test_names_that_look_alike_are_the_same(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)
    assert same_name(other, ["Bob", None, one]) == one


@given(st.text(max_size=40))
def test_the_name_key_is_settled(name: str) -> None:
    """A key is its own key: comparing keys is an equivalence."""
    assert name_key(name_key(name)) == name_key(name)


def test_different_names_stay_different() -> None:
    assert same_name("Ann", ["Anne", "Bob", "A nn", "\u0410nn"]) is None  # Cyrillic A: not NFKC
