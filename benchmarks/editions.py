"""Solver build time of every edition's rule sets against the peer's, in the same run.

Run: ``python benchmarks/editions.py`` (``python -m benchmarks run editions``; add
``--no-peer`` to leave the peer out, ``--rules yatzy,official`` for some rule sets only).

Each rule set is built in a fresh interpreter, as a user's process builds it: the import,
the scoring tables and the whole table, with the kernels already in numba's cache (they
compile once per install, in about 15 s, for every rule set: that first build is printed
once too). The peer, yatzy-solver from PyPI (the installed one, else a throwaway virtual
environment), builds the same variant in its own fresh interpreter: the import and
``Solver.build``. Each figure is the best of ``--repeats`` runs; the ratio is the peer's
time over ours (above 1: ours is quicker). ``official+forced`` and ``no-yahtzee-bonus``
have no peer variant.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
import tempfile
import time

from common import peer_python, run_python

PEER_VARIANTS = {
    "official": "american+forced-joker",
    "free-choice-joker": "american",
    "no-joker": "american+no-joker",
    "no-yahtzee-bonus": None,
    "no-bonus-no-joker": "american+no-bonus",
    "official+forced": None,
    "yatzy": "yatzy-scandinavian",
    "yatzy+fh5": "yatzy-scandinavian+fh5",
    "yatzy+tp4": "yatzy-scandinavian+tp4",
    "yatzy+fh5+tp4": "yatzy-scandinavian+fh5+tp4",
    "yatzy+forced": "yatzy-scandinavian+forced",
    "yatzy+fh5+forced": "yatzy-scandinavian+fh5+forced",
    "yatzy+tp4+forced": "yatzy-scandinavian+tp4+forced",
    "yatzy+fh5+tp4+forced": "yatzy-scandinavian+fh5+tp4+forced",
}
"""Our rule set and the peer's variant of the same rules (by their expected scores:
``american`` is the free-choice Joker, ``american+no-bonus`` has neither the bonus nor a
Joker); ``None``: the peer has no such variant."""

OURS = """
import json, time
t = time.perf_counter()
from yahtzee import RuleSet
from yahtzee.solver.solver import build_table
E = build_table(RuleSet.named({name!r}))
print(json.dumps({{"build": time.perf_counter() - t, "value": float(E[0, 0, 0])}}))
"""

PEER = """
import json, time
t = time.perf_counter()
import yatzy_solver as ys
solver = ys.Solver.build(ys.Variant({variant!r}))
print(json.dumps({{"build": time.perf_counter() - t,
                  "value": solver.state_value("upper 0 | filled -")}}))
"""


def best(code: str, repeats: int, env: dict[str, str], python: str = sys.executable) -> dict:
    runs = [run_python(code, env, python) for _ in range(repeats)]
    return min(runs, key=lambda r: r["build"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--rules", default=",".join(PEER_VARIANTS))
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    names = [n.strip() for n in args.rules.split(",") if n.strip()]
    env = {"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-editions-"),
           "YAHTZEE_CACHE_DIR": tempfile.mkdtemp(prefix="yahtzee-editions-")}  # fmt: skip
    peer = None
    if not args.no_peer:
        have = importlib.util.find_spec("yatzy_solver") is not None
        peer = sys.executable if have else peer_python("yatzy-solver")
    print(f"{time.strftime('%Y-%m-%d')} on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")  # fmt: skip
    first = run_python(OURS.format(name=names[0]), env)["build"]
    print(f"first build after an install ({names[0]}, the kernels compile): {first:.2f} s")
    print(f"{'rule set':<22} {'ours s':>8} {'peer s':>8} {'ratio':>7}  expected score (ours, peer)")
    for name in names:
        ours = best(OURS.format(name=name), args.repeats, env)
        variant = PEER_VARIANTS.get(name)
        line = f"{name:<22} {ours['build']:>8.2f}"
        if peer and variant:
            theirs = best(PEER.format(variant=variant), args.repeats, {}, peer)
            ratio = theirs["build"] / ours["build"]
            line += f" {theirs['build']:>8.2f} {ratio:>6.1f}x  "
            line += f"{ours['value']:.7f}, {theirs['value']:.7f}"
        else:
            line += f" {'-':>8} {'-':>7}  {ours['value']:.7f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
