"""Offline advisor benchmark: the page's advisor table file and the JavaScript advisor and
bots, measured in node on this machine.

Run: ``python benchmarks/offline_advisor.py`` (``--situations N`` changes the sample).

It prints:

* the official rules' table file (``GET /api/advisor/official/table``): its size as
  made, gzipped as served (level 9, once per rule set), and against the peer's table:
  yatzy-solver's demo page fetches a 1.75 MB compressed table for the American rules
  (the figure its page gives; not measured here);
* in node (``static/advisor_table.js``, ``advisor.js``, ``bots.js``): gunzip (what the
  browser does as it receives the file) and decode (the SHA-256 check and the values),
  medians of several runs; the advice for a roll p50/p99 over random situations, each on
  a card state not seen before (the turn solved then: the cost a player meets at a
  turn's first roll) and again on the same states (the turn kept); a level-3 bot's whole
  turn (its throws, its keeps, its box) p50/p99, each on a new card state.

The 4x-throttled Chromium figures (the issue's budgets) come from the page's own
benchmark, next.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from offline_js import SITUATIONS_JS

from yahtzee.core import RuleSet
from yahtzee.solver import cached_solver
from yahtzee.solver.web_table import encode
from yahtzee.web.page_files import STATIC
from yahtzee.web.rules_models import RuleSetView

PEER_TABLE_BYTES = 1_750_000  # yatzy-solver's demo page: its American rules' table, compressed
MODULES = (
    "i18n.js",
    "engine_errors.js",
    "engine_dice.js",
    "engine_rules.js",
    "advisor_dice.js",
    "advisor_scoring.js",
    "advisor_table.js",
    "advisor.js",
    "bots.js",
)

DRIVER = (
    """\
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { decodeAdvisorTable } from "./advisor_table.js";
import { Advisor } from "./advisor.js";
import { playTurn } from "./bots.js";

const input = JSON.parse(readFileSync("input.json", "utf8"));
const gzipped = readFileSync("table.gz");
"""
    + SITUATIONS_JS
    + """
const random = seeded(53);
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = (cases, act) => cases.map((s) => {
  const start = process.hrtime.bigint();
  act(s);
  return ms(start);
});

const gunzips = [], decodes = [];
let table = null;
for (let i = 0; i < 7; i++) {
  let start = process.hrtime.bigint();
  const raw = gunzipSync(gzipped);
  gunzips.push(ms(start));
  start = process.hrtime.bigint();
  table = await decodeAdvisorTable(raw, { scoring: input.scoring });
  decodes.push(ms(start));
}
const situations = makeSituations(input.rule_set, input.situations, random);

let advisor = new Advisor(table, input.rule_set);
for (const s of situations.slice(0, 200)) advisor.advise(s); // warm the JIT
advisor = new Advisor(table, input.rule_set);
const cold = timed(situations, (s) => advisor.advise(s));
const warm = timed(situations, (s) => advisor.advise(s));
advisor = new Advisor(table, input.rule_set);
const turns = timed(situations, (s) => playTurn(advisor, s.card, "level3", { random }));
console.log(JSON.stringify({
  gunzip_ms: median(gunzips), decode_ms: median(decodes),
  advice_cold_p50_ms: quantile(cold, 0.5), advice_cold_p99_ms: quantile(cold, 0.99),
  advice_warm_p50_ms: quantile(warm, 0.5), advice_warm_p99_ms: quantile(warm, 0.99),
  bot_turn_p50_ms: quantile(turns, 0.5), bot_turn_p99_ms: quantile(turns, 0.99),
  node: process.version,
}));
"""
)


def measure(situations: int) -> dict[str, object]:
    node = shutil.which("node")
    if node is None:
        sys.exit("node is not installed: this benchmark runs the page's modules in node")
    rules = RuleSet.official()
    data = encode(cached_solver(rules).table, rules)
    gzipped = gzip.compress(data, 9, mtime=0)
    view = RuleSetView.of(rules).model_dump()
    rule_set = {"name": rules.name, "boxes": view["boxes"], "rules": view["rules"]}
    with tempfile.TemporaryDirectory(prefix="yahtzee-offline-bench-") as folder:
        root = Path(folder)
        (root / "package.json").write_text('{"type": "module"}\n')
        for name in MODULES:
            shutil.copyfile(STATIC / name, root / name)
        (root / "driver.js").write_text(DRIVER)
        (root / "table.gz").write_bytes(gzipped)
        (root / "input.json").write_text(
            json.dumps(
                {
                    "rule_set": rule_set,
                    "scoring": rules.scoring_key,
                    "situations": situations,
                }
            )
        )
        done = subprocess.run(
            [node, "driver.js"], cwd=root, capture_output=True, text=True, check=True, timeout=600
        )
    figures: dict[str, object] = json.loads(done.stdout)
    figures |= {"file_bytes": len(data), "gzip_bytes": len(gzipped)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--situations", type=int, default=5000, help="random situations (5000)")
    args = parser.parse_args()
    f = measure(args.situations)
    print(f"machine: {platform.machine()}, {platform.processor() or platform.platform()}")
    print(f"node {f['node']}, {args.situations} situations")
    gz = int(str(f["gzip_bytes"]))
    print(f"official table file: {int(str(f['file_bytes'])) / 1e6:.2f} MB as made, ", end="")
    print(f"{gz / 1e6:.3f} MB gzipped as served")
    print(
        f"  peer yatzy-solver's table (its page's figure): {PEER_TABLE_BYTES / 1e6:.2f} MB: ",
        end="",
    )
    print(f"ours is {gz / PEER_TABLE_BYTES:.2f}x its size")
    print(
        f"gunzip {f['gunzip_ms']:.1f} ms, decode (SHA-256 check included) {f['decode_ms']:.1f} ms"
    )
    print(
        f"advice for a roll, new state: p50 {f['advice_cold_p50_ms']:.3f} ms, "
        f"p99 {f['advice_cold_p99_ms']:.3f} ms"
    )
    print(
        f"advice for a roll, state kept: p50 {f['advice_warm_p50_ms']:.3f} ms, "
        f"p99 {f['advice_warm_p99_ms']:.3f} ms"
    )
    print(
        f"a level-3 bot's whole turn: p50 {f['bot_turn_p50_ms']:.3f} ms, "
        f"p99 {f['bot_turn_p99_ms']:.3f} ms"
    )


if __name__ == "__main__":
    main()
