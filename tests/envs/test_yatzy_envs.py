"""The environments under a Yatzy rule set (``rules="yatzy"``): fifteen box actions
(``Discrete(477)``), fifteen ``filled`` flags, the Yatzy box as ``yahtzee_box``; a whole
Yatzy episode through the solitaire and the multiplayer environments; the American spaces
as they were; the batched environment refuses Yatzy, saying what plays it."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test

import yahtzee.envs  # noqa: F401 - registers yahtzee/Solitaire-v0
from yahtzee import YatzyBox
from yahtzee.core import ScriptedDice
from yahtzee.envs.encoding import N_KEEPS, action_of
from yahtzee.envs.multiplayer import env as multiplayer_env
from yahtzee.envs.solitaire import SolitaireEnv
from yahtzee.envs.vector import SolitaireVectorEnv

YATZY_ACTIONS = N_KEEPS + 15


@pytest.mark.parametrize(("rules", "actions", "boxes"), [("official", 475, 13), ("yatzy", 477, 15)])
def test_each_editions_spaces(rules: str, actions: int, boxes: int) -> None:
    env = SolitaireEnv(rules)
    assert env.action_space == gym.spaces.Discrete(actions)
    assert env.observation_space["filled"] == gym.spaces.MultiBinary(boxes)
    assert env.observation_space["upper_subtotal"] == gym.spaces.Discrete(64)
    obs, info = env.reset(seed=1)
    assert info["action_mask"].shape == (actions,)
    assert env.observation_space.contains(obs)


def test_a_whole_yatzy_episode_through_the_solitaire_environment() -> None:
    env = SolitaireEnv("yatzy")
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=3)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.max() < YATZY_ACTIONS
        obs, reward, terminated, _, info = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
    assert steps <= 45 and obs["filled"].tolist() == [1] * 15
    assert total == info["total"] == env.game.cards[0].total


def test_the_yatzy_box_action_scores_a_yatzy_and_shows_as_the_yahtzee_box() -> None:
    env = SolitaireEnv("yatzy")
    env.reset(options={"dice": ScriptedDice(["44444", "12345"])})  # the next turn: 12345
    assert action_of(N_KEEPS + YatzyBox.YATZY, env.encoding).category is YatzyBox.YATZY
    obs, reward, *_ = env.step(N_KEEPS + YatzyBox.YATZY)
    assert (reward, obs["yahtzee_box"]) == (50.0, 2)
    assert obs["filled"].tolist() == [0] * 14 + [1]


def test_a_whole_yatzy_game_through_the_multiplayer_environment() -> None:
    e = multiplayer_env(players=2, rules="yatzy")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].shape == (YATZY_ACTIONS,)
        assert e.observation_space(agent).contains(obs)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    cards = e.unwrapped.game.cards
    assert all(len(card.filled_boxes) == 15 for card in cards)
    assert [returns[a] for a in e.possible_agents] == [float(c.total) for c in cards]


def test_the_multiplayer_yatzy_environment_passes_pettingzoos_api_test() -> None:
    api_test(multiplayer_env(players=2, rules="yatzy+fh5"), num_cycles=200)


def test_the_batched_environment_refuses_yatzy_saying_what_plays_it() -> None:
    with pytest.raises(ValueError, match=r"American card only; for Yatzy \(yatzy\).*'sync'"):
        SolitaireVectorEnv(4, "yatzy")
    sync = gym.make_vec("yahtzee/Solitaire-v0", num_envs=2, vectorization_mode="sync",
                        rules="yatzy")  # fmt: skip
    try:
        _, info = sync.reset(seed=1)
        assert info["action_mask"].shape == (2, YATZY_ACTIONS)
    finally:
        sync.close()
