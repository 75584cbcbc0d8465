"""Opening the records and reading an export: whatever is wrong, one clear sentence."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.store.test_transfer import fill
from yahtzee import InvalidInput
from yahtzee.store import Store, export_csv, export_json, history
from yahtzee.store.engine import DATA_DIR_ENV, database_exists, default_url, describe
from yahtzee.store.transfer import parse_export

CUT = "This export is cut short"


def test_a_file_that_is_not_a_database_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Remember the milk.\n")
    with pytest.raises(InvalidInput, match=r"notes.txt is not a yahtzee database"):
        Store(f"sqlite:///{notes}")
    assert notes.read_text() == "Remember the milk.\n"
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(InvalidInput, match=r"other.db is not a yahtzee database"):
        Store(f"sqlite:///{other}")
    with sqlite3.connect(other) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("recipes",)]


def test_no_database_is_made_by_asking_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'yahtzee.db'}"
    assert not database_exists()
    assert not (tmp_path / "data").exists()
    assert database_exists("sqlite://") and database_exists("postgresql://u@h/x")
    assert describe("postgresql://u:secret@h/x") == "postgresql://u:***@h/x"
    with Store() as store:
        assert history(store) == []
    assert database_exists()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_an_export_cut_anywhere_says_it_is_cut(fmt: str, tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        fill(store)
        text = export_json(store) if fmt == "json" else export_csv(store)
    header = text.index("\n") + 1
    for end in range(header + 1, len(text) - 1, max(1, len(text) // 300)):
        if fmt == "csv" and text[end - 1] == "\n":
            continue  # cut between two rows: a shorter file, which reads
        with pytest.raises(InvalidInput, match=CUT):
            parse_export(text[:end], fmt)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not a yahtzee JSON export: the file is empty"),
        ("   \n", "not a yahtzee JSON export: the file is empty"),
        ("Remember the milk.", "not a yahtzee JSON export: it is not JSON at all"),
        ("[]", "not a yahtzee JSON export"),
        ("{}", "not a yahtzee JSON export"),
        ('{"format": "yahtzee-records", @@ "version": 1, "games": []}', "damaged"),
    ],
)
def test_a_json_file_that_is_no_export(text: str, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        parse_export(text, "json")
    if text.strip().startswith(("{", "[")):
        with pytest.raises(InvalidInput, match=words):
            parse_export(text)  # told apart by its first character
