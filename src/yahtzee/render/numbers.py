"""Numbers and dates as the player's language writes them ("254,59" in German), with
Babel's locale data, for the faces (terminal, command line, printed cards). JSON and
records keep plain numbers."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal, format_percent

from ..core.language import current


def decimal(value: float, places: int = 2, *, grouping: bool = True) -> str:
    """``value`` with exactly ``places`` decimals, as the language in force writes it
    (rounded as Python's ``f"{value:.2f}"`` rounds, so English reads as it always did;
    ``grouping=False``: no thousands separator, as ``f"{value:.2f}"`` has none)."""
    whole = "#,##0" if grouping else "0"
    pattern = whole + "." + "0" * places if places > 0 else whole
    return format_decimal(Decimal(f"{value:.{places}f}"), format=pattern, locale=current())


def percent(value: float, places: int = 1) -> str:
    """A share (0.25) as a percentage with ``places`` decimals: ``25.0%`` / ``25,0 %``
    (rounded as Python's ``f"{value:.1%}"`` rounds)."""
    pattern = "#,##0." + "0" * places + "%" if places > 0 else "#,##0%"
    share = Decimal(f"{value * 100:.{places}f}") / 100
    return format_percent(share, format=pattern, locale=current())


def day(value: date) -> str:
    """A date, medium length: ``Dec 6, 2026`` / ``06.12.2026``."""
    return format_date(value, format="medium", locale=current())


def moment(value: datetime) -> str:
    """A date and time, short: ``12/6/26, 8:15 PM`` / ``06.12.26, 20:15``."""
    return format_datetime(value, format="short", locale=current())
