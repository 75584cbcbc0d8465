"""``yahtzee/Solitaire-v0``: one player, the whole game, on the project's rules engine.

* Actions, ``Discrete(475)`` (see :mod:`yahtzee.envs.encoding`): ``k`` (0-461) keeps
  ``Keep.all()[k]`` and rolls the other dice; ``462 + c`` scores box ``c``. The first roll
  of each turn is made by the environment, so the dice always show at a decision.
* ``info["action_mask"]`` (and ``action_masks()``) marks the legal actions. An illegal
  action changes nothing: by default (``illegal_action="noop"``) the step returns the same
  observation, reward ``illegal_penalty`` (0) and ``info["illegal_action"]`` saying why;
  with ``illegal_action="raise"`` it raises :class:`IllegalMove`. (An agent that may repeat
  illegal actions forever wants ``gymnasium.wrappers.TimeLimit``: a game takes at most 39
  legal steps.) Stepping after the end raises :class:`IllegalMove`: call ``reset()``.
* ``action_masks()`` is a method of the environment: through wrappers, call
  ``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``.
* Observation, a ``Dict``: ``dice`` (count of each face, 0-5), ``rolls_left`` (0-2),
  ``filled`` (13 flags), ``upper_subtotal`` (0-63, capped), ``yahtzee_box`` (0 open,
  1 holds 0, 2 holds 50).
* Reward: the points each placement adds (box, upper bonus when it is reached, Yahtzee
  bonus), so an episode's return is the final total (``info["total"]``).
* ``reward_shaping=True`` adds potential-based shaping with the optimal solver's expected
  points still to come as the potential (:mod:`yahtzee.envs.shaping`): the optimal policy
  is unchanged and the return becomes the final total less the expected future at the
  first decision. The unshaped points are always in ``info["points"]``.
* ``rules`` is any rule-set name (``yahtzee rules`` lists them).
* ``reset(options={"dice": source})`` plays the episode with a given
  :class:`~yahtzee.core.DiceSource` (``ScriptedDice`` for a scripted game).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core import Game, IllegalMove, RandomDice, RuleSet
from .encoding import N_ACTIONS, Mask, check_action, dice_for, mask, observe_player, player_space
from .shaping import Shaping


class SolitaireEnv(gym.Env[dict[str, Any], int]):
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        rules: str = "official",
        render_mode: str | None = None,
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
        reward_shaping: bool = False,
    ) -> None:
        if illegal_action not in ("noop", "raise"):
            raise ValueError("illegal_action is 'noop' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode is None or 'ansi'")
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.rules = RuleSet.named(rules)
        self.render_mode = render_mode
        self._shaping = Shaping(self.rules) if reward_shaping else None
        self.action_space = spaces.Discrete(N_ACTIONS)  # type: ignore[assignment]
        self.observation_space = spaces.Dict(player_space())
        self.game = Game(1, self.rules, RandomDice(0))
        self._mask: Mask = mask(self.game)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(1, self.rules, dice_for(self.np_random, options))
        self.game.roll()
        self._mask = mask(self.game)
        if self._shaping is not None:
            self._shaping.reset(self.game)
        return observe_player(self.game, 0), self._info(0)

    def _info(self, points: int) -> dict[str, Any]:
        return {
            "action_mask": self._mask.copy(),
            "total": self.game.cards[0].total,
            "points": points,
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what MaskablePPO asks for)."""
        return self._mask.astype(bool)

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.game.is_over:
            raise IllegalMove("The episode is over: call reset().", code="game_over")
        try:
            chosen = check_action(self.game, action, self._mask)
        except IllegalMove as refused:
            if self.illegal_action == "raise":
                raise
            info = {**self._info(0), "illegal_action": str(refused)}
            return observe_player(self.game, 0), self.illegal_penalty, False, False, info
        before = self.game.cards[0].total
        self.game.play(chosen)
        if not self.game.is_over and self.game.dice is None:
            self.game.roll()  # the next turn's first roll
        self._mask = mask(self.game)
        points = self.game.cards[0].total - before
        reward = float(points)
        if self._shaping is not None:
            reward += self._shaping.update(self.game, 0)
        return observe_player(self.game, 0), reward, self.game.is_over, False, self._info(points)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        card = self.game.cards[0]
        dice = self.game.dice
        return f"dice {dice.spaced() if dice else '-'}  total {card.total}"
