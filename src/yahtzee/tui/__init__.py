"""The terminal game (Textual): new game, play, hints, review, history and statistics."""

from .app import YahtzeeApp, run

__all__ = ["YahtzeeApp", "run"]
