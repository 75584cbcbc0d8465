"""The optimal solitaire strategy: building, caching and reading the table, and advice."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Self

import numpy as np
import numpy.typing as npt

from ..core import Dice, RuleSet, Scorecard, Situation
from .advice import Advice
from .cache import CorruptTable, read_table, table_path, write_table
from .distribution import ScoreDistribution, cached_distribution
from .loaded_once import LoadedOnce
from .planner import TurnPlanner
from .shipped import load_shipped
from .tables import N_MASKS, UPPER_CAP, card_shape, model, reach_table, resolve_rules

SOLVER_VERSION = 1
TABLE_SHAPE = (N_MASKS, 2, UPPER_CAP + 1)
"""The American card's table shape (every rule set's: `table_shape`)."""


def table_shape(rules: RuleSet) -> tuple[int, int, int]:
    """The shape of the rules' table ``E[mask, yf, u]`` (see `build_table`)."""
    return card_shape(rules).table_shape


Progress = Callable[[int, int], None]
"""Hears ``(done, total)`` as the solver builds a table, for a front end to draw."""

_log = logging.getLogger(__name__)


def build_table(rules: RuleSet, progress: Progress | None = None) -> npt.NDArray[np.float64]:
    """Expected points still to come from every turn-start state, optimal play.

    ``E[mask, yf, u]``: filled boxes ``mask``, the Yahtzee box holds 50 (``yf``; a card
    without extra-Yahtzee rules has only ``yf = 0``), capped upper subtotal ``u``. States
    with k boxes filled need only those with k + 1, so the table is built one layer at a
    time, each layer's masks in parallel (with boxes filled in order, one mask a layer);
    ``progress`` hears of each layer done.
    """
    from . import kernel  # noqa: PLC0415 - numba loads (and compiles) only to build
    from .compiling import compile_aside  # noqa: PLC0415

    shape = card_shape(rules)
    layers = range(shape.n_boxes - 1, -1, -1)
    if progress:
        progress(0, len(layers))
    compile_aside("build")  # the first time after an install: in a child process
    m, reach = model(rules), reach_table(shape.n_boxes)
    table = np.zeros(shape.table_shape)
    for done, k in enumerate(layers, start=1):
        kernel.build_layer(shape.masks(k), reach, table, m)
        if progress:
            progress(done, len(layers))
    return table


class Solver(TurnPlanner):
    """The exact strategy that maximises a solitaire game's expected final score."""

    def __init__(self, rules: RuleSet, table: npt.NDArray[np.float64]) -> None:
        shape = table_shape(rules)
        if table.shape != shape:
            raise ValueError(f"a solver table of {rules} has shape {shape}, not {table.shape}")
        super().__init__(rules, table)

    # Building and loading ------------------------------------------------------------

    @classmethod
    def build(cls, rules: RuleSet | str | None = None, *, progress: Progress | None = None) -> Self:
        """Solve the rule set now (about a second once the kernels are compiled);
        ``progress`` hears ``(done, total)`` as it goes."""
        rule_set = resolve_rules(rules)
        return cls(rule_set, build_table(rule_set, progress))

    @classmethod
    def load(
        cls,
        rules: RuleSet | str | None = None,
        *,
        directory: Path | None = None,
        progress: Progress | None = None,
    ) -> Self:
        """The cached table, checked; when missing or not trustworthy, the table that ships
        with the package (official rules), else built; then cached. ``progress`` hears of a
        build; why a cached table was not used is logged."""
        rule_set = resolve_rules(rules)
        path = cls.path_for(rule_set, directory)
        why: str | None = None
        try:
            table = read_table(
                path,
                scoring_key=rule_set.scoring_key,
                version=SOLVER_VERSION,
                shape=table_shape(rule_set),
            )
            return cls(rule_set, table)
        except FileNotFoundError:
            pass
        except CorruptTable as error:
            why = str(error)
        except OSError as error:
            why = f"cannot read the solver cache ({error})"
        solver = cls._shipped(rule_set)
        if solver is None:
            if why:
                _log.warning("rebuilding the solver table: %s", why)
            solver = cls.build(rule_set, progress=progress)
        elif why:
            _log.warning("using the solver table shipped with the package: %s", why)
        try:
            solver.save(directory)
        except OSError as error:
            _log.warning("cannot cache the solver table (%s); it is kept in memory", error)
        return solver

    @classmethod
    def _shipped(cls, rules: RuleSet) -> Self | None:
        try:
            table = load_shipped(rules, SOLVER_VERSION)
        except CorruptTable as why:
            _log.warning("the shipped solver table is not usable (%s); solving now", why)
            return None
        return None if table is None else cls(rules, table)

    @staticmethod
    def path_for(rules: RuleSet, directory: Path | None = None) -> Path:
        """Where the table of ``rules`` is cached (in ``directory``, else the user cache folder)."""
        return table_path(rules.scoring_key, SOLVER_VERSION, directory)

    def save(self, directory: Path | None = None) -> Path:
        """Write the table to the cache (atomically, with its SHA-256); returns its path."""
        path = self.path_for(self.rules, directory)
        write_table(path, self.table, scoring_key=self.rules.scoring_key, version=SOLVER_VERSION)
        return path

    # Reading -------------------------------------------------------------------------

    def expected_total(self, card: Scorecard | None = None) -> float:
        """The expected final total from the start of a turn on ``card``, played optimally."""
        card = card or Scorecard.empty(self.rules)
        return card.total + self.future(card)

    def distribution(
        self, card: Scorecard | None = None, *, progress: Progress | None = None
    ) -> ScoreDistribution:
        """The exact distribution of the final total from the start of a turn on ``card``
        under this strategy (every state the card can reach; about a minute from an
        empty card, whose answer is then cached on disk; less the fuller the card)."""
        card = card or Scorecard.empty(self.rules)
        return cached_distribution(self.rules, self.table, card, progress)

    def advise(
        self, card: Scorecard | Situation, dice: Dice | None = None, rolls_left: int = 0
    ) -> Advice:
        """Every distinct option now, with the expected final total of each, best first."""
        situation = card if isinstance(card, Situation) else Situation.of(card, dice, rolls_left)
        return self.advice(situation)


_LOADED: LoadedOnce[str, Solver] = LoadedOnce()


def cached_solver(rules: RuleSet, *, progress: Progress | None = None) -> Solver:
    """One loaded solver per rule set for the whole process (loaded, or built and cached,
    on first use; threads asking at once wait for one load, and other rule sets' loads
    go on meanwhile). ``progress`` hears
    ``(done, total)`` while a missing table is built; drawing it is the front end's."""
    return _LOADED.get(rules.scoring_key, lambda: Solver.load(rules, progress=progress))


def solver_loaded(rules: RuleSet) -> bool:
    """Whether `cached_solver` answers at once for ``rules``."""
    return rules.scoring_key in _LOADED
