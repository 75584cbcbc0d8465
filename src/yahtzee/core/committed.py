"""Dice committed to before the first roll: a secret seed, its published commitment, and
the fair faces a seed gives for a label.

The commitment published before the first roll is the SHA-256 of the seed's 64
hexadecimal digits; the seed is revealed when the game is over. The faces of a label
(``"|r|n"`` for the duplicate stream, ``"|seat|s|r|n"`` for a seat's own stream: see
`core.duplicate` and `core.seat_dice`) are the bytes of the SHA-256 digests of
``seed + label + "|i"`` for ``i`` = 0, 1, 2, ... (``seed`` the 32 secret bytes, the numbers
in decimal), read in order; a byte below 252 gives the face ``byte % 6 + 1``, the others
are skipped (252 is the largest multiple of 6 in a byte, so each face has exactly the same
chance).
"""

from __future__ import annotations

import hashlib
import secrets

from .dice import DICE_COUNT, FACE_COUNT, Dice, Keep
from .errors import InvalidInput, show
from .events import Draw
from .language import _

SEED_BYTES = 32
SEED_DIGITS = 2 * SEED_BYTES
PLAYOFF_ROUND = 0
"""The round number a playoff throw's faces are drawn under."""
_UNBIASED = 256 - 256 % FACE_COUNT  # 252: bytes from this up are skipped


def new_seed() -> str:
    """A secret seed from the operating system's cryptographic source (64 hex digits)."""
    return secrets.token_hex(SEED_BYTES)


def check_seed(seed: object) -> bytes:
    """The seed's bytes (`InvalidInput` unless it is 64 hexadecimal digits)."""
    if not isinstance(seed, str) or len(seed) != SEED_DIGITS:
        raise InvalidInput(
            _("A dice seed is {digits} hexadecimal digits, not {seed}.").format(
                digits=SEED_DIGITS, seed=show(seed)
            )
        )
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise InvalidInput(
            _("A dice seed is {digits} hexadecimal digits, not {seed}.").format(
                digits=SEED_DIGITS, seed=show(seed)
            )
        ) from None


def commitment(seed: str) -> str:
    """What is published before the first roll: the SHA-256 of the seed's hex digits."""
    check_seed(seed)
    return hashlib.sha256(seed.lower().encode("ascii")).hexdigest()


def label_faces(seed: str, label: str, count: int = DICE_COUNT) -> tuple[int, ...]:
    """The first ``count`` faces the seed gives for ``label`` (see the module's
    description)."""
    key = check_seed(seed)
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hashlib.sha256(key + f"{label}|{block}".encode("ascii")).digest()
        faces.extend(b % FACE_COUNT + 1 for b in digest if b < _UNBIASED)
        block += 1
    return tuple(faces[:count])


class CommittedDice:
    """Dice drawn from a secret ``seed`` (a new one by default) by a fixed rule: each throw
    is determined by the seat, the round and the roll of the turn, so that anyone can
    check every roll once the seed is revealed. `draw` names the rule (the start event
    says it)."""

    draw: Draw

    def __init__(self, seed: str | None = None) -> None:
        self.seed = seed if seed is not None else new_seed()
        check_seed(self.seed)

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def faces(self, seat: int, round_: int, roll: int, count: int) -> tuple[int, ...]:
        """The first ``count`` faces of the sequence of (``seat``, ``round_``, ``roll``)."""
        raise NotImplementedError

    def throw_for(self, seat: int, round_: int, roll: int, keep: Keep) -> Dice:
        """Keep ``keep``; the dice thrown take the sequence's faces in order (a playoff
        throw ``n``, of all the playoff's throws, is roll ``n`` of `PLAYOFF_ROUND`)."""
        if keep.rerolled == 0:
            return keep.with_thrown(())
        return keep.with_thrown(self.faces(seat, round_, roll, keep.rerolled))

    def throw(self, keep: Keep) -> Dice:
        """Not without knowing the seat and the roll: a `Game` asks `throw_for`."""
        raise InvalidInput(
            _("Committed dice need the seat, the round and the roll: use throw_for.")
        )


__all__ = [
    "PLAYOFF_ROUND",
    "SEED_DIGITS",
    "CommittedDice",
    "check_seed",
    "commitment",
    "label_faces",
    "new_seed",
]
