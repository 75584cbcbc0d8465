"""A table's chat in the records (both backends): lines numbered in order, the oldest let
go past `LINES_KEPT` in the insert's transaction, lines written at once from several
threads numbered one after the other, and a table that ends unplayed losing its chat."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event, func, select

from tests.store.test_table_records import lobby_table
from yahtzee.store import Store, StoreError
from yahtzee.store import tables as records
from yahtzee.store.chat import LINES_KEPT, add_line, chat_of, chats_of
from yahtzee.store.schema import chat_lines

THREAD_WAIT_S = 60


def stored(store: Store, table_id: str) -> list[int]:
    """The places of the table's lines in the records, read directly."""
    with store.engine.connect() as c:
        query = select(chat_lines.c.seq).where(chat_lines.c.table_id == table_id)
        return sorted(int(s) for s in c.execute(query).scalars())


def test_lines_are_numbered_in_order_and_read_back_with_their_names(db_url: str) -> None:
    with Store(db_url) as store:
        table = lobby_table()
        records.create_table(store, table)
        first = add_line(store, table.id, 0, "Ann", "hi")
        second = add_line(store, table.id, 1, "Bob", "hello")
        assert (first.seq, second.seq) == (1, 2)
        lines = chat_of(store, table.id)
        assert [(x.seq, x.seat, x.name, x.text) for x in lines] == [
            (1, 0, "Ann", "hi"), (2, 1, "Bob", "hello"),
        ]  # fmt: skip
        assert lines == [first, second]  # the time too, as written
        assert chat_of(store, table.id, after=1) == [second]
        assert chat_of(store, table.id, limit=1) == [second]
        assert chat_of(store, "another table") == []


def test_many_tables_chats_are_read_in_one_statement_each_as_chat_of_reads_it(
    db_url: str,
) -> None:
    with Store(db_url) as store:
        made = [lobby_table() for _ in range(3)]
        for table in made:
            records.create_table(store, table)
        for n in range(5):
            add_line(store, made[0].id, 0, "Ann", f"a{n}")
            add_line(store, made[1].id, 1, "Bob", f"b{n}")
        asked = [t.id for t in made] + ["no such table"]
        sent: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
        found = chats_of(store, asked, limit=3)
        assert len([s for s in sent if s.lstrip().upper().startswith("SELECT")]) == 1
        assert found == {t: chat_of(store, t, limit=3) for t in asked}
        assert [x.text for x in found[made[0].id]] == ["a2", "a3", "a4"]  # oldest first
        assert found[made[2].id] == found["no such table"] == []
        # (the statement is made once: other ids and limits are its parameters)
        assert [x.text for x in chats_of(store, [made[1].id], limit=5)[made[1].id]] == [
            f"b{n}" for n in range(5)
        ]
        assert chats_of(store, []) == {}


def test_a_table_keeps_only_its_last_lines(db_url: str) -> None:
    with Store(db_url) as store:
        table, other = lobby_table(), lobby_table()
        records.create_table(store, table)
        records.create_table(store, other)
        add_line(store, other.id, 0, "Ann", "elsewhere")
        for n in range(LINES_KEPT + 15):
            add_line(store, table.id, 0, "Ann", f"line {n}")
        assert stored(store, table.id) == list(range(16, LINES_KEPT + 16))
        lines = chat_of(store, table.id)
        assert [x.text for x in lines] == [f"line {n}" for n in range(15, LINES_KEPT + 15)]
        assert stored(store, other.id) == [1]  # another table's chat is its own


def test_lines_written_at_once_are_numbered_one_after_the_other(db_url: str) -> None:
    with Store(db_url) as store:
        table = lobby_table()
        records.create_table(store, table)
        failures: list[BaseException] = []

        def say(seat: int) -> None:
            try:
                for n in range(10):
                    add_line(store, table.id, seat, f"P{seat}", f"{seat}-{n}")
            except BaseException as error:
                failures.append(error)

        threads = [threading.Thread(target=say, args=(seat,)) for seat in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(THREAD_WAIT_S)
        assert not any(t.is_alive() for t in threads) and not failures, failures
        lines = chat_of(store, table.id)
        assert [x.seq for x in lines] == list(range(1, 41))
        for seat in range(4):  # each writer's lines in the order it wrote them
            mine = [x.text for x in lines if x.seat == seat]
            assert mine == [f"{seat}-{n}" for n in range(10)]


def test_a_line_for_a_table_not_in_the_records_is_an_error(db_url: str) -> None:
    with Store(db_url) as store, pytest.raises(StoreError):
        add_line(store, "no such table", 0, "Ann", "hi")


@pytest.mark.parametrize("status", [records.CANCELLED, records.EXPIRED])
def test_a_table_that_ends_unplayed_loses_its_chat(db_url: str, status: str) -> None:
    with Store(db_url) as store:
        gone, kept = lobby_table(), lobby_table()
        for table in (gone, kept):
            records.create_table(store, table)
            add_line(store, table.id, 0, "Ann", "hi")
        assert records.set_table_status(store, gone.id, status, None)
        assert records.set_table_status(store, kept.id, records.FINISHED, None)
        assert chat_of(store, gone.id) == []
        assert [x.text for x in chat_of(store, kept.id)] == ["hi"]
        with store.engine.connect() as c:
            count = select(func.count()).select_from(chat_lines)
            assert c.execute(count).scalar_one() == 1
