"""Scores written on a pad: which points a box can hold under a rule set, for a player who
enters a box and its points instead of the dice (quick score entry), and the sentence that
says what is allowed when an entry is not."""

from __future__ import annotations

from functools import lru_cache

from .box import Box
from .dice import Dice
from .errors import InvalidInput, show
from .language import _
from .rules import JokerRule, RuleSet
from .scoring import joker_score, score


@lru_cache(maxsize=None, typed=True)  # boxes of two editions may be equal ints
def possible_points(category: Box, rules: RuleSet) -> frozenset[int]:
    """Every number of points ``category`` can hold under ``rules``: what some roll scores
    there by the box's own definition (0 among them, a box scratched, for every box but
    Chance) or, where the rules have a Joker, as a Joker."""
    points: set[int] = set()
    for dice in Dice.all():
        points.add(score(category, dice, rules))
        if rules.joker is not JokerRule.NONE and dice.faces[0] == dice.faces[-1]:
            points.add(joker_score(category, dice, rules))
    return frozenset(points)


def allowed_text(points: frozenset[int]) -> str:
    """The points as a player reads them: ``0, 4, 8, 12, 16 or 20``; ``0 or 5 to 30``."""
    ordered = sorted(points)
    parts: list[str] = []
    start = previous = ordered[0]
    for value in [*ordered[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(
            str(start)
            if start == previous
            else _("{low} to {high}").format(low=start, high=previous)
        )
        if value is not None:
            start = previous = value
    if len(parts) == 1:
        return parts[0]
    # Translators: the last of several choices: "0, 4, 8 or 12" ({some} is "0, 4, 8").
    return _("{some} or {last}").format(some=", ".join(parts[:-1]), last=parts[-1])


def check_entry(category: Box, points: object, rules: RuleSet) -> int:
    """``points`` written in ``category``, checked against what the box can hold under
    ``rules`` (InvalidInput, saying what it can, otherwise)."""
    allowed = possible_points(category, rules)
    name = category.display_name
    if isinstance(points, bool) or not isinstance(points, int) or points not in allowed:
        raise InvalidInput(
            _("{name} holds {allowed} points under the {rules} rules, not {points}.").format(
                name=name,
                allowed=allowed_text(allowed),
                rules=rules.name,
                points=show(points),
            ),
            code="points_not_allowed",
        )
    return points


__all__ = ["allowed_text", "check_entry", "possible_points"]
