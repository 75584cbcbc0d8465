"""A table's chat in the records: the lines its players said, kept with the table so that
a restarted server, or another server node, shows them again.

Each line has its place in the table's chat (``seq``: 1, 2, ...), given in the transaction
that writes it while the table's row is locked, so that lines written through two nodes
at once are numbered one after the other and committed in that order: whoever reads the
lines after ``seq`` N finds every line up to the last one, none missing in between.

Bounded: a table keeps its last `LINES_KEPT` lines; the insert that goes past them
deletes the oldest in the same transaction (one indexed delete: the chat never needs a
sweep, and never holds more, whatever is read or when). A table that ends unplayed
(cancelled or expired) loses its chat with it (`forget_chat`, in the transaction that
ends it); a finished table keeps its chat with its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select

from ..core.language import _
from .commit import StoreError
from .engine import reading, retrying
from .schema import chat_lines, tables
from .store import Store, now, utc

LINES_KEPT = 200
"""The chat lines a table keeps in the records (the oldest go as new ones come)."""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a table's chat as recorded."""

    seq: int
    """Its place in the table's chat (1 for the first line ever said there)."""
    seat: int
    name: str | None
    """The seat's name as shown when the line was said."""
    text: str
    at: float
    """When it was said (Unix time, seconds)."""


def add_line(store: Store, table_id: str, seat: int, name: str | None, text: str) -> ChatLine:
    """Record a line of the table's chat, after its last one, and let the oldest go past
    `LINES_KEPT` (one transaction). Returns the line as recorded."""

    def work() -> ChatLine:
        with store.engine.begin() as c:
            locked = select(tables.c.id).where(tables.c.id == table_id).with_for_update()
            if c.execute(locked).first() is None:
                raise StoreError(_("No table {table_id} in the records.").format(table_id=table_id))
            last = c.execute(
                select(func.max(chat_lines.c.seq)).where(chat_lines.c.table_id == table_id)
            ).scalar()
            stamp = now()
            line = ChatLine(int(last or 0) + 1, seat, name, text, stamp.timestamp())
            c.execute(
                insert(chat_lines).values(
                    table_id=table_id, seq=line.seq, seat=seat, name=name, text=text,
                    created_at=stamp,
                )
            )  # fmt: skip
            c.execute(
                delete(chat_lines).where(
                    chat_lines.c.table_id == table_id, chat_lines.c.seq <= line.seq - LINES_KEPT
                )
            )
            return line

    return retrying(work)


def chat_of(
    store: Store, table_id: str, *, after: int = 0, limit: int = LINES_KEPT
) -> list[ChatLine]:
    """The table's last ``limit`` lines said after line ``after`` (0: all), oldest first."""
    query = (
        select(chat_lines)
        .where(chat_lines.c.table_id == table_id, chat_lines.c.seq > after)
        .order_by(chat_lines.c.seq.desc())
        .limit(limit)
    )
    with reading(store.engine) as c:
        rows = c.execute(query).all()
    return [_line(r) for r in reversed(rows)]


def chats_of(
    store: Store, table_ids: Sequence[str], *, limit: int = LINES_KEPT
) -> dict[str, list[ChatLine]]:
    """Each table's last ``limit`` lines, oldest first (none: an empty list), in one
    statement however many tables are asked for (a crowd of pages reconnecting)."""
    found: dict[str, list[ChatLine]] = {table_id: [] for table_id in table_ids}
    with reading(store.engine) as c:
        for r in c.execute(_CHATS_OF, {"table_ids": list(table_ids), "limit": limit}):
            found[r.table_id].append(_line(r))
    return found


_RANKED = (
    select(
        chat_lines,
        func.row_number()
        .over(partition_by=chat_lines.c.table_id, order_by=chat_lines.c.seq.desc())
        .label("back"),
    )
    .where(chat_lines.c.table_id.in_(bindparam("table_ids", expanding=True)))
    .subquery()
)
_CHATS_OF = select(_RANKED).where(_RANKED.c.back <= bindparam("limit")).order_by(_RANKED.c.seq)
"""`chats_of`'s statement, made once: a window over a subquery took 0.4 ms to build,
every time a table was loaded (its compiled form is cached either way)."""


def _line(r: Any) -> ChatLine:
    return ChatLine(r.seq, r.seat, r.name, r.text, utc(r.created_at).timestamp())


def forget_chat(c: Connection, table_id: str) -> None:
    """Delete a table's chat, in the caller's transaction (a table that ended unplayed)."""
    c.execute(delete(chat_lines).where(chat_lines.c.table_id == table_id))


__all__ = ["LINES_KEPT", "ChatLine", "add_line", "chat_of", "chats_of", "forget_chat"]
