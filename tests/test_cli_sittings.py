"""Sittings in plain mode, as a subprocess: the games the same players play one after the
other ('next'), their standings and columns, kept across a kill -9, and carried by
export and import."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli_helpers import (
    PAD_A,
    PAD_A_TOTAL,
    PAD_B,
    PAD_B_TOTAL,
    pad_lines,
    run_cli,
    score_lines,
    yahtzee_command,
)
from tests.test_cli import assert_one_line_error
from tests.waiting import LineReader, ended

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k", "fh", "ss", "ls",
         "yahtzee", "chance"]  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'records.db'}"


def game_totals(out: str) -> list[dict[str, int]]:
    """Each game's final totals, by player, from the standings after each "Game over."."""
    games = []
    for part in out.split("Game over.")[1:]:
        block = part.split("Type 'next'")[0]
        found = re.finditer(r"^  \d+\. (\w+): (\d+)(?:  \(winner\))?$", block, re.MULTILINE)
        games.append({m[1]: int(m[2]) for m in found})
    return games


def test_a_sitting_of_three_games_keeps_running_totals(db: str) -> None:
    game = score_lines([box for box in BOXES for _ in range(2)])
    lines = [*game, "next", *game, "next", *game, "quit"]
    result = run_cli("play", "Ann", "Bob", "--seed", "11", "--database-url", db,
                     stdin="\n".join(lines) + "\n", timeout=120)  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    totals = game_totals(out)
    assert len(totals) == 3 and totals[0] != totals[1]  # each game its own dice
    assert "Game 2 of sitting " in out and "Game 3 of sitting " in out
    first = out.split("Game over.")[1]
    assert "after 1 games" not in first and "The columns" not in first  # one game: no sitting
    last = out.split("Game over.")[3]
    sums = {name: sum(t[name] for t in totals) for name in ("Ann", "Bob")}
    wins = {name: sum(t[name] == max(t.values()) for t in totals) for name in ("Ann", "Bob")}
    for name in ("Ann", "Bob"):
        won = "game" if wins[name] == 1 else "games"
        assert re.search(rf"\d\. {name}: {sums[name]}, {wins[name]} {won} won", last), last
        running = [sum(t[name] for t in totals[: i + 1]) for i in range(3)]
        cells = "".join(f"{f'{t[name]} / {r}':>13}" for t, r in zip(totals, running, strict=True))
        assert f"  {name:<5}{cells}\n" in last, last
    assert re.search(r"after 3 games:", last)

    listed = json.loads(run_cli("history", "--json", "--database-url", db).stdout)
    sitting = {g["sitting"] for g in listed}
    assert len(sitting) == 1 and len(listed) == 3
    short = next(iter(sitting))[:8]
    ordered = json.loads(
        run_cli("history", "--sitting", short, "--json", "--database-url", db).stdout
    )
    assert [(g["sitting_game"], g["sitting_games"]) for g in ordered] == [(1, 3), (2, 3), (3, 3)]
    assert [dict(zip(g["players"], g["totals"], strict=True)) for g in ordered] == totals
    text = run_cli("history", "--sitting", short, "--database-url", db).stdout
    assert [f"game {n} of 3]" in line for n, line in enumerate(text.splitlines(), 1)] == [True] * 3
    stats = {s["player"]: s for s in json.loads(run_cli("stats", "--json", "--database-url",
                                                        db).stdout)}  # fmt: skip
    assert stats["Ann"]["sittings"] == stats["Bob"]["sittings"] == 1
    best = max(sums.values())
    assert [stats[n]["sittings_won"] for n in ("Ann", "Bob")] == [
        int(sums[n] == best) for n in ("Ann", "Bob")
    ]
    assert "sittings (two games or more): 1 played" in run_cli("stats", "--database-url", db).stdout


def test_a_sitting_not_recorded_keeps_its_games_in_memory() -> None:
    lines = [*pad_lines(PAD_A, PAD_B), "next", *pad_lines(PAD_B, PAD_A), "quit"]
    out = run_cli("play", "--real-dice", "Ann", "Bob", "--no-record",
                  stdin="\n".join(lines) + "\n").stdout  # fmt: skip
    last = out.split("Game over.")[2]
    both = PAD_A_TOTAL + PAD_B_TOTAL
    assert "\nThis sitting after 2 games:\n" in last
    assert f"1. Ann: {both}, 1 game won" in last and f"1. Bob: {both}, 1 game won" in last
    assert f"{PAD_A_TOTAL} / {PAD_A_TOTAL}" in last and f"{PAD_B_TOTAL} / {both}" in last


def test_kill_9_mid_game_of_a_sitting_then_resume_loses_nothing(db: str) -> None:
    first = pad_lines(PAD_A, PAD_B)
    second = ["dice 33356 roll 2", "dice 33355", "score fh", "write fours 8",
              "write aces 3", "dice 66666 1", "dice 66665 roll 3"]  # fmt: skip
    proc = subprocess.Popen(
        [*yahtzee_command(), "play", "--real-dice", "Ann", "Bob", "--database-url", db],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    with ended(proc):
        reader = LineReader(proc.stdout)  # type: ignore[arg-type]
        assert proc.stdin is not None
        proc.stdin.write("\n".join([*first, "next", *second]) + "\n")
        proc.stdin.flush()
        seen: list[str] = []
        # dice said to be roll 3 after roll 1: entered as the roll the player threw
        while "Dice entered: 5 6 6 6 6 (roll 3)" not in (line := reader.next_line(60)):
            assert line, "".join(seen)  # the process ended before the last entry
            seen.append(line)
        proc.kill()  # SIGKILL: no chance to save anything more
        proc.wait(timeout=30)
    assert "Game 2 of sitting " in "".join(seen)

    waiting = json.loads(run_cli("history", "--unfinished", "--json", "--database-url", db).stdout)
    assert len(waiting) == 1 and waiting[0]["dice"] == "entered"
    game_id, sitting = waiting[0]["id"], waiting[0]["sitting"]
    assert (waiting[0]["sitting_game"], waiting[0]["sitting_games"]) == (2, 2)
    # at the kill: Ann's Full House 25 and Aces 3, Bob's Fours 8, Bob's dice 5 6 6 6 6
    rest_of_second = ["card", "cards", "score sixes", *pad_lines(
        {k: v for k, v in PAD_A.items() if k not in {"fh", "aces"}},
        {k: v for k, v in PAD_B.items() if k not in {"fours", "sixes"}},
    )]  # fmt: skip
    lines = [*rest_of_second, "next", *pad_lines(PAD_B, PAD_A), "quit"]
    resumed = run_cli("play", "--resume", game_id[:8], "--database-url", db,
                      stdin="\n".join(lines) + "\n")  # fmt: skip
    out = resumed.stdout
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resumed game {game_id[:8]}: game 2 of sitting {sitting[:8]}." in out
    assert "Round 2 of 13: Bob (total 8)." in out
    assert "  Dice entered: 5 6 6 6 6\n" in out  # the last dice entered, corrected, are back
    card = out.split("Bob's turn, round 2> ")[1]
    assert re.search(r"Fours\s+8\n", card) and re.search(r"Sixes\s+-\n", card)
    assert "  Ann: 28\n  Bob: 8\n" in out  # every box filled before the kill is back
    assert "Bob scores 24 in Sixes. Total 32." in out  # with the dice entered before it
    assert "Game 3 of sitting " + sitting[:8] in out
    bob_second = PAD_B_TOTAL - PAD_B["sixes"] + 24
    assert game_totals(out) == [
        {"Ann": PAD_A_TOTAL, "Bob": bob_second},
        {"Ann": PAD_B_TOTAL, "Bob": PAD_A_TOTAL},
    ]
    last = out.split("Game over.")[2]
    assert "after 3 games:" in last
    ann_all, bob_all = PAD_A_TOTAL * 2 + PAD_B_TOTAL, PAD_B_TOTAL + bob_second + PAD_A_TOTAL
    assert f"1. Ann: {ann_all}, 2 games won" in last and f"2. Bob: {bob_all}, 1 game won" in last
    listed = json.loads(run_cli("history", "--sitting", sitting, "--json",
                                "--database-url", db).stdout)  # fmt: skip
    assert [g["status"] for g in listed] == ["finished"] * 3 and listed[1]["id"] == game_id

    events = json.loads(run_cli("export", "--database-url", db).stdout)
    second_game = next(g for g in events["games"] if g["id"] == game_id)
    entered = [(e["dice"], e.get("roll")) for e in second_game["events"] if e["type"] == "dice"]
    # dice typed after roll 2 without a roll said: roll 3, the one the player threw
    assert entered[:4] == [("33356", 2), ("33355", 3), ("66666", 1), ("56666", 3)]


def test_export_import_export_is_identical_with_sittings_and_real_dice(
    db: str, tmp_path: Path
) -> None:
    sitting = [*pad_lines(PAD_A, PAD_B), "next", *pad_lines(PAD_B, PAD_A), "quit"]
    assert run_cli("play", "--real-dice", "Ann", "Bob", "--database-url", db,
                   stdin="\n".join(sitting) + "\n").returncode == 0  # fmt: skip
    rolled = score_lines(BOXES)
    assert run_cli("play", "Cy", "--seed", "4", "--database-url", db,
                   stdin="\n".join(rolled) + "\n").returncode == 0  # fmt: skip
    assert run_cli("play", "--real-dice", "Ann", "--database-url", db,
                   stdin="dice 33356 2\nquit\n").returncode == 0  # fmt: skip
    for fmt in ("json", "csv"):
        first = run_cli("export", "--format", fmt, "--database-url", db)
        assert first.returncode == 0, first.stderr
        path = tmp_path / f"export.{fmt}"
        path.write_text(first.stdout)
        fresh = f"sqlite:///{tmp_path / f'fresh-{fmt}.db'}"
        imported = run_cli("import", str(path), "--database-url", fresh)
        assert imported.stdout.strip() == "Imported 4 games (0 already recorded).", imported
        again = run_cli("export", "--format", fmt, "--database-url", fresh)
        assert again.stdout == first.stdout
        for query in (["history", "--json"], ["stats", "--json"], ["highscores", "--json"],
                      ["highscores", "--dice", "all", "--json"]):  # fmt: skip
            assert (
                run_cli(*query, "--database-url", fresh).stdout
                == run_cli(*query, "--database-url", db).stdout
            )
    listed = json.loads(run_cli("history", "--json", "--database-url", db).stdout)
    assert sorted(g["dice"] for g in listed) == ["entered", "entered", "entered", "rolled"]
    assert sorted(g["sitting_games"] for g in listed) == [1, 1, 2, 2]
    exported = json.loads(run_cli("export", "--database-url", db).stdout)
    assert len({g["sitting"] for g in exported["games"]}) == 3


def test_high_scores_tell_real_dice_apart(db: str) -> None:
    assert run_cli("play", "--real-dice", "Ann", "Bob", "--database-url", db,
                   stdin="\n".join(pad_lines(PAD_A, PAD_B)) + "\n").returncode == 0  # fmt: skip
    assert run_cli("play", "Cy", "--seed", "4", "--database-url", db,
                   stdin="\n".join(score_lines(BOXES)) + "\n").returncode == 0  # fmt: skip
    rolled = json.loads(run_cli("highscores", "--json", "--database-url", db).stdout)
    assert [(h["player"], h["dice"]) for h in rolled] == [("Cy", "rolled")]
    entered = json.loads(
        run_cli("highscores", "--dice", "entered", "--json", "--database-url", db).stdout
    )
    assert [(h["player"], h["total"]) for h in entered] == [
        ("Ann", PAD_A_TOTAL), ("Bob", PAD_B_TOTAL)
    ]  # fmt: skip
    text = run_cli("highscores", "--dice", "all", "--database-url", db).stdout
    assert text.startswith("High scores (official rules, any dice)")
    assert text.count("real dice") == 2
    assert "dice the program rolled" in run_cli("highscores", "--database-url", db).stdout
    stats = {s["player"]: s for s in json.loads(run_cli("stats", "--json", "--dice", "entered",
                                                        "--database-url", db).stdout)}  # fmt: skip
    assert set(stats) == {"Ann", "Bob"} and stats["Ann"]["entered_games"] == 1


def test_an_unknown_sitting_or_dice_is_one_line(db: str) -> None:
    assert run_cli("play", "Ann", "--real-dice", "--database-url", db,
                   stdin="write aces 3\nquit\n").returncode == 0  # fmt: skip
    for argv in (["history", "--sitting", "nope"], ["history", "--sitting", " "],
                 ["highscores", "--dice", "thrown"], ["stats", "--dice", "all"]):  # fmt: skip
        result = run_cli(*argv, "--database-url", db)
        assert_one_line_error(result)
    said = run_cli("history", "--sitting", "nope", "--database-url", db).stderr
    assert said == "yahtzee: error: No sitting 'nope' is recorded ('yahtzee history' lists them).\n"
