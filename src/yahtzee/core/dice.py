"""Dice as sorted multisets: the 252 distinct rolls, the 462 distinct keeps, and the one
chance function (`chance_outcomes`) that play samples and the solver enumerates."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import ClassVar, NamedTuple, Self

from .errors import InvalidInput, show
from .language import _

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
FACE_COUNT = len(FACES)
DICE_COUNT = 5

_SEPARATORS = re.compile(r"[\s,;/]+|(?<=[0-9])-(?=[0-9])")
_BRACKETS = "[](){}"
_EMPTY_KEEP_WORDS = frozenset({"", "-", "none", "nothing", "no dice", "0 dice"})
_FACE_DIGITS = frozenset(map(str, FACES))


def _faces_from_text(text: str, what: str) -> tuple[int, ...]:
    """Read faces from ``"1 3 3 5 6"``, ``"13356"``, ``"1,3,3,5,6"`` or ``"[1, 3, 3, 5, 6]"``."""
    if not isinstance(text, str):
        raise InvalidInput(
            _("{what} must be text like 13356, not {type}.").format(
                what=what, type=type(text).__name__
            )
        )
    body = text.strip().strip(_BRACKETS).strip()
    tokens = [t for t in _SEPARATORS.split(body) if t] if _SEPARATORS.search(body) else list(body)
    faces: list[int] = []
    for token in tokens:
        if token not in _FACE_DIGITS:
            if token == text.strip():
                raise InvalidInput(_not_a_face(token))
            raise InvalidInput(
                _("{token} in {text} is not a die face: each die shows {low} to {high}.").format(
                    token=show(token), text=show(text), low=FACES[0], high=FACES[-1]
                )
            )
        faces.append(int(token))
    return tuple(faces)


def _not_a_face(face: object) -> str:
    return _("{face} is not a die face: each die shows {low} to {high}.").format(
        face=show(face), low=FACES[0], high=FACES[-1]
    )


def _check_faces(faces: object, what: str) -> tuple[int, ...]:
    if isinstance(faces, str | bytes):
        raise InvalidInput(
            _("{what} takes faces as numbers; use {what}.parse({faces}) for text.").format(
                what=what, faces=show(faces)
            )
        )
    if not isinstance(faces, Iterable):
        raise InvalidInput(
            _("{what} needs a sequence of faces, not {faces}.").format(what=what, faces=show(faces))
        )
    try:
        items: tuple[object, ...] = tuple(faces)
    except TypeError:
        raise InvalidInput(
            _("{what} needs a sequence of faces, not {faces}.").format(what=what, faces=show(faces))
        ) from None
    checked: list[int] = []
    for face in items:
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
            raise InvalidInput(_not_a_face(face))
        checked.append(face)
    return tuple(sorted(checked))


@dataclass(frozen=True, slots=True)
class _Faces:
    """A sorted multiset of die faces (shared behaviour of `Dice` and `Keep`)."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", _check_faces(self.faces, type(self).__name__))

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        """How many dice show each face, for faces 1 to 6."""
        c = [0] * FACE_COUNT
        for face in self.faces:
            c[face - 1] += 1
        return (c[0], c[1], c[2], c[3], c[4], c[5])

    @property
    def total(self) -> int:
        """The sum of the faces."""
        return sum(self.faces)

    def count(self, face: int) -> int:
        """How many dice show ``face``."""
        return self.faces.count(face)

    def __iter__(self) -> Iterator[int]:
        return iter(self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    def __str__(self) -> str:
        return "".join(map(str, self.faces))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def spaced(self) -> str:
        """Faces separated by spaces, as players write them: ``"1 3 3 5 6"``."""
        return " ".join(map(str, self.faces))

    def contains(self, other: _Faces) -> bool:
        """Whether ``other`` is a sub-multiset of these faces."""
        subs = _SUB_MULTISETS.get(self.faces)
        if subs is None:
            subs = _sub_multisets(self.faces)
        return other.faces in subs


@dataclass(frozen=True, slots=True, repr=False)
class Dice(_Faces):
    """Five dice as a sorted multiset. ``Dice.parse("1 3 3 5 6") == Dice.parse("13356")``."""

    def __post_init__(self) -> None:
        _Faces.__post_init__(self)
        if len(self.faces) != DICE_COUNT:
            raise InvalidInput(
                _("{count} dice given ({dice}); a roll has exactly five dice.").format(
                    count=len(self.faces), dice=self
                )
            )

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read five dice from text: ``"13356"``, ``"1 3 3 5 6"``, ``"1,3,3,5,6"``."""
        faces = _faces_from_text(text, "Dice")
        if not faces:
            raise InvalidInput(
                _("No dice given: write five faces from {low} to {high}, like 13356.").format(
                    low=FACES[0], high=FACES[-1]
                )
            )
        if len(faces) != DICE_COUNT:
            raise InvalidInput(
                _("{count} dice in {text}; a roll has exactly five dice, like 13356.").format(
                    count=len(faces), text=show(text)
                )
            )
        return cls(faces)

    @staticmethod
    def all() -> tuple[Dice, ...]:
        """The 252 distinct rolls of five dice, in lexicographic order."""
        return _ALL_DICE

    @property
    def index(self) -> int:
        """Position of this roll in `all` (0 to 251)."""
        return _DICE_INDEX[self]

    @property
    def probability(self) -> Fraction:
        """The chance of this roll when all five dice are thrown."""
        return Fraction(_arrangements(self.faces), FACE_COUNT**DICE_COUNT)

    @property
    def is_yahtzee(self) -> bool:
        """All five dice show the same face."""
        return self.faces[0] == self.faces[-1]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Keep):
            return self.contains(item)
        if isinstance(item, int) and not isinstance(item, bool):
            return item in self.faces
        return False

    def keeps(self) -> tuple[Keep, ...]:
        """Every distinct keep these dice allow (keeping nothing and keeping all included)."""
        return _keeps_of(self)


@dataclass(frozen=True, slots=True, repr=False)
class Keep(_Faces):
    """Dice set aside before a roll: a sub-multiset of zero to five faces.

    As an action, ``Keep(k)`` means "keep these dice and roll the others"; the first roll
    of a turn is ``Keep()`` (keep nothing, throw all five).
    """

    faces: tuple[int, ...] = ()
    NONE: ClassVar[Keep]

    def __post_init__(self) -> None:
        _Faces.__post_init__(self)
        if len(self.faces) > DICE_COUNT:
            raise InvalidInput(
                _("Cannot keep {count} dice; there are only five.").format(count=len(self.faces))
            )

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read a keep: ``"33"``, ``"3 3"``, or ``"-"`` / ``"none"`` / ``""`` for no dice."""
        if isinstance(text, str) and text.strip().lower() in _EMPTY_KEEP_WORDS:
            return cls(())
        faces = _faces_from_text(text, "Keep")
        if len(faces) > DICE_COUNT:
            raise InvalidInput(
                _("{count} dice in {text}; you can keep at most five.").format(
                    count=len(faces), text=show(text)
                )
            )
        return cls(faces)

    @classmethod
    def of(cls, faces: Iterable[int]) -> Self:
        """A keep from any iterable of faces (a `Dice` included)."""
        return cls(faces)  # type: ignore[arg-type]  # checked and sorted by __post_init__

    @property
    def shared(self) -> Keep:
        """This keep as one of the 462 made once (`Keep.all`), to be kept by a game's log
        (each roll's keep its own object was work for the garbage collector as long as its
        game lasted); itself when it is not one of them (a subclass's, say)."""
        found = _KEEP_OF.get(self.faces)
        return found if found is not None and type(self) is Keep else self

    @staticmethod
    def all() -> tuple[Keep, ...]:
        """The 462 distinct keeps, by size then lexicographically."""
        return _ALL_KEEPS

    @property
    def index(self) -> int:
        """Position of this keep in `all` (0 to 461)."""
        return _KEEP_INDEX[self]

    @property
    def rerolled(self) -> int:
        """How many dice are thrown around this keep."""
        return DICE_COUNT - len(self.faces)

    def __str__(self) -> str:
        return _Faces.__str__(self) or "-"

    def spaced(self) -> str:
        """The kept dice as ``"3 3 5"`` (``"nothing"`` for none)."""
        return _Faces.spaced(self) or "nothing"

    def with_thrown(self, thrown: Iterable[int]) -> Dice:
        """The dice that show after throwing ``thrown`` around this keep: one of the 252
        rolls made once (`Dice.all`), shared, when the faces are plain faces (a server
        rolls thousands of dice a second; each its own object was work for the garbage
        collector as long as its game lasted)."""
        faces = self.faces + tuple(thrown)
        if all(type(face) is int for face in faces):
            found = _DICE_OF.get(tuple(sorted(faces)))
            if found is not None:
                return found
        return Dice(faces)  # (which says what is wrong with them)


Keep.NONE = Keep(())


class Outcome(NamedTuple):
    """One result of a throw and its exact probability."""

    dice: Dice
    probability: Fraction


_SUB_MULTISETS: dict[tuple[int, ...], frozenset[tuple[int, ...]]] = {}


def _sub_multisets(faces: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """Every sub-multiset of sorted ``faces``, as sorted tuples (at most 32), remembered by
    faces: there are at most 462 multisets of up to five faces."""
    subs = frozenset(sub for n in range(len(faces) + 1) for sub in itertools.combinations(faces, n))
    _SUB_MULTISETS[faces] = subs
    return subs


def _arrangements(faces: tuple[int, ...]) -> int:
    """How many ordered throws give this multiset (the multinomial coefficient)."""
    result = math.factorial(len(faces))
    for face in set(faces):
        result //= math.factorial(faces.count(face))
    return result


@cache
def _multisets(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.combinations_with_replacement(FACES, n))


@cache
def chance_outcomes(keep: Keep) -> tuple[Outcome, ...]:
    """Every distinct result of throwing the dice not in ``keep``, with its probability.

    This is the single chance step of the game: play samples it, the solver enumerates
    it. Outcomes are in the order of `Dice.all`; probabilities are exact and sum to 1.
    """
    n = keep.rerolled
    outcomes = [
        Outcome(Dice(keep.faces + thrown), Fraction(_arrangements(thrown), FACE_COUNT**n))
        for thrown in _multisets(n)
    ]
    outcomes.sort(key=lambda o: o.dice.faces)
    return tuple(outcomes)


def _all_dice() -> tuple[Dice, ...]:
    return tuple(Dice(faces) for faces in _multisets(DICE_COUNT))


def _all_keeps() -> tuple[Keep, ...]:
    return tuple(Keep(faces) for n in range(DICE_COUNT + 1) for faces in _multisets(n))


@cache
def _keeps_of(dice: Dice) -> tuple[Keep, ...]:
    found = {
        Keep(tuple(sub))
        for n in range(DICE_COUNT + 1)
        for sub in itertools.combinations(dice.faces, n)
    }
    return tuple(sorted(found, key=lambda k: (len(k), k.faces)))


_ALL_DICE = _all_dice()
_DICE_INDEX = {dice: i for i, dice in enumerate(_ALL_DICE)}
_DICE_OF = {dice.faces: dice for dice in _ALL_DICE}
_ALL_KEEPS = _all_keeps()
_KEEP_INDEX = {keep: i for i, keep in enumerate(_ALL_KEEPS)}
_KEEP_OF = {keep.faces: keep for keep in _ALL_KEEPS}
