"""The WebSocket protocol (version 1): client intents in, state and events out.

Every message is a JSON object with ``"v": 1`` and a ``"type"``. See ``docs/protocol.md``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..core import YahtzeeError

VERSION: Final = 1
MAX_MESSAGE_BYTES = 4096
MAX_CHAT = 200
MAX_KEEP_TEXT = 16
MAX_BOX_TEXT = 32


class _Intent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    v: Literal[1] = 1


class RollIntent(_Intent):
    """Keep these dice (text like ``"335"``; empty or ``"-"`` keeps none) and roll."""

    type: Literal["roll"]
    keep: str = Field(default="", max_length=MAX_KEEP_TEXT)


class ScoreIntent(_Intent):
    """Fill a box (any name players use: ``"fh"``, ``"full house"``, ``"aces"``)."""

    type: Literal["score"]
    box: str = Field(max_length=MAX_BOX_TEXT)


class ChatIntent(_Intent):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_CHAT)


class HintIntent(_Intent):
    """Ask the advisor about the current decision (when the table allows hints)."""

    type: Literal["hint"]


class ReviewIntent(_Intent):
    """After the game: each player's decisions against the optimal ones."""

    type: Literal["review"]


class ResyncIntent(_Intent):
    """Ask for the full state again (after a missed sequence number)."""

    type: Literal["resync"]


AnyIntent = RollIntent | ScoreIntent | ChatIntent | ResyncIntent | HintIntent | ReviewIntent
Intent = Annotated[AnyIntent, Field(discriminator="type")]
INTENT_TYPES = ("roll", "score", "chat", "resync", "hint", "review")
_READER: TypeAdapter[Any] = TypeAdapter(Intent)


class ProtocolError(YahtzeeError):
    default_code = "bad_message"


def parse_intent(raw: str | bytes) -> AnyIntent:
    """A client message, or :class:`ProtocolError` with a code a client can act on."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"Messages are at most {MAX_MESSAGE_BYTES} bytes.", code="too_large")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("That message is not valid JSON.", code="malformed_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("A message is a JSON object.", code="bad_message")
    kind = data.get("type")
    if kind not in INTENT_TYPES:
        known = ", ".join(INTENT_TYPES)
        raise ProtocolError(f"Unknown message type; known types: {known}.", code="unknown_type")
    if data.get("v", VERSION) != VERSION:
        raise ProtocolError(f"This server speaks protocol version {VERSION}.", code="bad_version")
    try:
        intent: AnyIntent = _READER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise ProtocolError(
            f"Bad {where}: {first.get('msg', 'invalid')}.", code="bad_message"
        ) from None
    return intent
