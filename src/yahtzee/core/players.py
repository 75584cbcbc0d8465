"""Who plays: player names and computer players, as values every part of the project shares.

A computer player is a `BotSpec`: a strategy (``random``, ``greedy``, ``heuristic``,
``optimal``) or a difficulty level from 1 to 5 (level 5 plays optimally). The solver turns
a spec into a strategy; the records keep its `BotSpec.key`, and the statistics group
bots by their `BotSpec.label`, whatever name a bot had at its table.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from .errors import InvalidInput, show
from .language import _
from .state import MAX_NAME_LENGTH

MIN_LEVEL = 1
MAX_LEVEL = 5
LEVELS = tuple(range(MIN_LEVEL, MAX_LEVEL + 1))
DEFAULT_LEVEL = 3
"""The level a new computer opponent gets, and the stand-in when a turn timer runs out."""
STRATEGY_KINDS = ("random", "greedy", "heuristic", "optimal", "winning")
LEVEL = "level"

_LEVEL_TEXT = re.compile(r"(?:level)?([0-9]+)")


ZWNJ = "\u200c"
ZWJ = "\u200d"
JOINERS = frozenset((ZWNJ, ZWJ))
"""Invisible, but part of the text: emoji families, Indic conjuncts, Persian words."""
MAX_MARKS = 3
"""Combining marks kept on one character: enough for Vietnamese, Thai, Hebrew points and
Tibetan stacks; a tower of marks that would draw over other lines is cut to this."""
_MARKS = frozenset(("Mn", "Me"))


def clean_text(text: str, limit: int) -> str:
    """Plain text for names and chat: control and formatting characters go (the
    zero-width joiner and non-joiner stay; of a run of them, the last), at most `MAX_MARKS`
    combining marks on a character, whitespace folded; composed (NFC), then cut to
    ``limit`` characters. Joiners alone are nothing ("")."""
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", str(text)):
        if ch in JOINERS:
            if kept and kept[-1] in JOINERS:
                kept[-1] = ch  # a run of joiners means no more than its last
            else:
                kept.append(ch)
            continue  # a joiner does not start a new character: the marks go on counting
        shown = ch if ch.isprintable() else " "
        if unicodedata.category(shown) in _MARKS:
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(shown)
    cleaned = " ".join("".join(kept).split())[:limit].strip()
    return cleaned if cleaned.strip(ZWJ + ZWNJ + " ") else ""  # nothing to see: nothing


def player_name(text: str) -> str:
    """A player's name as typed, cleaned; `InvalidInput` if nothing is left."""
    name = clean_text(text, MAX_NAME_LENGTH)
    if not name:
        raise InvalidInput(_("Give a name of 1 to {most} characters.").format(most=MAX_NAME_LENGTH))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: two names are the same when their keys are. The
    compatibility forms (NFKC: fullwidth letters, the ligature ``ﬁ``, superscripts)
    and capitals (case folding: ``ANN``, ``Straße`` and ``STRASSE``) count as the same
    letters, and the invisible joiners as nothing."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(ch for ch in folded if ch not in JOINERS)


def same_name(name: str, names: Iterable[str | None]) -> str | None:
    """The first of ``names`` that is the same as ``name`` (`name_key`), or None."""
    key = name_key(name)
    return next((n for n in names if n is not None and name_key(n) == key), None)


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A computer player: a strategy kind, or a difficulty ``level`` (1-5)."""

    kind: str
    level: int | None = None

    def __post_init__(self) -> None:
        if self.kind == LEVEL:
            if self.level not in LEVELS or isinstance(self.level, bool):
                raise InvalidInput(
                    _("A bot has a level from {lowest} to {highest}, not {level}.").format(
                        lowest=MIN_LEVEL, highest=MAX_LEVEL, level=show(self.level)
                    )
                )
        elif self.kind not in STRATEGY_KINDS or self.level is not None:
            raise InvalidInput(
                _("Unknown strategy {kind}. Strategies: {known}.").format(
                    kind=show(self.kind), known=_known()
                )
            )

    @classmethod
    def at_level(cls, level: int) -> Self:
        """The optimal player at difficulty ``level`` (1-5; 5 plays perfectly)."""
        return cls(LEVEL, level)

    @classmethod
    def parse(cls, text: str) -> Self:
        """``"3"``, ``"level3"``, ``"Level 3"``, ``"greedy"``... (`InvalidInput` if not)."""
        if not isinstance(text, str):
            raise InvalidInput(
                _("A strategy is named by text, not {text}.").format(text=show(text))
            )
        key = text.strip().lower().replace(" ", "")
        if key in STRATEGY_KINDS:
            return cls(key)
        if match := _LEVEL_TEXT.fullmatch(key):
            level = int(match.group(1))
            if level in LEVELS:
                return cls(LEVEL, level)
        raise InvalidInput(
            _("Unknown strategy {text}. Strategies: {known}.").format(
                text=show(text), known=_known()
            )
        )

    @classmethod
    def all(cls) -> tuple[Self, ...]:
        """Every spec there is: the strategy kinds, then the levels."""
        return (*(cls(k) for k in STRATEGY_KINDS), *(cls(LEVEL, n) for n in LEVELS))

    @property
    def key(self) -> str:
        """The name the records and the solver's registry use: ``level3``, ``greedy``."""
        return f"{LEVEL}{self.level}" if self.kind == LEVEL else self.kind

    @property
    def label(self) -> str:
        """What players read, and how statistics group bots: ``Bot (level 3)``."""
        what = f"level {self.level}" if self.kind == LEVEL else self.kind
        return f"Bot ({what})"

    def seat_name(self, seat: int) -> str:
        """The name of this bot at seat ``seat`` (from 0): ``Bot 2 (level 3)``."""
        return self.label.replace("Bot", f"Bot {seat + 1}", 1)

    def __str__(self) -> str:
        return self.key


def _known() -> str:
    return ", ".join([*STRATEGY_KINDS, *(f"{LEVEL}{n}" for n in LEVELS)])
