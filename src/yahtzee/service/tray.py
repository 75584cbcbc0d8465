"""The dice as they lie on the table: which face is in which of the five places, and
which places the player holds.

The engine knows dice as sorted multisets (the rules need nothing more); a player sees
five dice in a row and holds some of them. A held die stays in its place through the roll
(the others are thrown into the places left), and a hold chosen but not rolled yet is
kept by the server, so that a reconnection or a resync shows the same row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core import DICE_COUNT, Dice, Event, Game, IllegalMove, InvalidInput, Keep, Rolled
from ..core.language import _

SLOTS = range(DICE_COUNT)


def not_rolled() -> IllegalMove:
    """The refusal of holding dice before the turn's first roll."""
    return IllegalMove(_("Roll the dice before holding any."), code="not_rolled")


@dataclass(frozen=True, slots=True)
class Tray:
    """Faces by place (empty before the turn's first roll) and the places held."""

    faces: tuple[int, ...] = ()
    held: frozenset[int] = frozenset()

    @property
    def kept(self) -> Keep:
        """The held dice, as the engine keeps them."""
        return Keep.of(self.faces[slot] for slot in sorted(self.held))

    def flags(self) -> tuple[bool, ...]:
        """Whether each place is held (five flags, all off before the first roll)."""
        return tuple(slot in self.held for slot in SLOTS)

    def held_in_order(self) -> tuple[bool, ...]:
        """The held dice as flags over the dice in sorted order (`GameSession.select`
        takes the selection so): the first dice of each face held."""
        wanted = list(self.kept.faces)
        flags = []
        for face in sorted(self.faces):
            flags.append(face in wanted)
            if face in wanted:
                wanted.remove(face)
        return (*flags, *(False,) * (DICE_COUNT - len(flags)))

    @classmethod
    def resting(cls, dice: Dice | None, kept: Keep = Keep.NONE) -> Tray:
        """The dice in order, the ``kept`` ones held (when nothing else is known: a turn
        loaded from the records)."""
        if dice is None:
            return cls()
        faces = dice.faces
        return cls(faces, frozenset(_places_of(kept, faces, ())))

    def holding(self, slots: Iterable[int]) -> Tray:
        """This row with ``slots`` held (a player's choice before the roll)."""
        chosen = check_slots(slots)
        if not self.faces:
            raise not_rolled()
        return Tray(self.faces, frozenset(chosen))

    def thrown(self, keep: Keep, dice: Dice, held: Iterable[int] | None = None) -> Tray:
        """The row after keeping ``keep`` and throwing the rest, which showed ``dice``
        (``held``: the places the player held, when known). Kept dice stay where they
        were; the thrown ones land in the other places, lowest first."""
        places = _places_of(keep, self.faces, tuple(held if held is not None else self.held))
        if len(places) != len(keep.faces) or len(self.faces) != DICE_COUNT:
            return Tray.resting(dice, keep)  # not this row's dice: laid out anew
        thrown = list(dice.faces)
        for face in keep.faces:
            thrown.remove(face)
        free = iter(thrown)
        faces = tuple(self.faces[slot] if slot in places else next(free) for slot in SLOTS)
        return Tray(faces, frozenset(places))


def check_slots(slots: Iterable[int]) -> tuple[int, ...]:
    """Places 0 to 4, each at most once (InvalidInput otherwise)."""
    chosen = tuple(slots)
    for slot in chosen:
        if isinstance(slot, bool) or not isinstance(slot, int) or slot not in SLOTS:
            raise InvalidInput(
                _("A die's place is 0 to {last}, not {place}.").format(
                    last=DICE_COUNT - 1, place=repr(slot)
                )
            )
    if len(set(chosen)) != len(chosen):
        raise InvalidInput(_("Each die's place is held at most once."))
    return tuple(sorted(chosen))


def _places_of(keep: Keep, faces: tuple[int, ...], preferred: tuple[int, ...]) -> set[int]:
    """Places whose faces make ``keep``: the ``preferred`` ones first, then from the left."""
    wanted = list(keep.faces)
    places: set[int] = set()
    for slot in (*sorted(preferred), *SLOTS):
        if slot in places or slot >= len(faces) or faces[slot] not in wanted:
            continue
        wanted.remove(faces[slot])
        places.add(slot)
    return places


def follow(
    tray: Tray, game: Game, events: Iterable[Event], held: Iterable[int] | None = None
) -> Tray:
    """The row after ``events`` took ``tray``'s game to ``game`` (``held``: the places the
    player held for the roll, when the events are one roll). A roll moves only the dice
    thrown; anything else (a placement, an undo, a playoff throw) lays the dice out anew."""
    new = tuple(events)
    turn = game.turn
    if len(new) == 1 and isinstance(new[0], Rolled) and turn is not None and turn.dice:
        roll = new[0]
        after = tray.thrown(roll.keep, roll.dice, held) if tray.faces else None
        if after is not None and tuple(sorted(after.faces)) == turn.dice.faces:
            return after
    return tray_of(game)


def tray_of(game: Game) -> Tray:
    """The row a game shows when nothing is known about places (loaded, or caught up)."""
    turn = game.turn
    return Tray.resting(turn.dice, turn.kept) if turn is not None else Tray()


__all__ = ["Tray", "check_slots", "follow", "not_rolled", "tray_of"]
