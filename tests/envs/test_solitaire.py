"""The Gymnasium environment: API checks, masks, seeding, and the engine's agreement."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import yahtzee.envs  # noqa: F401 - registers the environment
from yahtzee import Game, IllegalMove, Keep, RuleSet, ScriptedDice
from yahtzee.envs import action_of, index_of
from yahtzee.envs.encoding import N_KEEPS


def test_check_env() -> None:
    env = gym.make("yahtzee/Solitaire-v0")
    check_env(env.unwrapped)


def test_masked_random_play_of_10000_games_is_always_legal() -> None:
    """With ``illegal_action="raise"`` any action the engine refuses would raise; the
    return of every game is its final total."""
    env = gym.make("yahtzee/Solitaire-v0", illegal_action="raise")
    rng = np.random.default_rng(1)
    steps = 0
    for episode in range(10_000):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, done, _, info = env.step(int(legal[rng.integers(len(legal))]))
            total += reward
            steps += 1
        assert total == info["total"] == env.unwrapped.game.cards[0].total  # type: ignore[attr-defined]
    assert steps > 200_000


def test_the_mask_is_exactly_the_engines_legal_actions_and_observations_fit() -> None:
    env = gym.make("yahtzee/Solitaire-v0", rules="free-choice-joker")
    rng = np.random.default_rng(2)
    for episode in range(100):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            game = env.unwrapped.game  # type: ignore[attr-defined]
            offered = {action_of(i) for i in np.flatnonzero(info["action_mask"])}
            engine = {a for a in game.legal_actions() if a != Keep.of(game.dice)}
            assert offered == engine
            assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"] == 1)  # type: ignore[attr-defined]
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_shaped_return_is_the_total_less_the_first_potential() -> None:
    from yahtzee.solver.solver import cached_solver

    env = gym.make("yahtzee/Solitaire-v0", reward_shaping=True)
    solver = cached_solver(RuleSet.official())
    rng = np.random.default_rng(4)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        first = solver.advise(env.unwrapped.game.situation()).best.value  # type: ignore[attr-defined]
        shaped = points = 0.0
        done = False
        while not done:
            _, reward, done, _, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            shaped += reward
            points += info["points"]
        assert points == info["total"]
        assert shaped == pytest.approx(info["total"] - first, abs=1e-6)


def test_identical_seeds_give_identical_games_and_the_log_replays() -> None:
    def run(seed: int) -> tuple[list[int], Game]:
        env = gym.make("yahtzee/Solitaire-v0")
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        taken, done = [], False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            taken.append(action)
            _, _, done, _, info = env.step(action)
        return taken, env.unwrapped.game  # type: ignore[attr-defined]

    first, game = run(7)
    second, again = run(7)
    assert first == second and game.events == again.events
    assert any(action < N_KEEPS for action in first)  # keeps are replayed too
    assert run(8)[1].events != game.events
    rolls = [e["dice"] for e in game.events if e["type"] == "roll"]
    replayed = Game(1, dice=ScriptedDice(rolls))
    replayed.roll()
    for action in first:
        replayed.play(action_of(action))
        if not replayed.is_over and replayed.dice is None:
            replayed.roll()
    assert replayed.cards == game.cards


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = gym.make("yahtzee/Solitaire-v0", illegal_action="raise")
    _, info = env.reset(seed=3)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    before = game.events
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    with pytest.raises(IllegalMove):
        env.step(10_000)
    with pytest.raises(IllegalMove, match="whole number"):
        env.step(3.5)  # type: ignore[arg-type]
    keep_all = index_of(Keep.of(game.dice))
    with pytest.raises(IllegalMove, match="only wastes a roll") as refused:
        env.step(keep_all)
    assert refused.value.code == "not_offered"
    assert game.events == before
    game.play(action_of(keep_all))  # the engine itself allows it


def test_actions_round_trip() -> None:
    assert [index_of(action_of(i)) for i in range(475)] == list(range(475))
    assert action_of(np.int64(470)) == action_of(np.array(470)) == action_of(470)


def test_illegal_actions_are_no_ops_by_default() -> None:
    env = gym.make("yahtzee/Solitaire-v0")
    obs, info = env.reset(seed=4)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    before = game.events
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, done, _, info = env.step(illegal)
    assert reward == 0 and not done and "illegal_action" in info
    assert game.events == before
    assert all(np.array_equal(again[k], obs[k]) for k in obs)


def test_optimal_baseline_through_the_env_matches_the_solver() -> None:
    from yahtzee.envs.baselines import run
    from yahtzee.solver.solver import cached_solver

    result = run("optimal", 8_000, seed=5)  # 3 standard errors: about 2 points
    expected = cached_solver(RuleSet.official()).expected_total()
    assert abs(result.mean - expected) < 3 * result.std_error, (result, expected)


def test_baselines_rank() -> None:
    from yahtzee.envs.baselines import run

    means = [run(name, 300, seed=2).mean for name in ("random", "greedy", "heuristic")]
    assert means[0] < 80 and 190 < means[1] < means[2]
