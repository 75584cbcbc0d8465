"""Train a small masked PPO agent on ``yahtzee/Solitaire-v0`` and read its score against
the baselines (random, greedy, heuristic and the optimum, 254.59 under the official rules).

Needs PyTorch and sb3-contrib besides the environment (not run in CI)::

    pip install 'yahtzee[rl]' sb3-contrib
    python examples/train_masked_ppo.py --steps 2000000 --envs 8

MaskablePPO only samples legal actions: the mask comes from ``action_masks()``. The
observation ``Dict`` is flattened (one-hot for its discrete parts) for an MLP policy, and
``gamma=1`` because the return to maximise is the final total. ``--shaping`` trains on the
solver-based potential shaping (the evaluation always reports unshaped totals).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
from gymnasium.wrappers import FlattenObservation
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.env_util import make_vec_env

from yahtzee.envs.baselines import run  # importing yahtzee.envs registers the env


def make_env(shaping: bool) -> gym.Env:
    env = gym.make("yahtzee/Solitaire-v0", reward_shaping=shaping)
    return ActionMasker(FlattenObservation(env), lambda e: e.unwrapped.action_masks())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2_000_000, help="environment steps")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--episodes", type=int, default=1000, help="evaluation games")
    parser.add_argument("--shaping", action="store_true", help="train on shaped rewards")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="", help="where to save the trained model")
    args = parser.parse_args()

    envs = make_vec_env(lambda: make_env(args.shaping), n_envs=args.envs, seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        gamma=1.0,
        n_steps=512,
        batch_size=1024,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=1,
    )
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps:,} steps in {time.perf_counter() - start:.0f} s")
    if args.save:
        model.save(args.save)

    evaluation = make_env(shaping=False)
    mean, std = evaluate_policy(
        model, evaluation, n_eval_episodes=args.episodes, use_masking=True, warn=False
    )
    print(f"{'agent':<10} {mean:>8.2f}  (sd {std:.1f}, {args.episodes} games)")
    for name in ("random", "greedy", "heuristic", "optimal"):
        baseline = run(name, args.episodes, seed=args.seed + 1)
        print(f"{name:<10} {baseline.mean:>8.2f}  (+- {baseline.std_error:.2f})")


if __name__ == "__main__":
    main()
