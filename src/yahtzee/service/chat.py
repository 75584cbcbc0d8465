"""The tables' chat as this node shows it: recorded first, then told, and cached.

The records are the truth (`yahtzee.store.chat`): a line is committed before anyone is
shown it (written in a worker thread, off the event loop), then told to the table's
listeners (`Said`). Only the node that owns a table serves its connections, so every line of a
table served here is said here. Each table's last `CHAT_KEPT` lines are cached in
memory, read from the records on first use (after a restart, or when the table came
here from another node), so that a connection does not cost a query.

The lines are shown in the order they were recorded: a line is taken when it is the next
after the cache's last; one further on (two lines written at once, whose writers came
back in the other order) means the lines after the cache's last are read from the records
and shown in order (the records number lines in the order they were committed, so none is
missing in between). A line said while the table's chat is still being read from the
records waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Final

from ..store import Store
from ..store.chat import ChatLine, add_line, chat_of, chats_of
from .batcher import Batcher
from .room_events import Said

log = logging.getLogger(__name__)

MAX_CHAT: Final = 200
"""The longest chat line, in characters."""
CHAT_KEPT: Final = 50
"""The chat lines a table's state carries (the last ones said)."""
CHATS_AT_ONCE: Final = 64
"""Tables whose chats are read from the records together at most (the pages of a dead
node's tables, reconnecting here at once, cost a few statements, not one each)."""
TABLES_CACHED: Final = 4096
"""Tables whose chat is cached at most (the least recently used that nobody watches here
are forgotten first)."""


class TableChat:
    """One table's last lines as this node has them: loading from the records (lines said
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
        broadcast: Callable[[str, Said], None],
        watched: Callable[[str], bool],
    ) -> None:
        self.store = store
        self.broadcast = broadcast
        self.watched = watched
        self.tables_cached = TABLES_CACHED
        self._tables: OrderedDict[str, TableChat] = OrderedDict()
        self._work: set[asyncio.Task[None]] = set()
        self._reads: Batcher[str, list[ChatLine]] = Batcher(self._read, CHATS_AT_ONCE)

    def _read(self, table_ids: list[str]) -> dict[str, list[ChatLine]]:
        """(In a worker thread.)"""
        return chats_of(self.store, table_ids, limit=CHAT_KEPT)

    async def ready(self, table_id: str) -> None:
        """The table's chat cached (read from the records unless it is): call before
        `shown`."""
        chat = self._tables.get(table_id)
        if chat is None:
            chat = self._tables[table_id] = TableChat()
            self._forget_unwatched()
            try:
                lines = await self._reads.ask(table_id)
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

    def shown(self, table_id: str) -> tuple[ChatLine, ...]:
        """The table's last lines as a state carries them (none before `ready`)."""
        chat = self._tables.get(table_id)
        return () if chat is None else tuple(chat.lines)

    async def say(self, table_id: str, seat: int, name: str | None, text: str) -> None:
        """A player's line: recorded, then shown at the table."""
        line = await asyncio.to_thread(add_line, self.store, table_id, seat, name, text)
        chat = self._tables.get(table_id)
        if chat is None:  # nobody watches here any more: only the records keep it
            self.broadcast(table_id, _said(line))
        elif not chat.loaded.is_set():
            chat.pending.append(line)
        else:
            self._take(table_id, chat, line)

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
            self.broadcast(table_id, _said(line))

    def _forget_unwatched(self) -> None:
        """Past `tables_cached`: forget the least recently used that nobody watches."""
        over = len(self._tables) - self.tables_cached
        # from the least recently used; one still watched (or being read) goes to the other
        # end, so that no later call looks at it again before every other one
        for _ in range(len(self._tables) if over > 0 else 0):
            table_id, chat = next(iter(self._tables.items()))
            if chat.loaded.is_set() and not self.watched(table_id):
                del self._tables[table_id]
                over -= 1
                if over <= 0:
                    return
            else:
                self._tables.move_to_end(table_id)

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._work.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._work.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the chat could not be read", exc_info=task.exception())


def _said(line: ChatLine) -> Said:
    return Said(line.seat, line.name, line.text)


__all__ = ["CHAT_KEPT", "MAX_CHAT", "Chats"]
