"""The action and observation encoding both environments share.

* Actions, ``Discrete(475)``: ``k`` (0-461) keeps multiset ``Keep.all()[k]`` and rolls the
  other dice; ``462 + c`` scores box ``c`` (``Category`` order: Aces ... Chance).
* The mask marks exactly the actions the engine allows now, less "keep all five and roll"
  (legal, but it only spends a roll).
* A player's features: ``dice`` (count of each face 1-6, all 0 when that player has no
  dice showing), ``rolls_left`` (0-2), ``filled`` (13 flags in ``Category`` order),
  ``upper_subtotal`` (0-63, capped at 63: beyond it only the bonus matters) and
  ``yahtzee_box`` (0 open, 1 holds 0, 2 holds 50).
"""

from __future__ import annotations

from functools import cache
from typing import Any

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
    YAHTZEE_POINTS,
    Category,
    Dice,
    DiceSource,
    Game,
    IllegalMove,
    Keep,
    Phase,
    RandomDice,
    Score,
)
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

Mask = npt.NDArray[np.int8]


def action_of(index: object) -> Keep | Score:
    """The engine's action for an action number (``IllegalMove`` outside 0-474)."""
    if isinstance(index, np.ndarray) and index.shape == ():
        index = index.item()
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise IllegalMove(
            f"An action is a whole number 0 to {N_ACTIONS - 1}, not {index!r}.", code="bad_action"
        )
    index = int(index)
    if not 0 <= index < N_ACTIONS:
        raise IllegalMove(f"Actions are 0 to {N_ACTIONS - 1}, not {index}.", code="bad_action")
    return KEEPS[index] if index < N_KEEPS else Score(Category(index - N_KEEPS))


def index_of(action: Keep | Score) -> int:
    """The action number of an engine action."""
    return _KEEP_INDEX[action] if isinstance(action, Keep) else N_KEEPS + int(action.category)


@cache
def _keep_mask(dice: Dice) -> Mask:
    legal = np.zeros(N_ACTIONS, dtype=np.int8)
    for keep in dice.keeps():
        if len(keep) < len(dice):
            legal[_KEEP_INDEX[keep]] = 1
    legal.flags.writeable = False
    return legal


def mask(game: Game, seat: int | None = None) -> Mask:
    """The legal actions now (for ``seat``: all zero when it is not that seat's decision)."""
    turn = game.turn
    if game.phase is not Phase.TURN or turn is None or turn.dice is None:
        return np.zeros(N_ACTIONS, dtype=np.int8)
    if seat is not None and turn.player != seat:
        return np.zeros(N_ACTIONS, dtype=np.int8)
    legal = _keep_mask(turn.dice).copy() if turn.rolls_left else np.zeros(N_ACTIONS, np.int8)
    for placement in game.cards[turn.player].placements(turn.dice, game.rules):
        legal[N_KEEPS + int(placement.category)] = 1
    return legal


def player_space() -> dict[str, spaces.Space[Any]]:
    return {
        "dice": spaces.Box(0, DICE_COUNT, shape=(FACE_COUNT,), dtype=np.int64),
        "rolls_left": spaces.Discrete(ROLLS_PER_TURN),
        "filled": spaces.MultiBinary(len(Category)),
        "upper_subtotal": spaces.Discrete(UPPER_BONUS_THRESHOLD + 1),
        "yahtzee_box": spaces.Discrete(YAHTZEE_BOX_STATES),
    }


@cache
def _counts(dice: Dice | None) -> npt.NDArray[np.int64]:
    return np.array(dice.counts if dice else (0,) * FACE_COUNT, dtype=np.int64)


def observe_player(game: Game, seat: int) -> dict[str, Any]:
    card = game.cards[seat]
    turn = game.turn
    showing = game.phase is Phase.TURN and turn is not None and turn.player == seat
    dice = turn.dice if showing and turn is not None else None
    yahtzee = card.boxes[Category.YAHTZEE]
    return {
        "dice": _counts(dice).copy(),
        "rolls_left": np.int64(turn.rolls_left if dice and turn else 0),
        "filled": np.array([p is not None for p in card.boxes], dtype=np.int8),
        "upper_subtotal": np.int64(min(card.upper_subtotal, UPPER_BONUS_THRESHOLD)),
        "yahtzee_box": np.int64(0 if yahtzee is None else (2 if yahtzee == YAHTZEE_POINTS else 1)),
    }


def mask_space() -> spaces.Box:
    return spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8)


def check_action(game: Game, action: object, legal: Mask) -> Keep | Score:
    """The engine action for ``action``, or ``IllegalMove`` saying why it is not allowed."""
    chosen = action_of(action)
    if not legal[index_of(chosen)]:
        game.check(chosen)  # raises with the engine's reason
        raise IllegalMove(NOT_OFFERED, code="not_offered")
    return chosen


NOT_OFFERED = "Keeping all five dice and rolling is not offered: it only wastes a roll."


def dice_for(rng: np.random.Generator, options: dict[str, Any] | None) -> DiceSource:
    """The episode's dice: ``options["dice"]`` (a :class:`DiceSource`, for scripted
    games) or a generator drawn from the environment's seeded random numbers."""
    source = (options or {}).get("dice")
    if source is None:
        return RandomDice(int(rng.integers(2**62)))
    if not isinstance(source, DiceSource):
        raise TypeError("options['dice'] must be a yahtzee DiceSource")
    return source
