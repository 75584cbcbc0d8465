"""Environment benchmark: steps per second of the RL environments under a masked random
policy (a uniform draw among the legal actions at every step, resets included).

Run: ``python benchmarks/envs.py`` (add ``--no-peer`` to skip the comparison).

Measures ``yahtzee/Solitaire-v0`` made by ``gymnasium.make`` (with Gymnasium's checking
wrappers, as users get it) and unwrapped, its vectorised forms (``gymnasium.make_vec``: sync
and async over the single env, and the compiled ``SolitaireVectorEnv``), and the PettingZoo
AEC environment for 2 players. It also installs
``gym-yahtzee`` (the most downloaded Yahtzee environment on PyPI, old ``gym`` API) into a
throwaway virtual environment and measures its random policy (its own legal-action
sampler) in the same run. The peer is for this benchmark only, never a dependency.

The single environment and the peer are timed in alternating rounds (``--rounds``, 3 by
default) and each reports its median round, so that a busy moment of the machine does not
fall on one side only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import gymnasium as gym
import numpy as np
from common import peer_python, run_python

import yahtzee.envs
from yahtzee.envs.multiplayer import raw_env


def single(steps: int, wrapped: bool) -> float:
    env = gym.make("yahtzee/Solitaire-v0") if wrapped else yahtzee.envs.SolitaireEnv()
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if done:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector(steps: int, mode: str, num_envs: int) -> float:
    envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=num_envs, vectorization_mode=mode)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    resetting = np.zeros(num_envs, dtype=bool)
    start = time.perf_counter()
    for _ in range(steps // num_envs):
        masks = info["action_mask"]
        actions = [
            0 if resetting[i] else rng.choice(np.flatnonzero(masks[i])) for i in range(num_envs)
        ]
        _, _, terminated, truncated, info = envs.step(np.array(actions))
        resetting = terminated | truncated
    rate = (steps // num_envs) * num_envs / (time.perf_counter() - start)
    envs.close()
    return rate


def compiled(steps: int, num_envs: int) -> float:
    """The compiled batched env (``make_vec``'s default here), with the masked random draw
    done batched in numpy too."""
    envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=num_envs)
    rng = np.random.default_rng(0)
    envs.reset(seed=0)
    _, _, _, _, info = envs.step(np.zeros(num_envs, dtype=np.int64))  # compiles, untimed
    start = time.perf_counter()
    for _ in range(steps // num_envs):
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # uniform among legal
        _, _, _, _, info = envs.step(actions)
    return (steps // num_envs) * num_envs / (time.perf_counter() - start)


def aec(steps: int) -> float:
    env = raw_env(players=2)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        if not env.agents:
            env.reset()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return steps / (time.perf_counter() - start)


PEER = """
import json, time, logging
import gym_yahtzee  # registers yahtzee-single-v0
from gym_yahtzee.envs import YahtzeeSingleEnv
from importlib.metadata import version
env = YahtzeeSingleEnv()
env.reset()
steps = {steps}
start = time.perf_counter()
for _ in range(steps):
    _, _, done, _ = env.step(env.sample_action())
    if done:
        env.reset()
rate = steps / (time.perf_counter() - start)
print(json.dumps({{"version": version("gym-yahtzee"), "steps_per_s": rate}}))
"""


SINGLE = "Solitaire-v0, gymnasium.make (checking wrappers)"
COMPILED_1024 = "make_vec default (compiled SolitaireVectorEnv), 1024 envs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    gym.logger.min_level = 40
    cores = os.cpu_count() or 1
    n = args.steps
    print(f"masked random policy, {n:,} steps each, {cores} cores")
    python = None if args.no_peer else peer_python("gym-yahtzee")
    ours: list[float] = []
    theirs: list[float] = []
    version = ""
    for _ in range(max(1, args.rounds)):  # alternate: ours, then the peer
        ours.append(single(n, wrapped=True))
        if python is not None:
            other = run_python(PEER.format(steps=n), python=python)
            theirs.append(other["steps_per_s"])
            version = other["version"]
    rates = {
        SINGLE: statistics.median(ours),
        "Solitaire-v0, unwrapped": single(n, wrapped=False),
        "make_vec sync, 8 envs": vector(n, "sync", 8),
        f"make_vec async, {cores} envs (one process each)": vector(n, "async", cores),
        "make_vec default (compiled SolitaireVectorEnv), 64 envs": compiled(n * 5, 64),
        COMPILED_1024: compiled(n * 10, 1024),
        "PettingZoo AEC, 2 players": aec(n),
    }
    for name, rate in rates.items():
        print(f"  {name:<60} {rate:>10,.0f} steps/s")
    if len(ours) > 1:
        print(f"  ({SINGLE}: median of rounds {', '.join(f'{r:,.0f}' for r in ours)})")
    if not theirs:
        return
    peer = statistics.median(theirs)
    print(f"gym-yahtzee {version} (YahtzeeSingleEnv, its own sample_action), same run")
    print(f"  {'random policy':<60} {peer:>10,.0f} steps/s")
    print(f"  (median of rounds {', '.join(f'{r:,.0f}' for r in theirs)})")
    for name in (SINGLE, COMPILED_1024):
        print(f"  ours / theirs, {name}: {rates[name] / peer:.2f}x")


if __name__ == "__main__":
    main()
