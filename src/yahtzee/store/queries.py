"""Questions asked of the records: games to resume, history, sittings, statistics, high
scores.

Dice: a game's dice were ``rolled`` by the program or ``entered`` by players with real dice
(`GameSummary.dice`). High scores count only the dice the program rolled unless asked
otherwise (a score typed in from real dice cannot be checked); statistics count every game
unless asked for one kind. An offline game (played on a device without the server, uploaded
once over: `GameSummary.offline`) is never a high score nor a best total to beat: its dice
could not be checked at all; statistics count it, as `PlayerStats.offline_games` says."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select

from ..core import YAHTZEE_BONUS, BotSpec, Edition, InvalidInput, YahtzeeError
from ..core.errors import show
from ..core.language import _
from .engine import reading
from .schema import cards, games, players, seats
from .store import Store, utc
from .values import ACTIVE, ENTERED, FINISHED, ROLLED, GameSummary

MAX_SITTING_ID = 36
"""A sitting's id is its first game's (a UUID) or its first table's."""

SITTINGS_PER_QUERY = 500
"""Sittings asked about in one query (SQLite takes a few hundred parameters at least)."""

DICE_KINDS = (ROLLED, ENTERED)
"""A game's dice: rolled by the program, or entered by the players (real dice)."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's statistics over the records: games, wins, average, best, spread, bonus rates,
    advisor loss. The rates are each card's edition's: its upper bonus, its five-of-a-kind
    box (a Yahtzee, a Yatzy)."""

    player: str
    games: int
    wins: int
    """Games won against others: a game played alone is no win (see `solo_games`)."""
    average: float
    best: int
    std_dev: float
    upper_bonus_rate: float
    yahtzee_rate: float
    yahtzee_bonuses: int
    hinted_games: int
    reviewed_games: int
    loss_per_game: float | None
    loss_per_decision: float | None
    entered_games: int = 0
    """Of `games`, those played with real dice (entered by the players)."""
    sittings: int = 0
    """Sittings of two or more finished games the player sat in with others (see
    `sitting_results`)."""
    sittings_won: int = 0
    """Of those, the sittings the player ended with the best total (a shared best counts)."""
    solo_games: int = 0
    """Of `games`, those the player played alone (a daily game, a solo game): none is a win."""
    offline_games: int = 0
    """Of `games`, those played offline on a device and uploaded (their dice unchecked)."""

    def to_dict(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class HighScore:
    """One line of the high-score table: rank, player, total, game and date."""

    rank: int
    player: str
    total: int
    game_id: str
    finished_at: datetime
    dice: str = ROLLED


@dataclass(frozen=True, slots=True)
class GameProgress:
    """How far an unfinished game got, read from its event log: where it stands
    (``round 5 of 13``, ``round 5 of 15`` in Yatzy, or ``playoff``) and each player's
    total so far."""

    stage: str
    totals: tuple[int, ...]


def progress_of(store: Store, game_id: str) -> GameProgress | None:
    """The progress of a recorded game (``None``: a record this version cannot read)."""
    try:
        game = store.load(game_id)
    except YahtzeeError:
        return None
    turn = game.turn
    if game.is_over:
        stage = "over"
    else:
        stage = f"round {turn.round} of {game.rules.rounds}" if turn is not None else "playoff"
    return GameProgress(stage, tuple(card.total for card in game.cards))


def unfinished(store: Store, player: str | None = None) -> list[GameSummary]:
    """Games still in progress, most recently played first."""
    return history(store, player=player, status=ACTIVE)


def history(
    store: Store,
    *,
    player: str | None = None,
    rules: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    status: str | None = None,
    limit: int | None = None,
    sitting: str | None = None,
    dice: str | None = None,
) -> list[GameSummary]:
    """Games, newest first, filtered by player name, rule set, date (``since`` inclusive,
    ``until`` exclusive, on the start time), status, sitting (its full id) and dice
    (``rolled`` or ``entered``)."""
    query = select(games.c.id).order_by(games.c.updated_at.desc(), games.c.id)
    if sitting is not None:
        query = query.where(games.c.sitting == sitting)
    if dice is not None:
        query = query.where(games.c.dice == _dice_kind(dice))
    if player is not None:
        query = query.where(
            games.c.id.in_(
                select(seats.c.game_id)
                .join(players, players.c.id == seats.c.player_id)
                .where(players.c.name == player)
            )
        )
    if rules is not None:
        query = query.where(games.c.rules == rules)
    if since is not None:
        query = query.where(games.c.created_at >= since)
    if until is not None:
        query = query.where(games.c.created_at < until)
    if status is not None:
        query = query.where(games.c.status == status)
    if limit is not None:
        if limit < 1:
            raise YahtzeeError(_("The limit is a positive number of games."))
        query = query.limit(limit)
    with reading(store.engine) as connection:
        ids = [row[0] for row in connection.execute(query)]
    return store.summaries(ids)


def _dice_kind(dice: str) -> str:
    if dice not in DICE_KINDS:
        raise InvalidInput(
            _("A game's dice are {rolled} or {entered}, not {dice}.").format(
                rolled=ROLLED, entered=ENTERED, dice=show(dice)
            )
        )
    return dice


def sitting_places(store: Store, summaries: list[GameSummary]) -> dict[str, tuple[int, int]]:
    """For each game listed, its place in its sitting: (game number, games in the sitting),
    counting the sitting's games in the order they were started."""
    wanted = sorted({g.sitting or g.id for g in summaries})
    by_sitting: dict[str, list[str]] = {}
    with reading(store.engine) as connection:
        for start in range(0, len(wanted), SITTINGS_PER_QUERY):
            query = (
                select(games.c.id, games.c.sitting)
                .where(games.c.sitting.in_(wanted[start : start + SITTINGS_PER_QUERY]))
                .order_by(games.c.created_at, games.c.id)
            )
            for row in connection.execute(query):
                by_sitting.setdefault(row.sitting, []).append(row.id)
    places = {}
    for g in summaries:
        ids = by_sitting.get(g.sitting or g.id, [g.id])
        places[g.id] = (ids.index(g.id) + 1 if g.id in ids else 1, len(ids))
    return places


def resolve_sitting(store: Store, prefix: str) -> str:
    """The full id of the sitting whose id starts with ``prefix`` (as `Store.resolve` finds
    a game), or `InvalidInput` saying there is none or several."""
    text = prefix.strip()
    if not text or len(text) > MAX_SITTING_ID:
        raise InvalidInput(
            _("No sitting {prefix}: a sitting's id is a game id's start.").format(
                prefix=show(prefix)
            )
        )
    query = (
        select(games.c.sitting)
        .where(
            games.c.sitting.startswith(text, autoescape=True)
            | games.c.sitting.startswith(text.lower(), autoescape=True)
        )
        .distinct()
        .limit(2)
    )
    with reading(store.engine) as connection:
        found = sorted(str(row[0]) for row in connection.execute(query))
    if not found:
        raise InvalidInput(
            _("No sitting {prefix} is recorded ('yahtzee history' lists them).").format(
                prefix=show(prefix)
            )
        )
    if len(found) > 1:
        raise InvalidInput(
            _("{prefix} starts several sittings' ids: give more of it.").format(prefix=show(prefix))
        )
    return found[0]


def finished_cards_query() -> Select[Any]:
    """The finished cards with what statistics read of each (its player's name, its seat's
    bot, its game's rules, dice and sitting): add conditions to it."""
    return (
        select(
            players.c.name, cards.c.total, cards.c.upper_subtotal, cards.c.yahtzee_box,
            cards.c.yahtzee_bonus, cards.c.winner, cards.c.decisions, cards.c.advisor_loss,
            cards.c.game_id, cards.c.seat, games.c.finished_at, games.c.rules, games.c.dice,
            games.c.sitting, games.c.offline, games.c.edition, seats.c.bot, seats.c.hints_used,
        )
        .join(seats, (seats.c.game_id == cards.c.game_id) & (seats.c.seat == cards.c.seat))
        .join(players, players.c.id == seats.c.player_id)
        .join(games, games.c.id == cards.c.game_id)
        .where(games.c.status == FINISHED)
    )  # fmt: skip


def _finished_cards(
    store: Store, player: str | None, rules: str | None, dice: str | None = None
) -> list[Any]:
    query = finished_cards_query()
    if rules is not None:
        query = query.where(games.c.rules == rules)
    if dice is not None:
        query = query.where(games.c.dice == _dice_kind(dice))
    with reading(store.engine) as connection:
        rows = list(connection.execute(query))
    return [r for r in rows if player is None or who(r) == player]


def sitting_results(rows: list[Any]) -> dict[str, tuple[int, int]]:
    """Per player (as `who` names them): the sittings of two or more finished games they
    sat in with others, and those they ended with the best total over the sitting's
    finished games (a shared best counts for each). A game alone is no sitting to count,
    nor a sitting of one player (nobody to beat)."""
    games_of: dict[str, set[str]] = {}
    totals: dict[tuple[str, int], int] = {}
    names: dict[tuple[str, int], str] = {}
    for r in rows:
        sitting = r.sitting or r.game_id
        games_of.setdefault(sitting, set()).add(r.game_id)
        totals[sitting, r.seat] = totals.get((sitting, r.seat), 0) + r.total
        names[sitting, r.seat] = who(r)  # the seat is the same player at each game
    result: dict[str, tuple[int, int]] = {}
    for sitting, ids in games_of.items():
        if len(ids) < SITTING_GAMES:
            continue
        seats_here = {k: v for k, v in totals.items() if k[0] == sitting}
        if len(seats_here) < MIN_RIVALS:
            continue
        best = max(seats_here.values())
        for key, total in seats_here.items():
            played, won = result.get(names[key], (0, 0))
            result[names[key]] = (played + 1, won + (total == best))
    return result


SITTING_GAMES = 2
"""The finished games a sitting needs for statistics to count it."""
MIN_RIVALS = 2
"""The players a game (or a sitting) needs for a win to count: alone, nobody is beaten."""


def who(row: Any) -> str:
    """Whose record a finished card is: a human by name; a bot by its strategy and level
    (``Bot (level 3)``), whatever it was called at its table."""
    return BotSpec.parse(row.bot).label if row.bot else str(row.name)


def stats(
    store: Store, player: str | None = None, rules: str | None = None, dice: str | None = None
) -> list[PlayerStats]:
    """Per player over finished games (all players when ``player`` is None), by name;
    ``dice``: only games whose dice were ``rolled`` or ``entered`` (default: both)."""
    every = _finished_cards(store, None, rules, dice)
    sittings = sitting_results(every)
    seated = Counter(r.game_id for r in every)
    by_player: dict[str, list[Any]] = {}
    for row in every:
        if player is None or who(row) == player:
            by_player.setdefault(who(row), []).append(row)
    return [
        player_stats(name, by_player[name], seated, sittings.get(name, (0, 0)))
        for name in sorted(by_player, key=str.casefold)
    ]


def player_stats(
    name: str, rows: list[Any], seated: Counter[str], sittings: tuple[int, int] = (0, 0)
) -> PlayerStats:
    """One player's statistics from the finished cards of their seats (``rows``, as
    `_finished_cards` reads them); ``seated``: the seats of each of those games;
    ``sittings``: the sittings they sat in with others and those they won."""
    totals = [r.total for r in rows]
    reviewed = [r for r in rows if r.advisor_loss is not None]
    decisions = sum(r.decisions or 0 for r in reviewed)
    loss = sum(r.advisor_loss for r in reviewed)
    return PlayerStats(
        player=name,
        games=len(rows),
        wins=sum(1 for r in rows if r.winner and seated[r.game_id] >= MIN_RIVALS),
        average=statistics.fmean(totals),
        best=max(totals),
        std_dev=statistics.stdev(totals) if len(totals) > 1 else 0.0,
        upper_bonus_rate=sum(_upper_bonus(r) for r in rows) / len(rows),
        yahtzee_rate=sum(_five_alike(r) for r in rows) / len(rows),
        yahtzee_bonuses=sum(r.yahtzee_bonus for r in rows) // YAHTZEE_BONUS,
        hinted_games=sum(1 for r in rows if r.hints_used),
        reviewed_games=len(reviewed),
        loss_per_game=loss / len(reviewed) if reviewed else None,
        loss_per_decision=loss / decisions if decisions else None,
        entered_games=sum(1 for r in rows if r.dice == ENTERED),
        sittings=sittings[0],
        sittings_won=sittings[1],
        solo_games=sum(1 for r in rows if seated[r.game_id] < MIN_RIVALS),
        offline_games=sum(1 for r in rows if r.offline),
    )


def _upper_bonus(row: Any) -> bool:
    """Whether a finished card (a row of `finished_cards_query`) made its edition's upper
    bonus."""
    return bool(row.upper_subtotal >= Edition.named(row.edition).upper_bonus_threshold)


def _five_alike(row: Any) -> bool:
    """Whether a finished card scored its edition's five-of-a-kind box (Yahtzee, Yatzy)."""
    edition = Edition.named(row.edition)
    return bool(row.yahtzee_box == edition.box_rules[edition.five_of_a_kind].points)


def best_total(store: Store, player: str, rules: str) -> int | None:
    """A human player's best total over their finished games under ``rules`` (None: none
    finished): `stats`' ``best`` for that player, from one aggregate over the player's own
    seats (found by the seats' player index, migration 0002) instead of every finished
    card in the records."""
    query = (
        select(func.max(cards.c.total))
        .select_from(players)
        .join(seats, seats.c.player_id == players.c.id)
        .join(cards, (cards.c.game_id == seats.c.game_id) & (cards.c.seat == seats.c.seat))
        .join(games, games.c.id == seats.c.game_id)
        .where(players.c.name == player, seats.c.bot.is_(None), games.c.status == FINISHED,
               games.c.rules == rules, games.c.offline.is_(False))
    )  # fmt: skip
    with reading(store.engine) as connection:
        found = connection.execute(query).scalar()
    return None if found is None else int(found)


def high_scores(
    store: Store, rules: str = "official", limit: int = 10, dice: str | None = ROLLED
) -> list[HighScore]:
    """The best finished totals under a rule set, best first (earlier games first on ties).
    ``dice``: by default only games whose dice the program rolled (a total from real dice
    is typed in and cannot be checked); ``entered`` for those of real dice, None for both.
    An offline game is never one (its dice could not be checked at all)."""
    rows = [r for r in _finished_cards(store, None, rules, dice) if not r.offline]
    rows.sort(key=lambda r: (-r.total, r.finished_at))
    return [
        HighScore(rank + 1, who(r), r.total, r.game_id, utc(r.finished_at), r.dice)
        for rank, r in enumerate(rows[:limit])
    ]
