"""The installable app's budgets (issue 53), measured as a phone would meet them: Debian's
Chromium at 390x844 with its CPU slowed 4x (CDP ``Emulation.setCPUThrottlingRate``).

Run: ``python benchmarks/offline_app.py`` (needs the ``test`` extra's Playwright and
Chromium; ``--runs N`` cold starts, ``--situations N`` advised rolls).

It starts ``yahtzee serve`` (a fresh database) behind a small counting proxy and prints:

* **first visit**: every byte the browser downloaded (headers included, compressed as
  sent) from opening ``/`` until the service worker has kept the app (the page, its
  files, the rules, the bots and the official advisor table): budget 2.5 MB; the peer,
  yatzy-solver's demo page, fetches a 1.75 MB table alone (its page's figure);
* **offline cold start**: the browser started again with its profile and no network:
  from opening ``/`` to the home screen drawn, and from opening a game on this device to
  a playable board (the Roll button usable): budget 1.5 s; medians of ``--runs``;
* **advice for a roll** p50/p99 and **a bot's whole turn** (level 3) p50/p99, in the page,
  from the table the worker kept (the page's clock counts in steps of 0.1 ms): budgets
  50 ms and 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from offline_js import SITUATIONS_JS

PHONE = {"width": 390, "height": 844}
THROTTLE = 4
BUDGET_DOWNLOAD = 2_500_000
BUDGET_START_S = 1.5
BUDGET_ADVICE_MS = 50.0
BUDGET_BOT_MS = 100.0
PEER_TABLE_BYTES = 1_750_000
YAHTZEE = str(Path(sys.executable).with_name("yahtzee"))
WAIT_MS = 120_000

KEPT = """async () => {
  const registration = await navigator.serviceWorker.ready;  // installed: the app is kept
  return registration.active !== null;
}"""

IN_PAGE = (
    """async ({ count, address }) => {
  const base = new URL(document.querySelector('script[type="module"]').src, location.href);
  const at = (name) => new URL(name, base).href;
  const { fetchAdvisorTable } = await import(at("advisor_table.js"));
  const { Advisor } = await import(at("advisor.js"));
  const { playTurn } = await import(at("bots.js"));
  const rules = await (await fetch("/api/rules")).json();
  const ruleSet = rules.rule_sets.find((r) => r.name === "official");
"""
    + SITUATIONS_JS
    + """
  const start = performance.now();
  const table = await fetchAdvisorTable(address);
  const loaded = performance.now() - start;
  const random = seeded(53);
  const situations = makeSituations(ruleSet, count, random);
  let advisor = new Advisor(table, ruleSet);
  const timed = (act) => situations.map((s) => {
    const t = performance.now();
    act(s);
    return performance.now() - t;
  });
  const advice = timed((s) => advisor.advise(s));
  advisor = new Advisor(table, ruleSet);
  const turns = timed((s) => playTurn(advisor, s.card, "level3", { random }));
  return { loaded, advice_p50: quantile(advice, 0.5), advice_p99: quantile(advice, 0.99),
           bot_p50: quantile(turns, 0.5), bot_p99: quantile(turns, 0.99) };
}"""
)

DEVICE_GAME = """async () => {
  const base = new URL(document.querySelector('script[type="module"]').src, location.href);
  const { createDeviceTable } = await import(new URL("local_table.js", base).href);
  const players = [{ name: "Ann", bot: null }, { name: "Robo", bot: "level3" }];
  const made = await createDeviceTable({ rules: "official", players });
  const own = made.seats[0];
  const kept = { seat: own.seat, token: own.token, name: own.name };
  localStorage.setItem(`yahtzee:${made.table.id}`, JSON.stringify(kept));
  return made.table.id;
}"""

PLAYABLE = """() => {
  const roll = document.getElementById("roll");
  const usable = roll && roll.getAttribute("aria-disabled") !== "true" && !roll.disabled;
  return !!usable && roll.offsetParent !== null;
}"""


class CountingProxy:
    """A TCP proxy on loopback that counts the bytes the server sends to the browser."""

    def __init__(self, port: int, target: int) -> None:
        self.port = port
        self.target = target
        self.sent = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> CountingProxy:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *_: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        start = asyncio.start_server(self._client, "127.0.0.1", self.port)
        self._loop.run_until_complete(start)
        self._ready.set()
        self._loop.run_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, count: bool) -> None:
            with contextlib.suppress(OSError, asyncio.IncompleteReadError):
                while data := await src.read(65536):
                    if count:
                        self.sent += len(data)
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer, False), pipe(up_reader, writer, True))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(proxied: int) -> Iterator[int]:
    """``yahtzee serve`` on a free port with a fresh database, until it answers; it also
    answers requests sent through the proxy on port ``proxied``."""
    import httpx

    port = free_port()
    folder = tempfile.mkdtemp(prefix="yahtzee-offline-app-")
    process = subprocess.Popen(
        [
            YAHTZEE,
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{folder}/db",
            "--allowed-host",
            f"127.0.0.1:{proxied}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).is_success:
                    break
            time.sleep(0.05)
        else:
            raise SystemExit("yahtzee serve did not answer within 120 s")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def throttled(context: Any, page: Any) -> None:
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})


def launch(playwright: Any, profile: Path, offline: bool) -> Any:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    return playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=chromium,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        viewport=PHONE,
        offline=offline,
        service_workers="allow",
    )


def measure(runs: int, situations: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from yahtzee.core import RuleSet
    from yahtzee.web.routers.advisor import table_address

    figures: dict[str, Any] = {}
    with (
        serving(proxied := free_port()) as port,
        CountingProxy(proxied, port) as proxy,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory(prefix="yahtzee-offline-profile-") as folder,
    ):
        site = f"http://127.0.0.1:{proxy.port}/"
        profile = Path(folder)
        context = launch(playwright, profile, offline=False)
        page = context.new_page()
        throttled(context, page)
        page.goto(site)
        page.evaluate(KEPT)
        page.wait_for_load_state("networkidle")
        figures["first_visit_bytes"] = proxy.sent
        device = page.evaluate(DEVICE_GAME) if has_device_tables(page) else None
        context.close()

        home, board = [], []
        for _ in range(runs):  # each a browser started afresh, with no network
            home.append(cold_start(playwright, profile, site, "#create"))
            if device is not None:
                board.append(cold_start(playwright, profile, f"{site}?table={device}", None))
        figures["offline_home_s"] = statistics.median(home)
        figures["offline_board_s"] = statistics.median(board) if board else None

        context = launch(playwright, profile, offline=True)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site)
        page.locator("#create").wait_for(state="visible", timeout=WAIT_MS)
        throttled(context, page)
        address = table_address(RuleSet.official())
        figures |= page.evaluate(IN_PAGE, {"count": situations, "address": address})
        context.close()
    return figures


def cold_start(playwright: Any, profile: Path, address: str, shown: str | None) -> float:
    """Seconds from opening ``address`` in a browser just started offline (its profile
    holding the worker) until ``shown`` is visible, or the board is playable."""
    context = launch(playwright, profile, offline=True)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        throttled(context, page)
        start = time.perf_counter()
        page.goto(address)
        if shown is None:
            page.wait_for_function(PLAYABLE, timeout=WAIT_MS)
        else:
            page.locator(shown).wait_for(state="visible", timeout=WAIT_MS)
        return time.perf_counter() - start
    finally:
        context.close()


def has_device_tables(page: Any) -> bool:
    answer = page.evaluate(
        """async () => (await fetch(new URL("local_table.js",
             document.querySelector('script[type="module"]').src).href)).ok"""
    )
    return bool(answer)


def verdict(value: float, budget: float) -> str:
    return "within budget" if value <= budget else "OVER BUDGET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="offline cold starts (median)")
    parser.add_argument("--situations", type=int, default=2000, help="advised rolls")
    args = parser.parse_args()
    f = measure(args.runs, args.situations)
    print(
        f"machine: {platform.machine()}, {platform.platform()}; "
        f"Chromium, 390x844, CPU {THROTTLE}x slower"
    )
    down = f["first_visit_bytes"]
    print(
        f"first visit download: {down / 1e6:.3f} MB ({verdict(down, BUDGET_DOWNLOAD)}: 2.5 MB); "
        f"the peer's table alone: {PEER_TABLE_BYTES / 1e6:.2f} MB, "
        f"ratio {down / PEER_TABLE_BYTES:.2f}"
    )
    home = f["offline_home_s"]
    print(f"offline cold start to the home screen: {home:.2f} s (median of {args.runs})")
    board = f["offline_board_s"]
    if board is None:
        print(
            "offline cold start to a playable board: n/a (no games on this device in this version)"
        )
    else:
        print(
            f"offline cold start to a playable board: {board:.2f} s "
            f"({verdict(board, BUDGET_START_S)}: 1.5 s)"
        )
    print(f"advisor table read from the worker's copy and checked: {f['loaded']:.0f} ms")
    print(
        f"advice for a roll: p50 {f['advice_p50']:.2f} ms, p99 {f['advice_p99']:.2f} ms "
        f"({verdict(f['advice_p99'], BUDGET_ADVICE_MS)}: 50 ms)"
    )
    print(
        f"a level-3 bot's whole turn: p50 {f['bot_p50']:.2f} ms, p99 {f['bot_p99']:.2f} ms "
        f"({verdict(f['bot_p99'], BUDGET_BOT_MS)}: 100 ms)"
    )
    print(json.dumps(f, default=str))


if __name__ == "__main__":
    main()
