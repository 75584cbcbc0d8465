"""The events of a game: an append-only, JSON-serialisable log that is the game's truth."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .box import Box
from .category import Category
from .dice import Dice, Keep
from .errors import InvalidInput, show
from .frozen import fast_init
from .language import _

EVENT_VERSION = 1
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
ENTERED = "entered"
"""The start event's ``dice`` in a game whose players enter their dice (absent otherwise)."""


class Draw(StrEnum):
    """How a game's committed dice are drawn from its seed (the start event's ``draw``)."""

    DUPLICATE = "duplicate"
    """Every seat draws the same sequences (`core.duplicate`): the daily game's dice; a
    start event with a commitment and no ``draw`` (recorded before it was said) means it."""
    SEAT = "seat"
    """Each seat draws its own sequences (`core.seat_dice`): a table's games."""


_DRAWS = tuple(draw.value for draw in Draw)


@fast_init
@dataclass(frozen=True, slots=True)
class GameStarted:
    """The seats (names in seat order) and the rule set, by registered name; ``entered``:
    the players roll real dice and enter what shows (`DiceEntered`) or write scores
    (`Written`) instead of the program rolling."""

    players: tuple[str, ...]
    rules: str
    version: int = EVENT_VERSION
    entered: bool = False
    commitment: str | None = None
    """For committed dice: the SHA-256 of the secret seed, published before the first roll
    (see `core.committed`); the seed itself is revealed once the game is over."""
    draw: Draw | None = None
    """For committed dice: how they are drawn from the seed (None: not said, as in the
    records made before it was, which drew duplicate dice)."""


@fast_init
@dataclass(frozen=True, slots=True)
class Rolled:
    """A player kept ``keep`` and threw the rest; ``dice`` is what then showed."""

    player: int
    keep: Keep
    dice: Dice


@fast_init
@dataclass(frozen=True, slots=True)
class Scored:
    """A player filled ``category`` with ``points`` (plus any Yahtzee bonus)."""

    player: int
    category: Box
    points: int
    yahtzee_bonus: int = 0


@dataclass(frozen=True, slots=True)
class PlayoffRolled:
    """A player tied for first place threw all five dice in the playoff."""

    player: int
    dice: Dice


@dataclass(frozen=True, slots=True)
class DiceEntered:
    """In a game of entered dice, a player entered the five dice showing on the table, and
    which roll of the turn it was (1-3) if they said. Entered again before a box is filled,
    it corrects the dice: the last entry is what shows. In the playoff it is the roll."""

    player: int
    dice: Dice
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """In a game of entered dice, a player wrote ``points`` in ``category`` as on a paper
    pad, without the dice (quick score entry). A Yahtzee is entered as dice, so that its
    Joker placement and bonus follow the rules."""

    player: int
    category: Box
    points: int


@dataclass(frozen=True, slots=True)
class Undone:
    """A player took back their last placement before anyone rolled again: the game
    stands as it did before it (the dice showing, the rolls used). The log keeps both."""

    player: int


Event = GameStarted | Rolled | Scored | PlayoffRolled | Undone | DiceEntered | Written


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form of an event."""
    match event:
        case GameStarted(players, rules, version, entered, commitment, draw):
            start = {"type": "start", "version": version, "players": list(players), "rules": rules}
            if entered:
                start["dice"] = ENTERED
            if commitment is not None:
                start["commitment"] = commitment
            if draw is not None:
                start["draw"] = draw.value
            return start
        case Rolled(player, keep, dice):
            return {"type": "roll", "player": player, "keep": str(keep), "dice": str(dice)}
        case Scored(player, category, points, bonus):
            return {
                "type": "score",
                "player": player,
                "category": category.key,
                "points": points,
                "yahtzee_bonus": bonus,
            }
        case PlayoffRolled(player, dice):
            return {"type": "playoff_roll", "player": player, "dice": str(dice)}
        case Undone(player):
            return {"type": "undo", "player": player}
        case DiceEntered(player, dice, roll):
            entry = {"type": "dice", "player": player, "dice": str(dice)}
            return entry if roll is None else {**entry, "roll": roll}
        case Written(player, category, points):
            return {"type": "write", "player": player, "category": category.key, "points": points}


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(
            _("Event field {key!r} must be a whole number, not {value}.").format(
                key=key, value=show(value)
            )
        )
    return value


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise InvalidInput(
            _("Event field {key!r} must be text, not {value}.").format(key=key, value=show(value))
        )
    return value


def _start(data: Mapping[str, Any], boxes: type[Box]) -> GameStarted:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInput(_("A start event needs 'players', a list of names."))
    version = _int(data, "version")
    if version != EVENT_VERSION:
        raise InvalidInput(
            _("Event version {version} is not supported (this is {supported}).").format(
                version=show(version), supported=EVENT_VERSION
            )
        )
    dice = data.get("dice", "rolled")
    if dice not in ("rolled", ENTERED):
        raise InvalidInput(
            _("A start event's 'dice' is 'rolled' or 'entered', not {dice}.").format(
                dice=show(dice)
            )
        )
    commitment = data.get("commitment")
    if commitment is not None and not (
        isinstance(commitment, str) and _HEX_DIGEST.fullmatch(commitment)
    ):
        raise InvalidInput(_("A start event's 'commitment' is 64 hexadecimal digits (SHA-256)."))
    draw = data.get("draw")
    if draw is not None:
        if draw not in _DRAWS:
            raise InvalidInput(
                _("A start event's 'draw' is {draws}, not {draw}.").format(
                    draws=" or ".join(map(repr, _DRAWS)), draw=show(draw)
                )
            )
        draw = Draw(draw)
    return GameStarted(
        tuple(players), _text(data, "rules"), version, dice == ENTERED, commitment, draw
    )


def _roll(data: Mapping[str, Any], boxes: type[Box]) -> Rolled:
    return Rolled(_int(data, "player"), _keep(_text(data, "keep")), _dice(_text(data, "dice")))


# A recorded game is read back roll by roll (a server node taking over a crowd of tables
# reads thousands of them at once): each text of dice is parsed once. Both are immutable.
_dice = functools.lru_cache(maxsize=8192)(Dice.parse)
_keep = functools.lru_cache(maxsize=8192)(Keep.parse)


def _score(data: Mapping[str, Any], boxes: type[Box]) -> Scored:
    return Scored(
        _int(data, "player"),
        boxes.parse(_text(data, "category")),
        _int(data, "points"),
        _int(data, "yahtzee_bonus"),
    )


def _playoff(data: Mapping[str, Any], boxes: type[Box]) -> PlayoffRolled:
    return PlayoffRolled(_int(data, "player"), Dice.parse(_text(data, "dice")))


def _undo(data: Mapping[str, Any], boxes: type[Box]) -> Undone:
    return Undone(_int(data, "player"))


def _entered(data: Mapping[str, Any], boxes: type[Box]) -> DiceEntered:
    roll = data.get("roll")
    if roll is not None:
        roll = _int(data, "roll")
    return DiceEntered(_int(data, "player"), Dice.parse(_text(data, "dice")), roll)


def _written(data: Mapping[str, Any], boxes: type[Box]) -> Written:
    return Written(_int(data, "player"), boxes.parse(_text(data, "category")), _int(data, "points"))


_READERS: dict[str, Callable[[Mapping[str, Any], type[Box]], Event]] = {
    "start": _start,
    "roll": _roll,
    "score": _score,
    "playoff_roll": _playoff,
    "undo": _undo,
    "dice": _entered,
    "write": _written,
}


def event_from_dict(data: object, boxes: type[Box] = Category) -> Event:
    """Read one event written by `event_to_dict`; malformed data is ``InvalidInput``.
    Boxes are named by ``boxes`` (the edition of the game's rules: the American by default).

    Event objects are checked the same way, through their JSON form.
    """
    if isinstance(
        data, GameStarted | Rolled | Scored | PlayoffRolled | Undone | DiceEntered | Written
    ):
        try:
            data = event_to_dict(data)
        except (AttributeError, TypeError, ValueError):
            raise InvalidInput(_("Malformed event: {data}.").format(data=show(data, 80))) from None
    if not isinstance(data, Mapping):
        raise InvalidInput(
            _("An event must be a JSON object, not {type}.").format(type=type(data).__name__)
        )
    kind = data.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        known = ", ".join(_READERS)
        raise InvalidInput(
            _("Unknown event type {kind}; known types: {known}.").format(
                kind=show(kind), known=known
            )
        )
    return reader(data, boxes)
