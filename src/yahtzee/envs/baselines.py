"""Returns of the project's strategies through the environment, so an agent's score can be
read against them: ``random`` (uniform over the mask), ``greedy``, ``heuristic`` and
``optimal`` (whose expected return is the solver's value, 254.59 under the official rules).

``python -m yahtzee.envs.baselines [EPISODES]`` prints the table.
"""

from __future__ import annotations

import logging
import math
import sys
from dataclasses import dataclass

import gymnasium as gym
import numpy as np

from ..solver import strategy
from .encoding import index_of
from .solitaire import SolitaireEnv

NAMES = ("random", "greedy", "heuristic", "optimal")


@dataclass(frozen=True)
class Baseline:
    strategy: str
    episodes: int
    mean: float
    std_error: float


def run(name: str, episodes: int, seed: int = 0, rules: str = "official") -> Baseline:
    env = SolitaireEnv(rules)
    rng = np.random.default_rng(seed)
    player = None if name == "random" else strategy(name, env.rules, seed)
    returns = []
    for episode in range(episodes):
        _, info = env.reset(seed=seed * 1_000_003 + episode)
        total, done = 0.0, False
        while not done:
            if player is None:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            else:
                situation = env.game.situation()
                assert situation is not None
                action = index_of(player.choose(situation))
            _, reward, done, _, info = env.step(action)
            total += float(reward)
        returns.append(total)
    values = np.array(returns)
    error = float(values.std(ddof=1) / math.sqrt(episodes)) if episodes > 1 else 0.0
    return Baseline(name, episodes, float(values.mean()), error)


def main() -> None:
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    gym.logger.min_level = logging.ERROR
    print(f"{'strategy':<10} {'episodes':>8} {'mean return':>12} {'std error':>10}")
    for name in NAMES:
        result = run(name, episodes)
        print(f"{name:<10} {episodes:>8} {result.mean:>12.2f} {result.std_error:>10.2f}")


if __name__ == "__main__":
    main()
