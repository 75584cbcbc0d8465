"""Typed models of every message the server sends over the WebSocket, each built from the
engine and the game service, never by hand: see ``docs/protocol.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field
from pydantic_core import to_json

from ..core import UPPER_BONUS_THRESHOLD, Event
from ..core.events import event_to_dict
from .models import GameView, LobbyView
from .protocol import VERSION

if TYPE_CHECKING:
    from ..service import RoomView
    from ..service.meter import MeterReading
    from ..service.room_events import Held, PresenceChanged, Said, TimedOut
    from ..solver import Advice
    from ..solver.review import PlayerReview
    from ..store.chat import ChatLine

COSTLIEST_SHOWN = 3
HINT_OPTIONS_SHOWN = 5

# WebSocket messages from the server --------------------------------------------------


class _Message(BaseModel):
    v: Literal[1] = VERSION


class You(BaseModel):
    seat: int | None
    role: Literal["player", "spectator"]


class ChatMessage(_Message):
    type: Literal["chat"] = "chat"
    seat: int
    name: str | None
    text: str

    @classmethod
    def of(cls, line: Said | ChatLine) -> ChatMessage:
        return cls(seat=line.seat, name=line.name, text=line.text)


class StateMessage(_Message):
    """The full state: on connecting, on ``resync``, and to each connection when the game
    starts. Built from what the store has committed, never from a move still being saved."""

    type: Literal["state"] = "state"
    seq: int
    table: LobbyView
    you: You
    game: GameView | None
    chat: list[ChatMessage] = Field(default_factory=list)
    """The table's recent chat (the last `CHAT_KEPT` lines)."""
    turn_deadline: float | None = None
    """When the turn timer decides for the player to act (Unix time, seconds)."""
    spectators: int = 0
    win_chances: list[float] | None = None
    """The win-chance meter as of this state: each seat's chance (0 to 1) to finish first
    if everyone plays for the most expected points from here (ties shared); a game alone,
    one number: the chance to beat the player's best finished score. ``None`` when there
    is nothing to show (no estimate for these rules while the meter's table is not
    loaded, no best score, the game over)."""
    meter_progress: tuple[int, int] | None = None
    """``[done, total]`` while the meter's table is being prepared, else ``None``."""
    meter_estimate: bool = False
    """The chances are an estimate (the exact table is being prepared), each within
    ``meter_margin`` of the exact one."""
    meter_margin: float | None = None
    """With an estimate: how far each chance may be from the exact one (0 to 1)."""
    upper_bonus_threshold: int = UPPER_BONUS_THRESHOLD
    """The upper section's subtotal that earns the bonus."""

    @classmethod
    def of(cls, view: RoomView) -> StateMessage:
        """The state of a table's room as one seat (or a spectator) is shown it."""
        game, tray, reading = view.game, view.tray, view.meter
        current = reading is not None and view.meter_current
        chances = reading.chances if reading is not None and current else None
        return cls(
            seq=view.seq,
            table=LobbyView.of(view.table, set(view.connected)),
            you=You(seat=view.seat, role="spectator" if view.seat is None else "player"),
            game=GameView.of(game, tray, undo_on=view.undo_on) if game is not None else None,
            chat=[ChatMessage.of(line) for line in view.chat],
            turn_deadline=view.deadline,
            spectators=view.spectators,
            win_chances=list(chances) if chances is not None else None,
            meter_progress=reading.progress if reading is not None else None,
            meter_estimate=reading.estimate if reading is not None and current else False,
            meter_margin=reading.margin if reading is not None and current else None,
        )


class EventMessage(_Message):
    type: Literal["event"] = "event"
    seq: int
    event: dict[str, Any]
    game: GameView
    turn_deadline: float | None = None
    by_timer: bool = False
    """The turn timer ran out and its stand-in played this move for the player."""

    @classmethod
    def of(
        cls,
        seq: int,
        event: Event,
        game: GameView,
        turn_deadline: float | None = None,
        *,
        by_timer: bool = False,
    ) -> EventMessage:
        return cls(
            seq=seq,
            event=event_to_dict(event),
            game=game,
            turn_deadline=turn_deadline,
            by_timer=by_timer,
        )

    @staticmethod
    def texts(
        first: int,
        events: tuple[Event, ...],
        game: GameView,
        turn_deadline: float | None,
        *,
        by_timer: bool = False,
    ) -> list[str]:
        """The JSON of each event of one move (seq ``first`` on), all with the state after
        it: what `of` then ``model_dump_json`` gives, with the state serialized once."""
        deadline = to_json(turn_deadline).decode()
        timer = "true" if by_timer else "false"
        tail = f',"game":{game.model_dump_json()},"turn_deadline":{deadline},"by_timer":{timer}}}'
        return [
            f'{{"v":{VERSION},"type":"event","seq":{first + i},'
            f'"event":{to_json(event_to_dict(event)).decode()}{tail}'
            for i, event in enumerate(events)
        ]


class MeterMessage(_Message):
    """The win-chance meter changed: after a placement (when there is a meter to show),
    while its table is being prepared, and when it is ready. Fields as in the state."""

    type: Literal["meter"] = "meter"
    seq: int
    """The committed event the meter is as of (the events up to it came first)."""
    win_chances: list[float] | None
    meter_progress: tuple[int, int] | None
    estimate: bool = False
    """The chances are an estimate, each within ``margin`` of the exact one (a client
    that knows no estimate shows them as they are)."""
    margin: float | None = None

    @classmethod
    def of(cls, seq: int, reading: MeterReading) -> MeterMessage:
        """The message of a meter reading (`GameSession.meter`)."""
        chances = list(reading.chances) if reading.chances is not None else None
        return cls(
            seq=seq,
            win_chances=chances,
            meter_progress=reading.progress,
            estimate=reading.estimate,
            margin=reading.margin,
        )


class PresenceMessage(_Message):
    """Who is connected now (sent instead of the full state when someone comes or goes)."""

    type: Literal["presence"] = "presence"
    connected: list[int]
    spectators: int

    @classmethod
    def of(cls, changed: PresenceChanged) -> PresenceMessage:
        return cls(connected=list(changed.connected), spectators=changed.spectators)


class PongMessage(_Message):
    """The answer to a ``ping``."""

    type: Literal["pong"] = "pong"


class PlayedForMessage(_Message):
    """To a player back at the table (a new connection of the seat, or one heard from
    again after it was away): what the turn timer's stand-in played for them since they
    last acted themselves, each event as in an ``event`` message, in order."""

    type: Literal["played_for"] = "played_for"
    seat: int
    events: list[dict[str, Any]]

    @classmethod
    def of(cls, seat: int, events: tuple[Event, ...]) -> PlayedForMessage:
        return cls(seat=seat, events=[event_to_dict(event) for event in events])


class TimedOutMessage(_Message):
    """A decision's time ran out at ``seat`` (its player ``name``), told to everyone at
    the table: the table's timeout ``rule`` applied (a bot played the turn); ``missed``:
    the seat's missed turns in a row; ``out``: the seat is out from now on (rule
    ``out``: a bot plays it)."""

    type: Literal["timed_out"] = "timed_out"
    seat: int
    name: str | None
    rule: Literal["bot", "out"]
    missed: int
    out: bool

    @classmethod
    def of(cls, timed_out: TimedOut) -> TimedOutMessage:
        return cls(
            seat=timed_out.seat,
            name=timed_out.name,
            rule="out" if timed_out.rule == "out" else "bot",
            missed=timed_out.missed,
            out=timed_out.out,
        )


class LobbyMessage(_Message):
    """The lobby changed: a seat was taken or handed to a bot."""

    type: Literal["lobby"] = "lobby"
    table: LobbyView


class HoldMessage(_Message):
    """The player to move holds the dice in ``held`` (places of the game's ``slots``),
    as of the committed event ``seq``."""

    type: Literal["hold"] = "hold"
    seq: int
    player: int
    held: list[int]

    @classmethod
    def of(cls, held: Held) -> HoldMessage:
        return cls(seq=held.seq, player=held.seat, held=list(held.held))


class AckMessage(_Message):
    """An intent that carried an ``id`` was handled; ``seq`` is the committed sequence
    number after it."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int


class HintOption(BaseModel):
    action: str
    value: float
    regret: float


class HintMessage(_Message):
    type: Literal["hint"] = "hint"
    situation: str
    options: list[HintOption]

    @classmethod
    def of(cls, advice: Advice) -> HintMessage:
        best = advice.best.value
        return cls(
            situation=str(advice.situation),
            options=[
                HintOption(action=o.text, value=o.value, regret=best - o.value)
                for o in advice.options[:HINT_OPTIONS_SHOWN]
            ],
        )


class CostlyDecision(BaseModel):
    round: int
    dice: str
    chosen: str
    best: str
    loss: float
    win_swing: float | None = None
    """Against others: the chance to finish first (0 to 1) this decision gave up against
    the best choice for winning; ``None`` when not known (alone, or the tables that tell
    were not loaded)."""


class PlayerReviewView(BaseModel):
    seat: int
    name: str
    total_loss: float
    decisions: int
    costliest: list[CostlyDecision]


class ReviewMessage(_Message):
    type: Literal["review"] = "review"
    players: list[PlayerReviewView]
    notes: list[str] = Field(default_factory=list)
    """How each bot that plays to win made its decisions (which method), one sentence
    each."""

    @classmethod
    def of(cls, reviews: list[PlayerReview], notes: list[str] | None = None) -> ReviewMessage:
        return cls(
            notes=list(notes or ()),
            players=[
                PlayerReviewView(
                    seat=p.player,
                    name=p.name,
                    total_loss=p.total_loss,
                    decisions=len(p.decisions),
                    costliest=[
                        CostlyDecision(
                            round=d.round,
                            dice=d.situation.dice.spaced(),
                            chosen=d.text,
                            best=d.best_text,
                            loss=d.loss,
                            win_swing=d.win_swing,
                        )
                        for d in p.costliest(COSTLIEST_SHOWN)
                    ],
                )
                for p in reviews
            ],
        )


class ErrorMessage(_Message):
    type: Literal["error"] = "error"
    code: str
    message: str
    id: str | None = None
    """The refused intent's ``id``, when it carried one."""


Outbound = (
    StateMessage
    | EventMessage
    | ChatMessage
    | HintMessage
    | ReviewMessage
    | ErrorMessage
    | PresenceMessage
    | MeterMessage
    | LobbyMessage
    | HoldMessage
    | TimedOutMessage
    | AckMessage
    | PongMessage
    | PlayedForMessage
)
