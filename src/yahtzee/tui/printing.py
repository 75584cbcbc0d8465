"""The printable paper scorecard of a recorded game, written to a file from the game."""

from __future__ import annotations

from pathlib import Path

from ..render.scorecard_html import render_scorecard
from ..store import Store

SHORT_ID = 8
"""How many characters of a game's id the screens show (and the card's file name holds)."""


def card_folder() -> Path:
    """Where a printed card goes: the user's Downloads folder when there is one, else the
    current directory."""
    import platformdirs  # noqa: PLC0415

    downloads = Path(platformdirs.user_downloads_dir())
    return downloads if downloads.is_dir() else Path.cwd()


def write_card(store: Store, game_id: str, folder: Path | None = None) -> Path:
    """Write the game's card (finished or not: open boxes are blank) as a one-page HTML
    file, ``yahtzee-card-<id>.html``; returns its path."""
    summary = store.summary(game_id)
    page = render_scorecard(store.load(game_id), game_id=game_id, played=summary.created_at)
    path = (folder or card_folder()) / f"yahtzee-card-{game_id[:SHORT_ID]}.html"
    path.write_text(page, encoding="utf-8")
    return path
