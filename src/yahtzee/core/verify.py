"""Checking a game's dice once its seed is revealed: every roll of its events, by the draw
its start event names, and the steps to do it by hand."""

from __future__ import annotations

from collections.abc import Iterable

from .committed import PLAYOFF_ROUND, CommittedDice, commitment
from .dice import Keep
from .duplicate import DuplicateDice
from .errors import InvalidInput
from .events import Draw, GameStarted, PlayoffRolled, Rolled, event_from_dict
from .language import N_, _
from .seat_dice import SeatDice
from .state import apply, start

_SOURCES: dict[Draw, type[CommittedDice]] = {Draw.DUPLICATE: DuplicateDice, Draw.SEAT: SeatDice}

_COMMON_STEPS = (
    N_(
        "The seed is 64 hexadecimal digits; its SHA-256 (of the 64 digits as text) must be the "
        "commitment the game made before its first roll (its start event's; an online game "
        "shows it to its players then)."
    ),
)
_DRAW_STEPS = {
    Draw.SEAT: (
        N_(
            "Each seat draws its own dice. For seat s (0 for the first seat, as in the events), "
            "round r (1-13) and roll n (1-3), hash the seed's 32 bytes followed by "
            '"|seat|s|r|n|i" (i = 0, 1, 2, ...) with SHA-256; read the bytes in order, skip '
            "those from 252 up, and take byte % 6 + 1 as the next face."
        ),
        N_(
            "The dice the seat throws in that roll take those faces in order; the dice kept "
            "stay. A playoff throw n (of all the playoff's throws) takes the faces of the "
            "thrower's seat, round 0, roll n."
        ),
    ),
    Draw.DUPLICATE: (
        N_(
            "Every seat draws the same dice (duplicate dice). For each round r (1-13) and roll "
            'n (1-3), hash the seed\'s 32 bytes followed by "|r|n|i" (i = 0, 1, 2, ...) with '
            "SHA-256; read the bytes in order, skip those from 252 up, and take byte % 6 + 1 as "
            "the next face."
        ),
        N_(
            "The dice thrown in that roll take those faces in order; the dice kept stay. A "
            "playoff throw n takes the faces of round 0, roll n."
        ),
    ),
}


def draw_of(opening: GameStarted) -> Draw:
    """How a game's committed dice are drawn: as its start event says; duplicate dice when
    it does not (the records made before it said)."""
    return opening.draw or Draw.DUPLICATE


def committed_dice(seed: str, opening: object) -> CommittedDice:
    """The dice of ``seed`` drawn as the start event ``opening`` says (for a recorded game
    going on: resumed, or taken over by another server node)."""
    started = event_from_dict(opening)
    if not isinstance(started, GameStarted):
        raise InvalidInput(_("An event log begins with the game's start event."))
    return _SOURCES[draw_of(started)](seed)


def check_steps(draw: Draw) -> tuple[str, ...]:
    """How to check a game of ``draw`` by hand, step by step."""
    return tuple(_(step) for step in (*_COMMON_STEPS, *_DRAW_STEPS[draw]))


def check_rolls(seed: str, events: Iterable[object]) -> Draw:
    """Check that ``seed`` is the one the game committed to (where its start event says)
    and that every roll of its events came from the seed, drawn as its start event says
    (`InvalidInput` naming the first roll that did not). Returns that draw."""
    items = iter(events)
    opening = event_from_dict(next(items, None))
    if not isinstance(opening, GameStarted):
        raise InvalidInput(_("An event log begins with the game's start event."))
    if opening.commitment is not None and opening.commitment != commitment(seed):
        raise InvalidInput(
            _(
                "This seed is not the one the game committed to before its first roll: "
                "its SHA-256 is {seed_hash}, the game committed to {committed}."
            ).format(seed_hash=commitment(seed), committed=opening.commitment),
            code="seed_mismatch",
        )
    draw = draw_of(opening)
    state, source, playoff = start(opening), _SOURCES[draw](seed), 0
    boxes = state.rules.edition.box_type  # a Yatzy game's events name Yatzy boxes
    for number, raw in enumerate(items, start=2):
        event = event_from_dict(raw, boxes)
        if isinstance(event, Rolled):
            turn = state.turn
            assert turn is not None  # a turn roll is legal only in a turn (apply checks)
            seat, where = (
                turn.player,
                _("round {round}, roll {roll}").format(round=turn.round, roll=turn.rolls + 1),
            )
            expected = source.throw_for(seat, turn.round, turn.rolls + 1, event.keep)
        elif isinstance(event, PlayoffRolled):
            playoff += 1
            seat, where = event.player, _("the playoff's throw {number}").format(number=playoff)
            expected = source.throw_for(seat, PLAYOFF_ROUND, playoff, Keep.NONE)
        else:
            state = apply(state, event)
            continue
        if draw is Draw.SEAT:
            # Translators: {where} is "round 3, roll 2" or "the playoff's throw 1".
            where = _("{where}, seat {seat}").format(where=where, seat=seat)
        if event.dice != expected:
            raise InvalidInput(
                _(
                    "Event {number} ({where}) shows {dice}, but the seed gives {expected}: "
                    "these dice did not come from this seed."
                ).format(
                    number=number, where=where, dice=event.dice.spaced(), expected=expected.spaced()
                ),
                code="dice_mismatch",
            )
        state = apply(state, event)
    return draw


__all__ = ["check_rolls", "check_steps", "committed_dice", "draw_of"]
