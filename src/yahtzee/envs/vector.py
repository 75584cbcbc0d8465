"""``SolitaireVectorEnv``: many ``yahtzee/Solitaire-v0`` games stepped at once in compiled
code, a native ``gymnasium.vector.VectorEnv``.

``gymnasium.make_vec("yahtzee/Solitaire-v0", num_envs=64)`` makes it (Gymnasium's default
for an environment registered with a vector entry point; ``vectorization_mode="sync"`` or
``"async"`` steps copies of the Python environment instead, which also take
``reward_shaping`` and scripted dice). Spaces, actions, rewards and masks are
those of the single environment, batched; each finished game starts a new one on the next
step (``AutoresetMode.NEXT_STEP``, as ``SyncVectorEnv``), when that lane's action is
ignored. ``info["action_mask"]`` is ``(num_envs, 475)``, as is ``action_masks()``;
``info["total"]`` and ``info["points"]`` are per lane. An illegal action changes nothing
in its lane: it gets ``illegal_penalty`` and ``info["illegal_action"][i]`` is true
(``illegal_action="raise"``: `IllegalMove`, and no lane moves). Dice come from one
splitmix64 stream per lane, seeded from ``reset(seed=...)`` (one seed, or a list of one per
lane), so equal seeds replay;
``reset(options={"reset_mask": m})`` starts new games only in the lanes ``m`` marks.
Its kernels play the American card (13 boxes, the Yahtzee bonus and Joker): a rule set
of another edition (``rules="yatzy"``) is refused, saying to step copies of the Python
environment instead (``vectorization_mode="sync"``), which play every edition.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import (
    DICE_COUNT,
    FACE_COUNT,
    UPPER_BONUS_THRESHOLD,
    Category,
    Edition,
    IllegalMove,
    Keep,
    RuleSet,
)
from ..core.language import _
from ..solver.tables import model
from . import batch_kernel as kernel
from .encoding import N_ACTIONS, NOT_OFFERED, action_of, player_space

_COLUMNS = 7  # mask, yf, upper, total, roll, rolls_left, done


class SolitaireVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        num_envs: int = 16,
        rules: str = "official",
        *,
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
        render_mode: str | None = None,
        reward_shaping: bool = False,
    ) -> None:
        if reward_shaping:
            raise ValueError(
                "reward_shaping needs the Python environment: "
                "make_vec(..., vectorization_mode='sync') or 'async'"
            )
        if num_envs < 1:
            raise ValueError("num_envs is at least 1")
        if illegal_action not in ("noop", "raise"):
            raise ValueError("illegal_action is 'noop' or 'raise'")
        if render_mode is not None:
            raise ValueError("the batched environment does not render")
        self.rules = RuleSet.named(rules)
        if self.rules.edition != Edition.american():
            raise ValueError(
                f"The batched environment plays the American card only; for "
                f"{self.rules.edition.title} ({self.rules.name}) step copies of the Python "
                "environment: make_vec(..., vectorization_mode='sync') or 'async'"
            )
        self.num_envs = num_envs
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self._model = model(self.rules)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.single_observation_space = spaces.Dict(player_space())
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._state = np.zeros((num_envs, _COLUMNS), dtype=np.int64)
        self._state[:, 6] = 1  # no game yet: reset() starts them
        self._rng = np.zeros(num_envs, dtype=np.uint64)
        self._masks = np.zeros((num_envs, N_ACTIONS), dtype=np.int8)
        self._points = np.zeros(num_envs, dtype=np.int64)
        self._dice = np.zeros((num_envs, FACE_COUNT), dtype=np.int64)
        self._filled = np.zeros((num_envs, len(Category)), dtype=np.int8)
        self._yahtzee_box = np.zeros(num_envs, dtype=np.int64)
        self._seed_sequence = np.random.SeedSequence()
        self._has_reset = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        options = options or {}
        if "dice" in options:
            raise ValueError(
                "scripted dice need the Python environment: "
                "make_vec(..., vectorization_mode='sync')"
            )
        which = np.ones(self.num_envs, dtype=np.bool_)
        if "reset_mask" in options:
            which = np.asarray(options["reset_mask"], dtype=np.bool_).reshape(self.num_envs)
        if isinstance(seed, list | tuple):  # one seed per lane, as Gymnasium's vector envs
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} environments")
            streams = np.array(
                [np.random.SeedSequence(s).generate_state(1, np.uint64)[0] for s in seed]
            )
            self._seed_sequence = np.random.SeedSequence(list(seed))
        else:
            if seed is not None:
                self._seed_sequence = np.random.SeedSequence(seed)
            streams = self._seed_sequence.generate_state(self.num_envs, np.uint64)
        self._rng[which] = streams[which]
        self._seed_sequence = self._seed_sequence.spawn(1)[0]  # a later reset: new games
        self._has_reset = True
        kernel.reset(which, self._state, self._rng, self._model)
        self._points[:] = 0
        return self._observe(), self._info(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[dict[str, Any], npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        if not self._has_reset:
            raise ResetNeeded("Call reset() before step().")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        done = self._state[:, 6] == 1
        in_range = (chosen >= 0) & (chosen < N_ACTIONS)
        legal = in_range & (
            self._masks[np.arange(self.num_envs), np.clip(chosen, 0, N_ACTIONS - 1)] == 1
        )
        illegal = ~legal & ~done
        if illegal.any() and self.illegal_action == "raise":
            lane = int(np.flatnonzero(illegal)[0])
            raise IllegalMove(self._why(lane, int(chosen[lane])), code="not_offered")
        kernel.step(chosen, legal, self._state, self._rng, self._model, self._points)
        rewards = self._points.astype(np.float64)
        rewards[illegal] = self.illegal_penalty
        terminated = (self._state[:, 6] == 1) & ~done
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observe(), rewards, terminated, truncated, self._info(illegal)

    def _why(self, lane: int, action: int) -> str:
        if not 0 <= action < N_ACTIONS:
            return _("Lane {lane}: actions are 0 to {last}, not {action}.").format(
                lane=lane, last=N_ACTIONS - 1, action=action
            )
        chosen = action_of(action)
        if isinstance(chosen, Keep) and len(chosen) == DICE_COUNT:
            # Translators: {reason} is a whole sentence (why the action is not offered).
            return _("Lane {lane}: {reason}").format(lane=lane, reason=_(NOT_OFFERED))
        return _("Lane {lane}: {action} is not allowed now.").format(lane=lane, action=chosen)

    def _observe(self) -> dict[str, Any]:
        kernel.observe(
            self._state, self._model, self._masks, self._dice, self._filled, self._yahtzee_box
        )
        state = self._state
        return {
            "dice": self._dice.copy(),
            "rolls_left": state[:, 5].copy(),
            "filled": self._filled.copy(),
            "upper_subtotal": np.minimum(state[:, 2], UPPER_BONUS_THRESHOLD),
            "yahtzee_box": self._yahtzee_box.copy(),
        }

    def _info(self, illegal: npt.NDArray[np.bool_] | None) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        info: dict[str, Any] = {
            "action_mask": self._masks.copy(),
            "total": self._state[:, 3].copy(),
            "points": self._points.copy(),
            "_action_mask": every,
            "_total": every,
            "_points": every,
        }
        if illegal is not None and illegal.any():
            info["illegal_action"] = illegal
            info["_illegal_action"] = illegal.copy()
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every lane now, as booleans."""
        return self._masks.astype(bool)
