"""The WebSocket protocol (version 1): client intents in, state and events out.

Every message is a JSON object with ``"v": 1`` and a ``"type"``. A connection's first
message is a `Hello` (the seat's token or the spectator key: never in the URL);
every later one is an intent, with an optional ``"id"`` that makes it idempotent. See
``docs/protocol.md``. Each intent reads as one command of the table's room (`command`):
the room, not this module, decides whether it is allowed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from ..core import DICE_COUNT, YahtzeeError
from ..core.language import _
from ..service import commands
from ..service.chat import MAX_CHAT

VERSION: Final = 1
MAX_MESSAGE_BYTES = 4096
MAX_KEEP_TEXT = 16
MAX_BOX_TEXT = 32
MAX_DICE_TEXT = 16
MAX_ID = 64
MAX_SECRET = 128


def speaks_version(value: object) -> bool:
    """Whether ``value`` is this protocol's version: the JSON number 1 exactly (not
    ``true`` nor ``1.0``, which Python takes for 1)."""
    return type(value) is int and value == VERSION


class _Inbound(BaseModel):
    """A client's message, read strictly: JSON's own types only, no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True)
    v: Literal[1] = 1

    @field_validator("v", mode="before")
    @classmethod
    def _exact_version(cls, value: object) -> object:
        if not speaks_version(value):  # a Literal takes True and 1.0 for 1, strict or not
            raise ValueError(
                _("the protocol version is the number {version}").format(version=VERSION)
            )
        return value


class _Intent(_Inbound):
    id: str | None = Field(default=None, min_length=1, max_length=MAX_ID)
    """Optional: an intent repeated with the same id is answered again, applied once."""

    def command(self) -> commands.Command | None:
        """The room's command this intent asks for (None: the connection's own, a ping)."""
        raise NotImplementedError


class RollIntent(_Intent):
    """Keep these dice (text like ``"335"``; empty or ``"-"`` keeps none) and roll; or
    keep the dice in the places ``held`` (0 to 4, as the game's ``slots`` show them):
    they stay in their places. With both, they must name the same dice."""

    type: Literal["roll"]
    keep: str = Field(default="", max_length=MAX_KEEP_TEXT)
    held: list[int] | None = Field(default=None, max_length=DICE_COUNT)

    def command(self) -> commands.Roll:
        return commands.Roll(self.keep, None if self.held is None else tuple(self.held))


class HoldIntent(_Intent):
    """Hold the dice in these places (0 to 4) for the next roll: everyone at the table
    sees it, and it is kept until the roll (through reconnections)."""

    type: Literal["hold"]
    held: list[int] = Field(max_length=DICE_COUNT)

    def command(self) -> commands.Hold:
        return commands.Hold(tuple(self.held))


class ScoreIntent(_Intent):
    """Fill a box (any name players use: ``"fh"``, ``"full house"``, ``"aces"``)."""

    type: Literal["score"]
    box: str = Field(max_length=MAX_BOX_TEXT)

    def command(self) -> commands.Score:
        return commands.Score(self.box)


class DiceIntent(_Intent):
    """At a table of real dice: the five dice showing (text like ``"33356"``), and which
    roll of the turn it is (1 to 3), if the player says. Sent again before a box is filled,
    it corrects them (no roll used)."""

    type: Literal["dice"]
    dice: str = Field(max_length=MAX_DICE_TEXT)
    roll: int | None = None

    def command(self) -> commands.Dice:
        return commands.Dice(self.dice, self.roll)


class WriteIntent(_Intent):
    """At a table of real dice: quick score entry, ``points`` written in a box (checked
    against what the box can hold under the rules)."""

    type: Literal["write"]
    category: str = Field(max_length=MAX_BOX_TEXT)
    points: int

    def command(self) -> commands.Write:
        return commands.Write(self.category, self.points)


class UndoIntent(_Intent):
    """Take back one's last placement (where the game allows it: at a table of real dice,
    until the next player acts)."""

    type: Literal["undo"]

    def command(self) -> commands.Undo:
        return commands.Undo()


class ResignIntent(_Intent):
    """Leave the game for good: the table's stand-in bot plays the seat on."""

    type: Literal["resign"]

    def command(self) -> commands.Resign:
        return commands.Resign()


class ChatIntent(_Intent):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_CHAT)

    def command(self) -> commands.Chat:
        return commands.Chat(self.text)


class HintIntent(_Intent):
    """Ask the advisor about the current decision (when the table allows hints)."""

    type: Literal["hint"]

    def command(self) -> commands.Hint:
        return commands.Hint()


class ReviewIntent(_Intent):
    """After the game: each player's decisions against the optimal ones."""

    type: Literal["review"]

    def command(self) -> commands.Review:
        return commands.Review()


class ResyncIntent(_Intent):
    """Ask for the full state again (after a missed sequence number)."""

    type: Literal["resync"]

    def command(self) -> commands.Resync:
        return commands.Resync()


class PingIntent(_Intent):
    """Are you there? Answered at once by a ``pong``: a client that hears nothing for a
    while knows its connection is dead, and the server counts a connection it hears
    nothing from (pings included) for `AWAY_AFTER_S` as away."""

    type: Literal["ping"]

    def command(self) -> None:
        return None  # answered by the connection's hub at once (a ``pong``)


class Hello(_Inbound):
    """A connection's first message: who it is (a seat's token, or the spectator key)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=MAX_SECRET)
    watch: str | None = Field(default=None, min_length=1, max_length=MAX_SECRET)


AnyIntent = (
    RollIntent
    | HoldIntent
    | ScoreIntent
    | DiceIntent
    | WriteIntent
    | UndoIntent
    | ResignIntent
    | ChatIntent
    | ResyncIntent
    | HintIntent
    | ReviewIntent
    | PingIntent
)
Intent = Annotated[AnyIntent, Field(discriminator="type")]
INTENT_TYPES: tuple[str, ...] = tuple(
    get_args(intent.model_fields["type"].annotation)[0] for intent in get_args(AnyIntent)
)
"""Each intent's ``type``, in the union's order (read from the intents themselves)."""
_READER: TypeAdapter[Any] = TypeAdapter(Intent)


class ProtocolError(YahtzeeError):
    default_code = "bad_message"

    def __init__(self, message: str, *, code: str | None = None, id: str | None = None) -> None:
        super().__init__(message, code=code)
        self.id = id
        """The message's ``"id"`` when it could be read (the error answer carries it)."""


def _object(raw: str | bytes) -> dict[str, Any]:
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            _("Messages are at most {most} bytes.").format(most=MAX_MESSAGE_BYTES),
            code="too_large",
        )
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError(_("That message is not valid JSON."), code="malformed_json") from None
    if not isinstance(data, dict):
        raise ProtocolError(_("A message is a JSON object."), code="bad_message")
    return data


def _readable_id(data: dict[str, Any]) -> str | None:
    found = data.get("id")
    return found if isinstance(found, str) and 0 < len(found) <= MAX_ID else None


def parse_hello(raw: str | bytes) -> Hello:
    """A connection's first message: exactly one of ``token`` and ``watch``."""
    data = _object(raw)
    if data.get("type") != "hello":
        raise ProtocolError(_("The first message is a hello."), code="hello_first")
    try:
        hello = Hello.model_validate(data)
    except ValidationError:
        raise ProtocolError(_("A hello names a token or a spectator key.")) from None
    if (hello.token is None) == (hello.watch is None):
        raise ProtocolError(_("A hello names a token or a spectator key, not both."))
    return hello


def parse_intent(raw: str | bytes) -> AnyIntent:
    """A client message, or `ProtocolError` with a code a client can act on."""
    data = _object(raw)
    kind = data.get("type")
    if kind not in INTENT_TYPES:
        known = ", ".join(INTENT_TYPES)
        raise ProtocolError(
            _("Unknown message type; known types: {known}.").format(known=known),
            code="unknown_type",
            id=_readable_id(data),
        )
    if not speaks_version(data.get("v", VERSION)):
        raise ProtocolError(
            _("This server speaks protocol version {version}.").format(version=VERSION),
            code="bad_version",
            id=_readable_id(data),
        )
    try:
        intent: AnyIntent = _READER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise ProtocolError(
            # Translators: {where} is the field of the message, as sent ("keep"); {reason}
            # says what is wrong with it (in English: it comes from the validating library).
            _("Bad {where}: {reason}.").format(where=where, reason=first.get("msg", "invalid")),
            code="bad_message",
            id=_readable_id(data),
        ) from None
    return intent
