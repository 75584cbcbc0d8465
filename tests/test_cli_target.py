"""The command line's playing-to-a-target and score-distribution features: ``advise
--target``, the spread of the final score in ``solve``, the exact distribution over
``simulate --plot`` and the ``winning`` strategy in ``simulate``. Run in this process with
fakes for the tables that take minutes to build (the exact distribution of a late card,
which takes a moment, is real)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from tests.cli_helpers import yahtzee_command
from yahtzee.cli import advise as advise_command
from yahtzee.cli import main
from yahtzee.cli import simulate as simulate_command
from yahtzee.cli import solve as solve_command
from yahtzee.core import Category, InvalidInput, Keep, RuleSet, Score, Scorecard, Situation
from yahtzee.solver import Advice, Option, ScoreDistribution, Simulation, Solver, cached_solver
from yahtzee.solver.simulate import SeatResult

LATE = "66612 1 aces=3 twos=6 threes=9 fours=12 fives=15 sixes=18 3k=20 4k=0 fh=25 ss=30 ls=40"
"""A situation with two boxes open (Yahtzee and Chance): its exact distribution is quick."""


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``yahtzee ARGS`` run by :func:`main` here: (status, stdout, stderr)."""
    try:
        status = main(args)
    except SystemExit as stop:  # argparse's usage mistakes
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def _one_line_error(result: tuple[int, str, str], words: str) -> None:
    status, out, err = result
    assert status == 2, (out, err)
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("yahtzee: error: "), err
    assert words in err, err
    assert "internal error" not in err and "Traceback" not in err


class Bars:
    """Stands in for the terminal's progress bars: records each bar's label and every
    ``(done, total)`` it hears."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.reports: dict[str, list[tuple[int, int]]] = {}

    @contextmanager
    def __call__(self, label: str) -> Iterator[Callable[[int, int], None]]:
        self.labels.append(label)
        heard = self.reports.setdefault(label, [])
        yield lambda done, total: heard.append((done, total))


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> Bars:
    found = Bars()
    for module in (advise_command, solve_command, simulate_command):
        monkeypatch.setattr(module, "solver_progress", found)
    return found


def _spread() -> ScoreDistribution:
    """A made-up final score distribution: 200, 250 or 300 points."""
    pmf = np.zeros(301)
    pmf[[200, 250, 300]] = (0.25, 0.5, 0.25)
    return ScoreDistribution(pmf)


# advise --target ----------------------------------------------------------------------


class FakeTargetSolver:
    """The target solver's interface, with made-up chances (its table takes minutes)."""

    cap = 600
    loads: ClassVar[list[tuple[RuleSet, Any]]] = []
    asked: ClassVar[list[tuple[Situation, int]]] = []

    @classmethod
    def load(
        cls, rules: RuleSet, *, progress: Any = None, on_notice: Any = None
    ) -> FakeTargetSolver:
        if progress is not None:
            for layer in range(4):
                progress(layer, 3)
        cls.loads.append((rules, progress))
        return cls()

    def advise(self, situation: Situation, *, target: int) -> Advice:
        self.asked.append((situation, target))
        if target - situation.card.total > self.cap:
            raise InvalidInput(f"A target can be at most {self.cap} points above the card's total.")
        options = [
            Option(Keep.parse("66"), 0.1611),
            Option(Keep.parse("666"), 0.1749),
            Option(Score(Category.CHANCE), 0.0125),
        ]
        return Advice.from_options(situation, RuleSet.official(), options)


@pytest.fixture
def target_solver(monkeypatch: pytest.MonkeyPatch) -> type[FakeTargetSolver]:
    monkeypatch.setattr(FakeTargetSolver, "loads", [])
    monkeypatch.setattr(FakeTargetSolver, "asked", [])
    monkeypatch.setattr("yahtzee.solver.TargetSolver", FakeTargetSolver)
    monkeypatch.setattr("yahtzee.solver.compiling.cached", lambda kind: True)  # none to run
    return FakeTargetSolver


def test_advise_target_ranks_by_the_chance_in_percent(
    target_solver: type[FakeTargetSolver], bars: Bars, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(["advise", "66612", "2", "--target", "300"], capsys)
    assert status == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == (
        "12666 2  (official rules; chance of a final total of at least 300 with the best "
        "play for it)"
    )
    assert lines[1].split() == ["17.49%", "best", "keep", "6", "6", "6"]
    assert lines[2].split() == ["16.11%", "-1.38%", "keep", "6", "6"]
    assert lines[3].split() == ["1.25%", "-16.24%", "score", "Chance"]
    [(situation, target)] = target_solver.asked
    assert (str(situation), target) == ("12666 2", 300)
    # the table's build draws its own bar, which hears every layer
    [(rules, progress)] = target_solver.loads
    assert rules == RuleSet.official() and progress is not None
    [label] = bars.labels
    assert "target" in label and bars.reports[label] == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_advise_target_json_gives_the_probabilities(
    target_solver: type[FakeTargetSolver], bars: Bars, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["advise", "66612 2 fh=25", "--target", "280", "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["target"] == 280 and data["situation"] == "12666 2 fh=25"
    first, second, _ = data["options"]
    assert first == {"action": "keep 6 6 6", "keep": "666", "probability": 0.1749, "regret": 0}
    assert second["probability"] == 0.1611 and second["regret"] == pytest.approx(0.0138)
    assert all("value" not in option for option in data["options"])
    status, out, _ = _run(["advise", "66612", "2", "--target", "280", "--top", "1"], capsys)
    assert status == 0 and len(out.splitlines()) == 2


def test_advise_without_target_is_unchanged(
    target_solver: type[FakeTargetSolver], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["advise", "13356", "2", "--top", "1"], capsys)
    assert status == 0 and "expected final totals" in out and "keep 3 3" in out
    assert target_solver.loads == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--target", "601"], "A target can be at most 600 points above the card's total (600 "),
        (["fh=25", "--target", "626"], "(625 here)"),
        (["--target", "10000"], "at most 600 points"),
        (["--target", "10001"], "--target: takes a whole number from 0 to 10,000"),
        (["--target", "-5"], "--target: takes a whole number from 0"),
        (["--target", "lots"], "--target: takes a whole number"),
        (["--target", "2.5"], "--target"),
        (["--target"], "--target"),
    ],
)
def test_advise_target_mistakes_one_line_before_any_table(
    args: list[str],
    words: str,
    target_solver: type[FakeTargetSolver],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A target out of the table's range is refused at once, not after minutes spent
    building the table."""
    _one_line_error(_run(["advise", "66612", "2", *args], capsys), words)
    assert target_solver.loads == []


def test_advise_target_refused_by_the_solver_one_line(
    target_solver: type[FakeTargetSolver],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(target_solver, "cap", 100)
    _one_line_error(_run(["advise", "66612", "2", "--target", "300"], capsys), "at most 100")


def test_advise_target_bad_situation_one_line(
    target_solver: type[FakeTargetSolver], capsys: pytest.CaptureFixture[str]
) -> None:
    _one_line_error(_run(["advise", "6661", "2", "--target", "300"], capsys), "")
    _one_line_error(_run(["advise", "66612", "2", "--target", "300", "--rules", "x"], capsys), "")
    assert target_solver.loads == []


def test_advise_help_names_target(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["advise", "--help"], capsys)
    assert status == 0 and "--target N" in out and "at least N" in " ".join(out.split())


# solve ---------------------------------------------------------------------------------


def test_solve_prints_the_spread_of_the_final_score(
    bars: Bars, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The expected score, then the deviation and percentiles of the exact distribution of
    the empty card (whose progress is drawn: a minute the first time)."""
    asked: list[tuple[Any, Any]] = []

    def build(cls: type[Solver], rules: RuleSet, *, progress: Any = None) -> Solver:
        return cached_solver(rules)  # the table that ships: no build

    def distribution(self: Solver, card: Any = None, *, progress: Any = None) -> ScoreDistribution:
        asked.append((card, progress))
        if progress is not None:
            progress(14, 14)
        return _spread()

    monkeypatch.setattr(Solver, "build", classmethod(build))
    monkeypatch.setattr(Solver, "distribution", distribution)
    status, out, err = _run(["solve"], capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "official: expected final score 254.5877 with optimal play"
    assert lines[1] == (
        "standard deviation 35.36; percentiles 1/5/25/50/75/95/99: "
        "200 / 200 / 200 / 250 / 250 / 300 / 300"
    )
    assert lines[2].startswith("solved in ")
    [(card, progress)] = asked
    assert card is None and progress is not None
    assert any("distribution" in label for label in bars.labels)
    status, out, _ = _run(["solve", "--json"], capsys)
    data = json.loads(out)
    assert data["std"] == pytest.approx(35.3553, abs=1e-4)
    assert data["percentiles"] == {"1": 200, "5": 200, "25": 200, "50": 250, "75": 250,
                                   "95": 300, "99": 300}  # fmt: skip
    assert data["expected_total"] == pytest.approx(254.5877, abs=1e-4)


# simulate --plot -----------------------------------------------------------------------


class Stairs:
    """Records what the plot draws with ``Axes.stairs`` (the exact distribution)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from matplotlib.axes import Axes

        self.calls: list[tuple[np.ndarray[Any, Any], dict[str, Any]]] = []
        original = Axes.stairs

        def stairs(axes: Axes, values: Any, edges: Any = None, **kwargs: Any) -> Any:
            self.calls.append((np.asarray(values), kwargs))
            return original(axes, values, edges, **kwargs)

        monkeypatch.setattr(Axes, "stairs", stairs)


@pytest.fixture
def exact_spread(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Solver.distribution answers :func:`_spread` (the empty card's takes a minute)."""
    asked: list[Any] = []

    def distribution(self: Solver, card: Any = None, *, progress: Any = None) -> ScoreDistribution:
        asked.append(card)
        return _spread()

    monkeypatch.setattr(Solver, "distribution", distribution)
    return asked


def test_simulate_plot_overlays_the_exact_distribution(
    exact_spread: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("matplotlib")
    stairs = Stairs(monkeypatch)
    png = tmp_path / "scores.png"
    args = ["simulate", "--strategy", "optimal,greedy", "-n", "40", "--plot", str(png)]
    status, out, err = _run(args, capsys)
    assert status == 0, err
    assert png.read_bytes().startswith(b"\x89PNG")
    assert "exact, optimal play: mean 250.00, sd 35.36" in out
    [(values, kwargs)] = stairs.calls
    assert "exact" in kwargs["label"]
    assert values.sum() == pytest.approx(40)  # games expected in each 5-point bar
    assert values[200 // 5] == pytest.approx(10) and values[250 // 5] == pytest.approx(20)
    assert exact_spread == [Scorecard.empty()]  # the start of every game simulated
    status, out, _ = _run([*args, "--json"], capsys)
    data = json.loads(out)
    assert data["exact"]["strategy"] == "optimal"
    assert data["exact"]["mean"] == pytest.approx(250)
    assert data["exact"]["percentiles"]["50"] == 250
    assert data["plot"] == str(png)


@pytest.mark.parametrize("strategy", ["heuristic", "greedy,random", "level4"])
def test_simulate_plot_without_an_optimal_seat_has_no_exact_curve(
    strategy: str,
    exact_spread: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("matplotlib")
    stairs = Stairs(monkeypatch)
    png = tmp_path / "scores.png"
    status, out, _ = _run(
        ["simulate", "--strategy", strategy, "-n", "30", "--plot", str(png), "--json"], capsys
    )
    assert status == 0
    assert "exact" not in json.loads(out)
    assert stairs.calls == [] and exact_spread == []


def test_simulate_without_plot_computes_no_distribution(
    exact_spread: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(["simulate", "-n", "30"], capsys)
    assert status == 0 and "exact" not in out
    assert exact_spread == []


def test_level5_plays_optimal_so_gets_the_curve(
    exact_spread: list[Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "scores.png"
    status, out, _ = _run(["simulate", "--strategy", "5", "-n", "30", "--plot", str(png)], capsys)
    assert status == 0 and "exact, optimal play" in out and len(exact_spread) == 1


def test_plot_without_matplotlib_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: it exited 0, drew no picture and did not say what was missing."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    png = tmp_path / "scores.png"
    status, out, err = _run(["simulate", "-n", "10", "--plot", str(png)], capsys)
    assert status == 2 and out == "" and not png.exists()
    assert (
        "pip install '.[plot]' in the project's folder" in err
        and len(err.strip().splitlines()) == 1
    )


def test_plot_without_matplotlib_marks_the_exact_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    totals = np.array([200] * 3 + [250] * 6 + [300] * 3, dtype=np.int64)
    seat = SeatResult("optimal", totals, totals, totals, totals)
    result = Simulation(RuleSet.official(), 0, (seat,))
    text = simulate_command.plot(result, Path("unused.png"), _spread())
    lines = text.splitlines()
    assert lines[0] == "matplotlib is not installed; the distribution:"
    assert [line.split()[0] for line in lines[1:]] == ["200-219", "240-259", "300-319"]
    assert lines[1].endswith(" 3 (exact 3)") and lines[2].endswith(" 6 (exact 6)")
    assert all(simulate_command.EXACT_MARK in line for line in lines[1:])


def test_text_histogram_marks_where_the_exact_bars_end() -> None:
    """Each line: the games' bar, a mark where the exact distribution puts it, the games
    and the games expected; a line with no game shows when the exact one expects some."""
    totals = np.array([200] * 10 + [250] * 10, dtype=np.int64)
    pmf = np.zeros(301)
    pmf[[200, 250, 300]] = (0.25, 0.5, 0.25)
    lines = simulate_command.histogram(totals, width=20, exact=ScoreDistribution(pmf)).splitlines()
    assert lines == [
        " 200-219  #########|########## 10 (exact 5)",
        " 240-259  ###################| 10 (exact 10)",
        " 300-319           |           0 (exact 5)",
    ]
    # without the exact distribution: as before
    assert simulate_command.histogram(totals, width=20).splitlines() == [
        " 200-219  #################### 10",
        " 240-259  #################### 10",
    ]


def test_expected_counts_of_a_real_late_card_distribution() -> None:
    """The games each bar expects sum to the games, from the exact distribution of a card
    with two boxes open (computed here: a moment)."""
    card = Situation.parse(LATE).card
    exact = cached_solver(RuleSet.official()).distribution(card)
    assert exact.pmf.sum() == pytest.approx(1)
    edges = np.arange(0, len(exact.pmf) + 10, 5)
    counts = simulate_command.expected_counts(exact, 1000, edges)
    assert counts.sum() == pytest.approx(1000)
    assert counts[: card.total // 5].sum() == 0  # nothing below the points already scored


# simulate --strategy winning ------------------------------------------------------------


def test_simulate_accepts_winning_and_draws_its_tables_builds(
    bars: Bars, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    built: list[tuple[str, Any]] = []
    played: list[list[str]] = []

    def cached_table(kind: str, rules: RuleSet, *, progress: Any = None) -> object:
        built.append((kind, progress))
        if progress is not None:
            progress(1, 1)
        return object()

    def simulate(
        strategies: list[str], games: int, seed: int, rules: RuleSet, **_: Any
    ) -> Simulation:
        played.append(list(strategies))
        seats = []
        for index, name in enumerate(strategies):
            totals = np.full(games, 250 - 10 * index, dtype=np.int64)
            seats.append(SeatResult(name, totals, totals, totals * 0, totals * 0))
        return Simulation(rules, seed, tuple(seats))

    monkeypatch.setattr("yahtzee.solver.curve_table.cached_table", cached_table)
    monkeypatch.setattr("yahtzee.solver.simulate", simulate)
    monkeypatch.setattr("yahtzee.solver.compiling.cached", lambda kind: True)  # none to run
    status, out, err = _run(["simulate", "--strategy", "winning,optimal", "-n", "10"], capsys)
    assert status == 0, err
    assert played == [["winning", "optimal"]]
    assert "seat 1 winning: mean 250.00" in out and "wins 100.0%" in out
    assert [kind for kind, _ in built] == ["distribution", "target"]
    assert all(progress is not None for _, progress in built)
    labels = [label for label in bars.labels if "table" in label]
    assert len(labels) == 2 and "distribution" in labels[0] and "target" in labels[1]
    assert all(bars.reports[label] == [(1, 1)] for label in labels)
    # no table of theirs for other strategies
    built.clear()
    status, _, _ = _run(["simulate", "--strategy", "greedy", "-n", "10"], capsys)
    assert status == 0 and built == [] and played[-1] == ["greedy"]


def test_simulate_help_names_winning(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["simulate", "--help"], capsys)
    assert status == 0 and "winning" in out and "exact distribution" in " ".join(out.split())


def test_the_first_simulation_says_it_compiles_before_it_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: the first 'yahtzee simulate' after an install compiled for 12 s
    without a word (its spinner said "Simulating"). Now the compiling is said first, with
    about how long it takes, on a terminal as a spinner's label, else as a line."""
    said: list[str] = []
    monkeypatch.setattr("yahtzee.solver.compiling.cached", lambda kind: False)
    monkeypatch.setattr(
        "yahtzee.solver.compiling.compile_aside",
        lambda kind: said.append(f"{kind}, after: {capsys.readouterr().err}") or True,
    )
    status, out, err = _run(["simulate", "-n", "10"], capsys)
    assert status == 0, err
    # (the solver's own call comes after: the kernels are there by then)
    assert said[0] == "simulate, after: Compiling the simulator (first run only, about 15 s)...\n"
    assert out.startswith("10 games, official rules")


def test_a_ctrl_c_while_the_exact_distribution_is_computed_keeps_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")

    def stopped(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate_command, "exact_distribution", stopped)
    png = tmp_path / "scores.png"
    status, out, err = _run(["simulate", "-n", "30", "--plot", str(png), "--json"], capsys)
    assert status == 130 and "the games played follow without it" in err
    data = json.loads(out)
    assert data["interrupted"] and data["games"] == 30 and "exact" not in data
    assert png.exists()


LATE_SITUATION = "13356 2 twos=0 threes=0 fours=0 fives=0 sixes=0 3k=0 4k=0 fh=0 ss=0 ls=0"
"""A situation on `winning.late_card()` (Aces, Yahtzee and Chance open): the test builds
restrict themselves to the states it reaches."""


def test_an_unwritable_table_cache_is_said_once_and_the_table_built_anyway(
    tmp_path: Path,
) -> None:
    """Regression: with a table cache that cannot be written, 'advise --target' rebuilt
    its table for minutes saying only a "rebuilding the target table: [Errno 20] ..."
    line. Now one line says the cache cannot be written, that the table is built in
    memory and again at each run, and how to keep it; then the advice comes."""
    from tests.table_builds import builder_env

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**builder_env(blocker / "cache"), "COLUMNS": "200"}
    done = subprocess.run(
        [*yahtzee_command(), "advise", *LATE_SITUATION.split(), "--target", "60", "--top", "2"],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "chance of a final total of at least 60" in done.stdout
    said = [line for line in done.stderr.splitlines() if "cache" in line]
    assert len(said) == 1, done.stderr
    assert said[0].startswith(f"yahtzee: Cannot write to the table cache {blocker / 'cache'}: ")
    assert "built here, in memory" in said[0] and "again at each run" in said[0]
    assert "YAHTZEE_CACHE_DIR" in said[0] and "rebuilding" not in done.stderr
