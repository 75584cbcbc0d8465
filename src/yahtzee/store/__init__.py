"""Game records on SQLAlchemy: SQLite by default, PostgreSQL by URL."""

from .commit import CONFLICT, REPEAT, SAVED, Commit, Outcome, StoreError
from .engine import DATABASE_ENV, default_url
from .queries import (
    GameProgress,
    HighScore,
    PlayerStats,
    high_scores,
    history,
    progress_of,
    stats,
    unfinished,
)
from .store import Store
from .transfer import export_csv, export_json, import_games
from .values import GameSummary, Seat, TableRecord, TableSeatRecord

__all__ = [
    "CONFLICT",
    "DATABASE_ENV",
    "REPEAT",
    "SAVED",
    "Commit",
    "GameProgress",
    "GameSummary",
    "HighScore",
    "Outcome",
    "PlayerStats",
    "Seat",
    "Store",
    "StoreError",
    "TableRecord",
    "TableSeatRecord",
    "default_url",
    "export_csv",
    "export_json",
    "high_scores",
    "history",
    "import_games",
    "progress_of",
    "stats",
    "unfinished",
]
