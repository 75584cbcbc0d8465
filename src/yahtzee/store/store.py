"""The game records: one store for the terminal game, the server and the command line."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, String, any_, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..core import BotSpec, CommittedDice, DiceSource, Game, InvalidInput
from ..core.events import event_to_dict
from ..core.language import _
from . import migrate
from .commit import Commit, Outcome, StoreError, commit_many
from .engine import make_engine, on_postgres, reading, retrying
from .pg_commit import LoopCommit
from .records import card_rows
from .resume import Resumable, parse_selection, read_resumables
from .schema import cards, events, games, players, seats
from .values import ACTIVE, ENTERED, FINISHED, ROLLED, GameSummary, Seat

MIN_ID_PREFIX = 4
"""How many characters of a game's id name it on the command line."""


def now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Game records on SQLite (default) or PostgreSQL, migrated to the current schema."""

    def __init__(self, url: str | None = None, *, read_only: bool = False) -> None:
        """Open the records at ``url`` (the default database when ``None``), migrating
        them to this version's schema; ``read_only``: for reading only (a SQLite file on
        a read-only file system), not migrated: they must be of this version already."""
        self.engine = make_engine(url, read_only=read_only)
        if read_only:
            migrate.check_current(self.engine)
        else:
            migrate.upgrade(self.engine)
        postgres = on_postgres(self.engine)
        # without asyncpg (an install of psycopg alone), the group commit's thread saves
        self._on_loop = LoopCommit(self.engine) if postgres and LoopCommit.usable() else None

    def close(self) -> None:
        """Close the store's connections."""
        if self._on_loop is not None:
            self._on_loop.close()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Writing -------------------------------------------------------------------------

    def start(
        self,
        game: Game,
        seats_: Sequence[Seat] | None = None,
        *,
        seed: str | int | None = None,
        game_id: str | None = None,
        sitting: str | None = None,
    ) -> str:
        """Record a new game (its events so far included); returns its id. ``sitting``: the
        sitting it continues (a game of its own sitting by default)."""
        chosen = list(seats_) if seats_ is not None else [Seat(name) for name in game.players]
        if [s.name for s in chosen] != list(game.players):
            raise InvalidInput(_("The seats must name the game's players in seat order."))
        new_id = game_id or str(uuid.uuid4())

        def work() -> str:
            with self.engine.begin() as connection:
                record_game(connection, new_id, game, chosen, seed=seed, sitting=sitting)
            return new_id

        return retrying(work)

    def save(self, game_id: str, game: Game) -> int:
        """Append the game's events not yet recorded, in one transaction; when the game is
        over, its cards too. Returns how many events were written."""

        def work() -> int:
            with self.engine.begin() as connection:
                row = connection.execute(
                    select(games.c.event_count, games.c.status)
                    .where(games.c.id == game_id)
                    .with_for_update()
                ).first()
                if row is None:
                    raise StoreError(_("No game {game_id} in the records.").format(game_id=game_id))
                return append_events(connection, game_id, game, row.event_count)

        return retrying(work)

    def save_many(self, commits: Sequence[Commit]) -> dict[str, Outcome]:
        """Save several games in one transaction (a group commit: one lock, one sync),
        each only if the records still end where its new events began
        (`Commit.base`): a compare-and-set, so that of two writers (two server nodes)
        that extended one game from the same point only the first is written. Returns the
        outcome per game; a game that is not written changes nothing. A server on
        PostgreSQL saves from its event loop instead (`save_many_on_loop`: the same
        decision, in one round trip)."""

        def work() -> dict[str, Outcome]:
            with self.engine.begin() as connection:
                return commit_many(connection, commits, now())

        return retrying(work)

    @property
    def saves_on_loop(self) -> bool:
        """Whether `save_many_on_loop` runs on the event loop itself (PostgreSQL's async
        driver); else it is `save_many`, to be run in a thread."""
        return self._on_loop is not None

    async def save_many_on_loop(self, commits: Sequence[Commit]) -> dict[str, Outcome]:
        """`save_many` driven by the running event loop, without a thread (PostgreSQL;
        see `saves_on_loop`)."""
        if self._on_loop is None:
            raise StoreError(_("Only PostgreSQL records are written from the event loop."))
        return await self._on_loop.save(commits, now())

    def events_since(self, game_id: str, seq: int) -> tuple[list[dict[str, Any]], datetime | None]:
        """The events after the first ``seq`` (to catch up), and when the last one was
        recorded (None without any)."""
        with reading(self.engine) as connection:
            rows = connection.execute(
                select(events.c.data, events.c.created_at)
                .where(events.c.game_id == game_id, events.c.seq >= seq)
                .order_by(events.c.seq)
            ).all()
        found = [json.loads(r.data) for r in rows]
        return found, (utc(rows[-1].created_at) if rows else None)

    def intent_seq(self, game_id: str, intent: str) -> int | None:
        """The sequence number of the move an intent made (None if none did)."""
        with reading(self.engine) as connection:
            found = connection.execute(
                select(events.c.seq).where(events.c.game_id == game_id, events.c.intent == intent)
            ).scalar()
        return None if found is None else int(found) + 1

    def event_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """How many events each of these games has recorded (one query)."""
        if not ids:
            return {}
        with reading(self.engine) as connection:
            if connection.dialect.name == "postgresql":  # one array: the same statement always
                among = games.c.id == any_(bindparam("ids", list(ids), postgresql.ARRAY(String)))
            else:
                among = games.c.id.in_(list(ids))
            rows = connection.execute(select(games.c.id, games.c.event_count).where(among)).all()
        return {r.id: int(r.event_count) for r in rows}

    def mark_hints_used(self, game_id: str, seat: int) -> None:
        """Record that the player at ``seat`` asked the advisor during the game."""

        def work() -> None:
            with self.engine.begin() as connection:
                connection.execute(
                    update(games).where(games.c.id == game_id).values(hints_used=True)
                )
                connection.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(hints_used=True)
                )

        retrying(work)

    def save_selection(self, game_id: str, seq: int, held: Sequence[bool]) -> None:
        """Record which dice the player to act has selected to keep (one flag per die, in
        the order the dice show), for the game as it stands after ``seq`` events."""
        text = f"{seq}:{''.join('1' if h else '0' for h in held)}"

        def work() -> None:
            with self.engine.begin() as connection:
                connection.execute(
                    update(games).where(games.c.id == game_id).values(selection=text)
                )

        retrying(work)

    def selection_of(self, game_id: str) -> tuple[int, tuple[bool, ...]] | None:
        """The last selection saved: the event count it belongs to and the flags."""
        with reading(self.engine) as connection:
            return _selection(connection, game_id)

    def resumable(self, game_id: str, dice: DiceSource | None = None) -> Resumable:
        """What resuming a game reads (`load`, `seats_of`, `hinted_seats`,
        `selection_of`), on one connection. A game of committed dice goes on with its own
        seed's dice, drawn as its start event says, whatever ``dice`` says (its rolls stay
        checkable)."""
        found = self.resumables([game_id], lambda: dice)
        if game_id not in found:
            raise InvalidInput(
                _("No game with id {game_id!r} in the records.").format(game_id=game_id)
            )
        return found[game_id]

    def resumables(
        self, game_ids: Sequence[str], dice: Callable[[], DiceSource | None]
    ) -> dict[str, Resumable]:
        """`resumable` for many games at once (those found, by id), in three statements
        whatever their number (a crowd of tables taken over from a dead node at once);
        ``dice`` makes each game's dice source. At most `MANY_AT_ONCE` ids."""
        return read_resumables(self.engine, game_ids, dice)

    def set_review(self, game_id: str, seat: int, decisions: int, loss: float) -> None:
        """Record the advisor's verdict on a finished game's seat."""

        def work() -> None:
            with self.engine.begin() as connection:
                connection.execute(
                    update(cards)
                    .where(cards.c.game_id == game_id, cards.c.seat == seat)
                    .values(decisions=decisions, advisor_loss=loss)
                )

        retrying(work)

    # Reading -------------------------------------------------------------------------

    def resolve(self, game_id: str) -> str:
        """The full id of a game from its id or a unique prefix of it."""
        prefix = game_id.strip().lower()
        if len(prefix) < MIN_ID_PREFIX or not all(c in "0123456789abcdef-" for c in prefix):
            raise InvalidInput(
                _("{game_id!r} is not a game id (at least {least} of its characters).").format(
                    game_id=game_id, least=MIN_ID_PREFIX
                )
            )
        with reading(self.engine) as connection:
            found = connection.execute(
                select(games.c.id).where(games.c.id.startswith(prefix)).limit(2)
            ).all()
        if not found:
            raise InvalidInput(
                _("No game with id {game_id!r} in the records.").format(game_id=game_id)
            )
        if len(found) > 1:
            raise InvalidInput(
                _("More than one game id starts with {game_id!r}; give more of it.").format(
                    game_id=game_id
                )
            )
        return str(found[0][0])

    def event_log(self, game_id: str) -> list[dict[str, Any]]:
        """One game's events, in order, as ``Game.replay`` takes them."""
        with reading(self.engine) as connection:
            return _event_log(connection, game_id)

    def load(self, game_id: str, dice: DiceSource | None = None) -> Game:
        """The game rebuilt from its event log (it resumes exactly where it stopped)."""
        log = self.event_log(game_id)
        if not log:
            raise InvalidInput(
                _("No game with id {game_id!r} in the records.").format(game_id=game_id)
            )
        return Game.replay(log, dice)

    def summary(self, game_id: str) -> GameSummary:
        """One game's summary (``InvalidInput`` when there is no such game)."""
        found = self.summaries([game_id])
        if not found:
            raise InvalidInput(
                _("No game with id {game_id!r} in the records.").format(game_id=game_id)
            )
        return found[0]

    def seats_of(self, game_id: str) -> list[Seat]:
        """One game's seats, in order."""
        with reading(self.engine) as connection:
            return _seats_of(connection, game_id)

    def hinted_seats(self, game_id: str) -> frozenset[int]:
        """The seats whose players asked the advisor during the game."""
        with reading(self.engine) as connection:
            return _hinted(connection, game_id)

    def summaries(self, ids: Sequence[str]) -> list[GameSummary]:
        """Summaries of the given games, in the given order."""
        if not ids:
            return []
        with reading(self.engine) as connection:
            rows = {r.id: r for r in connection.execute(select(games).where(games.c.id.in_(ids)))}
            seat_rows = connection.execute(
                select(seats.c.game_id, seats.c.seat, players.c.name)
                .join(players, players.c.id == seats.c.player_id)
                .where(seats.c.game_id.in_(ids))
                .order_by(seats.c.game_id, seats.c.seat)
            ).all()
            card_rows_ = connection.execute(
                select(cards.c.game_id, cards.c.seat, cards.c.total, cards.c.winner).where(
                    cards.c.game_id.in_(ids)
                )
            ).all()
        names: dict[str, list[str]] = {}
        for game_id, _seat, name in seat_rows:
            names.setdefault(game_id, []).append(name)
        totals: dict[str, dict[int, tuple[int, bool]]] = {}
        for game_id, seat, total, winner in card_rows_:
            totals.setdefault(game_id, {})[seat] = (total, winner)
        result = []
        for game_id in ids:
            row = rows.get(game_id)
            if row is None:
                continue
            seated = names.get(game_id, [])
            scored = totals.get(game_id, {})
            result.append(
                GameSummary(
                    row.id, row.rules, row.status, utc(row.created_at), utc(row.updated_at),
                    utc(row.finished_at) if row.finished_at else None, row.seed,
                    bool(row.hints_used), row.event_count, tuple(seated),
                    tuple(scored[s][0] if s in scored else None for s in range(len(seated))),
                    tuple(seated[s] for s in range(len(seated)) if s in scored and scored[s][1]),
                    row.sitting, row.dice, bool(row.offline), row.edition,
                )
            )  # fmt: skip
        return result

    def count_events(self, game_id: str | None = None) -> int:
        """How many events are recorded (of one game, or of all)."""
        with reading(self.engine) as connection:
            query = select(func.count()).select_from(events)
            if game_id is not None:
                query = query.where(events.c.game_id == game_id)
            return int(connection.execute(query).scalar_one())


def player_id(connection: Connection, name: str) -> int:
    """The player's id, the player recorded first if new."""
    return player_ids(connection, [name])[name]


def player_ids(connection: Connection, names: Sequence[str]) -> dict[str, int]:
    """The players' ids by name, each recorded first if new, in one query when none is
    new. Two games with a new name may start at once (on two server nodes): the insert
    gives way to the other's."""
    wanted = set(names)
    query = select(players.c.name, players.c.id).where(players.c.name.in_(sorted(wanted)))
    found = {str(n): int(i) for n, i in connection.execute(query)}
    new = sorted(wanted - found.keys())
    if new:
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        stamp = now()
        connection.execute(
            dialect.insert(players).on_conflict_do_nothing(),
            [{"name": n, "created_at": stamp} for n in new],
        )
        found.update((str(n), int(i)) for n, i in connection.execute(query))
    return found


def record_game(
    connection: Connection,
    game_id: str,
    game: Game,
    seats_: Sequence[Seat],
    *,
    seed: str | int | None = None,
    sitting: str | None = None,
) -> None:
    """Record a new game, its seats and its events so far, in the caller's transaction;
    ``sitting``: the sitting it continues (its own by default)."""
    stamp = now()
    connection.execute(
        insert(games).values(
            id=game_id, rules=game.rules.name, edition=game.rules.edition.name,
            seed=None if seed is None else str(seed),
            status=ACTIVE, created_at=stamp, updated_at=stamp, finished_at=None,
            event_count=0, hints_used=False, sitting=sitting or game_id,
            dice=ENTERED if game.entered else ROLLED, dice_seed=dice_seed_of(game),
        )
    )  # fmt: skip
    ids = player_ids(connection, [seat.name for seat in seats_])
    connection.execute(
        insert(seats),
        [
            {"game_id": game_id, "seat": index, "player_id": ids[seat.name], "kind": seat.kind,
             "bot": seat.bot.key if seat.bot else None}
            for index, seat in enumerate(seats_)
        ],
    )  # fmt: skip
    if game.event_log or game.is_over:
        append_events(connection, game_id, game, 0)


def dice_seed_of(game: Game) -> str | None:
    """The secret seed of a game's committed dice to record (None for other dice)."""
    source = game.dice_source
    return source.seed if isinstance(source, CommittedDice) and not game.entered else None


def append_events(
    connection: Connection, game_id: str, game: Game, stored: int, intent: str | None = None
) -> int:
    """Write events ``stored`` onwards (the last marked with ``intent``: its sequence
    number is the move's, as acknowledged); finish the game's row when it is over."""
    log = game.event_log
    if stored > len(log):
        raise StoreError(
            _("The records of game {game_id} are ahead of this game; reload it.").format(
                game_id=game_id
            )
        )
    fresh = [event_to_dict(e) for e in log[stored:]]  # only the new ones: logs grow long
    stamp = now()
    if fresh:
        connection.execute(
            insert(events),
            [
                {"game_id": game_id, "seq": stored + i, "type": e["type"],
                 "data": json.dumps(e, separators=(",", ":")), "created_at": stamp,
                 "intent": intent if i == len(fresh) - 1 else None}
                for i, e in enumerate(fresh)
            ],
        )  # fmt: skip
    values: dict[str, Any] = {"event_count": len(log), "updated_at": stamp}
    if game.is_over:
        values.update(status=FINISHED, finished_at=stamp)
        if fresh:
            connection.execute(insert(cards), card_rows(game_id, game))
    connection.execute(update(games).where(games.c.id == game_id).values(**values))
    return len(fresh)


def utc(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def _event_log(connection: Connection, game_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        select(events.c.data).where(events.c.game_id == game_id).order_by(events.c.seq)
    ).all()
    return [json.loads(data) for (data,) in rows]


def _seats_of(connection: Connection, game_id: str) -> list[Seat]:
    rows = connection.execute(
        select(players.c.name, seats.c.bot)
        .join(players, players.c.id == seats.c.player_id)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    ).all()
    return [Seat(name, BotSpec.parse(bot) if bot else None) for name, bot in rows]


def _hinted(connection: Connection, game_id: str) -> frozenset[int]:
    rows = connection.execute(
        select(seats.c.seat).where(seats.c.game_id == game_id, seats.c.hints_used)
    ).all()
    return frozenset(int(seat) for (seat,) in rows)


def _selection(connection: Connection, game_id: str) -> tuple[int, tuple[bool, ...]] | None:
    text = connection.execute(select(games.c.selection).where(games.c.id == game_id)).scalar()
    return parse_selection(text)
