"""A box of a scorecard, of any edition: the base of each edition's boxes.

Each edition's boxes are an ``IntEnum`` subclass of `Box` whose values follow its printed
card, top to bottom (the American edition's is `Category`; Scandinavian Yatzy's is
`YatzyBox`). What a box is called, its code and the names players write for it are the
edition's data, given once to `describe_boxes` beside the class.
"""

from __future__ import annotations

import difflib
import gettext
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import ClassVar, Self

from . import language
from .dice import FACES
from .errors import InvalidInput, show
from .language import _, pgettext


@dataclass(frozen=True, slots=True)
class BoxNames:
    """What players call one box: its printed name, a shorter one for narrow cards, the
    short code of notations (``"fh"``), and other names they write (normalised: lower
    case, no spaces, hyphens or underscores)."""

    display: str
    code: str
    short: str = ""
    aliases: tuple[str, ...] = ()
    face: int = 0
    """The die face an upper box counts (1-6); 0 for a lower box."""


@dataclass(frozen=True, slots=True)
class _BoxTable:
    edition: str
    title: str
    context: str
    """The context of the names in the catalogs: ``"american box"``, ``"yatzy box"``."""
    names: tuple[BoxNames, ...]
    aliases: Mapping[str, int]
    upper: tuple[Box, ...]
    lower: tuple[Box, ...]


class Box(IntEnum):
    """A box on some edition's scorecard (subclasses have the members)."""

    _table: ClassVar[_BoxTable]

    @property
    def display_name(self) -> str:
        """The name printed on the scorecard, in the language in force: ``"Aces"``,
        ``"Full House"``, ``"One Pair"`` (``"Kåk"`` in Swedish Yatzy)."""
        table = type(self)._table
        return pgettext(table.context, table.names[self].display)

    @property
    def short_name(self) -> str:
        """The name where a narrow card has little room (``"Sm. straight"``), else
        `display_name`; in the language in force."""
        table = type(self)._table
        names = table.names[self]
        return pgettext(table.context, names.short) if names.short else self.display_name

    @property
    def english_name(self) -> str:
        """The English name printed on the card, whatever the language in force: for
        language-neutral data (the rules' JSON, ``--json`` output)."""
        return type(self)._table.names[self].display

    @property
    def english_short_name(self) -> str:
        """`short_name` in English, whatever the language in force."""
        names = type(self)._table.names[self]
        return names.short or names.display

    @property
    def key(self) -> str:
        """A stable lower-case identifier for files and protocols: ``"full_house"``."""
        return self.name.lower()

    @property
    def code(self) -> str:
        """A short code for notations: ``"1s"`` ... ``"6s"``, ``"3k"``, ``"fh"``, ``"yz"``, ..."""
        return type(self)._table.names[self].code

    @property
    def is_upper(self) -> bool:
        return type(self)._table.names[self].face != 0

    @property
    def is_lower(self) -> bool:
        return type(self)._table.names[self].face == 0

    @property
    def face(self) -> int:
        """The die face an upper box counts (1 for Aces ... 6 for Sixes)."""
        face = type(self)._table.names[self].face
        if not face:
            raise ValueError(f"{self.display_name} is not an upper-section box")
        return face

    @classmethod
    def edition_name(cls) -> str:
        """The name of the edition whose card these boxes are (``"american"``)."""
        return cls._table.edition

    @classmethod
    def upper(cls) -> tuple[Self, ...]:
        return cls._table.upper  # type: ignore[return-value]

    @classmethod
    def lower(cls) -> tuple[Self, ...]:
        return cls._table.lower  # type: ignore[return-value]

    @classmethod
    def for_face(cls, face: int) -> Self:
        """The upper box of a die face: ``Category.for_face(3) is Category.THREES``."""
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
            raise InvalidInput(
                _("{face} is not a die face: each die shows {low} to {high}.").format(
                    face=show(face), low=FACES[0], high=FACES[-1]
                )
            )
        return cls.upper()[FACES.index(face)]

    @classmethod
    def of(cls, value: Box | int | str) -> Self:
        """A box from a box of this edition, its number or a name players use."""
        if isinstance(value, cls):
            return value
        if isinstance(value, Box):
            raise InvalidInput(
                _("{box} is a box of {edition}, not of {other}.").format(
                    box=value.display_name,
                    edition=value.edition_title(),
                    other=cls.edition_title(),
                )
            )
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(cls):
            return cls(value)
        raise InvalidInput(
            _("{value} is not a box: give a name like 'fh' or a number 0-{last}.").format(
                value=show(value), last=len(cls) - 1
            )
        )

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read a box name as players write it, case-insensitively.

        ``"aces"``, ``"1s"``, ``"3k"``, ``"4 of a kind"``, ``"fh"``, ``"sm straight"``,
        ``"ls"``, ``"five of a kind"``, ``"full_house"``, ``"Chance"``, ...
        """
        if not isinstance(text, str):
            raise InvalidInput(
                _("A box name must be text, not {type}.").format(type=type(text).__name__)
            )
        if _NUMBER_LIKE.search(text):  # "-1" is not box 1 ("1" is): no sign, no decimals
            unknown = _("Unknown box {name}.").format(name=show(text.strip()))
            raise InvalidInput(f"{unknown} {cls._boxes_text()}")
        aliases = cls._table.aliases
        key = _normalise(text, aliases)
        found = aliases.get(key)
        if found is None:
            local = _local_aliases(cls, _catalog())
            found = local.get(_folded(text)) if local else None
            if found is None:
                found = local.get(_plain(_folded(text))) if local else None
        if found is None:
            raise InvalidInput(cls._unknown_message(text, key))
        return cls(found)

    @classmethod
    def edition_title(cls) -> str:
        """The game these boxes are the card of, as players name it in the language in
        force (``"Yatzy"``)."""
        return pgettext("edition", cls._table.title)

    @classmethod
    def _boxes_text(cls) -> str:
        names = ", ".join(box.display_name for box in cls)
        if cls is _KINDS[0]:
            return _("Boxes: {boxes}.").format(boxes=names)
        # Translators: {edition} is the game ("Yatzy"), {boxes} its boxes' names.
        return _("{edition} boxes: {boxes}.").format(edition=cls.edition_title(), boxes=names)

    @classmethod
    def _unknown_message(cls, text: str, key: str) -> str:
        if not key:
            return _("No box named. {boxes}").format(boxes=cls._boxes_text())
        aliases = {**_local_aliases(cls, _catalog()), **cls._table.aliases}
        close = difflib.get_close_matches(key, list(aliases), n=1, cutoff=0.75)
        hint = (
            _("Did you mean {box}?").format(box=cls(aliases[close[0]]).display_name)
            if close
            else ""
        )
        for other in _KINDS:
            found = other._table.aliases.get(key)
            if other is not cls and found is not None and not hint:
                hint = _("{box} is a box of {edition}, not of {other}.").format(
                    box=other(found).display_name,
                    edition=other.edition_title(),
                    other=cls.edition_title(),
                )
        unknown = _("Unknown box {name}.").format(name=show(text.strip()))
        return " ".join(part for part in (unknown, hint, cls._boxes_text()) if part)

    def __str__(self) -> str:
        return self.display_name


def describe_boxes(
    boxes: type[Box], edition: str, title: str, names: Mapping[Box, BoxNames], context: str
) -> None:
    """Give ``boxes`` (an edition's `Box` subclass) its names: each member's `BoxNames`,
    upper boxes (those with a face) first in card order, as printed cards have them.
    ``context`` is the names' context in the catalogs (``"american box"``): their
    translations are the names printed on that edition's cards in each language."""
    ordered = tuple(names[box] for box in boxes)
    faces = [n.face for n in ordered if n.face]
    if faces != list(FACES) or any(n.face for n in ordered[len(FACES) :]):
        raise ValueError(f"{boxes.__name__}: the six upper boxes come first, Aces to Sixes")
    aliases: dict[str, int] = {}
    for box, box_names in zip(boxes, ordered, strict=True):
        for alias in (*box_names.aliases, box_names.code, box.key.replace("_", "")):
            aliases.setdefault(alias, int(box))
    table = _BoxTable(
        edition=edition,
        title=title,
        context=context,
        names=ordered,
        aliases=aliases,
        upper=tuple(b for b, n in zip(boxes, ordered, strict=True) if n.face),
        lower=tuple(b for b, n in zip(boxes, ordered, strict=True) if not n.face),
    )
    type.__setattr__(boxes, "_table", table)
    _KINDS.append(boxes)


_KINDS: list[type[Box]] = []
"""Every edition's boxes, the American first (an unknown box's message names the edition
that has it)."""


# A sign or a decimal point at a digit: a number, not a box's name ("3-of-a-kind" is one).
_NUMBER_LIKE = re.compile(r"[+\-\u2212]\s*\d|\d\s*[.,]\s*\d|^\s*[.,]|\d\s*[+\-\u2212.,]\s*$")
_DROP = re.compile(r"[\s_\-.'\u2019]+")
_PREFIX = re.compile(r"^(upper|lower)(?=.)")


def _normalise(text: str, aliases: Mapping[str, int]) -> str:
    key = _DROP.sub("", text.strip().lower())
    return _PREFIX.sub("", key) if key not in aliases else key


def _catalog() -> gettext.NullTranslations:
    """The catalog of the language in force (looked up at each call: tests stand in a
    catalog of their own for `language.translations`)."""
    return language.translations(language.current())


def _folded(text: str) -> str:
    """A name as typed, folded for comparing with the names of a language: compatibility
    forms joined, case folded (``"Straße"`` as ``"strasse"``), spaces and dashes dropped."""
    return _DROP.sub("", unicodedata.normalize("NFKC", text).strip().casefold())


def _plain(key: str) -> str:
    """A folded name without its accents (``"kak"`` for ``"kåk"``)."""
    decomposed = unicodedata.normalize("NFKD", key)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=64)
def _local_aliases(boxes: type[Box], catalog: gettext.NullTranslations) -> Mapping[str, int]:
    """The names of ``boxes`` in a catalog's language (their display and short names as
    translated, folded, and the same without accents) mapped to the box; empty where the
    catalog translates none of them (English)."""
    table = boxes._table
    found: dict[str, int] = {}
    plain: dict[str, int] = {}
    for box, names in zip(boxes, table.names, strict=True):
        for name in (names.display, names.short):
            if not name:
                continue
            local = catalog.pgettext(table.context, name)
            if local != name:
                key = _folded(local)
                if key:
                    found.setdefault(key, int(box))
                    plain.setdefault(_plain(key), int(box))
    return {**plain, **found}
