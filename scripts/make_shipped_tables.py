"""Regenerate the solver tables that ship with the package (src/yahtzee/solver/data).

Run after a deliberate change to the solver or the official rules; tests/solver checks
that the shipped tables equal freshly built ones (``--variance``: only the variance table
of the interim win chances, see ``yahtzee.solver.interim``).
"""

from __future__ import annotations

import sys

import numpy as np

from yahtzee import RuleSet, Scorecard
from yahtzee.solver import SOLVER_VERSION, Solver
from yahtzee.solver.distribution import exact_distribution, shipped_distribution_path
from yahtzee.solver.interim import build_variance, encode_variance, variance_path
from yahtzee.solver.shipped import DATA, SHIPPED, SHIPPED_CURVES, encode, shipped_path
from yahtzee.solver.solver import build_table

if __name__ == "__main__":
    DATA.mkdir(exist_ok=True)
    only_variance = "--variance" in sys.argv
    for name in SHIPPED:
        rules = RuleSet.named(name)
        curves = name in SHIPPED_CURVES
        if only_variance and curves:
            data = encode_variance(build_variance(rules), rules)
            variance_path(rules).write_bytes(data)
            print(f"{variance_path(rules)}: {len(data):,} bytes")
        if only_variance:
            continue
        data = encode(build_table(rules), rules, SOLVER_VERSION)
        shipped_path(rules).write_bytes(data)
        print(f"{shipped_path(rules)}: {len(data):,} bytes")
        if not curves:
            continue
        solver = Solver(rules, build_table(rules))
        pmf = exact_distribution(rules, Scorecard.empty(rules), solver.table).pmf
        np.save(shipped_distribution_path(rules), pmf)
        print(f"{shipped_distribution_path(rules)}: the empty card's distribution")
        data = encode_variance(build_variance(rules), rules)
        variance_path(rules).write_bytes(data)
        print(f"{variance_path(rules)}: {len(data):,} bytes (variance under expected-value play)")
