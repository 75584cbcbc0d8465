"""Where dice come from: a seeded generator, a cryptographic source, or a script."""

from __future__ import annotations

import bisect
import random
import secrets
from collections.abc import Iterable
from functools import cache
from typing import Protocol, runtime_checkable

from .dice import DICE_COUNT, FACE_COUNT, Dice, Keep, chance_outcomes
from .errors import InvalidInput
from .language import _


@runtime_checkable
class DiceSource(Protocol):
    """Throws the dice not kept. Every source draws from `chance_outcomes`."""

    def throw(self, keep: Keep) -> Dice:
        """The dice showing after throwing all dice not in ``keep``."""
        ...


@cache
def _cumulative(keep: Keep) -> tuple[tuple[int, ...], int]:
    """Cumulative integer weights of the outcomes (exact: denominators divide 6**n)."""
    scale = FACE_COUNT**keep.rerolled
    running, bounds = 0, []
    for outcome in chance_outcomes(keep):
        running += outcome.probability.numerator * (scale // outcome.probability.denominator)
        bounds.append(running)
    return tuple(bounds), scale


_SAMPLERS: dict[tuple[int, ...], tuple[tuple[Dice, ...], tuple[int, ...], int]] = {}


def sample(keep: Keep, rng: random.Random) -> Dice:
    """Draw one outcome of `chance_outcomes` with its exact probability."""
    return RandomDice(rng).throw(keep)


class RandomDice:
    """Dice from a `random.Random`: ``RandomDice(42)`` gives a reproducible game."""

    def __init__(self, seed: int | str | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def throw(self, keep: Keep) -> Dice:
        """Draw one outcome of `chance_outcomes` with its exact probability."""
        sampler = _SAMPLERS.get(keep.faces)  # by faces: at most 462 keeps
        if sampler is None:
            bounds, scale = _cumulative(keep)
            outcomes = tuple(outcome.dice for outcome in chance_outcomes(keep))
            sampler = _SAMPLERS[keep.faces] = (outcomes, bounds, scale)
        dice, bounds, scale = sampler
        if len(dice) == 1:
            return dice[0]
        return dice[bisect.bisect_right(bounds, self.rng.randrange(scale))]


class SecureDice(RandomDice):
    """Dice from the operating system's cryptographic source, for online play."""

    def __init__(self) -> None:
        super().__init__(secrets.SystemRandom())


class ScriptedDice:
    """Dice from a script, for tests: each entry is either the whole roll (``"33356"``)
    or just the faces thrown around the keep (``"56"`` when keeping ``333``).

    A throw with only one possible outcome (keeping all five) takes nothing from the script.
    """

    def __init__(self, rolls: Iterable[str | Dice | Iterable[int]]) -> None:
        self._rolls = [r if isinstance(r, str | Dice) else tuple(r) for r in rolls]
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls are left."""
        return len(self._rolls) - self._next

    def throw(self, keep: Keep) -> Dice:
        """The next scripted roll around ``keep`` (``InvalidInput`` when the script has run out or
        does not fit the keep)."""
        outcomes = chance_outcomes(keep)
        if len(outcomes) == 1:
            return outcomes[0].dice
        if self._next >= len(self._rolls):
            raise InvalidInput(_("The dice script has run out of rolls."))
        entry = self._rolls[self._next]
        faces = (
            entry.faces
            if isinstance(entry, Dice)
            else Keep.parse(entry).faces
            if isinstance(entry, str)
            else Keep(entry).faces
        )
        if len(faces) == keep.rerolled:
            dice = keep.with_thrown(faces)
        elif len(faces) == DICE_COUNT and Dice(faces).contains(keep):
            dice = Dice(faces)
        else:
            raise InvalidInput(
                _(
                    "Scripted roll {entry!s} does not fit keeping {keep}: give the "
                    "{rerolled} dice thrown or the whole roll."
                ).format(entry=entry, keep=keep.spaced(), rerolled=keep.rerolled)
            )
        self._next += 1
        return dice
