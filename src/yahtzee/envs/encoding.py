"""The action and observation encoding the environments share, one per edition of the
rules (`Encoding.of`; the module's constants are the American edition's).

* Actions, ``Discrete(462 + boxes)``: ``k`` (0-461) keeps multiset ``Keep.all()[k]`` and
  rolls the other dice; ``462 + c`` scores box ``c`` in card order (American: 13 boxes,
  Aces ... Chance, ``Discrete(475)``; Yatzy: 15, Ones ... Yatzy, ``Discrete(477)``).
* The mask marks exactly the actions the engine allows now, less "keep all five and roll"
  (legal, but it only spends a roll).
* A player's features: ``dice`` (count of each face 1-6, all 0 when that player has no
  dice showing), ``rolls_left`` (0-2), ``filled`` (a flag per box, in card order),
  ``upper_subtotal`` (0-63, capped at the edition's upper-bonus threshold, 63: beyond it
  only the bonus matters) and ``yahtzee_box`` (the edition's five-of-a-kind box: 0 open,
  1 holds 0, 2 holds 50).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core import (
    DICE_COUNT,
    FACE_COUNT,
    ROLLS_PER_TURN,
    ROUNDS,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    Box,
    Category,
    Dice,
    DiceSource,
    Game,
    IllegalMove,
    Keep,
    Phase,
    RandomDice,
    RuleSet,
    Score,
    Scorecard,
)
from ..core.language import N_, _
from ..core.scorecard import possible_points

KEEPS = Keep.all()
N_KEEPS = len(KEEPS)
N_ACTIONS = N_KEEPS + len(Category)
MAX_TOTAL = (
    sum(max(possible_points(c)) for c in Category) + UPPER_BONUS + (ROUNDS - 1) * YAHTZEE_BONUS
)
"""The highest total a card can reach (every box at its best and twelve Yahtzee bonuses):
1575."""
YAHTZEE_BOX_STATES = 3  # the yahtzee_box feature: open, holds 0, holds 50
_KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}
ACTIONS: tuple[Keep | Score, ...] = (*KEEPS, *(Score(c) for c in Category))
"""The engine's action for each action number (immutable values, shared)."""

Mask = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True, eq=False)
class Encoding:
    """The actions and a player's features under one rule set's edition: its boxes, the
    action count, the highest total, the upper-bonus threshold and the five-of-a-kind box
    (made once per rule set: `Encoding.of`)."""

    boxes: tuple[Box, ...]
    actions: tuple[Keep | Score, ...]
    max_total: int
    upper_cap: int
    five_alike: Box
    five_alike_points: int

    @property
    def n_actions(self) -> int:
        return len(self.actions)

    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @staticmethod
    @cache
    def of(rules: RuleSet) -> Encoding:
        """The encoding of ``rules``' edition (with its bonuses, for the highest total)."""
        edition = rules.edition
        best = sum(max(possible_points(box, rules)) for box in edition.boxes)
        return Encoding(
            boxes=edition.boxes,
            actions=(*KEEPS, *(Score(box) for box in edition.boxes)),
            max_total=best + edition.upper_bonus + (rules.rounds - 1) * rules.yahtzee_bonus,
            upper_cap=edition.upper_bonus_threshold,
            five_alike=edition.five_of_a_kind,
            five_alike_points=edition.box_rules[edition.five_of_a_kind].points,
        )


AMERICAN = Encoding.of(RuleSet.official())


def action_number(action: object, encoding: Encoding = AMERICAN) -> int:
    """``action`` as a plain action number (``IllegalMove`` unless a whole number 0-474,
    0-476 in Yatzy: ``encoding``'s actions)."""
    n_actions = encoding.n_actions
    if type(action) is int and 0 <= action < n_actions:  # the usual case, checked fast
        return action
    index = action
    if isinstance(index, np.ndarray) and index.shape == ():
        index = index.item()
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise IllegalMove(
            _("An action is a whole number 0 to {n_actions}, not {index!r}.").format(
                n_actions=n_actions - 1, index=index
            ),
            code="bad_action",
        )
    index = int(index)
    if not 0 <= index < n_actions:
        raise IllegalMove(
            _("Actions are 0 to {n_actions}, not {index}.").format(
                n_actions=n_actions - 1, index=index
            ),
            code="bad_action",
        )
    return index


def action_of(index: object, encoding: Encoding = AMERICAN) -> Keep | Score:
    """The engine's action for an action number (``IllegalMove`` outside 0-474: the
    American edition's, by default)."""
    return encoding.actions[action_number(index, encoding)]


def index_of(action: Keep | Score) -> int:
    """The action number of an engine action."""
    return _KEEP_INDEX[action] if isinstance(action, Keep) else N_KEEPS + int(action.category)


@cache
def _keep_mask(dice: Dice) -> Mask:
    legal = np.zeros(N_KEEPS, dtype=np.int8)
    for keep in dice.keeps():
        if len(keep) < len(dice):
            legal[_KEEP_INDEX[keep]] = 1
    legal.flags.writeable = False
    return legal


NO_ACTIONS = bytes(N_ACTIONS)
"""The legal actions as bytes when none is (see `legal_bytes`)."""
_NO_KEEPS = bytes(N_KEEPS)
_KEEP_BYTES: dict[tuple[int, ...], bytes] = {}  # by the dice's faces: at most 252


def legal_bytes(
    dice: Dice,
    rolls_left: int,
    boxes: tuple[Box, ...],
    features: CardFeatures | None = None,
    n_boxes: int = AMERICAN.n_boxes,
) -> bytes:
    """The legal actions, one byte each (1 legal): the keeps the dice allow while rolls
    are left, and ``boxes`` (the card's legal boxes for the dice, of a card of
    ``n_boxes``). Cheap to build and to read from Python; `mask_of` makes the mask array.
    When ``boxes`` are the open boxes of the card whose ``features`` are given, their
    bytes come from there."""
    keeps = _KEEP_BYTES.get(dice.faces)
    if keeps is None:
        keeps = _KEEP_BYTES[dice.faces] = _keep_mask(dice)[:N_KEEPS].tobytes()
    if features is not None and (boxes is features.open_boxes or boxes == features.open_boxes):
        marked: bytes | bytearray = features.open_bytes
    else:
        marked = bytearray(len(features.card.boxes) if features is not None else n_boxes)
        for box in boxes:
            marked[box] = 1
    return (keeps if rolls_left else _NO_KEEPS) + marked


def mask_of(legal: bytes) -> Mask:
    """A fresh, writeable mask array of `legal_bytes` (a single NumPy call)."""
    return np.frombuffer(bytearray(legal), np.int8)


def mask(game: Game, seat: int | None = None) -> Mask:
    """The legal actions now (for ``seat``: all zero when it is not that seat's decision)."""
    turn = game.turn
    n_boxes = game.rules.rounds
    if game.phase is not Phase.TURN or turn is None or turn.dice is None:
        return np.zeros(N_KEEPS + n_boxes, dtype=np.int8)
    if seat is not None and turn.player != seat:
        return np.zeros(N_KEEPS + n_boxes, dtype=np.int8)
    boxes = game.cards[turn.player].legal_boxes(turn.dice, game.rules)
    return mask_of(legal_bytes(turn.dice, turn.rolls_left, boxes, n_boxes=n_boxes))


def player_space(encoding: Encoding = AMERICAN) -> dict[str, spaces.Space[Any]]:
    """A player's features' spaces (``encoding``: the rules' edition's; American by
    default)."""
    return {
        "dice": spaces.Box(0, DICE_COUNT, shape=(FACE_COUNT,), dtype=np.int64),
        "rolls_left": spaces.Discrete(ROLLS_PER_TURN),
        "filled": spaces.MultiBinary(encoding.n_boxes),
        "upper_subtotal": spaces.Discrete(encoding.upper_cap + 1),
        "yahtzee_box": spaces.Discrete(YAHTZEE_BOX_STATES),
    }


# Observations are built from shared read-only arrays and immutable NumPy scalars, worked
# out once: each observation gets copies of the arrays (Gymnasium wants new ones at every
# call) and shares the scalars.
_COUNTS: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}  # by the dice's faces
_NO_COUNTS = np.zeros(FACE_COUNT, dtype=np.int64)
_NO_COUNTS.flags.writeable = False
# by the edition and the open boxes (boxes of two editions compare equal as numbers): the
# filled flags, and a byte per box, 1 for the open ones
_BY_OPEN_BOXES: dict[tuple[str, tuple[Box, ...]], tuple[npt.NDArray[np.int8], bytes]] = {}
_INT64 = tuple(np.int64(n) for n in range(UPPER_BONUS_THRESHOLD + 1))


def _counts(dice: Dice) -> npt.NDArray[np.int64]:
    """How many dice show each face (worked out once for each roll: 252 of them)."""
    counts = _COUNTS[dice.faces] = np.array(dice.counts, dtype=np.int64)
    counts.flags.writeable = False
    return counts


class CardFeatures(NamedTuple):
    """What a player's features and mask take from a scorecard, worked out once per card."""

    card: Scorecard
    total: int
    filled: npt.NDArray[np.int8]
    """Read-only and shared: observations get copies."""
    upper_subtotal: np.int64
    yahtzee_box: np.int64
    open_boxes: tuple[Box, ...]
    open_bytes: bytes
    """A byte per box, 1 for the open ones: the boxes part of `legal_bytes`."""

    @classmethod
    def of(cls, card: Scorecard) -> CardFeatures:
        boxes = card.boxes
        open_boxes = card.open_boxes
        edition = card.edition
        key = (edition.name, open_boxes)
        by_open = _BY_OPEN_BOXES.get(key)
        if by_open is None:  # at most 2**13 of them (2**15 in Yatzy)
            filled = np.array([points is not None for points in boxes], dtype=np.int8)
            filled.flags.writeable = False
            by_open = _BY_OPEN_BOXES[key] = (filled, bytes([p is None for p in boxes]))
        five = edition.five_of_a_kind
        yahtzee = boxes[five]
        alike = edition.box_rules[five].points
        return cls(
            card,
            card.total,
            by_open[0],
            _INT64[min(card.upper_subtotal, edition.upper_bonus_threshold)],
            _INT64[0 if yahtzee is None else (2 if yahtzee == alike else 1)],
            open_boxes,
            by_open[1],
        )


@lru_cache(maxsize=256)
def card_features(card: Scorecard) -> CardFeatures:
    """`CardFeatures.of`, remembered for the cards seen last."""
    return CardFeatures.of(card)


def observation(features: CardFeatures, dice: Dice | None, rolls_left: int) -> dict[str, Any]:
    """A player's features (``dice`` ``None`` when none show): fresh arrays, so the caller
    may keep or change them."""
    counts: npt.NDArray[np.int64] | None
    if dice is None:
        counts, rolls_left = _NO_COUNTS, 0
    else:
        counts = _COUNTS.get(dice.faces)
        if counts is None:
            counts = _counts(dice)
    return {
        "dice": counts.copy(),
        "rolls_left": _INT64[rolls_left],
        "filled": features.filled.copy(),
        "upper_subtotal": features.upper_subtotal,
        "yahtzee_box": features.yahtzee_box,
    }


def observe_player(game: Game, seat: int) -> dict[str, Any]:
    turn = game.turn
    showing = game.phase is Phase.TURN and turn is not None and turn.player == seat
    dice = turn.dice if showing and turn is not None else None
    return observation(card_features(game.cards[seat]), dice, turn.rolls_left if turn else 0)


def mask_space(encoding: Encoding = AMERICAN) -> spaces.Box:
    return spaces.Box(0, 1, shape=(encoding.n_actions,), dtype=np.int8)


def check_action(game: Game, action: object, legal: Mask | bytes) -> Keep | Score:
    """The engine action for ``action``, or ``IllegalMove`` saying why it is not allowed
    (``legal``: the mask, or its `legal_bytes`, of the game's edition's actions)."""
    encoding = Encoding.of(game.rules)
    index = action_number(action, encoding)
    chosen = encoding.actions[index]
    if not legal[index]:
        game.check(chosen)  # raises with the engine's reason
        raise IllegalMove(_(NOT_OFFERED), code="not_offered")
    return chosen


NOT_OFFERED = N_("Keeping all five dice and rolling is not offered: it only wastes a roll.")


def dice_for(rng: np.random.Generator, options: dict[str, Any] | None) -> DiceSource:
    """The episode's dice: ``options["dice"]`` (a `DiceSource`, for scripted
    games) or a generator drawn from the environment's seeded random numbers."""
    source = (options or {}).get("dice")
    if source is None:
        return RandomDice(int(rng.integers(2**62)))
    if not isinstance(source, DiceSource):
        raise TypeError("options['dice'] must be a yahtzee DiceSource")
    return source
