"""``yahtzee/Solitaire-v0``: one player, the whole game, on the project's rules engine.

* Actions, ``Discrete(475)``: ``k`` (0-461) keeps multiset ``Keep.all()[k]`` and rolls the
  other dice; ``462 + c`` scores box ``c`` (``Category`` order). The first roll of each turn
  is made by the environment, so the dice always show at a decision.
* ``info["action_mask"]`` (and ``action_masks()``) marks the legal actions. An illegal
  action changes nothing: by default (``illegal_action="noop"``) the step returns the same
  observation, reward ``illegal_penalty`` (0) and ``info["illegal_action"]`` saying why;
  with ``illegal_action="raise"`` it raises :class:`IllegalMove`.
* Observation, a ``Dict``: ``dice`` (count of each face, 0-5), ``rolls_left`` (0-2),
  ``filled`` (13 flags), ``upper_subtotal`` (0-63, capped), ``yahtzee_box`` (0 open,
  1 holds 0, 2 holds 50).
* Reward: the points each placement adds (box, upper bonus when it is reached, Yahtzee
  bonus), so an episode's return is the final total.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core import Category, Game, IllegalMove, Keep, RandomDice, RuleSet, Score, Scorecard

KEEPS = Keep.all()
N_KEEPS = len(KEEPS)
N_ACTIONS = N_KEEPS + len(Category)
_KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}


def action_of(index: int) -> Keep | Score:
    if not 0 <= index < N_ACTIONS:
        raise IllegalMove(f"Actions are 0 to {N_ACTIONS - 1}, not {index}.", code="bad_action")
    return KEEPS[index] if index < N_KEEPS else Score(Category(index - N_KEEPS))


def index_of(action: Keep | Score) -> int:
    return _KEEP_INDEX[action] if isinstance(action, Keep) else N_KEEPS + int(action.category)


def observe(game: Game, seat: int = 0) -> dict[str, Any]:
    card: Scorecard = game.cards[seat]
    turn = game.turn
    dice = turn.dice if turn is not None and turn.player == seat else None
    yahtzee = card[Category.YAHTZEE]
    return {
        "dice": np.array(dice.counts if dice else (0,) * 6, dtype=np.int64),
        "rolls_left": int(turn.rolls_left) if dice and turn else 0,
        "filled": np.array([p is not None for _, p in card], dtype=np.int8),
        "upper_subtotal": min(card.upper_subtotal, 63),
        "yahtzee_box": 0 if yahtzee is None else (2 if yahtzee == 50 else 1),
    }


def observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "dice": spaces.Box(0, 5, shape=(6,), dtype=np.int64),
            "rolls_left": spaces.Discrete(3),
            "filled": spaces.MultiBinary(13),
            "upper_subtotal": spaces.Discrete(64),
            "yahtzee_box": spaces.Discrete(3),
        }
    )


def mask(game: Game) -> npt.NDArray[np.int8]:
    legal = np.zeros(N_ACTIONS, dtype=np.int8)
    for action in game.legal_actions():
        if isinstance(action, Keep) and len(action) == 5 and game.turn and game.turn.dice:
            continue  # keeping all five only wastes a roll: not offered
        legal[index_of(action)] = 1
    return legal


class SolitaireEnv(gym.Env[dict[str, Any], int]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(
        self,
        rules: str = "official",
        render_mode: str | None = None,
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
    ) -> None:
        if illegal_action not in ("noop", "raise"):
            raise ValueError("illegal_action is 'noop' or 'raise'")
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.rules = RuleSet.named(rules)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(N_ACTIONS)  # type: ignore[assignment]
        self.observation_space = observation_space()
        self.game = Game(1, self.rules, RandomDice(0))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        dice = RandomDice(int(self.np_random.integers(2**62)))
        self.game = Game(1, self.rules, dice)
        self.game.roll()
        return observe(self.game), self._info()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": mask(self.game), "total": self.game.cards[0].total}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return mask(self.game).astype(bool)

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.game.is_over:
            raise IllegalMove("The episode is over: call reset().", code="game_over")
        try:
            chosen = action_of(int(action))
            if not mask(self.game)[int(action)]:
                self.game.check(chosen)  # says why
                raise IllegalMove(f"{chosen} is not offered here.", code="not_offered")
        except IllegalMove as refused:
            if self.illegal_action == "raise":
                raise
            info = {**self._info(), "illegal_action": str(refused)}
            return observe(self.game), self.illegal_penalty, False, False, info
        before = self.game.cards[0].total
        self.game.play(chosen)
        if not self.game.is_over and self.game.dice is None:
            self.game.roll()  # the next turn's first roll
        reward = float(self.game.cards[0].total - before)
        return observe(self.game), reward, self.game.is_over, False, self._info()

    def render(self) -> str | None:
        card = self.game.cards[0]
        dice = self.game.dice
        return f"dice {dice.spaced() if dice else '-'}  total {card.total}"
