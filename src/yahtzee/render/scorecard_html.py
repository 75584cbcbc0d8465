"""The paper scorecard as a self-contained HTML page that prints on one A4 or Letter page.

The layout follows the walkthrough's paper card: the six numbers, the upper total and
bonus lines, the lower boxes, the Yahtzee bonus line (an edition with extra-Yahtzee
bonuses) and the grand total, one column per player. The boxes, their names and the bonus
are the rules' edition's (the American card, or Yatzy's fifteen boxes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape

from ..core import Box, Game, RuleSet, Scorecard
from ..core.language import _, current

STYLE = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #000; background: #fff;
       margin: 0 auto; max-width: 190mm; font-size: 10.5pt; }
h1 { font-size: 18pt; margin: 0 0 2mm; letter-spacing: 0.08em; }
p.meta { margin: 0 0 4mm; font-size: 9pt; color: #333; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; page-break-inside: avoid; }
th, td { border: 0.3mm solid #000; padding: 1.2mm 1.5mm; height: 6.6mm; }
th.box { text-align: left; width: 44mm; font-weight: normal; }
td { text-align: center; font-variant-numeric: tabular-nums; }
thead th { background: #e8e8e8; font-weight: bold; }
tr.section th { background: #f4f4f4; text-align: left; font-weight: bold; }
tr.total th, tr.total td { font-weight: bold; border-top: 0.6mm solid #000; }
tr.grand th, tr.grand td { font-weight: bold; font-size: 12pt; border-top: 0.8mm double #000; }
td.winner { background: #f0f0f0; }
.note { font-size: 8pt; color: #444; }
@media print { body { max-width: none; } }
"""


def _cell(value: int | None) -> str:
    return "" if value is None else str(value)


Column = Scorecard | None
"""A column of the card: a player's card in one game, or None for a blank one."""


def card_rows(
    rules: RuleSet, columns: Sequence[Column], winners: frozenset[int] = frozenset()
) -> list[str]:
    """The paper card's rows, one cell per column (``winners``: the columns whose grand
    total is marked); a blank column is left empty for a pencil."""
    rows: list[str] = []

    def line(label: str, values: Sequence[str], css: str = "") -> None:
        cells = "".join(
            f'<td class="{"winner" if i in winners and css == "grand" else ""}">{v}</td>'
            for i, v in enumerate(values)
        )
        rows.append(f'<tr class="{css}"><th class="box" scope="row">{label}</th>{cells}</tr>')

    def section(label: str) -> None:
        rows.append(f'<tr class="section"><th colspan="{len(columns) + 1}">{label}</th></tr>')

    def each(pick: Callable[[Scorecard], str]) -> list[str]:
        return ["" if card is None else pick(card) for card in columns]

    edition = rules.edition
    section(escape(_("Upper section")))
    for category in edition.upper:
        # Translators: a note beside an upper box: "(count 3s)", the threes' points
        count = escape(_("(count {face}s)").format(face=category.face))
        line(f"{escape(category.display_name)} <span class=note>{count}</span>",
             each(_box(category)))  # fmt: skip
    line(escape(_("Upper total")), each(lambda c: str(c.upper_subtotal)), "total")
    bonus = _("({points} at {threshold} or more)").format(
        points=edition.upper_bonus, threshold=edition.upper_bonus_threshold
    )
    line(f"{escape(_('Bonus'))} <span class=note>{escape(bonus)}</span>", each(_bonus))
    line(escape(_("Upper section total")), each(lambda c: str(c.upper_total)), "total")
    section(escape(_("Lower section")))
    for category in edition.lower:
        line(escape(category.display_name), each(_box(category)))
    if edition.extra_rules:
        # Translators: {box} is the five of a kind's box ("Yahtzee")
        five = escape(_("{box} bonus").format(box=edition.five_of_a_kind.display_name))
        line(f"{five} <span class=note>{escape(_yahtzee_bonus_note(rules))}</span>",
             each(lambda c: _cell(c.yahtzee_bonus or None)))  # fmt: skip
    line(escape(_("Lower section total")), each(lambda c: str(c.lower_total)), "total")
    line(escape(_("Upper section total")), each(lambda c: str(c.upper_total)))
    line(escape(_("Grand total")), each(lambda c: str(c.total)), "grand")
    return rows


def render_scorecard(
    game: Game,
    *,
    title: str | None = None,
    game_id: str | None = None,
    played: datetime | None = None,
) -> str:
    """The page for ``game`` (finished or not: open boxes are left blank); ``title``: the
    edition's name by default ("YAHTZEE", "YATZY")."""
    title = title or game.rules.edition.title.upper()
    names = game.players
    winners = frozenset(game.winners)
    rows = card_rows(game.rules, game.cards, winners)
    head = "".join(f'<th scope="col">{escape(name)}</th>' for name in names)
    meta = [_("Rules: {rules}").format(rules=game.rules.name)]
    if played is not None:
        meta.append(_("Played {when} UTC").format(when=f"{played:%Y-%m-%d %H:%M}"))
    if game_id:
        meta.append(_("Game {game}").format(game=game_id))
    if game.is_over:
        won = _(" and ").join(names[w] for w in sorted(winners))
        meta.append(_("Winner: {names}").format(names=won))
    page_title = _("{title} scorecard").format(title=title)
    return (
        f'<!DOCTYPE html>\n<html lang="{current()}"><head><meta charset="utf-8">'
        f"<title>{escape(page_title)}</title><style>{STYLE}</style></head><body>"
        f'<h1>{escape(title)}</h1><p class="meta">{" · ".join(map(escape, meta))}</p>'
        f'<table><thead><tr><th class="box" scope="col">{escape(_("Box"))}</th>{head}</tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></body></html>\n"
    )


def _box(category: Box) -> Callable[[Scorecard], str]:
    return lambda card: _cell(card[category])


def _yahtzee_bonus_note(rules: RuleSet) -> str:
    if rules.yahtzee_bonus:
        return _("({points} each)").format(points=rules.yahtzee_bonus)
    return _("(none under these rules)")


def _bonus(card: Scorecard) -> str:
    return str(card.upper_bonus) if card.upper_bonus or card.is_complete else ""
