"""The scorepad for real dice (issue 27, item 4): one column per game per player and a
running total, blank or filled with a sitting's games; one printed page on A4 or Letter."""

from __future__ import annotations

import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.browser_support import print_to_pdf
from tests.cli_helpers import run_cli
from yahtzee import MAX_PLAYERS, Game, InvalidInput, RandomDice, RuleSet, Scorecard
from yahtzee.render.pad_html import MAX_PAD_GAMES, MAX_PAD_PLAYERS, render_pad


def played(seed: int, names: list[str]) -> Game:
    rng = random.Random(seed)
    game = Game(names, dice=RandomDice(seed))
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
    return game


def cells(page: str, row: str) -> list[str]:
    found = re.search(rf'<tr class="{row}">(.*?)</tr>', page)
    assert found is not None, row
    return re.findall(r"<td[^>]*>(.*?)</td>", found.group(1))


def test_a_blank_pad_has_a_column_per_game_per_player() -> None:
    page = render_pad(RuleSet.official(), 3, 4)
    assert page.count('scope="colgroup" colspan="4"') == 3  # a player over their games
    assert page.count('class="game"') == 12
    assert cells(page, "running") == [""] * 12 and cells(page, "grand") == [""] * 12
    labels = re.findall(r'<th class="box" scope="row">(.*?)</th>', page)
    assert "Running total" in labels[-1] and "Grand total" in labels[-2]
    assert "<script" not in page and not re.search(r"(src|href)=", page)


def test_a_sitting_fills_the_pad_with_running_totals() -> None:
    names = ["Ann", "Bob"]
    games = [played(seed, names) for seed in (1, 2, 3)]
    page = render_pad(RuleSet.official(), names, games)
    grand = [int(t) for t in cells(page, "grand")]
    assert grand == [g.cards[p].total for p in range(2) for g in games]
    running = [int(t) for t in cells(page, "running")]
    assert running == [sum(grand[p * 3 : p * 3 + g + 1]) for p in range(2) for g in range(3)]
    marked = re.findall(r'<td class="(winner)?">\d+</td>', page.split('<tr class="grand">')[1])
    winners = [p in g.winners for p in range(2) for g in games]
    assert [bool(m) for m in marked[: len(winners)]] == winners


@pytest.mark.parametrize(
    "players, games", [(0, 1), (MAX_PAD_PLAYERS + 1, 1), (1, 0), (1, MAX_PAD_GAMES + 1)]
)
def test_a_pad_out_of_range_is_refused(players: int, games: int) -> None:
    with pytest.raises(InvalidInput, match="A pad has 1 to"):
        render_pad(RuleSet.official(), players, games)


@pytest.mark.parametrize(
    "players, games, paper",
    [(MAX_PAD_PLAYERS, MAX_PAD_GAMES, "A4"), (MAX_PAD_PLAYERS, MAX_PAD_GAMES, "letter"),
     (1, MAX_PAD_GAMES, "A4"), (MAX_PAD_PLAYERS, 1, "letter")],
)  # fmt: skip
def test_every_pad_prints_on_one_page(players: int, games: int, paper: str, tmp_path: Path) -> None:
    page = render_pad(RuleSet.official(), players, games)
    turned = "landscape" if "size: landscape" in page else ""
    sized = page.replace("</style>", f"@page {{ size: {paper} {turned}; }}</style>")  # last wins
    html, pdf = tmp_path / "pad.html", tmp_path / "pad.pdf"
    html.write_text(sized, encoding="utf-8")
    print_to_pdf(html, pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())) == 1


def test_the_cli_writes_a_blank_pad_and_refuses_what_it_cannot_print(tmp_path: Path) -> None:
    out = tmp_path / "pad.html"
    args = ["--players", "2", "--games", "3", "--rules", "no-joker", "--html", str(out)]
    done = run_cli("card", "--blank", *args)
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert page.count('class="game"') == 6 and "Rules: no-joker" in page
    for bad, says in [
        (["card", "--blank", "--players", "9", "--html", str(out)], "from 1 to 8"),
        (["card", "--blank", "--games", "two", "--html", str(out)], "whole number"),
        (["card", "--html", str(out)], "Name a GAME_ID"),
        (["card", "abc", "--blank", "--html", str(out)], "Name a GAME_ID"),
        (["card", "--blank", "--rules", "nope", "--html", str(out)], "nope"),
    ]:
        refused = run_cli(*bad)
        assert refused.returncode == 2 and says in refused.stderr, (bad, refused.stderr)
        assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr


BIG = {"boxes": {"aces": 4, "twos": 8, "threes": 12, "fours": 16, "fives": 20, "sixes": 24,
                 "3k": 30, "4k": 30, "fh": 25, "ss": 30, "ls": 40, "yahtzee": 50, "chance": 30},
       "yahtzee_bonus": 300}  # fmt: skip
"""A card with every number as wide as a card's get: 3-digit totals, 654 in all (a running
total of 3,924 after six games)."""
PRINTED_WIDTH_PX = {"A4": round(277 / 25.4 * 96), "letter": round((279.4 - 20) / 25.4 * 96)}
"""The width a landscape page prints at, less the pad's 10 mm margins (CSS pixels)."""


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_eight_players_fit_the_printed_pad_and_no_number_is_cut(paper: str, tmp_path: Path) -> None:
    """Regression: the pad stopped at 6 players while a game seats 8. At 8 players of 6
    games (48 columns) every number, the widest a card has, fits its cell, as printed."""
    from playwright.sync_api import sync_playwright

    from tests.browser_support import CHROMIUM_FLAGS, chromium

    assert MAX_PAD_PLAYERS == MAX_PLAYERS == 8
    card = Scorecard.from_dict(BIG)
    names = [f"Player {n}" for n in range(1, MAX_PLAYERS + 1)]
    game = SimpleNamespace(players=names, cards=[card] * MAX_PLAYERS, is_over=True, winners=[0])
    page = render_pad(RuleSet.official(), names, [game] * MAX_PAD_GAMES)  # type: ignore[list-item]
    assert "3924" in page
    (tmp_path / "pad.html").write_text(page, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS)
        try:
            view = browser.new_page(viewport={"width": PRINTED_WIDTH_PX[paper], "height": 800})
            view.goto((tmp_path / "pad.html").as_uri())
            view.emulate_media(media="print")
            cut = view.evaluate(
                """() => [...document.querySelectorAll('td, th')]
                    .filter(cell => cell.scrollWidth > cell.clientWidth)
                    .map(cell => cell.textContent)"""
            )
            wide = view.evaluate("document.documentElement.scrollWidth")
        finally:
            browser.close()
    # (the outer border is drawn half outside the table: a pixel at most)
    assert cut == [] and wide <= PRINTED_WIDTH_PX[paper] + 1, (cut, wide)
