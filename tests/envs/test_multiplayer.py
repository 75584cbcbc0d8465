"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, returns, the
playoff, illegal actions, and the engine's agreement."""

from __future__ import annotations

import warnings
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from yahtzee import Category, Game, IllegalMove, ScriptedDice
from yahtzee.envs import action_of
from yahtzee.envs.encoding import N_KEEPS
from yahtzee.envs.multiplayer import env, raw_env


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # api_test suggests flat Box observations; ours is the documented Dict
        warnings.filterwarnings("ignore", message="Observation", category=UserWarning)
        yield


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, "official"), (3, "free-choice-joker"), (8, "no-bonus-no-joker+playoff")],
)
def test_pettingzoo_api_test(players: int, rules: str) -> None:
    api_test(env(players=players, rules=rules), num_cycles=4000)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3), num_cycles=600)


def play(e: Any, choose: Any, **reset: Any) -> tuple[dict[str, float], list[tuple[int, int]]]:
    """Plays a whole game; returns each agent's return and the (seat, action) log."""
    returns: dict[str, float] = defaultdict(float)
    log: list[tuple[int, int]] = []
    e.reset(**reset)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        action = int(choose(obs))
        log.append((int(agent.removeprefix("player_")), action))
        e.step(action)
    return dict(returns), log


def test_returns_are_final_totals_and_the_log_replays_through_the_engine() -> None:
    rng = np.random.default_rng(3)
    e = raw_env(players=3)

    def choose(obs: dict[str, Any]) -> int:
        seat_totals = obs["observation"]
        assert e.observation_space("player_0").contains(obs)
        assert seat_totals["total"] == e.game.cards[e.game.current_player].total
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    for seed in range(5):
        returns, log = play(e, choose, seed=seed)
        game = e.game
        assert returns == {f"player_{i}": float(c.total) for i, c in enumerate(game.cards)}
        rolls = [ev["dice"] for ev in game.events if ev["type"] == "roll"]
        replayed = Game(3, dice=ScriptedDice(rolls))
        replayed.roll()
        for seat, action in log:
            replayed.play(action_of(action), player=seat)
            if not replayed.is_over and replayed.dice is None:
                replayed.roll()
        assert replayed.cards == game.cards and replayed.events == game.events


def test_observation_shows_opponents_totals_from_the_next_seat() -> None:
    e = raw_env(players=3)
    e.reset(seed=1)
    for _ in range(20):  # always scoring: 20 of the game's 39 turns
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    seat = e.game.current_player
    totals = [c.total for c in e.game.cards]
    obs = e.observe(f"player_{seat}")["observation"]
    assert list(obs["opponent_totals"]) == totals[seat + 1 :] + totals[:seat]
    other = e.observe(f"player_{(seat + 1) % 3}")
    assert not other["action_mask"].any() and not other["observation"]["dice"].any()


def first_box(obs: dict[str, Any]) -> int:
    return N_KEEPS + int(np.flatnonzero(obs["action_mask"][N_KEEPS:])[0])


def test_a_tie_goes_to_the_playoff_and_the_win_reward_follows_it() -> None:
    e = raw_env(players=2, rules="official+playoff", win_reward=1.0)
    dice = ScriptedDice(["12345"] * 26 + ["66666", "11111"])
    returns, _ = play(e, first_box, options={"dice": dice})
    assert e.game.cards[0].total == e.game.cards[1].total
    assert e.game.winners == (0,)
    total = e.game.cards[0].total
    assert returns == {"player_0": total + 1.0, "player_1": total - 1.0}


def test_a_shared_win_rewards_both() -> None:
    e = raw_env(players=2, win_reward=1.0)
    returns, _ = play(e, first_box, options={"dice": ScriptedDice(["12345"] * 26)})
    assert set(returns.values()) == {e.game.cards[0].total + 1.0}


def test_illegal_actions_change_nothing() -> None:
    e = raw_env(players=2)
    e.reset(seed=5)
    before = e.game.events
    illegal = int(np.flatnonzero(e.observe("player_0")["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.agent_selection == "player_0" and e.game.events == before
    assert "illegal_action" in e.infos["player_0"] and e.rewards["player_0"] == 0
    strict = raw_env(players=2, illegal_action="raise")
    strict.reset(seed=5)
    strict.step(N_KEEPS + int(Category.CHANCE))  # points for player_0
    strict.step(first_box(strict.observe("player_1")))  # player_0's points wait in last()
    state = (strict.game.events, dict(strict._cumulative_rewards), dict(strict.infos))
    pending = strict.last()[1]
    for bad in (illegal, 475, None):
        with pytest.raises(IllegalMove):
            strict.step(bad)
    assert (strict.game.events, strict._cumulative_rewards, strict.infos) == state
    assert strict.last()[1] == pending and pending > 0


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        raw_env(players=1)
    with pytest.raises(ValueError, match="players"):
        raw_env(players=9)
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="ignore")


def test_shaped_returns_are_totals_less_the_first_potential() -> None:
    e = raw_env(players=2, reward_shaping=True)
    first: list[float] = []
    rng = np.random.default_rng(0)

    def choose(obs: dict[str, Any]) -> int:
        if not first:
            first.extend(e._shaping.potentials)  # type: ignore[union-attr]
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    returns, _ = play(e, choose, seed=2)
    for seat, card in enumerate(e.game.cards):
        assert returns[f"player_{seat}"] == pytest.approx(card.total - first[seat], abs=1e-6)
