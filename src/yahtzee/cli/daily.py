"""``yahtzee daily``: the day's game in plain mode, on the date's own duplicate dice.

Offline, the dice come from the date alone, so anyone can work them out: the game is not
ranked, and says so (the ranked daily, with its secret committed seed, is the server's).
At the end: the score, the points lost to the best choices, optimal play's score on the
same dice, the days played and the streak, and a line to share without spoilers."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.language import _
from ..render.numbers import decimal
from ._io import add_database_option


def register(commands: Any) -> None:
    p = commands.add_parser(
        "daily",
        help=_("play today's daily game in plain mode (the same dice for everyone today)"),
        description=_(
            "Play the daily game of today (UTC) in plain mode: the same dice for "
            "everyone who plays it today, whatever they keep. Offline its dice come from the "
            "date, so it cannot be ranked; a server's page ranks its own daily game."
        ),
    )
    p.add_argument(
        "name", nargs="?", default=None, metavar=_("NAME"), help=_("your name (default: You)")
    )
    p.add_argument("--no-record", action="store_true", help=_("do not keep this game"))
    add_database_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core import player_name  # noqa: PLC0415
    from ..service.daily import (  # noqa: PLC0415
        best_score,
        daily_result,
        offline_days,
        offline_seed,
        share_line,
        start_offline_daily,
        streak,
        today,
    )
    from ..store import Store  # noqa: PLC0415
    from .plain import DEFAULT_NAME, PlainGame  # noqa: PLC0415
    from .play import EXIT_INTERRUPTED, _read_line  # noqa: PLC0415

    name = player_name(args.name) if args.name is not None else DEFAULT_NAME
    day = today()
    store = None if args.no_record else Store(args.database_url)
    try:
        session = start_offline_daily(store, name, day)
        print(_("The daily game of {day}: everyone playing it today gets the same "
                "dice, whatever they keep. Offline, its dice come from the date (anyone can "
                "work them out), so it is not ranked.").format(day=day.isoformat()))  # fmt: skip
        try:
            if not PlainGame(session, _read_line, print).play(resumed=len(session.game.events) > 1):
                print(_("Saved: 'yahtzee daily {name}' goes on with it today.").format(name=name))
                return 0
        except KeyboardInterrupt:
            print("\n" + _("Game stopped. 'yahtzee daily {name}' goes on with it today.").format(
                name=name))  # fmt: skip
            return EXIT_INTERRUPTED
        result = daily_result(session, day)
        best = best_score(offline_seed(day))
        days = [d for d, _kept in offline_days(store, name)] if store is not None else [day]
        run_of = streak(days, day)
        print(
            _("Your score: {score}. Optimal play on today's dice: {best}.").format(
                score=result.score, best=best
            )
        )
        print(
            _("Your skill: {loss} points lost to the best choices (the advisor).").format(
                loss=decimal(result.loss or 0.0, 1, grouping=False)
            )
        )
        print(
            _("Daily games played: {played}; in a row: {streak}.").format(
                played=len(set(days)), streak=run_of
            )
        )
        print(_("To share: {line}").format(line=share_line(result, best, run_of)))  # fmt: skip
    finally:
        if store is not None:
            store.close()
    return 0
