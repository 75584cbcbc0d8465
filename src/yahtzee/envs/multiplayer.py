"""A PettingZoo AEC environment for 2-8 players: ``yahtzee.envs.multiplayer.env(players=3)``.

Agents are ``player_0`` ... ``player_{n-1}`` in seat order; the agent to act is always the
player whose turn it is (the environment makes each turn's first roll and any playoff rolls).

* Actions: the shared ``Discrete(475)`` encoding (`yahtzee.envs.encoding`); under a Yatzy
  rule set (``rules="yatzy"``) ``Discrete(477)``, its fifteen boxes (``filled`` has 15).
* Observation, as PettingZoo's classic games: ``{"observation": ..., "action_mask": ...}``.
  ``observation`` holds the agent's own ``dice``, ``rolls_left``, ``filled``,
  ``upper_subtotal``, ``yahtzee_box``, its ``total`` and ``opponent_totals`` (the others'
  totals in seat order, starting with the next player). ``dice`` and ``action_mask`` are all
  zero when it is not the agent's decision.
* Reward: the points each of the agent's placements adds, so its return is its final total;
  ``win_reward=w`` adds ``+w`` to each winner (a shared win counts for each) and ``-w`` to
  every other player when the game ends. ``reward_shaping=True`` adds the solver-based
  potential shaping of `yahtzee.envs.shaping` to each player.
* ``rules``: any rule-set name; with a ``+playoff`` rule set, ties are settled by the
  one-roll playoff before the game ends (``infos[agent]["winners"]`` names the winners).
* An illegal action changes nothing: with ``illegal_action="noop"`` (default) the agent
  stays selected, gets ``illegal_penalty`` and ``infos[agent]["illegal_action"]`` saying
  why; with ``"raise"`` it raises `IllegalMove`.
* ``reset(options={"dice": source})`` plays the game with a given dice source.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core import MAX_PLAYERS, Game, IllegalMove, Phase, RandomDice, RuleSet
from ..core.language import _
from .encoding import (
    Encoding,
    Mask,
    check_action,
    dice_for,
    mask,
    mask_space,
    observe_player,
    player_space,
)
from .shaping import Shaping

AgentID = str
MIN_PLAYERS = 2  # one player is the solitaire environment


__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv[AgentID, dict[str, Any], int]:
    """The environment wrapped as PettingZoo recommends (order of calls enforced)."""
    wrapped: AECEnv[AgentID, dict[str, Any], int] = wrappers.OrderEnforcingWrapper(
        raw_env(**kwargs)
    )
    return wrapped


class raw_env(AECEnv[AgentID, dict[str, Any], int]):
    """A game for 2-8 players as a PettingZoo AEC environment, without PettingZoo's wrappers
    (``env`` adds them)."""

    metadata = {  # noqa: RUF012 - PettingZoo declares it so
        "render_modes": ["ansi"],
        "name": "yahtzee_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: str = "official",
        *,
        render_mode: str | None = None,
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
        win_reward: float = 0.0,
        reward_shaping: bool = False,
    ) -> None:
        super().__init__()
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players is {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        if illegal_action not in ("noop", "raise"):
            raise ValueError("illegal_action is 'noop' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode is None or 'ansi'")
        self.rules = RuleSet.named(rules)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.win_reward = win_reward
        self._shaping = Shaping(self.rules) if reward_shaping else None
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.encoding = encoding = Encoding.of(self.rules)
        most = encoding.max_total
        self._action_space = spaces.Discrete(encoding.n_actions)
        observation = spaces.Dict(
            {
                **player_space(encoding),
                "total": spaces.Discrete(most + 1),
                "opponent_totals": spaces.Box(0, most, shape=(players - 1,), dtype=np.int64),
            }
        )
        self._observation_space = spaces.Dict(
            {"observation": observation, "action_mask": mask_space(encoding)}
        )
        self._np_random, _unused = seeding.np_random(None)
        self.game = Game(players, self.rules, RandomDice(0))
        self._mask: Mask = mask(self.game)

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        """The observation and its action mask, as PettingZoo's classic games give them."""
        return self._observation_space

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        """The same ``Discrete(475)`` for every agent (``Discrete(477)`` in Yatzy)."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` seeds the dice) and make the first player's first roll."""
        if seed is not None:
            self._np_random, _unused = seeding.np_random(seed)
        self.game = Game(len(self.possible_agents), self.rules, dice_for(self._np_random, options))
        self.game.roll()
        self._mask = mask(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]
        if self._shaping is not None:
            self._shaping.reset(self.game)

    def observe(self, agent: AgentID) -> dict[str, Any]:
        """What ``agent`` sees: its own dice and card, its total, the others' totals from the next
        seat on, and its action mask."""
        seat = self._seat[agent]
        totals = [card.total for card in self.game.cards]
        others = totals[seat + 1 :] + totals[:seat]
        observation = {
            **observe_player(self.game, seat),
            "total": np.int64(totals[seat]),
            "opponent_totals": np.array(others, dtype=np.int64),
        }
        acting = self.game.phase is Phase.TURN and self.game.current_player == seat
        legal = self._mask.copy() if acting else np.zeros(self.encoding.n_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": legal}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The selected agent's legal actions, as booleans."""
        return self._mask.astype(bool)

    def step(self, action: int | None) -> None:
        """Play the selected agent's action and move to whoever acts next."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        try:
            if action is None:
                raise IllegalMove(
                    _("An agent still playing must choose an action."), code="bad_action"
                )
            chosen = check_action(self.game, action, self._mask)
        except IllegalMove as refused:
            if self.illegal_action == "raise":
                raise  # before anything changed
            self._start_step(agent)
            self.rewards[agent] = self.illegal_penalty
            self.infos[agent] = {"illegal_action": str(refused)}
            self._accumulate_rewards()
            return
        self._start_step(agent)
        before = self.game.cards[seat].total
        self.game.play(chosen)
        while not self.game.is_over and self.game.dice is None:
            self.game.roll()  # the next turn's first roll, or a playoff roll
        self._mask = mask(self.game)
        self.rewards[agent] = float(self.game.cards[seat].total - before)
        if self._shaping is not None:
            self.rewards[agent] += self._shaping.update(self.game, seat)
        if self.game.is_over:
            self._finish()
        else:
            current = self.game.current_player
            assert current is not None
            self.agent_selection = self.possible_agents[current]
            if self._shaping is not None and current != seat:
                self.rewards[self.agent_selection] += self._shaping.update(self.game, current)
        self._accumulate_rewards()

    def _start_step(self, agent: AgentID) -> None:
        """The acting agent has collected its rewards; this step's are new."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for name in self.agents:
            self.infos[name] = {}

    def _finish(self) -> None:
        winners = self.game.winners
        for seat, agent in enumerate(self.possible_agents):
            if self.win_reward:
                self.rewards[agent] += self.win_reward if seat in winners else -self.win_reward
            self.infos[agent] = {"total": self.game.cards[seat].total, "winners": list(winners)}
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """The turn, the dice and every total as one line of text (``render_mode="ansi"``), else
        ``None``."""
        if self.render_mode is None:
            return None
        turn = self.game.turn
        dice = self.game.dice
        totals = "  ".join(
            f"{agent} {card.total}"
            for agent, card in zip(self.possible_agents, self.game.cards, strict=True)
        )
        who = f"{self.possible_agents[turn.player]} dice {dice.spaced()}  " if turn and dice else ""
        return f"{who}{totals}"

    def close(self) -> None:
        """Nothing to release."""
