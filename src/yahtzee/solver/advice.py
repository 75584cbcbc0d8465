"""Advice: every distinct option of a situation with the expected final total it leads to."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import FrozenInstanceError, dataclass
from functools import cache
from typing import Any, Self, cast

import numpy as np
import numpy.typing as npt

from ..core import Action, Box, Category, IllegalMove, Keep, RuleSet, Score, Situation
from ..core.language import _
from .layout import KEEP_CODE, MAX_OPTIONS
from .tables import card_shape

TIE = 1e-9  # options closer than this are equal: the first listed is taken


@cache
def _actions(boxes: tuple[Box, ...]) -> tuple[Action, ...]:
    unused = (None,) * (KEEP_CODE - len(boxes))  # codes no option of this card has
    return cast("tuple[Action, ...]", (*(Score(c) for c in boxes), *unused, *Keep.all()))


def actions_for(rules: RuleSet) -> tuple[Action, ...]:
    """The action of each option code under the rules' card: box ``c`` is code ``c``,
    keep ``k`` (in `Keep.all` order) code ``KEEP_CODE + k``."""
    return _actions(card_shape(rules).boxes)


ACTIONS: tuple[Action, ...] = _actions(tuple(Category))
"""`actions_for` the American card."""
assert len(ACTIONS) == KEEP_CODE + len(Keep.all())

_set = object.__setattr__
_new = object.__new__
_Ranked = tuple[npt.NDArray[np.float64], int, int]


def action_text(action: Action) -> str:
    """``"score Full House"`` or ``"keep 3 3"`` (``"keep nothing"`` rolls all five), in the
    language in force: what a player reads."""
    if isinstance(action, Score):
        # Translators: an option of the advisor: fill this box with the dice showing.
        return _("score {box}").format(box=action.category.display_name)
    if not action.faces:
        # Translators: an option of the advisor: roll all five dice again.
        return _("keep nothing")
    # Translators: an option of the advisor: keep these dice ("3 3 5") and roll the others.
    return _("keep {dice}").format(dice=action.spaced())


def action_data(action: Action) -> str:
    """`action_text` in English, whatever the language in force: for data (``--json``)."""
    if isinstance(action, Score):
        return f"score {action.category.english_name}"
    return f"keep {action.spaced()}"


@dataclass(frozen=True, slots=True)
class Option:
    """An action and the expected final total of the game if played optimally after it."""

    action: Action
    value: float

    @property
    def text(self) -> str:
        """The action in words, in the language in force (``"keep 3 3"``,
        ``"score Full House"``)."""
        return action_text(self.action)


class Advice:
    """The options of a situation, best first (boxes before keeps on equal values).

    Immutable, like `Option`. Advice from the compiled kernels holds its options as
    arrays (every value computed and ranked) and makes the `Option` objects on first
    use (`best` alone makes one).
    """

    __slots__ = ("_fields",)

    _fields: tuple[Situation, RuleSet, tuple[Option, ...] | None, _Ranked | None]
    """The situation, the rules, the options once made, and the ranked arrays until then."""

    def __init__(self, situation: Situation, rules: RuleSet, options: tuple[Option, ...]) -> None:
        _set(self, "_fields", (situation, rules, tuple(options), None))

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

    @classmethod
    def ranked(
        cls, situation: Situation, rules: RuleSet, out: npt.NDArray[np.float64], at: int, count: int
    ) -> Self:
        """Advice from ``count`` options already ranked as `from_options` ranks them:
        their expected final totals in ``out[at:][:count]`` and their codes (see
        `ACTIONS`) in ``out[at + MAX_OPTIONS:][:count]``. The `Option`
        objects are made on first use."""
        advice = _new(cls)
        _set(advice, "_fields", (situation, rules, None, (out, at, count)))
        return advice

    @property
    def situation(self) -> Situation:
        """The situation advised on."""
        return self._fields[0]

    @property
    def rules(self) -> RuleSet:
        """The rule set the values are for."""
        return self._fields[1]

    @property
    def options(self) -> tuple[Option, ...]:
        """Every distinct option, best first."""
        situation, rules, options, ranked = self._fields
        if options is None:
            assert ranked is not None
            out, at, count = ranked
            codes = map(int, out[at + MAX_OPTIONS : at + MAX_OPTIONS + count].tolist())
            totals = out[at : at + count].tolist()
            options = tuple(map(Option, map(actions_for(rules).__getitem__, codes), totals))
            _set(self, "_fields", (situation, rules, options, None))
        return options

    @property
    def best(self) -> Option:
        """The best option (the first listed on a tie)."""
        _unused, rules, options, ranked = self._fields
        if options is None and ranked is not None:
            out, at, _count = ranked
            return Option(actions_for(rules)[int(out[at + MAX_OPTIONS])], float(out[at]))
        return self.options[0]

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __len__(self) -> int:
        options, ranked = self._fields[2:]
        return ranked[2] if options is None and ranked is not None else len(self.options)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Advice)
        return (self.situation, self.rules, self.options) == (
            other.situation,
            other.rules,
            other.options,
        )

    def __hash__(self) -> int:
        return hash((self.situation, self.rules, self.options))

    def __repr__(self) -> str:
        return (
            f"Advice(situation={self.situation!r}, rules={self.rules!r}, options={self.options!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Advice], tuple[Situation, RuleSet, tuple[Option, ...]]]:
        return (Advice, (self.situation, self.rules, self.options))

    def value(self, action: Action | str) -> float:
        """The expected final total after ``action``; an action that is not an option here
        raises `IllegalMove`."""
        wanted = _action(action, self.rules)
        for option in self.options:
            if option.action == wanted:
                return option.value
        raise IllegalMove(
            _not_an_option(wanted),
            code="not_an_option",
        )

    def regret(self, action: Action | str) -> float:
        """The expected points given up by ``action`` against the best option (0 or more)."""
        return self.best.value - self.value(action)

    def to_dict(self) -> dict[str, Any]:
        """The advice as JSON-ready data (``yahtzee advise --json`` prints it)."""
        return {
            "situation": str(self.situation),
            "rules": self.rules.name,
            "options": [
                {
                    "action": action_data(option.action),
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


def _action(action: Action | str, rules: RuleSet) -> Action:
    """An action from an object or text: ``"keep 33"``, ``"k 33"``, ``"score fh"``, ``"fh"``
    (a box of the rules' edition)."""
    if isinstance(action, Keep | Score):
        return action
    verb, _sep, rest = str(action).strip().partition(" ")
    if verb.lower() in {"keep", "k"}:
        return Keep.parse(rest)
    if verb.lower() in {"score", "s"}:
        return Score(rules.edition.parse_box(rest))
    return Score(rules.edition.parse_box(str(action)))


def _not_an_option(action: Action) -> str:
    if isinstance(action, Score):
        return _("score {box} is not an option here.").format(box=action.category.display_name)
    if not action.faces:
        return _("Keeping nothing is not an option here.")
    return _("Keeping {dice} is not an option here.").format(dice=action.spaced())
