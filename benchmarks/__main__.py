"""The project's benchmarks: list them, or run one.

From the repository root: ``python -m benchmarks`` (or ``list``) lists them, with what
each prints, the peer it measures in the same run and its page; ``python -m benchmarks
run NAME [OPTIONS...]`` runs one (the same as ``python benchmarks/NAME.py [OPTIONS...]``;
``run NAME --help`` gives its options)."""

from __future__ import annotations

import argparse
import os
import sys

from benchmarks.catalog import BENCHMARKS, by_name


def listing() -> str:
    """One block per benchmark: its command, what it prints, its peer and its page."""
    blocks = []
    for b in BENCHMARKS:
        peer = f"ratio against {b.peer}" if b.peer else "no peer"
        blocks.append(
            f"{b.name}\n    python -m benchmarks run {b.name}   (benchmarks/{b.name}.py)\n"
            f"    prints: {b.prints}\n    {peer}\n    page: docs/benchmarks/{b.page}"
        )
    return "\n".join(blocks)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("list", help="list the benchmarks (the default)")
    run = commands.add_parser("run", help="run one benchmark; its options follow its name")
    run.add_argument("name", choices=[b.name for b in BENCHMARKS])
    run.add_argument("options", nargs=argparse.REMAINDER, help="the benchmark's own options")
    args = parser.parse_args(argv)
    if args.command in (None, "list"):
        print(listing())
        return
    script = by_name(args.name).script
    sys.stdout.flush()
    # the script in place of this process: its output, its exit status, Ctrl-C as its own
    os.execv(sys.executable, [sys.executable, str(script), *args.options])


if __name__ == "__main__":
    main()
