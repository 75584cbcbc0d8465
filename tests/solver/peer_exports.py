"""yatzy-solver's own exports (its JSON Lines), read as this project's situations and
options: the peer's notation mapped to ours once, here.

An export line holds a situation (``filled``: a bit mask of the filled boxes in card
order, ``upper``: the upper subtotal, ``five_of_a_kind``: what the American Yahtzee box
holds, ``dice``, ``rolls_left``) and every option (``score one_pair``, ``keep 5 5``,
``keep -`` for none) with its value: the expected score still to come.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from yahtzee import Dice, Keep, RuleSet, Score, Scorecard, Situation
from yahtzee.core import Action

EXPORT_ROWS = 1000
"""Decisions exported per rule set: enough that every box and every keep of under five
dice (210) is an option somewhere (a game of perturbed play is about 45 decisions)."""


def peer_module() -> ModuleType:
    """The installed yatzy-solver; without it the test is skipped, saying why (in CI,
    where the ``test`` extra installs it, it fails instead)."""
    try:
        import yatzy_solver
    except ImportError as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"yatzy-solver is not installed ({error}): pip install -e '.[test]'")
    return yatzy_solver


def peer_variant(rules: RuleSet) -> str:
    """The peer's id of a Yatzy rule set (``yatzy+fh5`` is ``yatzy-scandinavian+fh5``)."""
    return rules.name.replace("yatzy", "yatzy-scandinavian", 1)


@dataclass(frozen=True)
class PeerRow:
    """One exported decision: the situation, and each option's expected score to come."""

    situation: Situation
    options: dict[Action, float]


def export(rules: RuleSet, folder: Path, rows: int = EXPORT_ROWS) -> list[PeerRow]:
    """Build the peer's solver of ``rules`` (once) and read ``rows`` of its export."""
    peer = peer_module()
    solver = peer.Solver.build(peer.Variant(peer_variant(rules)))
    path = folder / f"{rules.name}.jsonl"
    solver.export(str(path), rows, source="perturbed", seed=0, format="jsonl")
    with path.open(encoding="utf-8") as lines:
        return [read_row(json.loads(line), rules) for line in lines]


def read_row(data: dict[str, object], rules: RuleSet) -> PeerRow:
    card = card_of(int(data["filled"]), int(data["upper"]), data["five_of_a_kind"], rules)  # type: ignore[call-overload]
    situation = Situation.of(card, Dice(tuple(data["dice"])), int(data["rolls_left"]))  # type: ignore[arg-type, call-overload]
    options = {action(o["notation"], rules): float(o["value"]) for o in data["options"]}  # type: ignore[attr-defined]
    return PeerRow(situation, options)


def action(notation: str, rules: RuleSet) -> Action:
    """``score one_pair`` or ``keep 5 5`` (``keep -``: none) as our action."""
    verb, _, rest = notation.partition(" ")
    if verb == "score":
        return Score(rules.edition.parse_box(rest))
    assert verb == "keep", notation
    return Keep(tuple(int(f) for f in rest.split() if f != "-"))


def card_of(filled: int, upper: int, five: object, rules: RuleSet) -> Scorecard:
    """A card in the peer's state: those boxes filled, the upper ones adding up to
    ``upper`` (the rest hold 0: only the state matters), the Yahtzee box as given."""
    edition = rules.edition
    boxes: list[int | None] = [None] * len(edition.boxes)
    upper_boxes = [b for b in edition.upper if filled >> b & 1]
    points = upper_points(tuple(b.face for b in upper_boxes), upper, edition.upper_bonus_threshold)
    for box, p in zip(upper_boxes, points, strict=True):
        boxes[box] = p
    for box in edition.lower:
        if filled >> box & 1:
            boxes[box] = 0
    if isinstance(five, int):
        boxes[edition.five_of_a_kind] = five
    return Scorecard(tuple(boxes), 0, edition)


@functools.cache
def upper_points(faces: tuple[int, ...], subtotal: int, cap: int) -> tuple[int, ...]:
    """Points of the upper boxes of these faces (0 to 5 dice each) adding up to
    ``subtotal`` (at least ``cap`` where the subtotal is capped there)."""
    for dice in itertools.product(range(6), repeat=len(faces)):
        points = tuple(n * f for n, f in zip(dice, faces, strict=True))
        if sum(points) == subtotal or (subtotal >= cap and sum(points) >= cap):
            return points
    raise AssertionError(f"no upper boxes of faces {faces} add up to {subtotal}")
