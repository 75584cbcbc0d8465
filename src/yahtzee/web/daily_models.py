"""The daily game's and the dice's REST bodies and answers (see ``docs/protocol.md``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..core import MAX_NAME_LENGTH, Draw, GameStarted, check_steps, draw_of
from ..core.events import event_from_dict
from ..core.language import N_, _
from ..service import daily
from ..service.daily_table import DayView, Outcome
from ..store.daily import DailyResult
from .models import LobbyView

PROGRAM_STEP = N_("Or let the program check every roll of the record: yahtzee verify GAME_ID.")


class StartDaily(BaseModel):
    """``POST /api/daily``: the player's name (the token of an unfinished attempt, if
    any, goes in the ``Authorization`` header, as everywhere)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)


class DailyDay(BaseModel):
    day: str
    commitment: str
    """The SHA-256 of today's secret seed (everyone's dice today)."""
    tomorrow: str
    """Tomorrow's commitment, published a day ahead."""
    yesterday: str
    yesterday_commitment: str | None
    yesterday_seed: str | None
    """Yesterday's seed, revealed now its day is over (None if nobody played it)."""

    @classmethod
    def of(cls, view: DayView) -> DailyDay:
        return cls(
            day=view.day.isoformat(), commitment=view.commitment, tomorrow=view.tomorrow,
            yesterday=view.yesterday.isoformat(), yesterday_commitment=view.yesterday_commitment,
            yesterday_seed=view.yesterday_seed,
        )  # fmt: skip


class DailyStarted(BaseModel):
    table: LobbyView
    seat: int
    token: str
    day: str


class DailyEntry(BaseModel):
    place: int
    name: str
    score: int
    loss: float | None
    """Points lost to the best choices (the fewer, the better)."""


class DailyBoard(BaseModel):
    day: str
    commitment: str
    best: int | None
    """Optimal play's score on the day's dice: the yardstick."""
    by_score: list[DailyEntry]
    by_skill: list[DailyEntry]

    @classmethod
    def of(cls, board: daily.Leaderboard) -> DailyBoard:
        def entries(ranked: tuple[daily.Ranked, ...]) -> list[DailyEntry]:
            return [
                DailyEntry(
                    place=r.place,
                    name=r.result.player,
                    score=r.result.score or 0,
                    loss=r.result.loss,
                )
                for r in ranked
            ]

        return cls(day=board.day.isoformat(), commitment=board.commitment, best=board.best,
                   by_score=entries(board.by_score), by_skill=entries(board.by_skill))  # fmt: skip


class DailyDayPlayed(BaseModel):
    day: str
    score: int
    loss: float | None

    @classmethod
    def of(cls, result: DailyResult) -> DailyDayPlayed:
        return cls(day=result.day.isoformat(), score=result.score or 0, loss=result.loss)


class DailyOutcome(BaseModel):
    """A finished daily game's result, worked out on the server from the game itself."""

    day: str
    name: str
    score: int
    loss: float | None
    best: int | None
    leaderboard: DailyBoard
    days: list[DailyDayPlayed]
    streak: int
    share: str

    @classmethod
    def of(cls, found: Outcome) -> DailyOutcome:
        result = found.result
        return cls(
            day=result.day.isoformat(), name=result.player, score=result.score or 0,
            loss=result.loss, best=found.board.best, leaderboard=DailyBoard.of(found.board),
            days=[DailyDayPlayed.of(r) for r in found.days], streak=found.streak,
            share=found.share,
        )  # fmt: skip


class GameDice(BaseModel):
    """A game's dice: its commitment from the start, how they are drawn, its seed once
    revealed, and the steps to check every roll."""

    game_id: str
    commitment: str | None
    """None for a game whose dice were not committed (entered dice, older games)."""
    draw: Draw | None
    """``seat``: each seat's own dice; ``duplicate``: every seat the same dice (the daily
    game, and the games recorded before the start event said); None with no commitment."""
    seed: str | None
    """None until the game is over (a daily game's: until its day is over)."""
    steps: list[str]
    verify: str

    @classmethod
    def of(cls, game_id: str, start: object, seed: str | None) -> GameDice:
        """The dice of the game whose start event is ``start``."""
        opening = event_from_dict(start)
        committed: str | None = None
        draw: Draw | None = None
        if isinstance(opening, GameStarted) and opening.commitment is not None:
            committed, draw = opening.commitment, draw_of(opening)
        return cls(
            game_id=game_id, commitment=committed, draw=draw,
            seed=seed, steps=[*check_steps(draw), _(PROGRAM_STEP)] if draw else [],
            verify=f"yahtzee verify {game_id}",
        )  # fmt: skip
