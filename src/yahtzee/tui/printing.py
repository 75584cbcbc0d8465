"""The printable paper scorecard of a recorded game, the pad of a sitting and a blank
pad, written to a file from the game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..core import Game, RuleSet
from ..core.language import N_
from ..render.pad_html import MAX_PAD_GAMES, PORTRAIT_COLUMNS, render_pad
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


PRINT_IT = N_("Open it in a browser to print it.")
"""Said after a file to print is written (marked; translated where shown)."""
TOAST_WIDTH = (60, 50)
"""A notification's width in a terminal: 60 columns, at most half the screen's."""
TOAST_FRAME = 3
"""Its border and padding: the columns a line of it does not get."""


def written_note(written: str, path: Path, width: int, then: str = "") -> str:
    """What to say once a file is written to ``path``, in a notification on a terminal
    ``width`` columns wide: ``written`` ("Pad written to"), then the path on a line of
    its own, whole where it fits, else with its folders shortened (never the file's
    name); then ``then``."""
    room = min(TOAST_WIDTH[0], width * TOAST_WIDTH[1] // 100) - TOAST_FRAME
    lines = [written, shown_path(path, room)]
    return "\n".join([*lines, then] if then else lines)


def shown_path(path: Path, room: int) -> str:
    """``path`` in ``room`` characters where it can be: the home folder as ``~``, then
    the folders nearest the root left out ("…/Downloads/yahtzee-pad-1a2b3c4d.html"); the
    file's name stays whole, even alone beyond ``room``."""
    home = Path.home()
    shown = f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
    parts = Path(shown).parts
    for start in range(1, len(parts)):
        if len(shown) <= room:
            return shown
        shown = str(Path("…", *parts[start:]))
    return shown if len(shown) <= room else parts[-1]


def write_card(store: Store, game_id: str, folder: Path | None = None) -> Path:
    """Write the game's card (finished or not: open boxes are blank) as a one-page HTML
    file, ``yahtzee-card-<id>.html``; returns its path."""
    summary = store.summary(game_id)
    page = render_scorecard(store.load(game_id), game_id=game_id, played=summary.created_at)
    path = (folder or card_folder()) / f"yahtzee-card-{game_id[:SHORT_ID]}.html"
    path.write_text(page, encoding="utf-8")
    return path


def write_pad(games: Sequence[Game], name: str, folder: Path | None = None) -> Path:
    """Write the filled pad of a sitting's ``games`` (in order, the same players; the
    last may be unfinished), as ``yahtzee card GAME --sitting --html`` does, to
    ``yahtzee-pad-<name>.html``; returns its path."""
    first = games[0]
    page = render_pad(first.rules, first.players, games)
    path = (folder or card_folder()) / f"yahtzee-pad-{name[:SHORT_ID]}.html"
    path.write_text(page, encoding="utf-8")
    return path


def write_blank_pad(rules: RuleSet, players: Sequence[str], folder: Path | None = None) -> Path:
    """Write a blank pad for these players (their names at the top; blank names for
    none), as many games a player as fill one upright page, to ``yahtzee-pad-blank.html``;
    returns its path."""
    names = [name.strip() for name in players]
    games = max(1, min(MAX_PAD_GAMES, PORTRAIT_COLUMNS // max(1, len(names))))
    page = render_pad(rules, names, games)
    path = (folder or card_folder()) / "yahtzee-pad-blank.html"
    path.write_text(page, encoding="utf-8")
    return path
