"""The printable pad and card of a Yatzy game (issue 54): the fifteen boxes of its card,
its 50-point upper bonus at 63, no Yahtzee bonus line; one printed page."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.browser_support import print_to_pdf
from tests.cli_helpers import run_cli
from yahtzee import Game, RandomDice, RuleSet
from yahtzee.core import YatzyBox
from yahtzee.render.pad_html import render_pad
from yahtzee.render.scorecard_html import render_scorecard

YATZY = RuleSet.named("yatzy")


def played(seed: int, names: list[str]) -> Game:
    rng = random.Random(seed)
    game = Game(names, rules=YATZY, dice=RandomDice(seed))
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
    return game


def labels(page: str) -> list[str]:
    return re.findall(r'<th class="box" scope="row">(.*?)</th>', page)


def cells(page: str, label: str) -> list[str]:
    row = next(r for r in page.split("<tr") if f'scope="row">{label}' in r)
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


def test_a_blank_yatzy_pad_has_its_fifteen_boxes_and_the_50_point_bonus() -> None:
    page = render_pad(YATZY, 2, 3)
    shown = [re.sub(r" <span.*", "", label) for label in labels(page)]
    boxes = [label for label in shown if label in {b.display_name for b in YatzyBox}]
    assert boxes == [box.display_name for box in YatzyBox]  # in card order, each once
    assert "Bonus <span class=note>(50 at 63 or more)</span>" in labels(page)
    assert not any("Yahtzee" in label or "Yatzy bonus" in label for label in shown)
    assert "<h1>YATZY</h1>" in page and "Rules: yatzy" in page


def test_a_sitting_of_yatzy_games_fills_the_pad_and_the_card() -> None:
    names = ["Ann", "Bob"]
    games = [played(seed, names) for seed in (1, 2)]
    page = render_pad(YATZY, names, games)
    assert cells(page, "Grand total") == [str(g.cards[p].total) for p in range(2) for g in games]
    bonus = [str(g.cards[p].upper_bonus) for p in range(2) for g in games]
    assert cells(page, "Bonus") == bonus and set(bonus) <= {"0", "50"}
    card = render_scorecard(games[0])
    assert cells(card, "One Pair") == [str(c[YatzyBox.ONE_PAIR]) for c in games[0].cards]
    assert "<h1>YATZY</h1>" in card and "(50 at 63 or more)" in card


def test_the_cli_writes_a_blank_yatzy_pad_that_prints_on_one_page(tmp_path: Path) -> None:
    html, pdf = tmp_path / "pad.html", tmp_path / "pad.pdf"
    done = run_cli("card", "--blank", "--players", "4", "--rules", "yatzy", "--html", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text(encoding="utf-8")
    assert "Two Pairs" in page and "(50 at 63 or more)" in page
    print_to_pdf(html, pdf)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())) == 1
