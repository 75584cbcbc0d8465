"""Duplicate dice: the same luck for every player, whatever they keep, from a seed anyone
can check once it is revealed.

The stream. For each round of the game (1-13) and each roll of the turn (1-3) the seed
gives a fixed sequence of five faces; the dice thrown take them in order, the kept dice
stay. So every player's first roll of a round is the same five faces, whatever anyone kept
before; two players who keep the same dice see the same dice; and what a player keeps
changes only their own next roll of that turn. A playoff throw ``n`` (1, 2, ...) takes the
sequence of round 0, roll ``n``.

The faces of (round ``r``, roll ``n``): the bytes of the SHA-256 digests of
``seed + b"|r|n|i"`` for ``i`` = 0, 1, 2, ... (``seed`` the 32 secret bytes, ``r``, ``n``
and ``i`` in decimal), read in order; a byte below 252 gives the face ``byte % 6 + 1``,
the others are skipped (252 is the largest multiple of 6 in a byte, so each face has
exactly the same chance). The commitment published before the first roll is the SHA-256
of the seed's 64 hexadecimal digits; the seed is revealed when the game is over.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

from .dice import DICE_COUNT, FACE_COUNT, Dice, Keep
from .errors import InvalidInput, show
from .events import GameStarted, PlayoffRolled, Rolled, event_from_dict
from .state import apply, start

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
        raise InvalidInput(f"A dice seed is {SEED_DIGITS} hexadecimal digits, not {show(seed)}.")
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise InvalidInput(
            f"A dice seed is {SEED_DIGITS} hexadecimal digits, not {show(seed)}."
        ) from None


def commitment(seed: str) -> str:
    """What is published before the first roll: the SHA-256 of the seed's hex digits."""
    check_seed(seed)
    return hashlib.sha256(seed.lower().encode("ascii")).hexdigest()


def stream_faces(seed: str, round_: int, roll: int, count: int = DICE_COUNT) -> tuple[int, ...]:
    """The first ``count`` faces of the sequence of (``round_``, ``roll``) (see the
    module's description)."""
    key = check_seed(seed)
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hashlib.sha256(key + f"|{round_}|{roll}|{block}".encode("ascii")).digest()
        faces.extend(b % FACE_COUNT + 1 for b in digest if b < _UNBIASED)
        block += 1
    return tuple(faces[:count])


class DuplicateDice:
    """Dice from the duplicate stream of ``seed`` (a new secret one by default)."""

    def __init__(self, seed: str | None = None) -> None:
        self.seed = seed if seed is not None else new_seed()
        check_seed(self.seed)

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def throw_at(self, round_: int, roll: int, keep: Keep) -> Dice:
        """Keep ``keep``; the dice thrown take the sequence's faces in order."""
        if keep.rerolled == 0:
            return keep.with_thrown(())
        return keep.with_thrown(stream_faces(self.seed, round_, roll, keep.rerolled))

    def throw(self, keep: Keep) -> Dice:
        """Not without knowing the roll: a `Game` asks `throw_at`."""
        raise InvalidInput("Duplicate dice need the round and the roll: use throw_at.")


def check_rolls(seed: str, events: Iterable[object]) -> None:
    """Check that ``seed`` is the one the game committed to (where its start event says)
    and that every roll of its events came from the seed's stream (`InvalidInput` naming
    the first roll that did not)."""
    items = iter(events)
    opening = event_from_dict(next(items, None))
    if not isinstance(opening, GameStarted):
        raise InvalidInput("An event log begins with the game's start event.")
    if opening.commitment is not None and opening.commitment != commitment(seed):
        raise InvalidInput(
            "This seed is not the one the game committed to before its first roll: its "
            f"SHA-256 is {commitment(seed)}, the game published {opening.commitment}.",
            code="seed_mismatch",
        )
    state, source, playoff = start(opening), DuplicateDice(seed), 0
    for number, raw in enumerate(items, start=2):
        event = event_from_dict(raw)
        if isinstance(event, Rolled):
            turn = state.turn
            assert turn is not None  # a turn roll is legal only in a turn (apply checks)
            where = f"round {turn.round}, roll {turn.rolls + 1}"
            expected = source.throw_at(turn.round, turn.rolls + 1, event.keep)
        elif isinstance(event, PlayoffRolled):
            playoff += 1
            where = f"the playoff's throw {playoff}"
            expected = source.throw_at(PLAYOFF_ROUND, playoff, Keep.NONE)
        else:
            state = apply(state, event)
            continue
        if event.dice != expected:
            raise InvalidInput(
                f"Event {number} ({where}) shows {event.dice.spaced()}, but the seed gives "
                f"{expected.spaced()}: these dice did not come from this seed.",
                code="dice_mismatch",
            )
        state = apply(state, event)


__all__ = [
    "PLAYOFF_ROUND",
    "SEED_DIGITS",
    "DuplicateDice",
    "check_rolls",
    "check_seed",
    "commitment",
    "new_seed",
    "stream_faces",
]
