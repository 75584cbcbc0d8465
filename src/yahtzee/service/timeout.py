"""A table's time per move and what happens when it runs out.

A table's turn timer gives each decision from one second (live play, everyone there at
once) to three days (`MAX_TURN_TIMER_S`); above `TURN_BY_TURN_S` the table is played turn
by turn: players come and go, the game goes on for as long as it takes, and the decision's
deadline is kept in the records (the lobby's sweep applies the rule to a table nobody has
loaded). When a move's time runs out the table's `TimeoutRule` applies:

- ``bot``: a bot of the chosen level plays that turn for the player (the player plays on
  at the next turn);
- ``out``: the same, and after ``missed`` missed turns in a row the seat is out: a bot of
  that level plays it from then on, as for a player who resigned (the seat's token acts
  for it no more). A seat's count goes back to 0 whenever its player moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..core import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL, BotSpec, InvalidInput
from ..core.language import _

TURN_BY_TURN_S: Final = 600
"""A table whose time per decision is above this many seconds is played turn by turn."""
MAX_TURN_TIMER_S: Final = 3 * 24 * 60 * 60
"""The longest time per decision: three days."""
BOT_RULE: Final = "bot"
OUT_RULE: Final = "out"
RULES: Final = (BOT_RULE, OUT_RULE)
DEFAULT_MISSED: Final = 3
MAX_MISSED: Final = 10
"""Missed turns in a row before a seat is out (rule ``out``): 1 to this."""


@dataclass(frozen=True, slots=True)
class TimeoutRule:
    """What happens at a table when a move's time runs out (see the module's notes)."""

    rule: str = BOT_RULE
    level: int = DEFAULT_LEVEL
    """The level (1-5) of the bot that plays for the player."""
    missed: int = DEFAULT_MISSED
    """Rule ``out``: missed turns in a row after which the seat is out."""

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise InvalidInput(
                _(
                    "The timeout rule is 'bot' (a bot plays the turn whose time ran out) or "
                    "'out' (the same, and the seat is out after missed turns in a row)."
                ),
                code="bad_timeout_rule",
            )
        if not MIN_LEVEL <= self.level <= MAX_LEVEL:
            raise InvalidInput(
                _("The timeout bot's level is a whole number from {least} to {most}.").format(
                    least=MIN_LEVEL, most=MAX_LEVEL
                ),
                code="bad_timeout_rule",
            )
        if not 1 <= self.missed <= MAX_MISSED:
            raise InvalidInput(
                _("Missed turns before a seat is out: a whole number from 1 to {most}.").format(
                    most=MAX_MISSED
                ),
                code="bad_timeout_rule",
            )

    @property
    def bot(self) -> BotSpec:
        """The bot that plays for a player whose time ran out (and for a seat out)."""
        return BotSpec.at_level(self.level)

    def outs(self, missed: int) -> bool:
        """Whether a seat that missed ``missed`` turns in a row is out now."""
        return self.rule == OUT_RULE and missed >= self.missed


def check_turn_timer(turn_timer: int | None) -> None:
    """``bad_turn_timer`` unless the time per decision is None (no timer) or 1 second to
    `MAX_TURN_TIMER_S`."""
    if turn_timer is not None and not 1 <= turn_timer <= MAX_TURN_TIMER_S:
        raise InvalidInput(
            _("The turn timer is a whole number of seconds from 1 to {most} (three days).").format(
                most=MAX_TURN_TIMER_S
            ),
            code="bad_turn_timer",
        )


def is_turn_by_turn(turn_timer: float | None) -> bool:
    """Whether a table with this time per decision is played turn by turn."""
    return turn_timer is not None and turn_timer > TURN_BY_TURN_S


__all__ = [
    "BOT_RULE",
    "DEFAULT_MISSED",
    "MAX_MISSED",
    "MAX_TURN_TIMER_S",
    "OUT_RULE",
    "RULES",
    "TURN_BY_TURN_S",
    "TimeoutRule",
    "check_turn_timer",
    "is_turn_by_turn",
]
