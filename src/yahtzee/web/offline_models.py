"""The bodies and answers of ``POST /api/me/offline-games`` (see docs/protocol.md,
*Offline games*)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ..core import MAX_NAME_LENGTH, MAX_PLAYERS
from ..service.offline_games import MAX_EVENTS, OfflinePlayer, OfflineUpload

UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
MAX_RULES_NAME = 64
MAX_EVENT_FIELDS = 8
"""The fields of an event at most (a start event has the most: six)."""

EventValue = str | int | list[Annotated[str, Field(max_length=MAX_NAME_LENGTH)]] | None
"""A field of an event: text, a whole number, a start event's list of names, or null."""
Event = Annotated[dict[str, EventValue], Field(max_length=MAX_EVENT_FIELDS)]
"""An event as the core writes it (checked by the core's replay)."""


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class OfflinePlayerBody(_Body):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    bot: str | None = Field(default=None, max_length=32)
    """A bot's key (``level3``, ``optimal``: ``GET /api/bots``); null for a person."""


class OfflineGameBody(_Body):
    """A finished game played offline on this device."""

    id: str = Field(pattern=UUID_PATTERN)
    """The id the device gave the game (a UUID): the same id again keeps nothing new."""
    rules: str = Field(min_length=1, max_length=MAX_RULES_NAME)
    players: list[OfflinePlayerBody] = Field(min_length=1, max_length=MAX_PLAYERS)
    events: list[Event] = Field(min_length=1, max_length=MAX_EVENTS)
    """The game's events as the engine writes them, its start first."""
    finished_at: Annotated[datetime, Field(strict=False)]
    """When the game ended: ISO 8601 (UTC without a zone) or Unix seconds."""
    seat: int | None = Field(default=None, ge=0, lt=MAX_PLAYERS)
    """The account's seat (null: the first seat without a bot)."""

    def upload(self) -> OfflineUpload:
        return OfflineUpload(
            client_id=self.id.lower(),
            rules=self.rules,
            players=tuple(OfflinePlayer(p.name, p.bot) for p in self.players),
            events=tuple(self.events),
            finished_at=self.finished_at,
            seat=self.seat,
        )


class OfflineGameKept(BaseModel):
    game: str
    """The kept game's id (as history and export list it)."""
    offline: bool = True


__all__ = ["OfflineGameBody", "OfflineGameKept", "OfflinePlayerBody"]
