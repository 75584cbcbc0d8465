"""The simulator plays its games in short calls of the compiled loop (issue 50, item 4):
a Ctrl-C is heard between two calls, and what was played before it is kept. How the games
are cut into calls changes nothing: each game has its own seed."""

from __future__ import annotations

import importlib
import itertools
from types import SimpleNamespace

import pytest

from yahtzee import RuleSet
from yahtzee.solver.curve_table import build
from yahtzee.solver.planner import state_of
from yahtzee.solver.simulate import Simulation, SimulationInterrupted, simulate
from yahtzee.solver.winning import late_card

simulate_module = importlib.import_module("yahtzee.solver.simulate")  # (the package's
# attribute of that name is the function)
GAMES = 300


def _late_tables() -> dict[str, object]:
    card = late_card()
    mask = state_of(card)[0]
    rules = RuleSet.official()
    return {
        "start": card,
        "tables": (
            build("distribution", rules, base_mask=mask),
            build("target", rules, base_mask=mask),
        ),
    }


CASES = {
    "each seat alone": (["optimal", "level2", "random"], {}),
    "turn by turn": (["winning", "optimal"], "late"),
}


def _options(case: str) -> tuple[list[str], dict[str, object]]:
    strategies, extra = CASES[case]
    return strategies, (_late_tables() if extra == "late" else {})


def _totals(result: Simulation) -> list[list[int]]:
    return [seat.totals.tolist() for seat in result.seats]


@pytest.mark.parametrize("case", list(CASES))
def test_games_cut_into_calls_of_one_game_play_the_same(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    strategies, extra = _options(case)
    whole = simulate(strategies, GAMES, seed=7, **extra)  # type: ignore[arg-type]
    monkeypatch.setattr(simulate_module, "FIRST_CHUNK", 1)
    monkeypatch.setattr(simulate_module, "GROWTH", 1)
    told: list[tuple[int, int]] = []
    one_by_one = simulate(
        strategies, GAMES, seed=7, played=lambda done, total: told.append((done, total)),
        **extra,  # type: ignore[arg-type]
    )  # fmt: skip
    assert _totals(one_by_one) == _totals(whole)
    assert told == [(done, GAMES) for done in range(1, GAMES + 1)]


@pytest.mark.parametrize("case", list(CASES))
def test_a_ctrl_c_keeps_the_games_played_before_it(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C (here raised where progress is told, after the third call) stops the
    simulation with the games finished so far: the same as the first games of a whole run."""
    strategies, extra = _options(case)
    whole = simulate(strategies, GAMES, seed=3, **extra)  # type: ignore[arg-type]
    monkeypatch.setattr(simulate_module, "FIRST_CHUNK", 10)
    monkeypatch.setattr(simulate_module, "GROWTH", 1)

    def played(done: int, total: int) -> None:
        if done == 30:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as stopped:
        simulate(strategies, GAMES, seed=3, played=played, **extra)  # type: ignore[arg-type]
    partial = stopped.value.partial
    assert partial is not None and partial.games == 30
    assert _totals(partial) == [t[:30] for t in _totals(whole)]
    assert isinstance(stopped.value, KeyboardInterrupt)  # unhandled, it is a Ctrl-C


def test_a_ctrl_c_in_the_first_call_keeps_nothing() -> None:
    def play(first: int, count: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as stopped:
        simulate_module._in_chunks(5, play, None, lambda done: pytest.fail("nothing to keep"))
    assert stopped.value.partial is None


def test_the_calls_grow_to_a_fraction_of_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls are sized on the pace of the ones before: never past `GROWTH` times the last,
    each about `CHUNK_S` once the pace is known (here a call of n games "takes" n ms)."""
    sizes: list[int] = []
    clock = [0.0]

    def play(first: int, count: int) -> None:
        assert first == sum(sizes)
        sizes.append(count)
        clock[0] += count / 1000

    monkeypatch.setattr(simulate_module, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    assert simulate_module._in_chunks(5000, play, None, lambda done: None) == 5000
    assert sum(sizes) == 5000 and sizes[0] == simulate_module.FIRST_CHUNK
    target = round(simulate_module.CHUNK_S * 1000)
    assert all(b <= a * simulate_module.GROWTH for a, b in itertools.pairwise(sizes))
    assert max(sizes) == target and all(size == target for size in sizes[2:-1]), sizes
