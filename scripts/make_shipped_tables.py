"""Regenerate the solver tables that ship with the package (src/yahtzee/solver/data).

Run after a deliberate change to the solver or the official rules; tests/solver checks
that the shipped tables equal freshly built ones.
"""

from __future__ import annotations

from yahtzee.solver.shipped import write_shipped

if __name__ == "__main__":
    for path, size in write_shipped():
        print(f"{path}: {size:,} bytes")
