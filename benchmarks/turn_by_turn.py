"""Turn-by-turn at scale: "my games" and a move at an idle table, on PostgreSQL.

Run: ``python benchmarks/turn_by_turn.py`` (``--url`` names a PostgreSQL server, else
``YAHTZEE_TEST_POSTGRES_URL``, else a throwaway local one; the benchmark makes a database
of its own there and drops it at the end unless ``--keep``).

It generates the records of a site with many games played turn by turn, bulk-loaded with
COPY: ``--games`` open tables in play (100,000), each of two accounts' seats, among
``--accounts`` accounts (1,000: each has 200 games), each game a few rounds in (its
events as played, 0 to 6 rounds), its seat to move and its deadline (1 h to 3 days away)
recorded. Then, on a lobby of the server's (`service.Lobby`, the server's own group
commit on the event loop):

* "my games": the route's handler (``GET /api/me/games``: the service's one query and
  the answer's model) for ``--samples`` random accounts, one after the other;
* a move at an idle table: a table nobody has loaded is loaded from the records (the
  server's path for a resting turn-by-turn table), its player to move rolls (applied and
  committed, the deadline recorded), and the table is let go from memory again; each
  sample a different table.

Both run with the garbage collector as the server sets it (`web.app`: what startup made
frozen, full passes rare). It prints each one's wall time (p50, p99, max) against the
target (50 ms each), the CPU time of its own process per request (the database server's
is apart) and the machine's load average; with ``--explain`` the plan PostgreSQL chose for
"my games" (EXPLAIN ANALYZE). ``--keep`` keeps the database; ``--loaded URL --seed N``
measures a kept one again (another seed: other accounts and tables).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from parts import local_postgres

from yahtzee.core import Game, Keep, RandomDice, RuleSet
from yahtzee.core.events import event_to_dict
from yahtzee.service import Lobby, QuietListener, Table, commands
from yahtzee.service.accounts import Account
from yahtzee.store import Store
from yahtzee.store.my_games import my_games, statement
from yahtzee.store.names import look_alike_key
from yahtzee.web.app import GC_THRESHOLDS
from yahtzee.web.routers import me

TARGET_MS = 50.0
SEATS = 2
TEMPLATES = 64
"""Games played once each (0 to 6 rounds in); every generated game is one of them."""
MAX_ROUNDS = 6
DAY_S = 86_400
A, B = "@A@", "@B@"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def templates(seed: int) -> list[tuple[list[dict[str, Any]], int]]:
    """Games of players ``A`` and ``B`` (their names put in later), each some rounds in:
    their events and the seat to move."""
    rng = random.Random(seed)
    made = []
    for n in range(TEMPLATES):
        game = Game([A, B], RuleSet.official(), RandomDice(seed + n))
        for _ in range(rng.randint(0, MAX_ROUNDS) * SEATS + rng.randint(0, 1)):
            game.roll(Keep.NONE)
            game.score(game.placements()[0].category)
        if rng.random() < 0.5:
            game.roll(Keep.NONE)  # a turn under way
        seat = game.current_player
        assert seat is not None
        made.append(([event_to_dict(e) for e in game.event_log], seat))
    return made


def rows(games: int, accounts: int, seed: int) -> dict[str, Iterator[tuple[Any, ...]]]:
    """Every table's rows to COPY, generated as they are written."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    names = [f"Player {n:05d}" for n in range(accounts)]
    account_ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(accounts)]
    played = templates(seed)
    picks = [rng.randrange(TEMPLATES) for _ in range(games)]
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(games)]
    table_ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(games)]

    def pair(g: int) -> tuple[int, int]:
        first = g % accounts  # each block of `accounts` games seats every account once
        return first, (first + 1 + (g // accounts) % (accounts - 1)) % accounts

    def account_rows() -> Iterator[tuple[Any, ...]]:
        for n, name in enumerate(names):
            yield account_ids[n], name, look_alike_key(name), None, now

    def player_rows() -> Iterator[tuple[Any, ...]]:
        for n, name in enumerate(names):
            yield n + 1, name, now

    def game_rows() -> Iterator[tuple[Any, ...]]:
        for g, game_id in enumerate(ids):
            events = played[picks[g]][0]
            when = now - timedelta(seconds=rng.randint(60, 30 * DAY_S))
            yield (game_id, "official", None, "active", when, when, None, len(events), False,
                   None, table_ids[g], "rolled", None)  # fmt: skip

    def seat_rows() -> Iterator[tuple[Any, ...]]:
        for g, game_id in enumerate(ids):
            for seat, who in enumerate(pair(g)):
                yield game_id, seat, who + 1, "human", None, False, account_ids[who]

    def event_rows() -> Iterator[tuple[Any, ...]]:
        for g, game_id in enumerate(ids):
            first, second = pair(g)
            swap = {
                json.dumps(A): json.dumps(names[first]),
                json.dumps(B): json.dumps(names[second]),
            }
            for seq, event in enumerate(played[picks[g]][0]):
                data = json.dumps(event, separators=(",", ":"))
                for placeholder, name in swap.items():
                    data = data.replace(placeholder, name)
                yield game_id, seq, event["type"], data, now, None

    def table_rows() -> Iterator[tuple[Any, ...]]:
        for g, table_id in enumerate(table_ids):
            when = now - timedelta(seconds=rng.randint(60, 3 * DAY_S))
            deadline = now + timedelta(seconds=rng.randint(3_600, 3 * DAY_S))
            yield (table_id, "official", True, DAY_S, uuid.uuid4().hex, uuid.uuid4().hex,
                   "playing", ids[g], "benchmark", when, when, table_id, None, "rolled",
                   "bot", 3, 3, deadline, played[picks[g]][1])  # fmt: skip

    def table_seat_rows() -> Iterator[tuple[Any, ...]]:
        for g, table_id in enumerate(table_ids):
            for seat, who in enumerate(pair(g)):
                token = uuid.UUID(int=rng.getrandbits(128)).hex * 2
                yield table_id, seat, names[who], None, token, 0, False, account_ids[who]

    return {
        "accounts (id, name, name_key, password_hash, created_at)": account_rows(),
        "players (id, name, created_at)": player_rows(),
        "games (id, rules, seed, status, created_at, updated_at, finished_at, event_count,"
        " hints_used, selection, sitting, dice, dice_seed)": game_rows(),
        "seats (game_id, seat, player_id, kind, bot, hints_used, account_id)": seat_rows(),
        "events (game_id, seq, type, data, created_at, intent)": event_rows(),
        "tables (id, rules, hints_allowed, turn_timer, invite_token, spectator_token, status,"
        " game_id, owner, created_at, active_at, sitting, rematch, dice, timeout_rule,"
        " timeout_level, timeout_missed, deadline, to_move)": table_rows(),
        "table_seats (table_id, seat, name, bot, token_hash, missed, out, account_id)":
            table_seat_rows(),
    }  # fmt: skip


def bulk_load(url: str, games: int, accounts: int, seed: int) -> None:
    """COPY the generated rows in, then ANALYZE (as autovacuum would soon after)."""
    import psycopg

    with psycopg.connect(url) as connection:
        for target, generated in rows(games, accounts, seed).items():
            with connection.cursor() as cursor, cursor.copy(f"COPY {target} FROM STDIN") as copy:
                for row in generated:
                    copy.write_row(row)
        connection.execute("SELECT setval('players_id_seq', (SELECT max(id) FROM players))")
        connection.commit()
        connection.autocommit = True
        connection.execute("ANALYZE")


def picked(url: str, query: str, count: int, seed: int) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as connection:
        found = connection.execute(query).fetchall()
    random.Random(seed).shuffle(found)
    return found[:count]


def explain(url: str, store: Store, account_id: str) -> str:
    """The plan PostgreSQL runs "my games" by (EXPLAIN ANALYZE), the account's."""
    from sqlalchemy import text

    asked = statement().params(account=account_id, open_limit=201, finished_limit=20)
    compiled = asked.compile(store.engine, compile_kwargs={"literal_binds": True})
    with store.engine.connect() as connection:
        plan = connection.execute(text(f"EXPLAIN (ANALYZE, BUFFERS) {compiled}")).scalars()
        return "\n".join(plan)


def move(table: Table) -> commands.Command:
    """A roll, or a box filled once the turn's rolls are spent (a table measured before)."""
    assert table.live is not None
    game = table.live.committed_game()
    if game.turn is not None and game.dice is not None and game.turn.rolls_left == 0:
        return commands.Score(game.placements()[0].category.key)
    return commands.Roll()


@dataclass
class Figures:
    """Milliseconds per sample: wall time, and this process's CPU time (its own work, of
    all its threads; the database server's is apart)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @contextmanager
    def sample(self) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        yield
        self.wall.append((time.perf_counter() - wall) * 1000)
        self.cpu.append((time.process_time() - cpu) * 1000)


async def measure(
    store: Store, accounts: list[tuple[Any, ...]], tables: list[tuple[Any, ...]], seed: int
) -> tuple[Figures, Figures]:
    """Each "my games" and each move (see the module's notes)."""
    lobby = Lobby(store, QuietListener(), unload_after=0.0)
    await asyncio.to_thread(lobby.load_unfinished)
    gc.collect()  # the garbage collector as the server sets it (`web.app`): rare passes
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    mine, moves = Figures(), Figures()
    for account_id, name in accounts:
        with mine.sample():
            await me.games(Account(account_id, name), lobby)
    for table_id, seat in tables:
        with moves.sample():
            table = await lobby.lookup(table_id)
            key = f"bench-{seed}-{table_id}"
            outcome = await lobby.room(table).handle(seat, move(table), key)
            lobby.let_go_idle()
        if isinstance(outcome, commands.Refused):
            raise SystemExit(f"a move was refused: {outcome}")
        if table_id in lobby.tables:
            raise SystemExit("the table was not let go after its move")
    lobby.close()
    return mine, moves


@contextmanager
def database(url: str | None, keep: bool, loaded: str | None = None) -> Iterator[str]:
    """A new database on the server at ``url`` (else $YAHTZEE_TEST_POSTGRES_URL, else a
    throwaway local server), dropped at the end unless ``keep``; or ``loaded``, as it is."""
    import psycopg

    if loaded is not None:
        yield loaded
        return

    server = None
    admin = url or os.environ.get("YAHTZEE_TEST_POSTGRES_URL")
    if admin is None:
        server = local_postgres()
        if server is None:
            raise SystemExit("No PostgreSQL: pass --url, or install Debian's postgresql.")
        admin = server.start()
    name = f"yahtzee_bench_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield admin.rsplit("/", 1)[0] + "/" + name
        finally:
            if keep:
                print(f"kept the database {name}")
            else:
                with psycopg.connect(admin, autocommit=True) as connection:
                    connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        if server is not None:
            server.stop()


def line(what: str, figures: Figures) -> str:
    p99 = percentile(figures.wall, 99)
    verdict = "within" if p99 <= TARGET_MS else "OVER"
    return (
        f"{what}\n    wall p50 {statistics.median(figures.wall):6.2f} ms   p99 {p99:6.2f} ms   "
        f"max {max(figures.wall):6.2f} ms   ({len(figures.wall)} samples; {verdict} the "
        f"{TARGET_MS:g} ms target)\n    this process's CPU p50 "
        f"{statistics.median(figures.cpu):6.2f} ms   p99 {percentile(figures.cpu, 99):6.2f} ms"
    )


def load_average() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.1f} (5 min: {five:.1f}) on {os.cpu_count()} CPUs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a PostgreSQL server's URL (a database is made there)")
    parser.add_argument("--games", type=int, default=100_000, help="open games (100,000)")
    parser.add_argument("--accounts", type=int, default=1_000, help="accounts (1,000)")
    parser.add_argument("--samples", type=int, default=1_000, help="of each measure (1,000)")
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--explain", action="store_true", help="print the plan of my games")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument(
        "--loaded", metavar="URL", help="measure the database an earlier --keep run left"
    )
    args = parser.parse_args(argv)
    if args.accounts < SEATS or args.games < 1 or args.samples < 1:
        parser.error("at least 2 accounts, 1 game and 1 sample")
    per = args.games * SEATS / args.accounts
    if args.loaded is None:
        print(
            f"{args.games:,} open games, {args.accounts:,} accounts ({per:g} games each), "
            f"seed {args.seed}"
        )
    with database(args.url, args.keep, args.loaded) as url:
        store = Store(url)
        try:
            if args.loaded is None:
                start = time.perf_counter()
                bulk_load(url, args.games, args.accounts, args.seed)
                print(f"generated and loaded in {time.perf_counter() - start:.1f} s")
            accounts = picked(url, "SELECT id, name FROM accounts", args.samples, args.seed)
            accounts = [accounts[n % len(accounts)] for n in range(args.samples)]
            tables = picked(
                url, "SELECT id, to_move FROM tables WHERE status = 'playing'",
                args.samples, args.seed,
            )  # fmt: skip
            found = my_games(store, accounts[0][0])
            print(f"my games of one account: {len(found.games)} listed, more: {found.more}")
            print(f"load average before: {load_average()}")
            mine, moves = asyncio.run(measure(store, accounts, tables, args.seed))
            print(line('"my games" (GET /api/me/games)', mine))
            print(line("a move at an idle table (load, roll, let go)", moves))
            print(f"load average after: {load_average()}")
            if args.explain:
                print(explain(url, store, accounts[0][0]))
        finally:
            store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
