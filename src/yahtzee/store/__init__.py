"""Game records on SQLAlchemy: SQLite by default, PostgreSQL by URL."""

from .engine import DATABASE_ENV, default_url
from .queries import HighScore, PlayerStats, high_scores, history, stats, unfinished
from .store import GameSummary, Seat, Store, StoreError
from .tables import TableRecord, TableSeatRecord
from .transfer import export_csv, export_json, import_games

__all__ = [
    "DATABASE_ENV",
    "GameSummary",
    "HighScore",
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
    "stats",
    "unfinished",
]
