"""The command line under the Yatzy rule sets (issue 54): a whole plain-mode game, the
boxes by their names and codes, a box of another edition or out of the forced order
refused with the core's sentence (one line; exit 2 for a command)."""

from __future__ import annotations

import json

from tests.cli_helpers import run_cli, score_lines
from yahtzee.core import YatzyBox

CODES = [box.code for box in YatzyBox]  # 1s ... 6s, 1p, 2p, 3k, 4k, ss, ls, fh, ch, yz
ONE_PAIR_IN_AMERICAN = "Unknown box 'one_pair'. One Pair is a box of Yatzy, not of Yahtzee."


def test_a_whole_yatzy_game_in_plain_mode_by_the_boxes_codes() -> None:
    ann = ["aces", *CODES[1:]]  # Aces: the American card's name of Ones, also Yatzy's
    answers = score_lines([box for pair in zip(ann, CODES, strict=True) for box in pair])
    result = run_cli("play", "--plain", "Ann", "Bob", "--rules", "yatzy", "--seed", "7",
                     "--no-record", stdin="\n".join(answers) + "\nquit\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert out.startswith("Yatzy (yatzy rules, the program rolls).")
    assert out.count("Round ") == 30 and "Round 15 of 15: Bob" in out
    assert "Unknown box 'aces'" not in out  # Ones is also called aces
    for box in YatzyBox:
        assert out.count(f" in {box.display_name}. Total") == 2  # Ann's and Bob's
    assert "Game over." in out and "Yahtzee bonus" not in out


def test_the_card_in_plain_mode_shows_the_yatzy_boxes_and_no_yahtzee_bonus() -> None:
    result = run_cli("play", "--plain", "--rules", "yatzy", "--seed", "1", "--no-record",
                     stdin="s ch\ncard\nquit\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Round 1 of 15" in out
    card = out[out.index("  Ones") :]
    for box in YatzyBox:
        assert f"  {box.display_name:<16}" in card
    assert "Upper 0 (bonus 0, 63 to go), total" in card


def test_a_yatzy_box_in_an_american_game_is_refused_naming_the_edition() -> None:
    result = run_cli("play", "--plain", "--real-dice", "--no-record", "Ann",
                     stdin="dice 11223\nwrite one_pair 4\ncard\nquit\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    refused = [line for line in out.splitlines() if "one_pair" in line]
    assert len(refused) == 1 and ONE_PAIR_IN_AMERICAN in refused[0]
    assert "  Aces               -" in out  # nothing written
    score = run_cli("score", "11223", "--box", "one_pair")
    assert score.returncode == 2 and score.stdout == ""
    assert score.stderr.startswith(f"yahtzee: error: {ONE_PAIR_IN_AMERICAN}")
    assert len(score.stderr.strip().splitlines()) == 1


def test_the_forced_order_refuses_a_box_out_of_order_and_changes_nothing() -> None:
    for rules, first in (("yatzy+forced", "Ones"), ("official+forced", "Aces")):
        result = run_cli("play", "--plain", "--rules", rules, "--seed", "2", "--no-record",
                         stdin="s chance\ncard\nquit\n")  # fmt: skip
        out = result.stdout
        assert result.returncode == 0, result.stderr
        said = f"Under the {rules} rules the boxes are filled top to bottom: the next is {first}."
        assert f"You> {said}" in out.splitlines()  # one line after the prompt
        assert "  Chance             -" in out  # nothing changed
        refused = run_cli("score", "12345", "--box", "ch", "--rules", rules)
        assert refused.returncode == 2 and said in refused.stderr


def test_score_and_rules_describe_the_yatzy_card() -> None:
    result = run_cli("score", "11223", "--rules", "yatzy+tp4", "--json")
    assert result.returncode == 0, result.stderr
    placements = json.loads(result.stdout)["placements"]
    assert [p["category"] for p in placements] == [box.key for box in YatzyBox]
    assert {p["category"]: p["points"] for p in placements}["two_pairs"] == 6
    four = run_cli("score", "22225", "--box", "2p", "--rules", "yatzy+tp4")
    assert four.returncode == 0 and "Two Pairs          8" in four.stdout
    rules = run_cli("rules", "yatzy")
    assert rules.returncode == 0
    assert "Upper bonus: 50 points when the six upper boxes add up to 63 or more." in rules.stdout
    assert "Turns: 15 rounds" in rules.stdout and "Two Pairs" in rules.stdout


def test_a_yatzy_game_against_a_bot_and_the_advice_of_the_yatzy_solver() -> None:
    answers = [*score_lines(CODES), "quit"]
    stdin = "\n".join(answers) + "\n"
    result = run_cli("play", "--plain", "Ann", "--bot", "optimal", "--rules", "yatzy",
                     "--seed", "7", "--no-record", stdin=stdin, timeout=300)  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert out.count("Bot 2 (optimal) scores ") == 15 and "Game over." in out
    advice = run_cli("advise", "11223", "0", "1s=3", "one_pair=4", "--rules", "yatzy", "--json")
    assert advice.returncode == 0, advice.stderr
    data = json.loads(advice.stdout)
    assert data["rules"] == "yatzy" and data["situation"] == "11223 0 1s=3 1p=4"
    scored = {option["score"] for option in data["options"]}
    assert scored == {box.key for box in YatzyBox} - {"ones", "one_pair"}  # each open box
    american = run_cli("advise", "11223", "0", "1p=4")
    assert american.returncode == 2 and "One Pair is a box of Yatzy" in american.stderr
