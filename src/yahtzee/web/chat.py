"""The tables' chat as this node shows it: recorded first, then sent, and cached.

The records are the truth (`yahtzee.store.chat`): a line is committed before anyone is
shown it (written in a worker thread, off the event loop), then broadcast to the table's
connections here and relayed to the other nodes with its place in the table's chat
(``seq``). Each table's last `CHAT_KEPT` lines are cached in memory, read from the
records on first use (after a restart, or on a node that was not serving the table), so
that a connection does not cost a query.

A node takes a line (its own or another node's) when it is the next after its cache's
last; one further on means lines were missed (a relay lost, or not arrived yet): the
lines after the cache's last are read from the records and shown in order (the records
number lines in the order they were committed, so none is missing in between). A line
for a table not cached here is left to the records. When the news between nodes may have
been lost (Redis came back) the tables watched here catch up the same way, and the others
are forgotten (read again on first use).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Final

from ..core import clean_text
from ..service import Table
from ..store import Store
from ..store.chat import ChatLine, add_line, chat_of
from .messages import ChatMessage, Outbound
from .protocol import MAX_CHAT

log = logging.getLogger("yahtzee.web")

CHAT_KEPT: Final = 50
"""The chat lines a table's state carries (the last ones said)."""
TABLES_CACHED: Final = 4096
"""Tables whose chat is cached at most (the least recently used that nobody watches here
are forgotten first)."""


class TableChat:
    """One table's last lines as this node has them: loading from the records (lines heard
    meanwhile wait in ``pending``), then loaded."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self.loaded = asyncio.Event()
        self.pending: list[ChatLine] = []

    @property
    def last(self) -> int:
        """The place of the last line cached (0: none)."""
        return self.lines[-1].seq if self.lines else 0


class Chats:
    """Every table's chat on this node (see the module's notes)."""

    def __init__(
        self,
        store: Store,
        broadcast: Callable[[str, Outbound], None],
        publish: Callable[[dict[str, Any]], None],
        watched: Callable[[str], bool],
    ) -> None:
        self.store = store
        self.broadcast = broadcast
        self.publish = publish
        self.watched = watched
        self.tables_cached = TABLES_CACHED
        self._tables: OrderedDict[str, TableChat] = OrderedDict()
        self._work: set[asyncio.Task[None]] = set()

    async def ready(self, table_id: str) -> None:
        """The table's chat cached (read from the records unless it is): call before
        `shown`."""
        chat = self._tables.get(table_id)
        if chat is None:
            chat = self._tables[table_id] = TableChat()
            self._forget_unwatched()
            try:
                lines = await asyncio.to_thread(chat_of, self.store, table_id, limit=CHAT_KEPT)
            except BaseException:
                if self._tables.get(table_id) is chat:
                    del self._tables[table_id]
                chat.loaded.set()  # whoever waits reads again
                raise
            chat.lines.extend(lines)
            chat.loaded.set()
            pending, chat.pending = chat.pending, []
            for line in pending:
                self._take(table_id, chat, line)
            return
        self._tables.move_to_end(table_id)
        await chat.loaded.wait()
        if self._tables.get(table_id) is not chat:
            await self.ready(table_id)  # its reading failed, or it was forgotten meanwhile

    def shown(self, table_id: str) -> list[ChatMessage]:
        """The table's last lines as a state carries them (none before `ready`)."""
        chat = self._tables.get(table_id)
        return [] if chat is None else [_message(line) for line in chat.lines]

    async def say(self, table: Table, seat: int, text: str) -> None:
        """A player's line: recorded, then shown at the table on every node."""
        line = await asyncio.to_thread(
            add_line, self.store, table.id, seat, table.seats[seat].name, text
        )
        chat = self._tables.get(table.id)
        if chat is not None:
            self._take(table.id, chat, line)
        else:  # nobody watches here any more: only the records and the other nodes
            self.broadcast(table.id, _message(line))
        self.publish({"k": "chat", "t": table.id, "l": _relayed(line)})

    def heard(self, table: Table, message: dict[str, Any]) -> None:
        """Another node's line (as it recorded it), for the table's cache here."""
        chat = self._tables.get(table.id)
        line = _line(message.get("l"), len(table.seats))
        if chat is None or line is None:
            return  # not cached here: whoever connects reads it from the records
        if not chat.loaded.is_set():
            chat.pending.append(line)
        else:
            self._take(table.id, chat, line)

    def catch_up(self) -> None:
        """News between the nodes may have been lost: the tables watched here read what
        they missed from the records; the others are forgotten."""
        for table_id, chat in list(self._tables.items()):
            if not chat.loaded.is_set():
                continue
            if self.watched(table_id):
                self._spawn(self._fill(table_id, chat))
            else:
                del self._tables[table_id]

    def forget(self, table_id: str) -> None:
        """The table has ended here: its cache goes."""
        self._tables.pop(table_id, None)

    def close(self) -> None:
        for task in list(self._work):
            task.cancel()

    def _take(self, table_id: str, chat: TableChat, line: ChatLine) -> None:
        """Show a recorded line: the next one at once; one further on after those missed."""
        if line.seq <= chat.last:
            return  # shown already
        if line.seq == chat.last + 1:
            self._show(table_id, chat, line)
        else:
            self._spawn(self._fill(table_id, chat))

    async def _fill(self, table_id: str, chat: TableChat) -> None:
        """Show every line recorded after the cache's last, in order."""
        lines = await asyncio.to_thread(
            chat_of, self.store, table_id, after=chat.last, limit=CHAT_KEPT
        )
        for line in lines:
            if line.seq > chat.last:  # (a line may have come meanwhile)
                self._show(table_id, chat, line)

    def _show(self, table_id: str, chat: TableChat, line: ChatLine) -> None:
        chat.lines.append(line)
        if self._tables.get(table_id) is chat:
            self.broadcast(table_id, _message(line))

    def _forget_unwatched(self) -> None:
        """Past `tables_cached`: forget the least recently used that nobody watches."""
        over = len(self._tables) - self.tables_cached
        for table_id in list(self._tables):
            if over <= 0:
                return
            if self._tables[table_id].loaded.is_set() and not self.watched(table_id):
                del self._tables[table_id]
                over -= 1

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._work.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._work.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the chat could not be read", exc_info=task.exception())


def _message(line: ChatLine) -> ChatMessage:
    return ChatMessage(seat=line.seat, name=line.name, text=line.text)


def _relayed(line: ChatLine) -> dict[str, Any]:
    return {"q": line.seq, "s": line.seat, "n": line.name, "x": line.text, "a": line.at}


def _line(data: object, seats: int) -> ChatLine | None:
    """A relayed line, checked (None: not one)."""
    if not isinstance(data, dict):
        return None
    seq, seat, name, text, at = (data.get(k) for k in ("q", "s", "n", "x", "a"))
    if not (isinstance(seq, int) and isinstance(seat, int) and 0 <= seat < seats):
        return None
    if not isinstance(text, str) or not isinstance(at, int | float):
        return None
    shown = name if isinstance(name, str) else None
    return ChatLine(seq, seat, shown, clean_text(text, MAX_CHAT), float(at))


__all__ = ["CHAT_KEPT", "Chats"]
