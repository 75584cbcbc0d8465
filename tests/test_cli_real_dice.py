"""``yahtzee play --real-dice`` in plain mode, as a subprocess: the players roll real dice at
the table and type them (``dice 33356``) or write a box's points (``write fours 12``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli_helpers import PAD_A, PAD_A_TOTAL, PAD_B, PAD_B_TOTAL, pad_lines, run_cli
from tests.test_cli import assert_one_line_error

# Ann's game: a Yahtzee, then two more: the Yahtzee bonus each time, the first forced into
# Fives (the Joker rule: the upper box of the face while it is open), the second a Joker
# in Large Straight. Upper 3+6+9+12+25+18 = 73 (bonus 35); lower 26+17+25+30+40+50+15 = 203;
# Yahtzee bonus 200: 511.
ANN = [
    ["dice 55555", "score yahtzee"],
    ["dice 55555", "score ls", "score fives"],  # ls refused: the Joker must go in Fives
    ["dice 5 5 5 5 5 roll 3", "score ls"],  # Fives filled: a Joker in any lower box
    ["write aces 3"],
    ["write twos 6"],
    ["write threes 9"],
    ["write fours 12"],
    ["write sixes 18"],
    ["dice 66652", "dice 66662", "score 3k"],  # a mistyped die corrected before placing
    ["dice 44441 2", "score 4k"],
    ["write fh 25"],
    ["write ss 30"],
    ["dice 12345", "score chance"],
]
ANN_TOTAL = 511


def three_players_lines() -> list[str]:
    bob, cy = pad_lines(PAD_B), pad_lines(PAD_A)
    lines: list[str] = []
    for turn, (b, c) in enumerate(zip(bob, cy, strict=True)):
        lines += [*ANN[turn], b, c]
    return lines


def test_a_whole_game_of_real_dice_for_three_players(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    lines = three_players_lines()
    result = run_cli("play", "--real-dice", "Ann", "Bob", "Cy", "--database-url", db,
                     stdin="\n".join(lines) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Ann scores 50 in Yahtzee. Total 50." in out
    # the forced Joker: only Fives is offered, and a Large Straight is refused
    assert "  Boxes: Joker: Fives 25+100  (the rules allow only these)" in out
    assert "Ann scores 25 in Fives (a Joker) and a 100-point Yahtzee bonus." in out
    assert "Ann scores 40 in Large Straight (a Joker) and a 100-point Yahtzee bonus." in out
    assert "Corrected: 2 6 6 6 6" in out and "Dice entered: 1 4 4 4 4 (roll 2)" in out
    assert out.count("Round 1 of 13: ") == 3 and "Round 13 of 13: Cy" in out
    assert "Ann's turn, round 1> " in out and "Bob's turn, round 13> " in out
    standings = out.split("Game over.")[1]
    assert f"1. Ann: {ANN_TOTAL}  (winner)" in standings
    assert f"2. Cy: {PAD_A_TOTAL}" in standings and f"3. Bob: {PAD_B_TOTAL}" in standings
    recorded = json.loads(run_cli("history", "--json", "--database-url", db).stdout)
    assert [(g["totals"], g["dice"], g["status"]) for g in recorded] == [
        ([ANN_TOTAL, PAD_B_TOTAL, PAD_A_TOTAL], "entered", "finished")
    ]
    text = run_cli("history", "--database-url", db).stdout
    assert re.search(r"\[sitting \w{8}, game 1 of 1, real dice\]", text), text


def test_the_forced_joker_placement_is_refused_elsewhere(tmp_path: Path) -> None:
    lines = ["dice 55555", "score yahtzee", *pad_lines(PAD_B)[:1], "dice 55555", "score ls",
             "score chance", "cards", "quit"]  # fmt: skip
    out = run_cli("play", "--real-dice", "Ann", "Bob", "--no-record",
                  stdin="\n".join(lines) + "\n").stdout  # fmt: skip
    refusal = out.split("Ann's turn, round 2> ")[2]  # after 'score ls'
    assert refusal == "The Joker rule does not allow Large Straight now. Allowed: Fives.\n"
    assert "The Joker rule does not allow Chance now. Allowed: Fives.\n" in out
    assert "  Ann: 50\n" in out  # nothing changed: the refused placements left the card


def test_quick_score_entry_refuses_an_impossible_score_and_changes_nothing() -> None:
    lines = ["write fours 13", "write fh 24", "write fours", "write fours twelve",
             "write bogus 3", "cards", "card", "write fours 12", "write chance 20",
             "dice 33356", "write fours 8", "cards", "quit"]  # fmt: skip
    result = run_cli("play", "--real-dice", "Ann", "Bob", "--no-record",
                     stdin="\n".join(lines) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    said = {line.split("> ", 1)[1] for line in out.splitlines() if "> " in line}
    assert "Fours holds 0, 4, 8, 12, 16 or 20 points under the official rules, not 13." in said
    assert "Full House holds 0 or 25 points under the official rules, not 24." in said
    assert "Write a box and its points, like 'write fours 12'." in said
    assert "Points are a whole number, like 'write fours 12', not 'twelve'." in said
    assert any(line.startswith("Unknown box 'bogus'") for line in said)
    card = out.split("  Aces")[1]
    assert re.search(r"Fours\s+-\n", card) and "total 0" in card  # nothing was written
    assert "Ann scores 12 in Fours. Total 12." in out
    assert "Bob scores 20 in Chance. Total 20." in out
    assert any(line.startswith("Fours is already filled (12)") for line in said)  # Ann's again
    assert out.rstrip().endswith("Game stopped.")
    assert "  Ann: 12\n  Bob: 20\n" in out.split("Fours is already filled")[1]


ENTER_HOW = "type the five dice showing, like 'dice 33356', or 'write BOX POINTS'"
NOTHING_TO_UNDO = (
    "There is nothing to take back: a placement can be taken back only until the next roll."
)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("dice 33357", "'7' in '33357' is not a die face: each die shows 1 to 6."),
        ("dice 3335", "4 dice in '3335'; a roll has exactly five dice, like 13356."),
        ("dice 3 3 3 5 6 6", "6 dice in '3 3 3 5 6 6'; a roll has exactly five dice, like 13356."),
        ("dice 333566", "6 dice in '333566'; a roll has exactly five dice, like 13356."),
        ("dice", "Type the five dice showing, like 'dice 33356' (each 1 to 6)."),
        ("dice 33356 roll 4", "A roll of the turn is 1, 2 or 3 (or not said), not '4'."),
        ("dice 33356 0", "A roll of the turn is 1, 2 or 3 (or not said), not '0'."),
        ("dice 33356 roll", "Say the roll as one number, like 'dice 33356 roll 2'."),
        ("roll", f"In this game the players roll their own dice: {ENTER_HOW}."),
        ("keep 33", f"In this game the players roll their own dice: {ENTER_HOW}."),
        ("score fh", f"No dice entered yet: {ENTER_HOW}."),
        ("undo", NOTHING_TO_UNDO),
        ("hint", "Hints are for the player whose dice are showing."),
    ],
)
def test_bad_input_in_a_game_of_real_dice(line: str, said: str) -> None:
    """One line saying what is allowed; nothing changed; the game goes on."""
    lines = [line, "cards", "dice 33356", "score 3k", "quit"]
    result = run_cli("play", "--real-dice", "Ann", "--no-record", stdin="\n".join(lines) + "\n")
    out = result.stdout
    assert result.returncode == 0 and result.stderr == ""
    assert f"Ann's turn, round 1> {said}\n" in out
    assert "Ann's turn, round 1>   Ann: 0\n" in out  # nothing changed
    assert "Ann scores 20 in Three of a Kind. Total 20." in out  # and the game went on


def test_a_filled_box_and_dice_in_a_rolled_game_are_refused() -> None:
    rolled = run_cli("play", "Ann", "--no-record", "--seed", "1",
                     stdin="dice 33356\nwrite fours 12\ncards\nquit\n")  # fmt: skip
    assert rolled.stdout.count(
        "Ann> The program rolls the dice in this game: 'roll' or 'keep DICE' rolls them "
        "(start a game of real dice with 'yahtzee play --real-dice')."
    ) == 2  # fmt: skip
    assert "Ann>   Ann: 0\n" in rolled.stdout
    lines = "write aces 3\ndice 11111\nscore aces\nwrite aces 2\nquit\n"
    filled = run_cli("play", "--real-dice", "Ann", "--no-record", stdin=lines)
    assert filled.stdout.count("Aces is already filled (3).") == 2


def test_real_dice_with_a_bot_is_refused_in_one_line() -> None:
    result = run_cli("play", "--real-dice", "Ann", "--bot", "3")
    assert_one_line_error(result)
    assert "a computer player cannot roll real dice" in result.stderr


def test_undo_and_hint_with_real_dice() -> None:
    lines = ["dice 33356 roll 1", "hint", "dice 33355", "score fh", "undo", "cards", "score 3k",
             "help", "quit"]  # fmt: skip
    result = run_cli("play", "--real-dice", "Ann", "Bob", "--no-record",
                     stdin="\n".join(lines) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    advisor = out.split("Advisor (expected final total with optimal play):")[1]
    assert "best  keep 3 3 3" in advisor  # roll 1 of the turn: the advisor says what to keep
    assert "Taken back: Ann's Full House; the box is open again." in out
    assert "  Dice showing: 3 3 3 5 5" in out
    assert "  Ann: 0\n  Bob: 0\n" in out
    assert "Ann scores 19 in Three of a Kind. Total 19." in out
    help_text = out.split("Commands (real dice")[1]
    for command in ("dice 33356", "roll 2", "score BOX", "write BOX POINTS", "undo", "hint"):
        assert command in help_text


def test_the_default_player_is_spoken_to() -> None:
    out = run_cli("play", "--real-dice", "--no-record", stdin="write aces 3\nquit\n").stdout
    assert "Your turn, round 1> You score 3 in Aces. Total 3." in out


def test_a_playoff_of_real_dice() -> None:
    lines = [*pad_lines(PAD_A, PAD_A), "write aces 3", "dice 66666", "dice 1111", "dice 11111"]
    result = run_cli("play", "--real-dice", "Ann", "Bob", "--no-record", "--rules",
                     "official+playoff", stdin="\n".join(lines) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Ann's playoff roll> Every box is filled: the playoff is one roll of all five " in out
    assert "Playoff: Ann throws 6 6 6 6 6 (sum 30)." in out
    assert "Bob's playoff roll> 4 dice in '1111'" in out
    assert "Playoff: Bob throws 1 1 1 1 1 (sum 5)." in out
    over = out.split("Game over.")[1]
    assert f"1. Ann: {PAD_A_TOTAL}  (winner)" in over and f"2. Bob: {PAD_A_TOTAL}\n" in over


def test_dice_after_a_roll_said_are_the_next_roll_and_fix_corrects_them(tmp_path: Path) -> None:
    """Issue 50.6: dice typed after a re-roll "corrected" the roll said before, so the
    review judged a last roll as one with two rolls left. Now they are the next roll;
    ``fix`` corrects a mistyped die (the same roll)."""
    from yahtzee.core import DiceEntered
    from yahtzee.solver.review import decisions
    from yahtzee.store import Store, history

    db = f"sqlite:///{tmp_path / 'games.db'}"
    lines = ["dice 11234 roll 1", "dice 11165", "fix 11166", "dice 11666", "score 3k", "quit"]
    result = run_cli("play", "--real-dice", "Ann", "--database-url", db,
                     stdin="\n".join(lines) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Dice entered: 1 1 1 5 6 (roll 2)" in out
    assert "Corrected: 1 1 1 6 6 (roll 2)" in out
    assert "Dice entered: 1 1 6 6 6 (roll 3)" in out
    with Store(db) as store:
        (summary,) = history(store)
        game = store.load(summary.id)
    rolls = [e.roll for e in game.event_log if isinstance(e, DiceEntered)]
    assert rolls == [1, 2, 2, 3]
    (placed,) = decisions(game)
    assert placed.situation.rolls_left == 0  # the review judges the last roll as one
