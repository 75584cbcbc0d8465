"""The player's language: which one is chosen from tags, the environment and an HTTP
header, and the catalogs' fallbacks (English, never a crash)."""

from __future__ import annotations

import gettext
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.core import InvalidInput
from yahtzee.core import language as lang


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("de_DE.UTF-8", "de"),
        ("sv_SE@euro", "sv"),
        ("SV", "sv"),
        ("no", "nb"),
        ("nn-NO", "nb"),
        ("nb_NO.UTF-8", "nb"),
        ("fr-CA", "fr"),
        ("es-419", "es"),
        ("nl-BE", "nl"),
        ("da", "da"),
        ("en-GB", "en"),
    ],
)
def test_tags_name_our_languages(tag: str, code: str) -> None:
    assert lang.match(tag) == code


@pytest.mark.parametrize("tag", ["C", "POSIX", "C.UTF-8", "xx", "ja-JP", "", "*", "deutsch", "d"])
def test_other_tags_name_none(tag: str) -> None:
    assert lang.match(tag) is None


def test_the_first_tag_spoken_wins() -> None:
    assert lang.choose(["ja", "pt-BR", "sv-SE", "de"]) == "sv"
    assert lang.choose(["xx", "C"]) == "en"
    assert lang.choose([]) == "en"


def test_accept_language_is_read_by_weight() -> None:
    header = "ja;q=0.9, de-CH;q=0.5, sv;q=0.7, fr;q=0, *;q=0.1"
    assert lang.accepted(header) == ["ja", "sv", "de-CH"]
    assert lang.choose(lang.accepted(header)) == "sv"
    assert lang.accepted("da, en-GB;q=0.8") == ["da", "en-GB"]
    assert lang.accepted(None) == []
    assert lang.accepted(";;;,q=,de;q=abc") == []


@given(st.text(max_size=300))
def test_any_header_or_tag_is_read_without_error(text: str) -> None:
    code = lang.choose(lang.accepted(text))
    assert code in lang.CODES
    assert lang.match(text) in (*lang.CODES, None)


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANGUAGE": "sv:de", "LANG": "de_DE.UTF-8"}, "sv"),
        ({"LANGUAGE": "xx:nb", "LANG": "de_DE.UTF-8"}, "nb"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "nl_NL", "LANG": "de_DE.UTF-8"}, "nl"),
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": ""}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_as_gettext_reads_it(environ: dict[str, str], code: str) -> None:
    assert lang.from_environment(environ) == code


def test_a_typed_language_is_parsed_or_refused_naming_the_languages() -> None:
    assert lang.parse_language("de-CH") == "de"
    with pytest.raises(InvalidInput) as refused:
        lang.parse_language("xx")
    message = str(refused.value)
    assert refused.value.code == "unknown_language"
    assert message.startswith("Unknown language 'xx'.")
    for language in lang.LANGUAGES:
        assert f"{language.code} ({language.name})" in message


def test_a_context_speaks_its_language_and_restores_the_one_before() -> None:
    assert lang.current() == "en"
    with lang.speaking("de") as code:
        assert code == "de"
        assert lang.current() == "de"
        with lang.speaking("xx") as other:
            assert other == "en"
            assert lang.current() == "en"
        assert lang.current() == "de"
    assert lang.current() == "en"


def test_the_process_language_reaches_threads() -> None:
    seen: list[str] = []
    try:
        lang.set_language("sv")
        thread = threading.Thread(target=lambda: seen.append(lang.current()))
        thread.start()
        thread.join(timeout=10)
        assert seen == ["sv"]
        lang.set_language("xx")
        assert lang.current() == "en"
    finally:
        lang.set_language("en")


def test_a_missing_catalog_is_english_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(lang, "LOCALE_DIR", tmp_path)
    lang.translations.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="German catalog cannot be read"):
            found = lang.translations("de")
        assert type(found) is gettext.NullTranslations
        with lang.speaking("de"):
            assert lang._("Roll") == "Roll"
            assert lang.ngettext("{n} die", "{n} dice", 2) == "{n} dice"
            assert lang.pgettext("american box", "Chance") == "Chance"
    finally:
        lang.translations.cache_clear()


def test_a_broken_catalog_is_english_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    broken = tmp_path / "sv" / "LC_MESSAGES" / "yahtzee.mo"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"\x00not a catalog at all")
    monkeypatch.setattr(lang, "LOCALE_DIR", tmp_path)
    lang.translations.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="Swedish catalog cannot be read"):
            assert type(lang.translations("sv")) is gettext.NullTranslations
    finally:
        lang.translations.cache_clear()


def test_markers_return_the_english_string() -> None:
    assert lang.N_("Chance") == "Chance"
    assert lang.NP_("yatzy box", "Chance") == "Chance"
