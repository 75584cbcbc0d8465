"""Finished offline games, uploaded: a game played on a device without the server (its
engine the page's port of the core) is replayed here through the core, event by event,
each roll's dice taken as the device recorded them (nobody can check dice rolled offline);
any break of the rules is refused, saying which event and why, and nothing is kept. A game
that passes is kept as played, marked offline (unranked: never on a leaderboard, a
high-score table or a best score that other players see), the uploading account's seat
its own. The same upload again keeps nothing new: the account and the id the device gave
the game name one kept game (`store.offline_games`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from ..core import (
    MAX_PLAYERS,
    Edition,
    Game,
    IllegalMove,
    InvalidInput,
    RuleSet,
    chosen_bot,
    player_name,
)
from ..core.language import _
from ..store import Store
from ..store.offline_games import KeptOffline, OfflineRecord, keep_offline
from ..store.values import Seat
from .accounts import Account

EVENTS_PER_TURN: Final = 8
"""A turn's events at most, as an upload may hold them: its three rolls and its box, with
room for a box taken back and filled again, or real dice entered again to correct them."""
PLAYOFF_EVENTS_PER_PLAYER: Final = 4
"""Playoff rolls a player may have (``+playoff`` rules: a tie rolls again)."""


def max_events(players: int, rounds: int) -> int:
    """The events a game of ``players`` and ``rounds`` (its rules' boxes: 13, 15 in Yatzy)
    may have in an upload: its start, its turns and a playoff."""
    return 1 + rounds * players * EVENTS_PER_TURN + PLAYOFF_EVENTS_PER_PLAYER * players


MAX_EVENTS: Final = max_events(
    MAX_PLAYERS, max(len(Edition.named(name).boxes) for name in Edition.names())
)
"""The events of the largest game (eight players, the edition of the most boxes) at most."""


@dataclass(frozen=True, slots=True)
class OfflinePlayer:
    """A seat of an uploaded game: its name, and its bot's key (None: a person)."""

    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class OfflineUpload:
    """An upload: the id the device gave the game, its rule set's name, its seats, its
    events (the core's event dicts, the start first), when it ended and the account's seat
    (None: the first seat without a bot)."""

    client_id: str
    rules: str
    players: tuple[OfflinePlayer, ...]
    events: tuple[Mapping[str, Any], ...]
    finished_at: datetime
    seat: int | None = None


def _refused(message: str) -> InvalidInput:
    # Translators: {reason} says why, as a clause ("it has no events ...").
    refusal = _("This game cannot be kept: {reason}")
    return InvalidInput(refusal.format(reason=message), code="illegal_game")


def _rules(name: str) -> RuleSet:
    try:
        return RuleSet.named(name)
    except InvalidInput as error:
        raise InvalidInput(str(error), code="unknown_rules") from None


def _seats(players: Sequence[OfflinePlayer]) -> tuple[Seat, ...]:
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(
            _("A game has 1 to {most} players.").format(most=MAX_PLAYERS), code="bad_request"
        )
    try:
        return tuple(
            Seat(player_name(p.name), None if p.bot is None else chosen_bot(p.bot)) for p in players
        )
    except InvalidInput as error:
        raise InvalidInput(str(error), code="bad_request") from None


def _account_seat(seats: Sequence[Seat], seat: int | None) -> int:
    people = [n for n, s in enumerate(seats) if s.bot is None]
    if seat is None:
        if not people:
            raise InvalidInput(
                _("A game of bots alone is nobody's: one seat must be yours."), code="bad_request"
            )
        return people[0]
    if seat not in people:
        raise InvalidInput(
            _(
                "Seat {seat} is not yours to claim: it must be a person's seat of the game "
                "(seats {seats})."
            ).format(seat=seat, seats=", ".join(map(str, people)) or _("none")),
            code="bad_request",
        )
    return seat


def _start(seats: Sequence[Seat], rules: RuleSet, first: Mapping[str, Any]) -> None:
    """The first event must be the start the core writes for these seats and rules."""
    entered = first.get("dice") == "entered"
    try:
        expected = Game([s.name for s in seats], rules, entered=entered).events[0]
    except InvalidInput as error:
        raise InvalidInput(str(error), code="bad_request") from None
    if dict(first) != expected:
        raise _refused(
            _(
                "event 1 is not this game's start; it must be {start} (the players and rules "
                "uploaded)."
            ).format(start=json.dumps(expected, separators=(",", ":")))
        )


def replayed(upload: OfflineUpload) -> tuple[Game, tuple[Seat, ...], int]:
    """The uploaded game replayed through the core, its seats and the account's seat; an
    upload that breaks a rule is ``illegal_game``, one not over ``not_over``, unknown
    rules ``unknown_rules``, anything else malformed ``bad_request``."""
    rules = _rules(upload.rules)
    seats = _seats(upload.players)
    mine = _account_seat(seats, upload.seat)
    events = upload.events
    if not events:
        raise _refused(_("it has no events (the first is its start)."))
    most = max_events(len(seats), rules.rounds)
    if len(events) > most:
        raise _refused(
            # Translators: {players} is the number of players of the game.
            _("it has {events} events; a game of {players} has at most {most}.").format(
                events=len(events), players=len(seats), most=most
            )
        )
    _start(seats, rules, events[0])
    try:
        game = Game.replay([dict(e) for e in events])
    except (InvalidInput, IllegalMove) as error:
        raise _refused(f"{error}") from None
    if not game.is_over:
        turn = game.turn
        if turn is not None:
            where = _("round {round} of {rounds}").format(round=turn.round, rounds=rules.rounds)
        else:
            where = _("the playoff")
        raise InvalidInput(
            # Translators: {where} is "round 3 of 13" or "the playoff".
            _("This game is not over (it stopped in {where}): finish it, then upload it.").format(
                where=where
            ),
            code="not_over",
        )
    return game, seats, mine


def digest(game: Game, seats: Sequence[Seat], mine: int) -> str:
    """The game's fingerprint: the same upload twice has the same one, another game under
    the same id another (its rules, seats, the account's seat and every event)."""
    data = {
        "rules": game.rules.name,
        "seats": [[s.name, s.bot.key if s.bot else None] for s in seats],
        "mine": mine,
        "events": game.events,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def upload(store: Store, account: Account, upload: OfflineUpload) -> KeptOffline:
    """Keep the account's uploaded game (blocks on the records): replayed and checked
    first (`replayed`: nothing kept on a refusal). The same id again with the same game:
    the game kept before (``new`` False); with another game ``409 id_taken``."""
    game, seats, mine = replayed(upload)
    fingerprint = digest(game, seats, mine)
    ended = upload.finished_at
    ended = ended.replace(tzinfo=UTC) if ended.tzinfo is None else ended.astimezone(UTC)
    record = OfflineRecord(
        account.id, upload.client_id, fingerprint, game, seats, mine,
        min(ended, datetime.now(UTC)),
    )  # fmt: skip
    kept = keep_offline(store, record)
    if kept.digest != fingerprint:
        raise IllegalMove(
            _("You uploaded another game under this id before: a new game needs a new id."),
            code="id_taken",
        )
    return kept


__all__ = [
    "MAX_EVENTS",
    "OfflinePlayer",
    "OfflineUpload",
    "digest",
    "max_events",
    "replayed",
    "upload",
]
