"""The printable scorecard: the paper layout, one column per player, one printed page."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.browser_support import print_to_pdf
from yahtzee import UPPER_BONUS, UPPER_BONUS_THRESHOLD, Game, RandomDice
from yahtzee.core import YAHTZEE_BONUS
from yahtzee.render.scorecard_html import render_scorecard


def finished(players: int) -> Game:
    rng = random.Random(players)
    game = Game([f"Player number {i + 1}" for i in range(players)], dice=RandomDice(players))
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
    return game


def test_layout_follows_the_paper_card() -> None:
    game = finished(2)
    page = render_scorecard(game, game_id="abcd1234")
    rows = re.findall(r'<th class="box" scope="row">(.*?)</th>', page)
    labels = [re.sub(r"<.*?>.*?</span>|<.*?>", "", r).strip() for r in rows]
    assert labels[:6] == ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"]
    assert labels[6:9] == ["Upper total", "Bonus", "Upper section total"]
    assert labels[9:16] == ["Three of a Kind", "Four of a Kind", "Full House", "Small Straight",
                            "Large Straight", "Yahtzee", "Chance"]  # fmt: skip
    assert labels[16:] == ["Yahtzee bonus", "Lower section total", "Upper section total",
                           "Grand total"]  # fmt: skip
    for card in game.cards:
        assert f">{card.total}</td>" in page
    assert page.count('<th scope="col">') == 2
    assert "<script" not in page and not re.search(r"(src|href)=", page)


@pytest.mark.parametrize("rules", ["no-yahtzee-bonus", "no-bonus-no-joker"])
def test_no_yahtzee_bonus_card_does_not_promise_100_each(rules: str) -> None:
    page = render_scorecard(Game(["Ann"], rules, RandomDice(1)))
    assert "100 each" not in page
    assert "Yahtzee bonus <span class=note>(none under these rules)</span>" in page


def test_card_notes_state_the_rule_set_bonuses() -> None:
    page = render_scorecard(Game(["Ann"], "official", RandomDice(1)))
    assert f"({YAHTZEE_BONUS} each)" in page
    assert f"({UPPER_BONUS} at {UPPER_BONUS_THRESHOLD} or more)" in page


def test_names_are_escaped() -> None:
    game = Game(["<b>Ann</b>"], dice=RandomDice(1))
    assert "&lt;b&gt;Ann&lt;/b&gt;" in render_scorecard(game)


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_eight_players_print_on_one_page(paper: str, tmp_path: Path) -> None:
    page = render_scorecard(finished(8), game_id="x" * 36)
    page = page.replace("@page { margin: 12mm; }", f"@page {{ size: {paper}; margin: 12mm; }}")
    html, pdf = tmp_path / "card.html", tmp_path / "card.pdf"
    html.write_text(page, encoding="utf-8")
    print_to_pdf(html, pdf)
    pages = re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())
    assert len(pages) == 1
