"""One seeded game, played through plain mode, the terminal game and the web server,
leaves identical event logs, identical stored records and identical statistics.

The script: Ann (a human) against a level-3 bot, seed 2026. On each of her turns Ann
rolls, keeps the most common face (the higher one on a tie) and rolls once more, then
fills the box that scores the most (the first such box). In round 1 she asks for a hint
after her first roll. The three front ends drive the same game service, so the bot's
moves, the saving, the hint bookkeeping and the review must come out the same.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from textual.widgets import Input

from tests.cli_helpers import run_cli
from tests.live_server import client, running
from tests.tui.helpers import screen_name, settle, start_game
from tests.web.helpers import receive_json
from yahtzee import BotSpec, Category, Dice, Keep, RuleSet
from yahtzee.service import GameSession
from yahtzee.solver import use_compiled_kernels
from yahtzee.store import Seat, Store, stats, unfinished
from yahtzee.tui import YahtzeeApp

SEED = 2026
HINT_ROUND = 1


def keep_for(dice: Dice) -> Keep:
    counts = Counter(dice.faces)
    face = max(counts, key=lambda f: (counts[f], f))
    return Keep((face,) * counts[face])


def box_for(options: dict[Category, int]) -> Category:
    """The legal box that scores the most (points with bonuses), the first on a tie."""
    best = max(options.values())
    return min(c for c, points in options.items() if points == best)


def plain_script() -> list[str]:
    """Ann's answers in plain mode: the script, played once on the service to know the
    dice (the seed makes every replay of it the same)."""
    seats = [Seat("Ann"), Seat("Bot 2 (level 3)", BotSpec.at_level(3))]
    session = GameSession.new(seats, RuleSet.official(), seed=SEED)
    lines: list[str] = []
    while not session.is_over:
        if session.is_bot(session.current):
            list(session.bot_moves())
            continue
        session.roll()
        turn = session.game.turn
        assert turn is not None and session.game.dice is not None
        if turn.round == HINT_ROUND:
            lines.append("hint")
        keep = keep_for(session.game.dice)
        lines.append(f"keep {''.join(map(str, keep.faces))}")
        session.roll(keep)
        options = {c: p.total for c, p in session.placements().items()}
        box = box_for(options)
        lines.append(f"score {box.key}")
        if options[box] == 0:
            lines.append("y")  # plain mode asks before a box scores 0, as the others do
        session.score(box)
    return lines


# The three front ends ----------------------------------------------------------------


def play_plain(db: str) -> None:
    script = "\n".join(plain_script()) + "\n"
    result = run_cli(
        "play", "--plain", "Ann", "--bot", "3", "--seed", str(SEED), "--database-url", db,
        stdin=script, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout, result.stdout[-2000:]
    assert "Advisor" in result.stdout


def play_tui(db: str) -> None:
    async def run() -> None:
        with Store(db) as store:
            app = YahtzeeApp(store, seed=SEED, bot_pause=0)
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                app.screen.query(".seat-name").first(Input).value = "Ann"
                await start_game(pilot, mouse=False, add=("add-bot",))
                session = app.session
                assert session is not None
                assert [s.name for s in session.seats] == ["Ann", "Bot 2 (level 3)"]
                for _ in range(2000):
                    if session.is_over:
                        break
                    if session.is_bot(session.current):
                        await settle(pilot)
                        continue
                    await tui_turn(pilot, app, session)
                await settle(pilot)  # the review is recorded in the background
                assert session.is_over and screen_name(app) == "GameOverScreen"

    asyncio.run(run())


async def tui_turn(pilot: Any, app: YahtzeeApp, session: GameSession) -> None:
    from yahtzee.tui.widgets import BOX_KEYS

    await pilot.press("r")
    await pilot.pause()
    dice, turn = session.game.dice, session.game.turn
    assert dice is not None and turn is not None
    if turn.round == HINT_ROUND:
        await pilot.press("h")  # show the advisor's options, then hide them
        await settle(pilot)
        assert "Advisor" in str(app.screen.query_one("#hint").render())
        await pilot.press("h")
    keep = list(keep_for(dice).faces)
    for index, face in enumerate(dice.faces):
        if face in keep:
            keep.remove(face)
            await pilot.press(str(index + 1))
    await pilot.press("r")
    await pilot.pause()
    options = {c: p.total for c, p in session.placements().items()}
    target = box_for(options)
    await pilot.press(BOX_KEYS[target])  # the box's key, shown on the card
    await pilot.pause()
    if screen_name(app) == "ConfirmZero":
        await pilot.press("y")
        await pilot.pause()


def play_web(db: str) -> None:
    with running(db, seed=SEED) as host:
        base = f"http://{host}"
        created = httpx.post(
            f"{base}/api/tables",
            json={"host": "Ann", "seats": [{"kind": "bot", "level": 3}]},
            timeout=30,
        ).json()
        table = created["table"]["id"]
        with client(f"ws://{host}/ws/{table}") as ann:
            ann.send_json({"v": 1, "type": "hello", "token": created["token"]})
            started = httpx.post(
                f"{base}/api/tables/{table}/start",
                headers={"Authorization": f"Bearer {created['token']}"},
                timeout=30,
            )
            assert started.status_code == 200, started.text
            web_game(ann)


def web_game(ann: Any) -> None:
    game: dict[str, Any] | None = None
    asked = False
    for _ in range(5000):
        message = receive_json(ann, timeout=60)
        if message["type"] == "error":
            raise AssertionError(message)
        if message["type"] not in {"state", "event"} or message["game"] is None:
            continue
        game = message["game"]
        assert game is not None
        if game["phase"] == "over":
            return
        if game["current"] != 0:
            continue
        if message["type"] == "state" and message["seq"] == 0:
            continue
        dice = game["dice"]
        if dice is None:
            ann.send_json({"v": 1, "type": "roll"})
        elif game["rolls_left"] == 2:
            if game["round"] == HINT_ROUND and not asked:
                asked = True
                ann.send_json({"v": 1, "type": "hint"})
                hint = receive_json(ann, timeout=60)
                while hint["type"] != "hint":
                    hint = receive_json(ann, timeout=60)
                assert hint["options"], hint
            keep = keep_for(Dice.parse(dice))
            ann.send_json({"v": 1, "type": "roll", "keep": "".join(map(str, keep.faces))})
        else:
            options = {
                Category.parse(p["box"]): p["points"] + p["yahtzee_bonus"]
                for p in game["placements"]
            }
            ann.send_json({"v": 1, "type": "score", "box": box_for(options).key})
    raise AssertionError(f"the web game did not end: {game}")


# The comparison ----------------------------------------------------------------------


def records(db: str) -> dict[str, Any]:
    with Store(db) as store:
        assert not unfinished(store)
        games = store.summaries([s.id for s in _all(store)])
        assert len(games) == 1
        summary = games[0]
        return {
            "events": store.event_log(summary.id),
            "summary": {
                k: getattr(summary, k)
                for k in (
                    "rules",
                    "status",
                    "seed",
                    "hints_used",
                    "event_count",
                    "players",
                    "totals",
                    "winners",
                )
            },
            "seats": store.seats_of(summary.id),
            "hinted": store.hinted_seats(summary.id),
            "stats": [s.to_dict() for s in stats(store)],
            "stats_json": run_cli("stats", "--json", "--database-url", db).stdout,
            "ann_json": json.loads(run_cli("stats", "Ann", "--json", "--database-url", db).stdout),
        }


def _all(store: Store) -> list[Any]:
    from yahtzee.store import history

    return history(store)


def test_the_same_game_leaves_the_same_record_through_every_front_end(tmp_path: Path) -> None:
    dbs = {name: f"sqlite:///{tmp_path / f'{name}.db'}" for name in ("plain", "tui", "web")}
    play_plain(dbs["plain"])  # a fresh process: one turn at a time in numpy
    use_compiled_kernels()  # here the compiled kernels: the records must not differ
    play_tui(dbs["tui"])
    play_web(dbs["web"])
    found = {name: records(db) for name, db in dbs.items()}
    plain = found["plain"]
    ann = plain["ann_json"][0]
    assert ann["player"] == "Ann" and ann["games"] == 1
    assert ann["reviewed_games"] == 1 and ann["loss_per_game"] is not None
    assert ann["hinted_games"] == 1
    assert [s["player"] for s in plain["stats"]] == ["Ann", "Bot (level 3)"]
    assert plain["hinted"] == {0}
    for name in ("tui", "web"):
        for key, value in plain.items():
            assert found[name][key] == value, f"{name} differs from plain mode in {key}"
