"""The benchmarks a user runs (``python -m benchmarks`` lists them): one script each in this
folder; the other modules here are their shared parts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Benchmark:
    """A script in this folder a user runs: ``benchmarks/{name}.py``."""

    name: str
    prints: str
    peer: str | None
    """What the ratio printed in the same run is against; None where no peer exists."""
    page: str
    """Its page under docs/benchmarks/, with the command, the latest figures and machine."""

    @property
    def script(self) -> Path:
        return HERE / f"{self.name}.py"


BENCHMARKS = (
    Benchmark(
        "solver",
        "table build, cache load, advice latency p50/p99, simulated games per second",
        "yatzy-solver (PyPI, a throwaway venv; --no-peer leaves it out)",
        "solver.md",
    ),
    Benchmark(
        "editions",
        "solver build time of every rule set of every edition, in a fresh process",
        "yatzy-solver's Solver.build of the same variant (--no-peer leaves it out)",
        "solver.md",
    ),
    Benchmark(
        "startup",
        "what a new user waits for: first advice, first page, cold and warm",
        "yatzy-solver's first answer (--no-peer leaves it out)",
        "startup.md",
    ),
    Benchmark(
        "winning",
        "win-chance table builds and sizes, 'winning' against 'optimal', decision latency",
        None,
        "winning.md",
    ),
    Benchmark(
        "server",
        "N tables on one server: actions per second, intent to broadcast p50/p99",
        None,
        "server.md",
    ),
    Benchmark(
        "cluster",
        "1 node against 2 behind nginx: node CPU per action, p99, failover, nothing lost",
        "1 node: the 2-node/1-node ratio of CPU per action",
        "cluster.md",
    ),
    Benchmark(
        "floor",
        "the bare parts alone (uvicorn, PostgreSQL, the messages; no game): this machine's "
        "CPU per action, and with --half its own 2-node/1-node ratio",
        "itself at half the load (--half PAIRS): the floor of the cluster's ratio",
        "cluster.md",
    ),
    Benchmark(
        "turn_by_turn",
        "100,000 open turn-by-turn games, 1,000 accounts on PostgreSQL: 'my games' and a "
        "move at an idle table (loaded, played, let go), p50/p99",
        None,
        "turn_by_turn.md",
    ),
    Benchmark(
        "offline_advisor",
        "the page's advisor table file gzipped, and in node: its decode, advice for a roll "
        "p50/p99, a bot's whole turn p50/p99",
        "yatzy-solver's 1.75 MB table (its demo page's figure, quoted, not measured)",
        "offline.md",
    ),
    Benchmark(
        "offline_app",
        "the installable app in Chromium at 390x844, CPU 4x slower: the first visit's "
        "download, offline cold start to a playable board, advice and a bot's turn p99",
        "yatzy-solver's 1.75 MB table alone (its demo page's figure, quoted, not measured)",
        "offline.md",
    ),
    Benchmark(
        "envs",
        "steps per second of the RL environments under a masked random policy",
        "gym-yahtzee (PyPI, a throwaway venv; --no-peer leaves it out)",
        "envs.md",
    ),
)


def by_name(name: str) -> Benchmark:
    """The benchmark called ``name``; KeyError for another."""
    for benchmark in BENCHMARKS:
        if benchmark.name == name:
            return benchmark
    raise KeyError(name)
