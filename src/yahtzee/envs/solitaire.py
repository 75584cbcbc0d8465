"""``yahtzee/Solitaire-v0``: one player, the whole game, on the project's rules engine.

* Actions, ``Discrete(475)`` (see `yahtzee.envs.encoding`): ``k`` (0-461) keeps
  ``Keep.all()[k]`` and rolls the other dice; ``462 + c`` scores box ``c``. Under a Yatzy
  rule set (``rules="yatzy"``), ``Discrete(477)``: its fifteen boxes in card order. The first roll
  of each turn is made by the environment, so the dice always show at a decision.
* ``info["action_mask"]`` (and ``action_masks()``) marks the legal actions. An illegal
  action changes nothing: by default (``illegal_action="noop"``) the step returns the same
  observation, reward ``illegal_penalty`` (0) and ``info["illegal_action"]`` saying why;
  with ``illegal_action="raise"`` it raises `IllegalMove`. (An agent that may repeat
  illegal actions forever wants ``gymnasium.wrappers.TimeLimit``: a game takes at most 39
  legal steps, 45 in Yatzy.) Stepping after the end raises `IllegalMove`: call ``reset()``.
* ``action_masks()`` is a method of the environment: through wrappers, call
  ``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``.
* Observation, a ``Dict``: ``dice`` (count of each face, 0-5), ``rolls_left`` (0-2),
  ``filled`` (a flag per box: 13, 15 in Yatzy), ``upper_subtotal`` (0-63, capped),
  ``yahtzee_box`` (the Yahtzee box, the Yatzy box in Yatzy: 0 open, 1 holds 0, 2 holds 50).
* Each step checks the action against the mask, which is worked out from the engine's
  legal boxes, and the engine checks it again as it plays it (the environment keeps no
  rules of its own).
* Reward: the points each placement adds (box, upper bonus when it is reached, Yahtzee
  bonus), so an episode's return is the final total (``info["total"]``).
* ``reward_shaping=True`` adds potential-based shaping with the optimal solver's expected
  points still to come as the potential (`yahtzee.envs.shaping`): the optimal policy
  is unchanged and the return becomes the final total less the expected future at the
  first decision. The unshaped points are always in ``info["points"]``.
* ``rules`` is any rule-set name (``yahtzee rules`` lists them).
* ``reset(options={"dice": source})`` plays the episode with a given
  `DiceSource` (``ScriptedDice`` for a scripted game).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core import Game, IllegalMove, Phase, RandomDice, RuleSet
from ..core.language import _
from .encoding import (
    KEEPS,
    N_KEEPS,
    CardFeatures,
    Encoding,
    action_number,
    check_action,
    dice_for,
    legal_bytes,
    mask_of,
    observation,
    player_space,
)
from .shaping import Shaping

_OVER = Phase.OVER


class SolitaireEnv(gym.Env[dict[str, Any], int]):
    """One player's whole game as a Gymnasium environment (``yahtzee/Solitaire-v0``): see the RL
    guide for its spaces, masks and rewards."""

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
        self.encoding = encoding = Encoding.of(self.rules)
        self._boxes = encoding.boxes
        self._no_actions = bytes(encoding.n_actions)
        self.render_mode = render_mode
        self._shaping = Shaping(self.rules) if reward_shaping else None
        self.action_space = spaces.Discrete(encoding.n_actions)  # type: ignore[assignment]
        self.observation_space = spaces.Dict(player_space(encoding))
        self.game = Game(1, self.rules, RandomDice(0))
        # What the agent sees, taken in by _look after every change of the game.
        self._features = CardFeatures.of(self.game.cards[0])
        self._legal = self._no_actions  # legal_bytes: the mask, as cheap to read as to build
        self._look(0)

    def _look(self, before: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """Take in the game as it now stands: the card's features (worked out again only
        when the card changed) and the legal actions (the keeps of the dice and the
        engine's legal boxes). Returns the observation and the info, whose points are what
        the total gained since it was ``before``."""
        state = self.game.state
        card = state.cards[0]
        features = self._features
        if card is not features.card:
            self._features = features = CardFeatures.of(card)
        turn = state.turn
        if turn is None or turn.dice is None:  # before the first roll, or the game is over
            dice, rolls_left, self._legal = None, 0, self._no_actions
        else:
            dice, rolls_left = turn.dice, turn.rolls_left
            boxes = card.legal_boxes(dice, self.rules)
            self._legal = legal_bytes(dice, rolls_left, boxes, features)
        total = features.total
        info = {"action_mask": mask_of(self._legal), "total": total, "points": total - before}
        return observation(features, dice, rolls_left), info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game (``seed`` seeds the dice; ``options={"dice": ...}`` scripts them) and
        make its first roll."""
        super().reset(seed=seed)
        self.game = Game(1, self.rules, dice_for(self.np_random, options))
        self.game.roll()
        if self._shaping is not None:
            self._shaping.reset(self.game)
        return self._look(0)  # a new card: no points yet

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what MaskablePPO asks for)."""
        return mask_of(self._legal).astype(bool)

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play one action: keep a multiset and roll the rest, or score a box. An illegal action
        changes nothing."""
        game = self.game
        before = self._features.total
        if not (type(action) is int and 0 <= action < len(self._legal) and self._legal[action]):
            if game.is_over:  # (no action is legal then)
                raise IllegalMove(_("The episode is over: call reset()."), code="game_over")
            try:  # not a plain legal action number: refused, or a NumPy integer say
                check_action(game, action, self._legal)
            except IllegalMove as refused:
                if self.illegal_action == "raise":
                    raise
                observed, info = self._look(before)  # nothing changed
                info["illegal_action"] = str(refused)
                return observed, self.illegal_penalty, False, False, info
            action = action_number(action, self.encoding)
        # The engine checks the action once more, as it does for any caller.
        if action < N_KEEPS:
            game.roll(KEEPS[action])
        else:
            game.score(self._boxes[action - N_KEEPS])
            turn = game.state.turn
            if turn is not None and turn.dice is None:
                game.roll()  # the next turn's first roll
        observed, info = self._look(before)
        reward = float(info["points"])
        if self._shaping is not None:
            reward += self._shaping.update(game, 0)
        return observed, reward, game.state.phase is _OVER, False, info

    def render(self) -> str | None:
        """The dice and the total as one line of text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode is None:
            return None
        card = self.game.cards[0]
        dice = self.game.dice
        return f"dice {dice.spaced() if dice else '-'}  total {card.total}"
