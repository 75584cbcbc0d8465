"""Numbers and dates as the player's language writes them ("254,59" in German), with
Babel's locale data, for the faces (terminal, command line, printed cards). JSON and
records keep plain numbers."""

from __future__ import annotations

from datetime import date, datetime

from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal, format_percent

from ..core.language import current


def decimal(value: float, places: int = 2) -> str:
    """``value`` with exactly ``places`` decimals, as the language in force writes it."""
    pattern = "#,##0." + "0" * places if places > 0 else "#,##0"
    return format_decimal(value, format=pattern, locale=current())


def percent(value: float, places: int = 1) -> str:
    """A share (0.25) as a percentage with ``places`` decimals: ``25.0%`` / ``25,0 %``."""
    pattern = "#,##0." + "0" * places + "%" if places > 0 else "#,##0%"
    return format_percent(value, format=pattern, locale=current())


def day(value: date) -> str:
    """A date, medium length: ``Dec 6, 2026`` / ``06.12.2026``."""
    return format_date(value, format="medium", locale=current())


def moment(value: datetime) -> str:
    """A date and time, short: ``12/6/26, 8:15 PM`` / ``06.12.26, 20:15``."""
    return format_datetime(value, format="short", locale=current())
