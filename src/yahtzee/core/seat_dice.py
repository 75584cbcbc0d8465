"""Each seat's own dice: the dice of a table's games, from the game's one committed seed,
so that no seat's dice can be learned from another's.

For each seat ``s`` (the player's number in the events: 0 for the first seat), round
``r`` (1-13) and roll ``n`` of the turn (1-3) the seed gives a fixed sequence of faces:
those of the label ``"|seat|s|r|n"`` (see `core.committed`), that is the bytes of the
SHA-256 digests of ``seed + b"|seat|s|r|n|i"`` for ``i`` = 0, 1, 2, ..., each byte below
252 giving the face ``byte % 6 + 1``. The dice a seat throws take its sequence's faces in
order; the kept dice stay. A playoff throw ``n`` (of all the playoff's throws, 1, 2, ...)
takes the seat's sequence of round 0, roll ``n``.

So a seat's dice depend on the seed and on its own choices only; seeing every other seat's
dice tells nothing of them (SHA-256 of different labels), yet the one revealed seed checks
every roll of every seat.
"""

from __future__ import annotations

from .committed import CommittedDice, label_faces
from .dice import DICE_COUNT
from .events import Draw


def seat_faces(
    seed: str, seat: int, round_: int, roll: int, count: int = DICE_COUNT
) -> tuple[int, ...]:
    """The first ``count`` faces of seat ``seat``'s sequence of (``round_``, ``roll``)
    (see the module's description)."""
    return label_faces(seed, f"|seat|{seat}|{round_}|{roll}", count)


class SeatDice(CommittedDice):
    """Dice from each seat's own stream of ``seed`` (a new secret one by default)."""

    draw = Draw.SEAT

    def faces(self, seat: int, round_: int, roll: int, count: int) -> tuple[int, ...]:
        return seat_faces(self.seed, seat, round_, roll, count)


__all__ = ["SeatDice", "seat_faces"]
