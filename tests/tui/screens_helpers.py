"""For the tests of the records, setup, help and game-over screens: recorded games with
fixed ids, dice and times (screens that show ids and dates draw the same every run), an
app run headless, and the text a widget shows."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update
from textual.pilot import Pilot

from yahtzee.core import Game, Keep, RandomDice
from yahtzee.store import Seat, Store
from yahtzee.store.schema import games
from yahtzee.tui import YahtzeeApp

FINISHED_ID = "f1a2b3c4-0000-4000-8000-000000000001"
UNFINISHED_ID = "0d0e0f10-0000-4000-8000-000000000002"
OLDER_UNFINISHED_ID = "0a0b0c0d-0000-4000-8000-000000000003"


def play_turn(game: Game) -> None:
    """Roll, keep the most common face twice, score the box worth most (a plain player)."""
    game.roll()
    for _ in range(2):
        dice = game.dice
        assert dice is not None
        face, count = Counter(dice.faces).most_common(1)[0]
        game.roll(Keep((face,) * count))
    best = max(game.placements(), key=lambda p: (p.points, -int(p.category)))
    game.score(best.category)


def record(
    store: Store,
    game_id: str,
    seats: list[Seat],
    *,
    seed: int,
    turns: int | None = None,
    when: datetime,
    then_roll: bool = False,
) -> Game:
    """A game of ``seats`` played ``turns`` turns (to the end when ``None``) and, with
    ``then_roll``, the next turn's first roll; recorded under ``game_id`` as started and
    last played at ``when``."""
    game = Game([s.name for s in seats], "official", RandomDice(seed))
    store.start(game, seats, seed=seed, game_id=game_id)
    played = 0
    while not game.is_over and (turns is None or played < turns):
        play_turn(game)
        played += 1
    if then_roll:
        game.roll()
    store.save(game_id, game)
    with store.engine.begin() as connection:
        stamps = {"created_at": when, "updated_at": when}
        if game.is_over:
            stamps["finished_at"] = when
        connection.execute(update(games).where(games.c.id == game_id).values(**stamps))
    return game


def finished_solo(store: Store) -> Game:
    return record(
        store, FINISHED_ID, [Seat("You")], seed=5, when=datetime(2026, 11, 2, 20, 15, tzinfo=UTC)
    )


def unfinished_pair(store: Store) -> Game:
    """Two humans, four rounds played and the fifth begun (one roll)."""
    return record(
        store,
        UNFINISHED_ID,
        [Seat("You"), Seat("Alexandra")],
        seed=6,
        turns=8,
        when=datetime(2026, 11, 5, 14, 32, tzinfo=UTC),
        then_roll=True,
    )


def older_unfinished(store: Store) -> Game:
    return record(
        store,
        OLDER_UNFINISHED_ID,
        [Seat("You")],
        seed=7,
        turns=2,
        when=datetime(2026, 10, 30, 9, 5, tzinfo=UTC),
    )


def all_kinds(store: Store) -> None:
    """A finished solo game, an older unfinished solo game and the latest unfinished
    game, of two players."""
    finished_solo(store)
    older_unfinished(store)
    unfinished_pair(store)


def screen_text(app: YahtzeeApp, selector: str = "Screen") -> str:
    """What a widget of the top screen shows on the screen, as text: wrapped lines joined
    with a space, every run of spaces one space."""
    region = app.screen.query_one(selector).content_region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    text = " ".join(strip.crop(region.x, region.right).text for strip in strips)
    return " ".join(text.split())


def screen_lines(app: YahtzeeApp, selector: str) -> list[str]:
    """The lines a widget of the top screen takes on the screen (its border included),
    as they show, right-hand spaces left out."""
    region = app.screen.query_one(selector).region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return [strip.crop(region.x, region.right).text.rstrip() for strip in strips]


Steps = Callable[[Pilot[None], YahtzeeApp], Awaitable[None]]


def run_app(
    steps: Steps, store: Store | None = None, size: tuple[int, int] = (80, 24), **options: Any
) -> YahtzeeApp:
    """Run the game headless at ``size`` and take ``steps``; no resume offer unless
    ``offer_resume=True``."""
    options.setdefault("offer_resume", False)
    options.setdefault("bot_pause", 0)
    app = YahtzeeApp(store, **options)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await steps(pilot, app)

    asyncio.run(go())
    return app
