"""Typed models of the lobby's request bodies and answers, and of the game as clients see it.

Each outbound message is built from the engine and the game service, never by hand: see
``docs/protocol.md`` for the protocol they make.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core import (
    BOT_CHOICES,
    DEFAULT_BOT,
    DEFAULT_LEVEL,
    MAX_LEVEL,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MIN_LEVEL,
    BotChoice,
    BotSpec,
    Game,
    Placement,
    Scorecard,
    Scored,
    Written,
    chosen_bot,
)
from ..service import Sitting, Table, TableRoom
from ..service.sitting import running_totals
from ..service.timeout import DEFAULT_MISSED, MAX_MISSED, MAX_TURN_TIMER_S, TimeoutRule
from ..service.tray import Tray, tray_of

if TYPE_CHECKING:
    pass

CARDS_KEPT = 8192
"""Card dicts kept for views (a card changes once a turn; every event shows them all)."""

# Lobby requests ----------------------------------------------------------------------


class _Body(BaseModel):
    """A request body, read strictly: JSON's own types only (``true`` is no number,
    ``1.0`` and ``"3"`` no whole number, ``5`` no text, ``0`` and ``"yes"`` no yes or no)."""

    model_config = ConfigDict(strict=True)


BOT_KEYS = [choice.key for choice in BOT_CHOICES]


def _bot_field() -> Any:
    """A bot's key: one of `BOT_KEYS` (``GET /api/bots``), checked by the engine's
    `chosen_bot` (whose refusal names the bots there are)."""
    return Field(default=None, json_schema_extra={"enum": [*BOT_KEYS, None]})


class SeatRequest(_Body):
    kind: Literal["human", "bot"]
    bot: str | None = _bot_field()
    """The bot's key (``level3``, ``optimal``, ``winning``: ``GET /api/bots``)."""
    level: int | None = Field(default=None, ge=MIN_LEVEL, le=MAX_LEVEL)
    """A bot of this level (1-5): the same as ``bot`` ``levelN``."""

    def seat_bot(self) -> BotSpec | None:
        """None for a seat left open for a friend; a bot's spec otherwise (`InvalidInput`
        for a bot that is not offered)."""
        if self.kind == "human":
            return None
        return chosen_bot(self.bot, self.level)


class CreateTable(_Body):
    host: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    rules: str = "official"
    seats: list[SeatRequest] = Field(default_factory=list, max_length=MAX_PLAYERS - 1)
    hints: bool = True
    turn_timer: int | None = Field(default=None, ge=1, le=MAX_TURN_TIMER_S)
    """Seconds per decision, 1 to 259200 (three days); above 600 the table is played turn
    by turn. None: no timer."""
    dice: Literal["rolled", "entered"] = "rolled"
    """``entered``: the players roll real dice at the table and enter them (people only,
    no turn timer); ``rolled`` (the default): the server rolls."""
    timeout_rule: Literal["bot", "out"] = "bot"
    """When a decision's time runs out: ``bot`` (a bot of ``timeout_level`` plays that
    turn) or ``out`` (the same; after ``timeout_missed`` missed turns in a row the seat
    is out and the bot plays it on)."""
    timeout_level: int = Field(default=DEFAULT_LEVEL, ge=MIN_LEVEL, le=MAX_LEVEL)
    timeout_missed: int = Field(default=DEFAULT_MISSED, ge=1, le=MAX_MISSED)

    def timeout(self) -> TimeoutRule:
        return TimeoutRule(self.timeout_rule, self.timeout_level, self.timeout_missed)


class JoinTable(_Body):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)


class BotSeat(_Body):
    bot: str | None = _bot_field()
    """The bot's key (``GET /api/bots``)."""
    level: int = Field(default=DEFAULT_LEVEL, ge=MIN_LEVEL, le=MAX_LEVEL)
    """Or a bot of this level (1-5)."""

    def spec(self) -> BotSpec:
        """The bot asked for (`InvalidInput` for one that is not offered, or for both a
        key and a level)."""
        return chosen_bot(self.bot, self.level if "level" in self.model_fields_set else None)


class BotChoiceView(BaseModel):
    bot: str
    """The key a seat's ``bot`` is given as (``level3``, ``winning``)."""
    name: str
    """As a menu shows it: ``Level 3``, ``Winning``."""
    about: str
    """What choosing it does, in a few words."""
    word: str
    """What a sentence calls it, lower case: ``level 3``, ``winning``."""

    @classmethod
    def of(cls, choice: BotChoice) -> BotChoiceView:
        return cls(
            bot=choice.key,
            name=choice.shown_name,
            about=choice.shown_about,
            word=choice.shown_word,
        )


class BotChoices(BaseModel):
    """The bots a new table offers, weakest first, and the one a new seat gets."""

    bots: list[BotChoiceView]
    default: str

    @classmethod
    def offered(cls) -> BotChoices:
        return cls(bots=[BotChoiceView.of(c) for c in BOT_CHOICES], default=DEFAULT_BOT.key)


# Lobby answers -----------------------------------------------------------------------


class SeatView(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    open: bool
    connected: bool
    reserved: bool = False
    """Open, but kept for the player ``name`` (a rematch's seat, until that player takes
    it with their rematch call; the invite link seats nobody there)."""
    missed: int = 0
    """Turns in a row whose time ran out (back to 0 when the player moves)."""
    out: bool = False
    """Out for its missed turns (timeout rule ``out``): a bot plays the seat."""


class TimeoutView(BaseModel):
    """What happens when a decision's time runs out (see ``CreateTable``)."""

    rule: Literal["bot", "out"]
    level: int
    missed: int


class LobbyView(BaseModel):
    id: str
    rules: str
    hints_allowed: bool
    turn_timer: int | None
    status: str
    seats: list[SeatView]
    turn_by_turn: bool = False
    """The time per decision is above 600 s: the game is played turn by turn (players
    come and go; the deadline is kept however long it is)."""
    timeout: TimeoutView = TimeoutView(rule="bot", level=DEFAULT_LEVEL, missed=DEFAULT_MISSED)
    deadline: float | None = None
    """When the decision now runs out (Unix time, seconds), if a timer runs."""
    dice: Literal["rolled", "entered"] = "rolled"
    """Who rolls: the server (``rolled``), or the players, with real dice, entering what
    shows (``entered``)."""
    sitting: str
    """The sitting the table belongs to: its own id, or for a rematch the sitting of the
    table it follows (a series of rematches is one sitting)."""
    rematch: str | None = None
    """Once the game is over and a player asked for a rematch: the id of the new table
    (each other player takes their seat there with their own rematch call)."""
    game_id: str | None = None
    """The table's game once started (``GET /api/games/{game_id}/dice``)."""
    commitment: str | None = None
    """The SHA-256 of the game's secret dice seed, published before the first roll (the
    seed is revealed when the game is over: ``GET /api/games/{game_id}/dice``)."""
    daily: str | None = None
    """The day (UTC) of a daily game's table (one seat, no bots, hints nor undo)."""

    @classmethod
    def of_room(cls, room: TableRoom) -> LobbyView:
        """The table of a room, with the seats whose players are here."""
        return cls.of(room.table, set(room.connected()))

    @classmethod
    def of(cls, table: Table, connected: set[int]) -> LobbyView:
        session = table.session
        started = session.game.event_log[0] if session and session.game.event_log else None
        return cls(
            id=table.id,
            rules=table.rules.name,
            hints_allowed=table.hints_allowed,
            turn_timer=table.turn_timer,
            status=table.status,
            seats=[
                SeatView(
                    seat=s.seat,
                    name=s.name,
                    bot=s.bot.key if s.bot else None,
                    open=s.open,
                    connected=s.seat in connected,
                    reserved=s.reserved,
                    missed=s.missed,
                    out=s.out,
                )
                for s in table.seats
            ],
            turn_by_turn=table.turn_by_turn,
            timeout=TimeoutView(
                rule="out" if table.timeout.rule == "out" else "bot",
                level=table.timeout.level,
                missed=table.timeout.missed,
            ),
            deadline=table.live.deadline if table.live is not None else None,
            dice="entered" if table.entered else "rolled",
            sitting=table.sitting,
            rematch=table.rematch,
            game_id=session.game_id if session else None,
            commitment=getattr(started, "commitment", None),
            daily=table.daily.isoformat() if table.daily else None,
        )


class Created(BaseModel):
    table: LobbyView
    seat: int
    token: str
    invite: str
    spectate: str


class Joined(BaseModel):
    table: LobbyView
    seat: int
    token: str


class Rematched(BaseModel):
    """A player's seat at the rematch (the same answer each time they ask)."""

    table: LobbyView
    seat: int
    token: str
    """The player's secret token at the new table."""
    invite: str | None = None
    """The new table's invite link key, for its host (seat 0) only."""
    spectate: str | None = None
    """The new table's spectator key, for its host only."""


class SittingGameView(BaseModel):
    game: str
    """The game's id in the records."""
    totals: list[int]
    """Each seat's total, in seat order."""
    winners: list[int]


class SittingStandingView(BaseModel):
    seat: int
    name: str
    total: int
    """The seat's total over the sitting's games."""
    won: int
    """Games it finished first in (a shared first place counts for each)."""


class SittingView(BaseModel):
    """A sitting: a table and its rematches' finished games, in order, and the standings
    across them."""

    id: str
    games: list[SittingGameView]
    standings: list[SittingStandingView]

    @classmethod
    def of(cls, sitting: Sitting) -> SittingView:
        return cls(
            id=sitting.id,
            games=[
                SittingGameView(game=g.game_id, totals=list(g.totals), winners=list(g.winners))
                for g in sitting.games
            ],
            standings=[
                SittingStandingView(seat=s.seat, name=s.name, total=s.total, won=s.won)
                for s in sitting.standings
            ],
        )


class SittingColumnsGame(BaseModel):
    game: str
    cards: list[dict[str, Any]]
    """Each seat's card (`CARD`), in seat order."""
    totals: list[int]
    winners: list[int]


class SittingColumns(BaseModel):
    """A sitting as the paper pad's columns: each finished game's cards, one column per
    game per player, and each player's running total after each game."""

    id: str
    rules: str
    players: list[str]
    """The seats' names (the latest game's)."""
    games: list[SittingColumnsGame]
    running: list[list[int]]
    """After each game, each seat's total over the games so far."""

    @classmethod
    def of(cls, sitting: Sitting, games: Sequence[Game]) -> SittingColumns:
        return cls(
            id=sitting.id,
            rules=games[-1].rules.name,
            players=list(games[-1].players),
            games=[
                SittingColumnsGame(
                    game=g.game_id,
                    cards=[_card_dict(card) for card in game.cards],
                    totals=list(g.totals),
                    winners=list(g.winners),
                )
                for g, game in zip(sitting.games, games, strict=True)
            ],
            running=[list(row) for row in running_totals(sitting)],
        )


class TableBuild(BaseModel):
    """The build of the win-chance tables under way on the server's machine."""

    rules: str
    """The rule set whose table is being built."""
    kind: Literal["distribution", "target"]
    """The table being built: ``distribution`` (the win meter) or ``target`` (the
    ``winning`` bot)."""
    done: int
    """Layers done (of ``total``; a table has one per number of boxes filled)."""
    total: int
    pid: int
    """The process that builds (this server's builder, or one a terminal game or
    ``yahtzee tables build`` started: one per machine)."""
    expected_bytes: int
    """What the whole build (every table it builds) takes on disk, about."""
    expected_seconds: int
    """How long the whole build takes on a quiet machine, about."""


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    solver: Literal["warming", "ready"]
    """Whether the solver is loaded yet: until then a table's first bot move or hint
    waits for it (a game can start either way)."""
    node: str | None = None
    """This server node's name (only when it is one of several)."""
    tables: int | None = None
    """How many tables this node serves now (only when it is one of several)."""
    serves: bool | None = None
    """Whether this node serves the table asked about (``?table=ID``) and holds its game
    (only when asked, on a node of several)."""
    table_build: TableBuild | None = None
    """The build of the win-chance tables under way on this machine, by whichever
    process (absent when none runs): until it ends, the win meter says "preparing"."""


class Refusal(BaseModel):
    code: str
    message: str


# The game as clients see it ----------------------------------------------------------


class PlacementView(BaseModel):
    box: str
    name: str
    points: int
    yahtzee_bonus: int
    joker: bool

    @classmethod
    def of(cls, p: Placement) -> PlacementView:
        return cls.model_construct(  # from the engine: nothing to validate
            box=p.category.key,
            name=p.category.english_name,
            points=p.points,
            yahtzee_bonus=p.yahtzee_bonus,
            joker=p.joker,
        )


class StandingView(BaseModel):
    place: int
    seat: int
    name: str
    total: int
    winner: bool


class GameView(BaseModel):
    """Everything a client shows, derived from the engine."""

    phase: str
    players: list[str]
    current: int | None
    round: int | None
    dice: str | None
    rolls_left: int | None
    kept: str | None
    slots: str | None = None
    """The dice as they lie, place by place (``dice`` is the same dice in order): held
    dice keep their places through a roll."""
    held: list[int] = Field(default_factory=list)
    """The places (0 to 4) of ``slots`` the player to move holds for the next roll."""
    cards: list[dict[str, Any]]
    placements: list[PlacementView]
    winners: list[int]
    standings: list[StandingView] | None = None
    entered: bool = False
    """The players roll real dice and enter them (``dice`` intents): ``dice`` is what they
    entered, ``placements`` what each open box scores with it."""
    undo: int | None = None
    """The seat that may take back its last placement now (an ``undo`` intent), if any."""

    @classmethod
    def of(cls, game: Game, tray: Tray | None = None, *, undo_on: bool = False) -> GameView:
        """Built for every move on every node that shows it: from the engine's values,
        so without validation (the card dicts of unchanged cards are reused); ``tray``:
        the dice's places, when the game is played here; ``undo_on``: the game lets a
        player take back a placement (`GameSession.undo_on`)."""
        turn = game.turn
        rolled = turn is not None and turn.dice is not None
        lying = tray if tray is not None else tray_of(game)
        return cls.model_construct(
            phase=game.phase.value,
            players=list(game.players),
            current=game.current_player,
            round=turn.round if turn else None,
            dice=str(turn.dice) if turn and turn.dice else None,
            rolls_left=turn.rolls_left if turn else None,
            kept=str(turn.kept) if turn and rolled else None,
            slots="".join(map(str, lying.faces)) or None,
            held=sorted(lying.held),
            cards=[_card_dict(card) for card in game.cards],
            placements=[_placement_view(p) for p in game.placements()],
            winners=list(game.winners),
            standings=[
                StandingView.model_construct(
                    place=s.place, seat=s.player, name=s.name, total=s.total, winner=s.winner
                )
                for s in game.standings()
            ]
            if game.is_over
            else None,
            entered=game.entered,
            undo=_undo_seat(game) if undo_on else None,
        )


def _undo_seat(game: Game) -> int | None:
    """Who may take back the last placement now (before the next player acts)."""
    log = game.event_log
    last = log[-1] if log else None
    if isinstance(last, Scored | Written) and game.can_undo(last.player):
        return last.player
    return None


def _placement_view(placement: Placement) -> PlacementView:
    """A legal box as a view shows it (shared: never changed once made; there are a few
    hundred kinds per edition). Remembered by the box's edition too: placements in boxes
    of two editions are equal when their boxes' numbers are (Yatzy's One Pair and
    Yahtzee's Three of a Kind are both box 6)."""
    return _placement_view_of(type(placement.category), placement)


@lru_cache(maxsize=CARDS_KEPT)
def _placement_view_of(_edition_boxes: type, placement: Placement) -> PlacementView:
    return PlacementView.of(placement)


@lru_cache(maxsize=CARDS_KEPT)
def _card_dict(card: Scorecard) -> dict[str, Any]:
    """A card as a view shows it (shared: never changed once made)."""
    return card.to_dict()
