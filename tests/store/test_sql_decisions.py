"""The decisions PostgreSQL makes in functions of its own, held to the Python that makes
them on SQLite, case by case.

For speed PostgreSQL makes three decisions in one call each (one round trip to the
server): the group commit (``yahtzee_group_commit``, migrations 0008 and 0015, which the
event loop's `LoopCommit` calls), a new table against its owner's quota and a table's start
(``yahtzee_create_table`` and ``yahtzee_start_table``, migration 0013, which
`store.pg_tables` calls). Each is written in Python too: `commit.commit_many`,
`tables.create_in` and `tables.start_in`, which SQLite runs. Here both run on one
PostgreSQL database, each case on twin records built alike: the same answer (an outcome,
a refusal, an error) and the same rows written, times aside."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

import pytest
from sqlalchemy import Connection, select

from tests.store.conftest import new_database
from yahtzee.core import BotSpec, Game, Keep, RandomDice, RuleSet, Score, SeatDice
from yahtzee.store import Commit, Outcome, Seat, Store
from yahtzee.store import tables as records
from yahtzee.store.commit import commit_many
from yahtzee.store.schema import cards, events, games, players, seats, table_seats, tables
from yahtzee.store.store import now

SEED = 5
MID = 10
SETUP = "0:setup"
EARLIER = "0:earlier"
DICE_SEED = SeatDice().seed


@pytest.fixture(scope="module")
def store(postgres_admin_url: str) -> Iterator[Store]:
    with Store(new_database(postgres_admin_url)) as opened:
        yield opened


def answer_of(work: Callable[[], Any]) -> Any:
    """What ``work`` answers, or the error it raises (its type and words)."""
    try:
        return work()
    except Exception as error:
        return (type(error).__name__, str(error))


async def answer_of_async(work: Awaitable[Any]) -> Any:
    try:
        return await work
    except Exception as error:
        return (type(error).__name__, str(error))


def renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (an answer, rows) with each twin's ids put as their case's names."""
    text = repr(value)
    for name, label in names.items():
        text = text.replace(name, label)
    return text


def rows(c: Connection, table: Any, where: Any, order: Any, leave_out: Sequence[str]) -> list[Any]:
    kept = [column for column in table.c if column.name not in leave_out]
    return [tuple(r) for r in c.execute(select(*kept).where(where).order_by(order))]


# The group commit -------------------------------------------------------------------


@cache
def played() -> tuple[dict[str, Any], ...]:
    """The events of one whole game for one player."""
    game = Game(["Ann"], dice=RandomDice(SEED))
    while not game.is_over:
        game.roll(Keep.NONE)
        game.play(Score(game.placements()[0].category))
    return tuple(game.events)


def at(count: int) -> Game:
    """The game after its first ``count`` events."""
    return Game.replay(played()[:count], RandomDice(SEED))


@dataclass(frozen=True, slots=True)
class GameCase:
    """One game of a batch: its records hold ``recorded`` events (the last write's intent
    ``EARLIER`` when ``earlier``, else ``SETUP``; none at all when ``recorded`` is 0: no
    such game), and its commit extends the events after ``base`` to ``reach``, with
    ``intent``."""

    recorded: int
    base: int
    reach: int
    intent: str | None
    earlier: bool = False

    def __str__(self) -> str:
        return (
            f"records {self.recorded}, base {self.base}, reach {self.reach}, "
            f"intent {self.intent}{' (recorded here)' if self.earlier else ''}"
        )


def game_cases() -> list[GameCase]:
    """Records at, behind and ahead of the commit's base; new events, none, or a base
    past the commit's own events; a game going on and a game ending; no intent, a new
    one, one recorded on this game before, one recorded on another game only."""
    found = []
    for base in (MID, len(played()) - 2):
        for recorded, reach in itertools.product(
            (base, base - 1, base + 1), (base + 2, base, base - 1)
        ):
            for intent, earlier in (
                (None, False),
                ("0:new", False),
                (EARLIER, True),
                (EARLIER, False),
            ):
                found.append(GameCase(recorded, base, reach, intent, earlier))
    return found


MISSING = GameCase(0, MID, MID + 2, "0:new")
FITS = GameCase(MID, MID, MID + 2, None)
LATE = GameCase(MID + 1, MID, MID + 2, None)


def recorded_game(store: Store, case: GameCase) -> str:
    """A new game's id, its records as ``case`` has them (none for `MISSING`)."""
    game_id = str(uuid.uuid4())
    if case.recorded:
        store.start(at(case.recorded - 1), game_id=game_id)
        setup = Commit(
            game_id, at(case.recorded), case.recorded - 1, EARLIER if case.earlier else SETUP
        )
        with store.engine.begin() as c:
            assert commit_many(c, [setup], now())[game_id].saved
    return game_id


def batch_of(store: Store, cases: Sequence[GameCase]) -> tuple[list[Commit], dict[str, str]]:
    commits = [
        Commit(recorded_game(store, case), at(case.reach), case.base, case.intent) for case in cases
    ]
    return commits, {c.game_id: f"game {i}" for i, c in enumerate(commits)}


def written(store: Store, commits: Sequence[Commit]) -> list[Any]:
    """Each game's records: the game's row, its events and its cards (times aside)."""
    found = []
    with store.engine.connect() as c:
        for commit in commits:
            row = c.execute(
                select(games.c.status, games.c.event_count, games.c.finished_at.is_(None)).where(
                    games.c.id == commit.game_id
                )
            ).all()
            logged = rows(
                c,
                events,
                events.c.game_id == commit.game_id,
                events.c.seq,
                ("game_id", "created_at"),
            )
            kept = rows(c, cards, cards.c.game_id == commit.game_id, cards.c.seat, ("game_id",))
            found.append((row, logged, kept))
    return found


def python_commit(store: Store, commits: Sequence[Commit]) -> dict[str, Outcome]:
    """The Python decision (`commit_many`), as `Store.save_many` runs it."""
    with store.engine.begin() as c:
        return commit_many(c, commits, now())


def batches() -> list[list[GameCase]]:
    """Each case alone; all of them in one batch (locked in id order, arrays aligned, one
    game asking an intent that another holds); a game that is not in the records, alone
    and beside games that fit and that came late."""
    every = game_cases()
    return [[case] for case in every] + [every, [MISSING], [FITS, MISSING, LATE]]


def test_the_group_commit_function_decides_as_the_python_decision(store: Store) -> None:
    elsewhere = recorded_game(store, GameCase(MID, MID, MID, None, earlier=True))
    assert elsewhere  # an intent recorded on a game of no batch
    assert store.saves_on_loop

    async def compare() -> None:
        for cases in batches():
            ours, our_names = batch_of(store, cases)
            theirs, their_names = batch_of(store, cases)
            by_python = answer_of(partial(python_commit, store, ours))
            by_function = await answer_of_async(store.save_many_on_loop(theirs))
            what = "; ".join(str(case) for case in cases)
            assert renamed(by_function, their_names) == renamed(by_python, our_names), what
            assert written(store, theirs) == written(store, ours), what

    asyncio.run(compare())


# A new table ------------------------------------------------------------------------


T0 = 1_800_000_000.0
SINCE = T0 - 50.0
EXISTING = {
    "lobby, changed since": (records.LOBBY, T0 - 10.0),
    "lobby, changed at the moment counted from": (records.LOBBY, SINCE),
    "lobby, idle before": (records.LOBBY, T0 - 100.0),
    "in play": (records.PLAYING, T0 - 100.0),
    "finished": (records.FINISHED, T0 - 10.0),
    "cancelled": (records.CANCELLED, T0 - 10.0),
}


def a_table(owner: str, status: str = records.LOBBY, active_at: float = T0) -> records.TableRecord:
    seats_ = (
        records.TableSeatRecord(0, "Ann", None, "a" * 64),
        records.TableSeatRecord(1, None, BotSpec.at_level(3)),
        records.TableSeatRecord(2),  # open for a friend
    )
    return records.TableRecord(
        str(uuid.uuid4()),
        "official",
        True,
        30,
        uuid.uuid4().hex,
        uuid.uuid4().hex,
        owner,
        status,
        None,
        seats_,
        active_at,
    )


def create_cases() -> Iterator[tuple[tuple[str, ...], records.Quota | None]]:
    quotas = [None, *(records.Quota(SINCE, limit) for limit in range(4))]
    for quota in quotas:
        for name in EXISTING:
            yield (name,), quota
        yield (), quota
        yield tuple(EXISTING), quota


def test_the_new_table_function_decides_as_the_python_decision(store: Store) -> None:
    for existing, quota in create_cases():
        answers, made = [], []
        for by_python in (True, False):
            owner = uuid.uuid4().hex
            with store.engine.begin() as c:
                for name in existing:
                    assert records.create_in(c, a_table(owner, *EXISTING[name]))
            table = a_table(owner)
            if by_python:
                with store.engine.begin() as c:
                    answers.append(records.create_in(c, table, quota))
            else:
                answers.append(records.create_table(store, table, quota))  # PostgreSQL's call
            found = records.load_table(store, table.id)
            blank = {
                "id": "",
                "invite_token": "",
                "spectator_token": "",
                "owner": "",
                "sitting": "",
            }
            made.append(found and dataclasses.replace(found, **blank))
        what = f"{existing}, {quota}"
        assert answers[0] == answers[1], what
        assert made[0] == made[1], what


# A table's start --------------------------------------------------------------------


LOBBY_SEATS = (
    records.TableSeatRecord(0, "Ann", None, "a" * 64),
    records.TableSeatRecord(1, "Bot 2", BotSpec.at_level(5)),
    records.TableSeatRecord(2),  # open
    records.TableSeatRecord(3, "Cy", None, "c" * 64),
)


def start_cases() -> Iterator[tuple[str, str | None, tuple[records.TableSeatRecord, ...], bool]]:
    """(what, the table's status (None: no such table), the seats the starting node
    expects, whether its game has rolled already)."""
    seat3 = LOBBY_SEATS[3]
    changed = {
        "the seats as recorded": LOBBY_SEATS,
        "another name": (*LOBBY_SEATS[:3], dataclasses.replace(seat3, name="Cyd")),
        "another bot": (
            LOBBY_SEATS[0],
            dataclasses.replace(LOBBY_SEATS[1], bot=BotSpec.at_level(4)),
            *LOBBY_SEATS[2:],
        ),
        "a bot where a player sits": (
            *LOBBY_SEATS[:3],
            dataclasses.replace(seat3, bot=BotSpec("optimal")),
        ),
        "another token": (*LOBBY_SEATS[:3], dataclasses.replace(seat3, token_hash="d" * 64)),
        "the open seat taken": (
            *LOBBY_SEATS[:2],
            records.TableSeatRecord(2, "Dee", None, "e" * 64),
            seat3,
        ),
        "a seat fewer": LOBBY_SEATS[:3],
        "a seat more": (*LOBBY_SEATS, records.TableSeatRecord(4)),
    }
    for what, expected in changed.items():
        yield what, records.LOBBY, expected, False
    yield "a game that has rolled", records.LOBBY, LOBBY_SEATS, True
    yield "a table in play", records.PLAYING, LOBBY_SEATS, False
    yield "a finished table", records.FINISHED, LOBBY_SEATS, False
    yield "no such table", None, LOBBY_SEATS, False


def started_rows(store: Store, table_id: str, game_id: str) -> list[Any]:
    with store.engine.connect() as c:
        secret = ("id", "invite_token", "spectator_token", "owner", "created_at", "sitting")
        table = rows(c, tables, tables.c.id == table_id, tables.c.id, secret)
        game = rows(c, games, games.c.id == game_id, games.c.id, ("id", "created_at", "updated_at"))
        logged = rows(
            c, events, events.c.game_id == game_id, events.c.seq, ("game_id", "created_at")
        )
        seated = [
            tuple(r)
            for r in c.execute(
                select(seats.c.seat, players.c.name, seats.c.kind, seats.c.bot, seats.c.hints_used)
                .join(players, players.c.id == seats.c.player_id)
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.seat)
            )
        ]
        seat_rows = rows(
            c, table_seats, table_seats.c.table_id == table_id, table_seats.c.seat, ("table_id",)
        )
    return [table, game, logged, seated, seat_rows]


def test_the_table_start_function_decides_as_the_python_decision(store: Store) -> None:
    for index, (what, status, expected, rolled) in enumerate(start_cases()):
        answers, found = [], []
        # each first in turn: the players' names are new to the records for the first
        for by_python in (True, False) if index % 2 else (False, True):
            owner = uuid.uuid4().hex
            table = dataclasses.replace(a_table(owner), seats=LOBBY_SEATS)
            if status is not None:
                with store.engine.begin() as c:
                    assert records.create_in(c, dataclasses.replace(table, status=status))
            names = [f"{s.name or f'Open {s.seat}'} {index}" for s in expected]
            dice = SeatDice(DICE_SEED) if index % 3 == 0 else RandomDice(index)
            game = Game(names, RuleSet.official(), dice)
            if rolled:
                game.roll(Keep.NONE)
            game_id = str(uuid.uuid4())
            placed = [Seat(name, s.bot) for name, s in zip(names, expected, strict=True)]
            options: dict[str, Any] = {
                "game_id": game_id,
                "game": game,
                "seats": placed,
                "seed": index,
                "active_at": T0,
            }
            if by_python:
                with store.engine.begin() as c:
                    answer = answer_of(partial(records.start_in, c, table.id, expected, **options))
            else:  # PostgreSQL's call
                answer = answer_of(
                    partial(records.start_table, store, table.id, expected, **options)
                )
            names_of = {
                table.id: "the table",
                game_id: "the game",
                owner: "the owner",
                table.invite_token: "invite",
                table.spectator_token: "spectate",
            }
            answers.append(renamed(answer, names_of))
            found.append(renamed(started_rows(store, table.id, game_id), names_of))
        assert answers[0] == answers[1], what
        assert found[0] == found[1], what


def test_the_cases_reach_each_answer() -> None:
    """The cases are not all alike: the commits are saved, repeats and conflicts, and
    some games end; the quotas refuse and let through; the starts start and find the
    table changed or gone."""
    kinds = {(c.recorded == c.base, c.intent == EARLIER and c.earlier) for c in game_cases()}
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}
    assert any(c.reach == len(played()) for c in game_cases())
    assert {q.limit for _, q in create_cases() if q} == {0, 1, 2, 3}
    assert {status for _, status, _, _ in start_cases()} == {
        records.LOBBY,
        records.PLAYING,
        records.FINISHED,
        None,
    }
