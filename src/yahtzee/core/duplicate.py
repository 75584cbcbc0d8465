"""Duplicate dice: the same luck for every player, whatever they keep, from a seed anyone
can check once it is revealed. The daily game's dice (and every online game's recorded
before each seat drew its own: a start event without ``draw``).

The stream. For each round of the game (1-13) and each roll of the turn (1-3) the seed
gives a fixed sequence of five faces; the dice thrown take them in order, the kept dice
stay. So every player's first roll of a round is the same five faces, whatever anyone kept
before; two players who keep the same dice see the same dice; and what a player keeps
changes only their own next roll of that turn. A playoff throw ``n`` (1, 2, ...) takes the
sequence of round 0, roll ``n``.

The faces of (round ``r``, roll ``n``) are those of the label ``"|r|n"`` (see
`core.committed`): the bytes of the SHA-256 digests of ``seed + b"|r|n|i"`` for ``i`` = 0,
1, 2, ..., each byte below 252 giving the face ``byte % 6 + 1``.
"""

from __future__ import annotations

from .committed import CommittedDice, label_faces
from .dice import DICE_COUNT, Dice, Keep
from .events import Draw


def stream_faces(seed: str, round_: int, roll: int, count: int = DICE_COUNT) -> tuple[int, ...]:
    """The first ``count`` faces of the sequence of (``round_``, ``roll``) (see the
    module's description)."""
    return label_faces(seed, f"|{round_}|{roll}", count)


class DuplicateDice(CommittedDice):
    """Dice from the duplicate stream of ``seed`` (a new secret one by default): every
    seat draws the same sequences."""

    draw = Draw.DUPLICATE

    def faces(self, seat: int, round_: int, roll: int, count: int) -> tuple[int, ...]:
        """The sequence of (``round_``, ``roll``), whatever the seat."""
        return stream_faces(self.seed, round_, roll, count)

    def throw_at(self, round_: int, roll: int, keep: Keep) -> Dice:
        """Keep ``keep``; the dice thrown take the sequence's faces in order."""
        return self.throw_for(0, round_, roll, keep)


__all__ = ["DuplicateDice", "stream_faces"]
