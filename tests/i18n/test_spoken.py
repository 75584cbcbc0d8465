"""The command line in German and Swedish with the real catalogs, as a player meets it:
the advisor's table, a bad input's error, a Yatzy card in Swedish (the printed block's
names), and the JSON output the same bytes in every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import run_cli


def test_advise_in_german() -> None:
    done = run_cli("--lang", "de", "advise", "13356", "2", "--top", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "13356 2  (official-Regeln; erwartete Endsummen bei optimalem Spiel)"
    assert lines[1].split() == ["251,4054", "beste", "3", "3", "halten"]
    assert lines[2].split()[:2] == ["249,9371", "-1,4684"]


def test_advise_in_swedish_from_the_environment() -> None:
    environment = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "sv_SE.UTF-8"}
    done = run_cli("advise", "13356", "2", "--top", "1", env=environment)
    assert done.returncode == 0, done.stderr
    header, best = done.stdout.splitlines()[:2]
    assert "official" in header and "optimalt spel" in header, header
    assert best.split()[0] == "251,4054" and "3 3" in best


@pytest.mark.parametrize(
    ("code", "words"),
    [("de", "yahtzee: Fehler: 4 Würfel in '1335'"), ("sv", "yahtzee: fel: 4 tärningar i '1335'")],
)
def test_a_bad_input_is_refused_in_the_players_language(code: str, words: str) -> None:
    done = run_cli("--lang", code, "advise", "1335", "2")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(words), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_unknown_box_is_named_in_german_with_the_german_boxes() -> None:
    done = run_cli("--lang", "de", "score", "33355", "--box", "dreierpasch")
    assert done.returncode == 0, done.stderr
    assert "Dreierpasch" in done.stdout and "19" in done.stdout
    refused = run_cli("--lang", "de", "score", "33355", "--box", "pasch")
    assert refused.returncode == 2
    assert "Kleine Straße" in refused.stderr and "Aces" not in refused.stderr


SWEDISH_BLOCK = [
    "Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par", "Tretal",
    "Fyrtal", "Liten stege", "Stor stege", "Kåk", "Chans", "Yatzy",
]  # fmt: skip


def test_a_yatzy_card_in_swedish() -> None:
    done = run_cli("--lang", "sv", "score", "33355", "--rules", "yatzy")
    assert done.returncode == 0, done.stderr
    shown = [line.strip().rsplit(None, 1)[0] for line in done.stdout.splitlines()[1:]]
    assert shown == SWEDISH_BLOCK


def test_a_blank_yatzy_pad_prints_in_swedish(tmp_path: Path) -> None:
    page = tmp_path / "pad.html"
    done = run_cli("card", "--blank", "--rules", "yatzy", "--html", str(page), "--lang", "sv")
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert '<html lang="sv"' in html
    for name in SWEDISH_BLOCK:
        assert name in html, name


@pytest.mark.parametrize("code", ["de", "sv", "fr"])
def test_json_output_is_the_same_in_every_language(code: str) -> None:
    english = run_cli("score", "33355", "--rules", "yatzy", "--json")
    spoken = run_cli("--lang", code, "score", "33355", "--rules", "yatzy", "--json")
    assert english.returncode == spoken.returncode == 0
    assert spoken.stdout == english.stdout
    assert '"name": "Full House"' in english.stdout
