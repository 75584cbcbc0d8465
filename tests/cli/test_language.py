"""The command line in the player's language: ``--lang CODE`` anywhere, else the
environment's language; the JSON output the same in every language; a fake catalog's
words in lines, errors and argparse's help; decimals as the language writes them."""

from __future__ import annotations

import gettext
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from tests.cli_helpers import run_cli
from yahtzee import cli
from yahtzee.core import language
from yahtzee.render.numbers import decimal

GERMAN = {
    "Other rule sets: {names}. Add '+playoff' to any name to settle ties\n"
    "for first place by a one-roll playoff.": "Andere Regeln: {names}. (Stichentscheid)",
    "yahtzee: error: {message}": "yahtzee: Fehler: {message}",
    "No card file at {path}.": "Keine Kartendatei unter {path}.",
    "takes a whole number from {low} to {high}, not {value}": (
        "nimmt eine ganze Zahl von {low} bis {high}, nicht {value}"
    ),
    "yahtzee: error: {message} (usage: {usage}; {hint})": (
        "yahtzee: Fehler: {message} (Aufruf: {usage}; {hint})"
    ),
    "Aces": "Einser",
    "best": "beste",
}


class FakeGerman(gettext.NullTranslations):
    """A catalog of a few German words (every other message stays English)."""

    def gettext(self, message: str) -> str:
        return GERMAN.get(message, message)

    def pgettext(self, context: str, message: str) -> str:
        return GERMAN.get(message, message)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    language.set_language(language.ENGLISH)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeGerman()

    def translations(code: str) -> gettext.NullTranslations:
        return fake if code == "de" else gettext.NullTranslations()

    monkeypatch.setattr(language, "translations", translations)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = cli.main(list(argv))
    except SystemExit as stop:
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


# Choosing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "code", "rest"),
    [
        (["--lang", "de", "advise", "13356", "2"], "de", ["advise", "13356", "2"]),
        (["advise", "13356", "2", "--lang", "sv"], "sv", ["advise", "13356", "2"]),
        (["rules", "--lang=nb"], "nb", ["rules"]),
        (["--lang", "de-AT", "rules"], "de", ["rules"]),
        (["--lang", "de", "rules", "--lang", "fr"], "fr", ["rules"]),
        (["play", "--", "--lang", "de"], "en", ["play", "--", "--lang", "de"]),
        (["--lang", "de"], "de", []),
    ],
)
def test_lang_is_read_before_or_after_the_command(
    argv: list[str], code: str, rest: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert cli._language(argv) == (code, rest, None)


def test_an_unknown_code_is_english_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    assert cli._language(["--lang", "xx", "rules"]) == ("en", ["rules"], "xx")


@pytest.mark.parametrize(
    ("env", "code"),
    [
        ({"LANGUAGE": "sv:de"}, "sv"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "nb_NO.UTF-8", "LANG": "de_DE.UTF-8"}, "nb"),
        ({"LANG": "C"}, "en"),
        ({"LANGUAGE": "xx", "LANG": "C.UTF-8"}, "en"),
    ],
)
def test_the_environment_chooses_without_lang(
    env: dict[str, str], code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli._language(["rules"]) == (code, ["rules"], None)
    assert cli._language(["--lang", "fr", "rules"])[0] == "fr"  # --lang comes first


def test_unknown_lang_one_line_on_stderr_then_english() -> None:
    english = run_cli("rules", "yatzy")
    done = run_cli("--lang", "xx", "rules", "yatzy")
    assert done.returncode == 0
    assert done.stdout == english.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "Unknown language 'xx'." in lines[0]
    assert "de (Deutsch)" in lines[0] and "sv (Svenska)" in lines[0]
    assert lines[0].endswith("English is used.")


def test_lang_after_the_command_and_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(capsys, "rules", "--lang", "en")
    assert status == 0 and "Other rule sets" in out
    status, out, _err = run(capsys, "play", "--lang", "en", "--help")
    assert status == 0 and "--lang CODE" in out
    assert "Norsk bokmål" in " ".join(out.split())  # the help names the languages


def test_play_starts_in_the_language_chosen(
    german: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yahtzee.cli import play

    spoken: list[str] = []

    def run_plain(*_args: object) -> int:
        spoken.append(language.current())
        return 0

    monkeypatch.setattr(play, "run_plain", run_plain)
    status, _out, _err = run(capsys, "play", "--plain", "--no-record", "--lang", "de")
    assert status == 0
    assert spoken == ["de"]


# The words of a catalog ---------------------------------------------------------------


def test_a_line_and_an_error_come_out_translated(
    german: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _err = run(capsys, "--lang", "de", "rules", "official")
    assert status == 0
    assert "Andere Regeln: " in out and "Other rule sets" not in out
    status, _out, err = run(capsys, "score", "13356", "--card", "/no/such/card.json", "--lang=de")
    assert status == 2
    assert err.strip() == "yahtzee: Fehler: Keine Kartendatei unter '/no/such/card.json'."


def test_the_environment_language_translates(
    german: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    status, out, _err = run(capsys, "rules")
    assert status == 0 and "Andere Regeln: " in out


def test_a_usage_error_has_german_numbers(german: None, capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, "--lang", "de", "advise", "13356", "2", "--top", "5000")
    assert status == 2
    assert "nimmt eine ganze Zahl von 1 bis 1.000, nicht 5.000" in err
    assert err.startswith("yahtzee: Fehler: ") and "(Aufruf: yahtzee advise " in err
    status, _out, err = run(capsys, "advise", "13356", "2", "--top", "5000")
    assert "takes a whole number from 1 to 1,000, not 5,000" in err  # English as before


def test_json_is_the_same_in_every_language(
    german: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, english, _err = run(capsys, "score", "11123", "--json")
    assert status == 0
    status, german_out, _err = run(capsys, "--lang", "de", "score", "11123", "--json")
    assert status == 0
    assert german_out == english
    assert json.loads(english)["placements"][0]["name"] == "Aces"


def test_decimals_as_the_language_writes_them() -> None:
    with language.speaking("de"):
        assert decimal(254.59, 4, grouping=False) == "254,5900"
        assert decimal(1234.5, 2) == "1.234,50"
    assert decimal(254.59, 4, grouping=False) == "254.5900"
    assert decimal(2.675, 2) == f"{2.675:.2f}"  # rounded as Python rounds, as before


# argparse's own words -----------------------------------------------------------------


@pytest.fixture
def german_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A real compiled German catalog of argparse's words, in a locale folder of its own."""
    catalog = Catalog(locale="de", domain=language.DOMAIN)
    catalog.add("usage: ", "Aufruf: ")
    catalog.add("options", "Optionen")
    catalog.add("show this help message and exit", "diese Hilfe zeigen und beenden")
    catalog.add("the following arguments are required: %s", "diese Argumente fehlen: %s")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{language.DOMAIN}.mo").open("wb") as file:
        write_mo(file, catalog)
    monkeypatch.setattr(language, "LOCALE_DIR", tmp_path)
    language.translations.cache_clear()
    yield
    language.translations.cache_clear()


def test_argparse_speaks_the_language_chosen(
    german_catalog: None, capsys: pytest.CaptureFixture[str]
) -> None:
    before = gettext.textdomain()
    status, out, _err = run(capsys, "--lang", "de", "advise", "--help")
    assert status == 0
    assert out.startswith("Aufruf: yahtzee advise")
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    status, _out, err = run(capsys, "advise", "--lang", "de")
    assert status == 2
    assert "diese Argumente fehlen: situation" in err
    assert gettext.textdomain() == before  # put back after the command
    status, out, _err = run(capsys, "advise", "--help")
    assert out.startswith("usage: yahtzee advise")
