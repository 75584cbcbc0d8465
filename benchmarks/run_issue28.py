"""Issue 28's measurement set on one source tree, each output to its own file in a folder.

Run from the repository root: ``python benchmarks/run_issue28.py --src PATH/src [--out DIR]
[--hash] [--quick] [--only ab,max,turnover,kill,wake] [--repeat N]``. The nodes (and the
benchmarks' loss checks) import the tree ``--src`` names; the benchmark scripts are this
repository's. In order (about 17-19 minutes in all on the 2-core machine):

- ``ab``: 1 node against 2 nodes, 200 tables, games staggered over 60 s, 60 s runs
  (``cluster.py --runs a,b``): each run's node CPU per acknowledged action and p99 per 3 s
  window, and the 2-node/1-node ratio of the CPU per action;
- ``max``: 1 node on core 0, the rest on core 1, games staggered over 30 s, 30 s runs at
  rising table counts (``cluster.py --find-max --pin``): the largest count with p99 under
  100 ms;
- ``turnover``: a cluster node's CPU per game turnover, loop thread and whole process, cold
  and warm (``turnover.py --cluster``);
- ``kill``: 2 nodes, 1,000 tables, node 2 killed at half time (``cluster.py --runs c``):
  how long until every table moves again, and the loss check;
- ``wake``: what the machine charges for waking up (``wake_cost.py``): one event's work
  back to back and after the idle gaps of lower loads (half a minute).

``--hash`` makes nginx route by table id in the cluster runs (for a tree whose nodes expect
it); ``--quick`` runs each step small and short (a smoke test of the set, 2-3 minutes);
``--repeat N`` runs each cluster step's runs N times and adds their medians (one run here
moves by 20-40 % from the next).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

STEPS = {
    "ab": ["cluster.py", "--runs", "a,b", "--tables", "200", "--stagger", "60", "--seconds", "60"],
    "max": ["cluster.py", "--find-max", "--pin", "--stagger", "30", "--seconds", "30",
            "--counts", "400,700,1000,1300,1600,2000", "--refine", "1", "--gc-probe"],
    "turnover": ["turnover.py", "--cluster", "--tables", "50", "--rounds", "2"],
    "kill": ["cluster.py", "--runs", "c", "--tables", "1000", "--stagger", "20", "--seconds", "60"],
    "wake": ["wake_cost.py", "--slices", "200"],
}  # fmt: skip
QUICK = {
    "ab": ["cluster.py", "--runs", "a,b", "--tables", "50", "--stagger", "5", "--seconds", "12"],
    "max": ["cluster.py", "--find-max", "--pin", "--stagger", "5", "--seconds", "10",
            "--counts", "50,100", "--refine", "0"],
    "turnover": ["turnover.py", "--cluster", "--tables", "10", "--rounds", "2"],
    "kill": ["cluster.py", "--runs", "c", "--tables", "100", "--stagger", "5", "--seconds", "16"],
    "wake": ["wake_cost.py", "--slices", "20"],
}  # fmt: skip
KEY_LINES = ("nodes run", " actions/s (", "node CPU per acknowledged action", "ratio",
             "largest table count", "yahtzee turnover", "turnover per game",
             "every table moved again", "loss check", "| ", "median", " us ",
             "idle before")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, required=True, help="the source tree's src folder")
    parser.add_argument(
        "--out", type=Path, help="folder for the outputs (default: a new one in /tmp)"
    )
    parser.add_argument("--hash", action="store_true", help="nginx routes by table id")
    parser.add_argument("--quick", action="store_true", help="small, short runs: a smoke test")
    parser.add_argument("--only", default=",".join(STEPS), help="some of " + ", ".join(STEPS))
    parser.add_argument(
        "--repeat", type=int, default=1, help="the cluster steps' runs each this many times: "
        "medians (cluster.py --repeat)",
    )  # fmt: skip
    args = parser.parse_args()
    src = args.src.resolve()
    if not (src / "yahtzee" / "__init__.py").is_file():
        parser.error(f"--src {src}: no yahtzee package there")
    steps = [s.strip() for s in args.only.split(",") if s.strip()]
    if not steps or any(s not in STEPS for s in steps):
        parser.error(f"--only takes some of {', '.join(STEPS)}")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = args.out or Path(tempfile.gettempdir()) / f"yahtzee-issue28-{src.parent.name}-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(src)}
    summary = [f"issue 28 set on {src}, {time.strftime('%Y-%m-%d %H:%M')}"]
    began = time.monotonic()
    for step in steps:
        script, *options = (QUICK if args.quick else STEPS)[step]
        command = [sys.executable, str(HERE / script), "--src", str(src), *options]
        if args.hash and script == "cluster.py":
            command.append("--hash")
        if args.repeat > 1 and script == "cluster.py":
            command += ["--repeat", str(args.repeat)]
        print(f"== {step}: {' '.join(command[1:])}", flush=True)
        started = time.monotonic()
        with (out / f"{step}.txt").open("w") as log:
            log.write(f"$ {' '.join(command)}\n")
            log.flush()
            proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)  # fmt: skip
            assert proc.stdout is not None
            lines = []
            for line in proc.stdout:
                sys.stdout.write(line)
                log.write(line)
                lines.append(line.rstrip("\n"))
            code = proc.wait()
        took = time.monotonic() - started
        summary.append(f"\n{step} ({took:.0f} s, exit {code}): {out / f'{step}.txt'}")
        summary += [f"  {line.strip()}" for line in lines if any(k in line for k in KEY_LINES)]
    summary.append(f"\nin all {time.monotonic() - began:.0f} s")
    (out / "summary.txt").write_text("\n".join(summary) + "\n")
    print("\n" + "\n".join(summary))


if __name__ == "__main__":
    main()
