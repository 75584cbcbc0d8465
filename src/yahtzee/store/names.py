"""Names that look alike: the key a name is compared by where a person must be told apart
from everyone else (the seats of a table, a player's daily attempt in the records).

Two names look alike when their Unicode confusables skeletons (UTS #39, as ICU computes
them) are equal after `core.name_key` (compatibility normalisation and case folding):
``Ann`` and ``Ann`` with a Cyrillic A (U+0410), ``Vera1`` and ``VERAl``, ``me`` and
``rne``. A skeleton is only compared, never shown: players see the names as they typed
them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

from ..core import YahtzeeError, name_key
from ..core.language import N_, _

NEEDS_ICU = N_(
    "Telling players' names apart needs PyICU: pip install '.[web]' in the project's folder "
    "(it builds on the system's ICU: apt install libicu-dev pkg-config g++; brew install "
    "icu4c pkg-config)."
)


@cache
def _checker() -> Any:
    """ICU's spoof checker. PyICU comes with the server's extras (``web``, ``cluster``),
    not with the terminal game, which never compares names: it is imported on first use."""
    try:
        import icu  # noqa: PLC0415
    except ImportError:
        raise YahtzeeError(_(NEEDS_ICU)) from None
    return icu.SpoofChecker()


def look_alike_key(name: str) -> str:
    """What a name looks like: the confusables skeleton of its `name_key`, composed (NFC).
    Two names look alike when their keys are equal (the same name, too)."""
    skeleton = str(_checker().getSkeleton(0, name_key(name)))  # 0: the only table there is
    return unicodedata.normalize("NFC", skeleton)


def look_alike(name: str, names: Iterable[str | None]) -> str | None:
    """The first of ``names`` that looks like ``name`` (`look_alike_key`), or None."""
    key = look_alike_key(name)
    return next((n for n in names if n is not None and look_alike_key(n) == key), None)


__all__ = ["NEEDS_ICU", "look_alike", "look_alike_key"]
