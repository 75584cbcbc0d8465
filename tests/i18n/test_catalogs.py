"""The catalogs: every string of the code translated in every language, none stale, the
same placeholders as the English, compiled; the box names as the printed cards have them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from yahtzee.core import language as lang

ROOT = Path(__file__).resolve().parents[2]


def _catalogs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogs", module)
    spec.loader.exec_module(module)
    return module


catalogs = _catalogs_script()


@pytest.fixture(scope="module")
def template() -> Catalog:
    found: Catalog = catalogs.extracted()
    return found


def test_the_code_has_strings_to_translate(template: Catalog) -> None:
    assert len(template) > 500  # every face marks its strings


@pytest.mark.parametrize("code", lang.TRANSLATED)
def test_a_catalog_is_complete_current_and_consistent(code: str, template: Catalog) -> None:
    problems = catalogs.problems(code, template)
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"


@pytest.mark.parametrize("code", lang.TRANSLATED)
def test_a_catalog_has_the_two_plural_forms_the_page_expects(code: str) -> None:
    # The page picks a form with Intl.PluralRules ("one" is the first form): right for
    # gettext's n != 1 and, for French, n > 1 (0 is "one" in both).
    with catalogs.po_path(code).open("rb") as file:
        catalog = read_po(file, locale=code)
    assert catalog.num_plurals == 2
    assert catalog.plural_expr == ("(n > 1)" if code == "fr" else "(n != 1)")


@pytest.mark.parametrize(
    ("placeholders", "english", "translated", "same"),
    [
        ("braces", "Unknown box {name}.", "Unbekanntes Feld {name}.", True),
        ("braces", "{n} points", "{count} Punkte", False),
        ("braces", "{who} scored {points}", "{points} für {who}", True),
        ("percent", "usage: %(prog)s", "Aufruf: %(prog)s", True),
        ("percent", "%s and %s", "%s", False),
        ("literal", "50% chance", "50 % de chance", True),
    ],
)
def test_placeholders_are_compared(
    placeholders: str, english: str, translated: str, same: bool
) -> None:
    assert (catalogs.placeholders(english) == catalogs.placeholders(translated)) is same


PRINTED = {
    # Kniffel (Hasbro's German Yahtzee) and the Swedish Yatzy block, as printed.
    ("de", "american box"): [
        "Einser", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser", "Dreierpasch",
        "Viererpasch", "Full House", "Kleine Straße", "Große Straße", "Kniffel", "Chance",
    ],
    ("sv", "yatzy box"): [
        "Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par", "Tretal",
        "Fyrtal", "Liten stege", "Stor stege", "Kåk", "Chans", "Yatzy",
    ],
}  # fmt: skip


@pytest.mark.parametrize(("code", "context"), sorted(PRINTED))
def test_box_names_are_the_printed_cards(code: str, context: str) -> None:
    from yahtzee.core import Category, YatzyBox

    boxes = list(Category) if context == "american box" else list(YatzyBox)
    with lang.speaking(code):
        assert [box.display_name for box in boxes] == PRINTED[code, context]
