"""Which mode ``yahtzee play`` opens: the terminal game on a terminal, whatever players,
bots, rules or records the command names; plain mode only with --plain or off a terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from yahtzee import BotSpec, RuleSet
from yahtzee.cli import main
from yahtzee.cli import play as play_command
from yahtzee.service import GameSession
from yahtzee.store import Seat, Store


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class Modes:
    """Runs ``yahtzee ARGV`` on a terminal or off one, and says what it started: the
    terminal game (with its arguments) or plain mode."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tty: bool) -> None:
        self.monkeypatch, self.tty = monkeypatch, tty
        self.terminal: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.plain = 0

    def __call__(self, argv: list[str]) -> int:
        """The exit status (argparse's mistakes included). The streams are replaced here,
        not in a fixture: pytest puts its own back between a fixture and the test."""
        self.monkeypatch.setattr(sys, "stdin", _Stream(self.tty))
        self.monkeypatch.setattr(sys, "stdout", _Stream(self.tty))
        try:
            return main(argv)
        except SystemExit as stop:
            return int(stop.code or 0)

    @property
    def call(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        assert self.plain == 0, "plain mode started"
        assert len(self.terminal) == 1, "the terminal game did not start"
        return self.terminal[0]


def _modes(monkeypatch: pytest.MonkeyPatch, *, tty: bool) -> Modes:
    modes = Modes(monkeypatch, tty)

    def terminal_game(*args: Any, **kwargs: Any) -> None:
        modes.terminal.append((args, kwargs))

    def plain(*_args: Any) -> int:
        modes.plain += 1
        return 0

    monkeypatch.setattr("yahtzee.tui.run", terminal_game)
    monkeypatch.setattr(play_command, "run_plain", plain)
    return modes


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Modes:
    return _modes(monkeypatch, tty=True)


def test_bare_play_on_a_terminal_opens_the_new_game_screen(terminal: Modes) -> None:
    assert terminal(["play"]) == 0
    args, kwargs = terminal.call
    assert args == (None, None, False)
    assert kwargs == {
        "rules": RuleSet.official(), "seats": [], "record": True, "resume": None,
        "entered": False, "undo": None,
    }  # fmt: skip


def test_real_dice_reach_the_terminal_game(terminal: Modes) -> None:
    assert terminal(["play", "Ann", "Bob", "--real-dice"]) == 0
    _, kwargs = terminal.call
    assert kwargs["entered"] is True and kwargs["seats"] == [Seat("Ann"), Seat("Bob")]


def test_names_and_bots_start_the_terminal_game_with_those_seats(terminal: Modes) -> None:
    assert terminal(["play", "Ann", "Bob", "--bot", "3", "--bot", "greedy", "--seed", "7"]) == 0
    args, kwargs = terminal.call
    assert args == (None, 7, False)
    level3, greedy = BotSpec.parse("3"), BotSpec.parse("greedy")
    bots = [Seat(level3.seat_name(2), level3), Seat(greedy.seat_name(3), greedy)]
    assert kwargs["seats"] == [Seat("Ann"), Seat("Bob"), *bots]
    assert [s.name for s in kwargs["seats"]][2:] == ["Bot 3 (level 3)", "Bot 4 (greedy)"]


def test_rules_no_record_and_light_reach_the_terminal_game(terminal: Modes) -> None:
    assert terminal(["play", "--rules", "no-joker", "--no-record", "--light"]) == 0
    args, kwargs = terminal.call
    assert args == (None, None, True)
    assert kwargs["rules"] == RuleSet.named("no-joker")
    assert kwargs["record"] is False and kwargs["seats"] == []


def test_resume_reaches_the_terminal_game_with_the_full_id(terminal: Modes, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.db'}"
    with Store(url) as store:
        game_id = GameSession.new([Seat("Ann")], RuleSet.official(), store=store).game_id
    assert game_id is not None
    assert terminal(["play", "--resume", game_id[:8], "--database-url", url]) == 0
    args, kwargs = terminal.call
    assert args == (url, None, False)
    assert kwargs["resume"] == game_id and kwargs["record"] is True


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--plain"],
        ["play", "--plain", "Ann", "--bot", "2"],
        ["--plain"],  # `yahtzee` takes play's options: regression, it refused them
        ["--plain", "--rules", "no-joker", "--no-record"],
    ],
)
def test_plain_when_asked_for(argv: list[str], terminal: Modes) -> None:
    assert terminal(argv) == 0
    assert terminal.plain == 1 and terminal.terminal == []


@pytest.mark.parametrize("argv", [[], ["play"], ["play", "Ann", "--rules", "no-joker"]])
def test_plain_off_a_terminal(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    modes = _modes(monkeypatch, tty=False)
    assert modes(argv) == 0
    assert modes.plain == 1 and modes.terminal == []


def test_bare_options_are_play_s(terminal: Modes, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    assert terminal(["--database-url", url, "--rules", "no-joker"]) == 0
    args, _ = terminal.call
    assert args[0] == url


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", "abc"],
        ["play", "--seed", "abc"],
        ["play", "--seed", "-3"],
        ["play", "Ann", "ann"],
        ["play", "--bot", "clever"],
        ["play", "--rules", "bogus"],
        ["play", "--resume", "abcd", "--no-record"],
        ["play", "Ann", "--real-dice", "--bot", "3"],  # a bot cannot roll real dice
        ["play", "--real-dice", "--resume", "abcd"],  # a resumed game keeps its dice
        ["play", "--real-dice", "--seed", "7"],  # a seed is the program's dice
    ],
)
def test_mistakes_are_found_before_either_mode_starts(argv: list[str], terminal: Modes) -> None:
    assert terminal(argv) == 2
    assert terminal.terminal == [] and terminal.plain == 0
