"""Names that look alike (`store.names`): one key for the spellings of one name, after
NFKC, case folding and the Unicode confusables skeleton; another for a name that reads
differently."""

from __future__ import annotations

import unicodedata

import pytest

from yahtzee.store.names import look_alike, look_alike_key

CYRILLIC_A = "\u0410"
CYRILLIC_E = "\u0435"
FULLWIDTH_V = "\uff36"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Vera1", "VERA1"),  # capitals
        ("Vera1", "vera1"),
        ("Vera1", f"{FULLWIDTH_V}era1"),  # a fullwidth letter (NFKC)
        ("Vera1", f"V{CYRILLIC_E}ra1"),  # a Cyrillic e (the skeleton)
        ("Vera1", "Veral"),  # a digit one and a small L look alike
        ("Ann", f"{CYRILLIC_A}nn"),
        ("Straße", "STRASSE"),  # full case folding
        ("\ufb01fi", "FIFI"),  # the ligature fi
        ("Fi\u200dfi", "fifi"),  # an invisible joiner
        ("Emma", "Ernrna"),  # m and rn
        ("Bot 3 (level 3)", "B\u043et \uff13 (level 3)"),  # a Cyrillic o and a fullwidth 3
    ],
)
def test_spellings_of_one_name_have_one_key(one: str, other: str) -> None:
    assert look_alike_key(one) == look_alike_key(other)
    assert look_alike(other, ["Bob", None, one]) == one


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ann", "Anne"), ("Ann", "A nn"), ("Vera1", "Vera2"), ("Zoë", "Zoe"), ("Ōsaka", "Osaka")],
)
def test_names_that_read_differently_have_their_own_keys(one: str, other: str) -> None:
    assert look_alike_key(one) != look_alike_key(other)
    assert look_alike(other, ["Bob", None, one]) is None


@pytest.mark.parametrize(
    "name", ["Vera1", f"{CYRILLIC_A}nn", "\uff2d\uff41\uff58", "Zoë", "Zo\u0065\u0308", "Émile"]
)
def test_the_key_is_composed_and_settled(name: str) -> None:
    """The key is text in NFC (as stored), and the key of a key is itself."""
    key = look_alike_key(name)
    assert unicodedata.is_normalized("NFC", key)
    assert look_alike_key(key) == key


def test_without_pyicu_names_are_refused_with_the_install_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PyICU comes with the server's extras only: the terminal game installs without it,
    and a name compared without it says what to install (never an ImportError)."""
    import sys

    from yahtzee.core import YahtzeeError
    from yahtzee.store import names

    monkeypatch.setitem(sys.modules, "icu", None)  # import icu raises ImportError
    names._checker.cache_clear()
    try:
        with pytest.raises(YahtzeeError, match=r"pip install '\.\[web\]'"):
            look_alike_key("Ann")
    finally:
        names._checker.cache_clear()
