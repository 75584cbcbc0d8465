"""The vectorised form: ``gymnasium.make_vec`` over ``yahtzee/Solitaire-v0``."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded

import yahtzee.envs  # noqa: F401 - registers the environment
from yahtzee import Category, Dice, Game, IllegalMove, Keep
from yahtzee.envs import action_of, index_of
from yahtzee.envs.encoding import N_KEEPS, mask, observe_player
from yahtzee.envs.vector import SolitaireVectorEnv

YAHTZEE = Category.YAHTZEE


@pytest.mark.parametrize(("mode", "episodes"), [("sync", 200), ("async", 20)])
def test_vector_env_plays_masked_games_whose_returns_are_their_totals(
    mode: str, episodes: int
) -> None:
    envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=4, vectorization_mode=mode)
    try:
        obs, info = envs.reset(seed=11)
        assert obs["dice"].shape == (4, 6) and info["action_mask"].shape == (4, 475)
        rng = np.random.default_rng(0)
        returns = np.zeros(4)
        finished: list[tuple[float, int]] = []
        resetting = np.zeros(4, dtype=bool)
        while len(finished) < episodes:
            actions = np.array(
                [
                    0 if resetting[i] else rng.choice(np.flatnonzero(info["action_mask"][i]))
                    for i in range(4)
                ]
            )
            obs, reward, terminated, truncated, info = envs.step(actions)
            assert envs.observation_space.contains(obs)
            assert "illegal_action" not in info
            returns += reward
            for i in np.flatnonzero(terminated):
                finished.append((returns[i], int(info["total"][i])))
                returns[i] = 0
            resetting = terminated | truncated
        assert all(ret == total for ret, total in finished)
        assert 20 < np.mean([total for _, total in finished]) < 80  # random play's level
    finally:
        envs.close()


def test_sync_vector_env_seeds_are_reproducible_and_take_every_option() -> None:
    def first_dice(seed: int) -> np.ndarray:
        envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=3, vectorization_mode="sync")
        obs, _ = envs.reset(seed=seed)
        envs.close()
        return np.asarray(obs["dice"])

    assert np.array_equal(first_dice(5), first_dice(5))
    assert not np.array_equal(first_dice(5), first_dice(6))
    shaped = gym.make_vec(
        "yahtzee/Solitaire-v0", num_envs=2, vectorization_mode="sync", reward_shaping=True
    )
    _, info = shaped.reset(seed=1)
    _, reward, *_ = shaped.step(info["action_mask"].argmax(axis=1))
    assert reward.any()  # keeping changes the expected future: shaping is on
    shaped.close()


def test_make_vec_defaults_to_the_compiled_env_which_refuses_what_it_cannot_do() -> None:
    envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=2)
    assert isinstance(envs, SolitaireVectorEnv)
    with pytest.raises(ResetNeeded):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="sync"):
        envs.reset(options={"dice": None})
    with pytest.raises(ValueError, match="sync"):
        gym.make_vec("yahtzee/Solitaire-v0", num_envs=2, reward_shaping=True)
    one, _ = envs.reset(seed=[1, 2])
    two, _ = envs.reset(seed=[1, 3])
    assert np.array_equal(one["dice"][0], two["dice"][0])
    with pytest.raises(ValueError, match="seeds"):
        envs.reset(seed=[1])


class Feed:
    """A dice source that throws whatever the batched environment rolled."""

    def __init__(self) -> None:
        self.next: Dice | None = None

    def throw(self, keep: Keep) -> Dice:
        assert self.next is not None and self.next.contains(keep)
        dice, self.next = self.next, None
        return dice


def dice_of(counts: np.ndarray) -> Dice:
    return Dice(tuple(f + 1 for f in range(6) for _ in range(int(counts[f]))))


def chase_yahtzees(mask: np.ndarray, dice: np.ndarray, rng: np.random.Generator) -> int:
    """Keep the most common face while rolls are left (Yahtzees, so Jokers, come often),
    then score three or more of it in its upper box (the upper bonus comes often);
    otherwise any legal action."""
    face = int(np.argmax(dice))
    keep = Keep((face + 1,) * int(dice[face]))
    index = index_of(keep)
    if index < N_KEEPS and mask[index] and rng.random() < 0.9:
        return index
    upper = N_KEEPS + face  # the box of that face
    if dice[face] >= 3 and mask[upper] and rng.random() < 0.9:
        return upper
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("rules", ["official", "free-choice-joker", "no-joker", "no-yahtzee-bonus"])
def test_compiled_vector_env_agrees_with_the_engine_step_by_step(rules: str) -> None:
    lanes = 8
    envs = gym.make_vec("yahtzee/Solitaire-v0", num_envs=lanes, rules=rules)
    assert isinstance(envs, SolitaireVectorEnv)
    obs, info = envs.reset(seed=3)
    feeds = [Feed() for _ in range(lanes)]
    games: list[Game] = []
    for i in range(lanes):
        games.append(Game(1, rules, feeds[i]))
        feeds[i].next = dice_of(obs["dice"][i])
        games[i].roll()
    rng = np.random.default_rng(0)
    finished = jokers = bonuses = 0
    for _ in range(2500):
        for i, game in enumerate(games):
            assert np.array_equal(info["action_mask"][i], mask(game)), game.situation()
            expected = observe_player(game, 0)
            assert all(np.array_equal(obs[key][i], expected[key]) for key in expected)
        actions = np.array(
            [
                0
                if games[i].is_over
                else chase_yahtzees(info["action_mask"][i], obs["dice"][i], rng)
                for i in range(lanes)
            ]
        )
        obs, reward, terminated, _, info = envs.step(actions)
        assert "illegal_action" not in info
        for i in range(lanes):
            game = games[i]
            if game.is_over:  # this step started a new game in the lane
                assert reward[i] == 0 and not terminated[i] and info["total"][i] == 0
                games[i] = game = Game(1, rules, feeds[i])
                feeds[i].next = dice_of(obs["dice"][i])
                game.roll()
                continue
            before = game.cards[0].total
            if actions[i] < N_KEEPS:
                feeds[i].next = dice_of(obs["dice"][i])
            situation = game.situation()
            assert situation is not None
            card, dice = situation.card, situation.dice
            jokers += int(actions[i] >= N_KEEPS and dice.is_yahtzee and not card.is_open(YAHTZEE))
            game.play(action_of(int(actions[i])))
            if not game.is_over and game.dice is None:
                feeds[i].next = dice_of(obs["dice"][i])
                game.roll()
            assert reward[i] == game.cards[0].total - before
            assert info["total"][i] == game.cards[0].total
            assert bool(terminated[i]) == game.is_over
            finished += int(game.is_over)
            bonuses += int(game.is_over and game.cards[0].upper_bonus > 0)
    assert finished > 100 and jokers > 20  # Yahtzees scored with the Yahtzee box filled
    assert bonuses > 20


def test_compiled_vector_env_seeds_and_illegal_actions() -> None:
    def trajectory(seed: int) -> list[np.ndarray]:
        envs = SolitaireVectorEnv(num_envs=4)
        obs, info = envs.reset(seed=seed)
        seen = [obs["dice"]]
        for _ in range(60):
            obs, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
            seen.append(obs["dice"])
        return seen

    assert all(np.array_equal(a, b) for a, b in zip(trajectory(9), trajectory(9), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(trajectory(9), trajectory(8), strict=True))

    envs = SolitaireVectorEnv(num_envs=2)
    obs, info = envs.reset(seed=1)
    envs.step((info["action_mask"] * np.arange(475)).argmax(axis=1))  # score a box
    moved, _ = envs.reset(options={"reset_mask": [False, True]})
    again, _ = envs.reset(options={"reset_mask": [False, True]})
    assert np.array_equal(moved["filled"][0], again["filled"][0]) and moved["filled"][0].any()
    assert not moved["filled"][1].any() and not again["filled"][1].any()
    obs, info = envs.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(info["action_mask"][1])[0])
    again, reward, _, _, info2 = envs.step(np.array([illegal, legal]))
    assert info2["illegal_action"].tolist() == [True, False] and reward[0] == 0
    assert np.array_equal(again["dice"][0], obs["dice"][0])
    assert np.array_equal(info2["action_mask"][0], info["action_mask"][0])
    strict = SolitaireVectorEnv(num_envs=2, illegal_action="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(IllegalMove, match="Lane 0"):
        strict.step(np.array([illegal, legal]))
    with pytest.raises(IllegalMove, match="Lane 1"):
        strict.step(np.array([legal, 475]))
    keep_all = index_of(Keep(tuple(f + 1 for f in range(6) for _ in range(obs["dice"][0][f]))))
    with pytest.raises(IllegalMove, match="wastes a roll"):
        strict.step(np.array([keep_all, legal]))
    # the refused steps moved nothing: the same actions now give the same as a fresh env
    fresh = SolitaireVectorEnv(num_envs=2)
    fresh.reset(seed=1)
    after, reward, *_ = strict.step(np.array([legal, legal]))
    expected, expected_reward, *_ = fresh.step(np.array([legal, legal]))
    assert all(np.array_equal(after[k], expected[k]) for k in after)
    assert np.array_equal(reward, expected_reward)
    assert np.array_equal(strict.action_masks(), fresh.action_masks())
