"""The terminal game in the player's language: the keys' descriptions as the footer shows
them, and dates.

Textual reads a screen's ``BINDINGS`` once, as the class is made (at import, before the
language is chosen), so their descriptions are marked with `N_` there and translated here,
each time a footer (or Textual's key panel) asks the screen which keys are active: a
footer drawn after the language changed speaks the new one. The screens of the game are
`SpokenScreen` or `SpokenModal` for that.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import TypeVar

from textual.binding import ActiveBinding, Binding
from textual.screen import ModalScreen, Screen

from ..core.language import ENGLISH, N_, _, current
from ..render import numbers

ResultType = TypeVar("ResultType")

TEXTUAL_WORDS = (
    # Translators: the footer's key that opens Textual's command palette (ctrl+p): one
    # short word
    N_("palette"),
    # Translators: the tooltip of that key
    N_("Open the command palette"),
)
"""Textual's own words on the footer: marked here so that the catalog has them (they are
translated with the game's keys)."""


def spoken_binding(binding: Binding) -> Binding:
    """``binding`` with its description and tooltip in the language in force (one not in
    the catalog, as most of Textual's own, stays as it is)."""
    description = _(binding.description) if binding.description else ""
    tooltip = _(binding.tooltip) if binding.tooltip else ""
    if description == binding.description and tooltip == binding.tooltip:
        return binding
    return replace(binding, description=description, tooltip=tooltip)


def spoken(active: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """Active bindings (`Screen.active_bindings`) in the language in force."""
    return {
        key: ActiveBinding(
            shown.node,
            spoken_binding(shown.binding),
            shown.enabled,
            _(shown.tooltip) if shown.tooltip else "",
        )
        for key, shown in active.items()
    }


class SpokenScreen(Screen[ResultType]):
    """A screen whose keys (in the footer) speak the language in force."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return spoken(super().active_bindings)


class SpokenModal(ModalScreen[ResultType]):
    """A modal screen whose keys speak the language in force."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return spoken(super().active_bindings)


def on_day(value: date) -> str:
    """A date as the screens show it: ``2026-12-06`` in English (as always), else as the
    language writes it (``06.12.2026``)."""
    return value.isoformat() if current() == ENGLISH else numbers.day(value)


def at_moment(value: datetime) -> str:
    """A date and time as the screens show it: ``2026-12-06 20:15`` in English (as
    always), else as the language writes it (``06.12.26, 20:15``)."""
    if current() == ENGLISH:
        return f"{value:%Y-%m-%d %H:%M}"
    return numbers.moment(value)


__all__ = ["SpokenModal", "SpokenScreen", "at_moment", "on_day", "spoken", "spoken_binding"]
