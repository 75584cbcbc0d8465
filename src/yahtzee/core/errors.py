"""The one error hierarchy of the project.

Every message is written for a player: it says what was wrong and, where it helps,
what is allowed instead.
"""

from __future__ import annotations


class YahtzeeError(Exception):
    """Base class of every error this package raises on purpose.

    ``code`` is a short machine-readable tag (used by the server's structured errors);
    ``str(error)`` is the message a player reads.
    """

    default_code = "yahtzee_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code


class InvalidInput(YahtzeeError, ValueError):
    """Text or data that cannot be understood: malformed dice, unknown box, bad card data."""

    default_code = "invalid_input"


class IllegalMove(YahtzeeError):
    """A well-formed action the rules do not allow now: out of turn, a fourth roll, a filled box."""

    default_code = "illegal_move"


def show(value: object, limit: int = 40) -> str:
    """A short, safe ``repr`` of any value for an error message (never raises)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError, TypeError):
        text = f"<{type(value).__name__}>"
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
