"""The scorepad fits its paper sideways as well as down (issue 27, item 4): printed on one
page (tests/render/test_pad_html.py), and no column cut off at the right edge, which a
PDF's page count does not show. Checked in Chromium's print media at the printable width
of each paper (A4 and Letter, less the page's margins)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from yahtzee import Game, RandomDice, RuleSet
from yahtzee.render.pad_html import MAX_PAD_GAMES, MAX_PAD_PLAYERS, render_pad

MM = 96 / 25.4  # CSS px per millimetre
PAPER = {"A4": (210, 297), "letter": (215.9, 279.4)}  # mm, upright


def sitting(players: int, games: int) -> list[Game]:
    """Games of random legal moves (three-digit totals, a Yahtzee bonus now and then)."""
    names = [f"Player number {p + 1}" for p in range(players)]
    played = []
    for seed in range(games):
        rng, game = random.Random(seed), Game(names, dice=RandomDice(seed))
        while not game.is_over:
            game.play(rng.choice(list(game.legal_actions())))
        played.append(game)
    return played


@pytest.mark.parametrize("paper", list(PAPER))
@pytest.mark.parametrize(
    "players, games", [(MAX_PAD_PLAYERS, MAX_PAD_GAMES), (1, MAX_PAD_GAMES), (4, 3)]
)
def test_no_column_is_cut_off(
    browser: Any, tmp_path: Path, paper: str, players: int, games: int
) -> None:
    played = sitting(players, games)
    page_html = render_pad(RuleSet.official(), played[0].players, played)
    sideways = "size: landscape" in page_html
    short, long = PAPER[paper]
    margin = 10 if sideways else 12  # the pad's @page margins
    width = ((long if sideways else short) - 2 * margin) * MM
    path = tmp_path / "pad.html"
    path.write_text(page_html, encoding="utf-8")
    page = browser.new_page(viewport={"width": int(width), "height": 1000})
    page.emulate_media(media="print")
    page.goto(path.as_uri())
    used = page.evaluate("() => document.querySelector('table').getBoundingClientRect().right")
    assert used <= width + 0.5, (paper, players, games, used, width)
    spilled = page.evaluate(
        "() => [...document.querySelectorAll('th, td')]"
        ".filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent)"
    )
    assert spilled == [], (paper, players, games)  # every number and label inside its cell
    page.close()
