"""A commit whose caller went while the batch was being saved (its wait cancelled: a closed
connection, a node stopping) does not break the group commit: the batch's other games are
answered, and the next batch still runs."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from yahtzee.service.group_commit import GroupCommit

WAIT_S = 10.0


def test_a_cancelled_caller_leaves_the_others_answered() -> None:
    async def test() -> None:
        committer = GroupCommit.__new__(GroupCommit)
        committer._pending, committer._task = [], None  # (no store: _save is the test's)
        release = asyncio.Event()

        async def save(commits: list[Any]) -> dict[str, str]:
            await release.wait()
            return {c.game_id: f"saved {c.game_id}" for c in commits}

        committer._save = save  # type: ignore[method-assign]

        def session(game_id: str) -> Any:
            return SimpleNamespace(game_id=game_id, game=None)

        gone = asyncio.create_task(committer.commit(session("a"), 0))
        kept = asyncio.create_task(committer.commit(session("b"), 0))
        await asyncio.sleep(0)  # both in the batch being saved
        gone.cancel()
        release.set()
        async with asyncio.timeout(WAIT_S):
            assert await kept == "saved b"
            assert await committer.commit(session("c"), 0) == "saved c"  # the next batch

    asyncio.run(test())
