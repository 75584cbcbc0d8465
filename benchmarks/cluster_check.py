"""The cluster benchmark's loss check (see benchmarks/cluster.py): what each client saw
and was acknowledged, against the records the nodes wrote."""

from __future__ import annotations

from collections import Counter

from cluster_clients import Record


def check(url: str, records: list[Record]) -> tuple[int, int, Counter[str], Counter[str]]:
    """Games, events, problems (every event a client saw is the one recorded at its seq,
    every acked intent is recorded once at or before its ack's seq, no seq was seen with
    two events, each log replays) and refusals of intents the records hold."""
    from sqlalchemy import select

    from yahtzee.core import Game
    from yahtzee.store import Store
    from yahtzee.store import tables as table_records
    from yahtzee.store.schema import events

    problems: Counter[str] = Counter()
    odd: Counter[str] = Counter()
    games = count = 0
    with Store(url) as store:
        with store.engine.connect() as connection:
            query = select(events.c.game_id, events.c.intent, events.c.seq)
            marks = {(g, i): s for g, i, s in connection.execute(query) if i is not None}
        for record in records:
            problems["seq seen with two events"] += record.conflicts
            row = table_records.load_table(store, record.table)
            if row is None or not row.game_id:
                problems["table or game missing"] += bool(record.seen or record.acked)
                continue
            log = store.event_log(row.game_id)
            games, count = games + 1, count + len(log)
            try:
                Game.replay(log)
            except Exception:
                problems["log does not replay"] += 1
            for seq, event in record.seen.items():
                problems["seen event not recorded"] += seq > len(log) or log[seq - 1] != event
            for intent, seq in record.acked.items():
                problems["acked seq not recorded"] += seq > len(log)
                mark = marks.get((row.game_id, f"0:{intent}"))
                problems["acked intent not recorded"] += mark is None or mark > seq
            for intent, code, resent in record.refused:  # should have been acked again
                if (row.game_id, f"0:{intent}") in marks:
                    odd[f"{code} to a recorded intent{' resent' * resent}"] += 1
    return games, count, +problems, odd
