"""The scorepad as a printable HTML page: one column per game per player, as on the paper
pad the rules describe ("each player uses one column per game"), with a running total
across a player's games. Blank, for a pencil at the table, or filled with a sitting's
games. It prints on one A4 or Letter page: portrait up to twelve columns, else sideways.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..core import MAX_PLAYERS, Game, InvalidInput, RuleSet
from ..core.language import _, current
from .scorecard_html import STYLE, Column, card_rows

MAX_PAD_PLAYERS = MAX_PLAYERS
"""A pad seats as many players as a game."""
MAX_PAD_GAMES = 6
PORTRAIT_COLUMNS = 12
"""Up to this many columns the pad is printed upright; with more, sideways."""
CROWDED_COLUMNS = 36
"""With more columns than this (seven or eight players of six games), smaller print: a
running total of four digits still fits a column of Letter paper turned sideways."""

PAD_STYLE = """
thead th.game { font-weight: normal; font-size: 8pt; }
thead th.player { height: 9mm; vertical-align: bottom; }
tr.running th, tr.running td { font-weight: bold; background: #f4f4f4; }
th.player + th.player { border-left: 0.8mm solid #000; }
"""
WIDE_STYLE = """
@page { size: landscape; margin: 10mm; }
body { font-size: 8pt; max-width: none; }
th, td { padding: 0.6mm 0.3mm; height: 5.6mm; }
th.box { width: 30mm; padding-left: 1mm; }
th.box .note { display: none; }
tr.grand th, tr.grand td { font-size: 9pt; }
tr.running td { font-size: 7pt; }
h1 { font-size: 14pt; }
"""
CROWDED_STYLE = """
body { font-size: 6pt; }
th, td { padding: 0.5mm 0; }
th.box { width: 21mm; }
thead th.game { font-size: 5.5pt; }
tr.grand th { font-size: 7pt; }
tr.grand td { font-size: 6pt; }
tr.running td { font-size: 5pt; font-weight: normal; }
"""


def render_pad(
    rules: RuleSet,
    players: Sequence[str] | int,
    games: int | Sequence[Game] = 1,
    *,
    title: str | None = None,
) -> str:
    """The pad for ``players`` (names, or how many blank ones) and ``games`` (how many
    blank columns each, or the sitting's games, in order, all of the same players); the
    rows are the card of the rules' edition, ``title`` its name by default."""
    title = title or rules.edition.title.upper()
    names = _names(players)
    played = list(games) if not isinstance(games, int) else []
    count = len(played) if played else _count(games, "games", MAX_PAD_GAMES)
    if not 1 <= count <= MAX_PAD_GAMES:
        raise InvalidInput(
            _("A pad has 1 to {most} games, not {count}.").format(most=MAX_PAD_GAMES, count=count)
        )
    if any(len(game.players) != len(names) for game in played):
        raise InvalidInput(_("Every game of a pad has the same players."))
    columns: list[Column] = []
    winners: set[int] = set()
    for p in range(len(names)):
        for g in range(count):
            at = played[g] if played else None
            if at is not None and at.is_over and p in at.winners:
                winners.add(len(columns))
            columns.append(at.cards[p] if at is not None else None)
    rows = card_rows(rules, columns, frozenset(winners))
    rows.append(_running(columns, count))
    wide = len(columns) > PORTRAIT_COLUMNS
    blank = f"<span class=note>{escape(_('Name'))}</span>"
    head = "".join(
        f'<th class="player" scope="colgroup" colspan="{count}">'
        f"{escape(name) if name else blank}</th>"
        for name in names
    )
    # Translators: a game's column on a pad: "Game 2", and its short form "G2" (narrow)
    game = _("G{number}") if wide else _("Game {number}")
    sub = "".join(
        f'<th class="game" scope="col">{escape(game.format(number=g + 1))}</th>'
        for _name in names
        for g in range(count)
    )
    # a heavier line between players: before each player's first game
    groups = f"tbody td:nth-child({count}n+2) {{ border-left: 0.8mm solid #000; }}"
    crowded = len(columns) > CROWDED_COLUMNS
    style = STYLE + PAD_STYLE + groups + (WIDE_STYLE if wide else "")
    style += CROWDED_STYLE if crowded else ""
    meta = [
        _("Rules: {rules}").format(rules=rules.name),
        _("one column per game; keep a running total"),
    ]
    page_title = _("{title} scorepad").format(title=title)
    box = escape(_("Box"))
    return (
        f'<!DOCTYPE html>\n<html lang="{current()}"><head><meta charset="utf-8">'
        f"<title>{escape(page_title)}</title><style>{style}</style></head><body>"
        f'<h1>{escape(title)}</h1><p class="meta">{" · ".join(map(escape, meta))}</p>'
        f'<table><thead><tr><th class="box" rowspan="2" scope="col">{box}</th>{head}</tr>'
        f"<tr>{sub}</tr></thead><tbody>{''.join(rows)}</tbody></table></body></html>\n"
    )


def _names(players: Sequence[str] | int) -> list[str]:
    if isinstance(players, int):
        return [""] * _count(players, "players", MAX_PAD_PLAYERS)
    names = list(players)
    if not 1 <= len(names) <= MAX_PAD_PLAYERS:
        raise InvalidInput(
            _("A pad has 1 to {most} players, not {count}.").format(
                most=MAX_PAD_PLAYERS, count=len(names)
            )
        )
    return names


def _count(value: int | Sequence[Game], what: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        line = (
            _("A pad has 1 to {most} games, not {count}.")
            if what == "games"
            else _("A pad has 1 to {most} players, not {count}.")
        )
        raise InvalidInput(line.format(most=most, count=repr(value)))
    return value


def _running(columns: Sequence[Column], games: int) -> str:
    """Each player's total over their games so far (blank where a column is)."""
    cells: list[str] = []
    total = 0
    for i, card in enumerate(columns):
        if i % games == 0:
            total = 0
        if card is None:
            cells.append("<td></td>")
            continue
        total += card.total
        cells.append(f"<td>{total}</td>")
    label = f'<th class="box" scope="row">{escape(_("Running total"))}</th>'
    return f'<tr class="running">{label}{"".join(cells)}</tr>'


__all__ = ["MAX_PAD_GAMES", "MAX_PAD_PLAYERS", "render_pad"]
