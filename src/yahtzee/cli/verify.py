"""``yahtzee verify``: check that a game's dice came from the seed it committed to before
its first roll, drawn as its start event says (each seat's own dice, or duplicate dice),
against the records (a game id) or against an export file."""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ..core import Draw, InvalidInput, check_rolls, check_steps, commitment
from ..core.errors import show
from ..core.language import N_, _, ngettext
from ._io import add_database_option

DRAWN = {
    Draw.SEAT: N_("each seat drew its own dice"),
    Draw.DUPLICATE: N_("duplicate dice: every seat drew the same"),
}


def register(commands: Any) -> None:
    p = commands.add_parser(
        "verify",
        help=_("check that a game's dice came from the seed it committed to"),
        description=_(
            "Check that every roll of an online game came from the secret seed whose "
            "SHA-256 the game published before its first roll (the seed is revealed when the "
            "game is over; a daily game's when its day is over). The dice are drawn as the game's "
            "start event says: each seat its own (a table's games), or duplicate dice, the same "
            "for every seat (the daily game, and games recorded before the start event said). "
            "An offline daily game (yahtzee daily) verifies too, but its seed comes from its "
            "date: it was never secret, and its hash never published. "
            "GAME is a game id (or its first characters) in the records, or an export file "
            "(yahtzee export)."
        ),
    )
    p.add_argument("game", metavar="GAME_ID|FILE", help=_("a recorded game, or an export file"))
    add_database_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.game)
    if path.is_file():
        return _verify_file(path)
    return _verify_record(args)


def _verdict(
    game_id: str, seed: str, events: list[dict[str, Any]], started: date | None
) -> tuple[str, Draw]:
    """The verdict on a game started on the day ``started`` (`InvalidInput` naming the
    first roll that fails), and its draw. An offline daily game's seed comes from its
    date: nothing was secret, nor published (its commitment is only in the records)."""
    from ..service.daily import is_offline_daily  # noqa: PLC0415

    draw = check_rolls(seed, events)
    rolls = sum(1 for e in events if e.get("type") in ("roll", "playoff_roll"))
    if started is not None and is_offline_daily(events[:1], started):
        return _(
            "Game {game}, the offline daily game of {day}: all {rolls} rolls came from the "
            "seed {seed}, which anyone can work out from the date (not secret, so its SHA-256 "
            "{hash} was recorded before the first roll but never published) ({drawn})."
        ).format(
            game=game_id[:8], day=started.isoformat(), rolls=rolls, seed=seed,
            hash=commitment(seed), drawn=_(DRAWN[draw]),
        ), draw  # fmt: skip
    return _(
        "Game {game}: all {rolls} rolls came from the seed {seed}, whose SHA-256 {hash} the "
        "game published before its first roll ({drawn})."
    ).format(
        game=game_id[:8], rolls=rolls, seed=seed, hash=commitment(seed), drawn=_(DRAWN[draw])
    ), draw


def _day(item: dict[str, Any]) -> date | None:
    """The day an exported game started (None: not said, or not a date)."""
    try:
        return datetime.fromisoformat(str(item.get("created_at"))).date()
    except ValueError:
        return None


def _print_steps(draws: set[Draw]) -> None:
    """How to check each draw seen by hand."""
    for draw in sorted(draws):
        print(_("To check it yourself ({drawn}):").format(drawn=_(DRAWN[draw])))
        for number, step in enumerate(check_steps(draw), 1):
            print(f"  {number}. {step}")


def _verify_record(args: argparse.Namespace) -> int:
    from ..store import Store  # noqa: PLC0415
    from ..store.daily import revealed_dice_seed  # noqa: PLC0415
    from ..store.engine import database_exists  # noqa: PLC0415

    if not database_exists(args.database_url):
        raise InvalidInput(
            _("No games are recorded yet: there is no game {game}.").format(game=show(args.game))
        )
    with Store(args.database_url) as store:
        game_id = store.resolve(args.game)
        events = store.event_log(game_id)
        if "commitment" not in events[0]:
            raise InvalidInput(
                _(
                    "Game {game} did not commit to its dice (only online games do): "
                    "there is nothing to verify."
                ).format(game=game_id[:8])
            )
        seed = revealed_dice_seed(store, game_id, datetime.now(UTC).date())
        if seed is None:
            raise InvalidInput(
                _(
                    "Game {game}'s seed is not revealed yet: it is shown once the game is "
                    "over (a daily game's once its day is over)."
                ).format(game=game_id[:8]),
                code="not_revealed",
            )
        started = store.summary(game_id).created_at.date()
        verdict, draw = _verdict(game_id, seed, events, started)
        print(verdict)
    _print_steps({draw})
    return 0


def _verify_file(path: Path) -> int:
    from ..store.transfer import parse_export  # noqa: PLC0415

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput(
            _("Cannot read {file}: {error}.").format(file=path, error=error)
        ) from None
    checked, draws = 0, set[Draw]()
    for number, item in enumerate(parse_export(text, path.suffix.lstrip(".") or None), 1):
        if not isinstance(item, dict) or not isinstance(item.get("events"), list):
            raise InvalidInput(_("Game {number} of the file is malformed.").format(number=number))
        events, game_id = item["events"], str(item.get("id", number))
        if not events or not isinstance(events[0], dict) or "commitment" not in events[0]:
            continue
        if not item.get("dice_seed"):
            print(
                _("Game {game}: its seed is not revealed yet (not over, or its day).").format(
                    game=game_id[:8]
                )
            )
            continue
        try:
            verdict, draw = _verdict(game_id, item["dice_seed"], events, _day(item))
        except InvalidInput as error:
            raise InvalidInput(
                _("Game {game} of the file: {error}").format(game=game_id[:8], error=error)
            ) from None
        print(verdict)
        checked, draws = checked + 1, draws | {draw}
    if checked:
        print(ngettext("{n} game(s) verified.", "{n} game(s) verified.", checked).format(n=checked))
    else:
        print(_("No game of the file has dice to verify."))
    _print_steps(draws)
    return 0
