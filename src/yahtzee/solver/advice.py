"""Advice: every distinct option of a situation with the expected final total it leads to."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Self

from ..core import Action, Category, IllegalMove, Keep, RuleSet, Score, Situation

TIE = 1e-9  # options closer than this are equal: the first listed is taken


def action_text(action: Action) -> str:
    """``"score Full House"`` or ``"keep 3 3"`` (``"keep nothing"`` rolls all five)."""
    return str(action) if isinstance(action, Score) else f"keep {action.spaced()}"


@dataclass(frozen=True, slots=True)
class Option:
    """An action and the expected final total of the game if played optimally after it."""

    action: Action
    value: float

    @property
    def text(self) -> str:
        return action_text(self.action)


@dataclass(frozen=True, slots=True)
class Advice:
    """The options of a situation, best first (boxes before keeps on equal values)."""

    situation: Situation
    rules: RuleSet
    options: tuple[Option, ...]

    @classmethod
    def from_options(cls, situation: Situation, rules: RuleSet, options: Iterable[Option]) -> Self:
        """Rank options: the best first (on a tie within ``TIE``, the first listed, as the
        bots choose), then the others by value (stable, so boxes before keeps)."""
        listed = list(options)
        best = listed[0]
        for option in listed[1:]:
            if option.value > best.value + TIE:
                best = option
        rest = sorted((o for o in listed if o is not best), key=lambda o: -o.value)
        return cls(situation, rules, (best, *rest))

    @property
    def best(self) -> Option:
        return self.options[0]

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def value(self, action: Action | str) -> float:
        """The expected final total after ``action``; an action that is not an option here
        raises :class:`IllegalMove`."""
        wanted = _action(action)
        for option in self.options:
            if option.action == wanted:
                return option.value
        raise IllegalMove(f"{_describe(wanted)} is not an option here.", code="not_an_option")

    def regret(self, action: Action | str) -> float:
        """The expected points given up by ``action`` against the best option (0 or more)."""
        return self.best.value - self.value(action)

    def to_dict(self) -> dict[str, Any]:
        return {
            "situation": str(self.situation),
            "rules": self.rules.name,
            "options": [
                {
                    "action": option.text,
                    **(
                        {"score": option.action.category.key}
                        if isinstance(option.action, Score)
                        else {"keep": str(option.action)}
                    ),
                    "value": option.value,
                    "regret": self.best.value - option.value,
                }
                for option in self.options
            ],
        }


def _action(action: Action | str) -> Action:
    """An action from an object or text: ``"keep 33"``, ``"k 33"``, ``"score fh"``, ``"fh"``."""
    if isinstance(action, Keep | Score):
        return action
    verb, _, rest = str(action).strip().partition(" ")
    if verb.lower() in {"keep", "k"}:
        return Keep.parse(rest)
    if verb.lower() in {"score", "s"}:
        return Score(Category.parse(rest))
    return Score(Category.parse(str(action)))


def _describe(action: Action) -> str:
    return str(action) if isinstance(action, Score) else f"Keeping {action.spaced()}"
