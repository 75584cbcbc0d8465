"""``GET /api/i18n/{code}``: a language's catalog as data, for the page (``static/i18n.js``)
to speak it with the same translations the terminal and the command line read (see
``docs/protocol.md``).

The answer is read from the compiled catalog (`core.language.catalog_path`, a gettext
``.mo`` file) with Babel, once per version of the file: only the translated messages, each
under its English text (``msgid``), a message with a context under the context, ``"\\x04"``
and the text (gettext's own key), a message with plural forms as the list of its forms.
A code we do not speak, or English, is English with no messages; a catalog missing or
unreadable on disk is English too, with a warning in the log: never an error.
"""

from __future__ import annotations

import hashlib
import logging
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.mofile import read_mo
from pydantic import BaseModel

from ..core.language import ENGLISH, LANGUAGES, TRANSLATED, catalog_path, match

log = logging.getLogger("yahtzee.web")

CONTEXT_SEPARATOR = "\x04"
"""Between a message's context and its text in a key (as gettext keys them)."""


class LanguageName(BaseModel):
    """A language the game speaks: its code and its name in itself (what a picker shows)."""

    code: str
    name: str


class CatalogView(BaseModel):
    """A language's translations, for the page: the language they are in (English for a
    code we do not speak, or a catalog that cannot be read), every language offered, and
    the translated messages (an English text, or ``context\\x04text``, to its
    translation, or to the list of its plural forms)."""

    language: str
    languages: list[LanguageName]
    messages: dict[str, str | list[str]]


@dataclass(frozen=True, slots=True)
class CatalogAnswer:
    """A catalog's answer, serialised once, and its entity tag."""

    body: bytes
    etag: str


def _offered() -> list[LanguageName]:
    return [LanguageName(code=language.code, name=language.name) for language in LANGUAGES]


def _answer(view: CatalogView) -> CatalogAnswer:
    body = view.model_dump_json().encode()
    return CatalogAnswer(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def read_messages(path: Path) -> dict[str, str | list[str]]:
    """The translated messages of a compiled catalog (raises `OSError` and the like for a
    file that cannot be read)."""
    with path.open("rb") as file:
        catalog = read_mo(file)
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        if not key:  # the header
            continue
        if message.context:
            key = f"{message.context}{CONTEXT_SEPARATOR}{key}"
        found = message.string
        if isinstance(found, tuple | list):
            forms = [str(form) for form in found]
            if forms and all(forms):
                messages[key] = forms
        elif found:
            messages[key] = str(found)
    return messages


def catalog_answer(code: str) -> CatalogAnswer:
    """The answer for the language ``code`` names (see the module's notes)."""
    spoken = match(code) if isinstance(code, str) else None
    if spoken is None or spoken not in TRANSLATED:
        return _english()
    path = catalog_path(spoken)
    try:
        stat = path.stat()
    except OSError:
        return _unreadable(spoken, path, None)
    return _read(spoken, path, (stat.st_mtime_ns, stat.st_size))


def warm_catalogs() -> None:
    """Read every language's catalog now (a server's start, in a worker thread), so that
    no page waits for the first reading of its language."""
    for code in TRANSLATED:
        catalog_answer(code)


@cache
def _english() -> CatalogAnswer:
    return _answer(CatalogView(language=ENGLISH, languages=_offered(), messages={}))


@cache
def _read(code: str, path: Path, version: tuple[int, int]) -> CatalogAnswer:
    """The catalog at ``path`` as it was at ``version`` (its time and size): read once."""
    try:
        messages = read_messages(path)
    except (OSError, ValueError, LookupError, struct.error, UnicodeError, EOFError):
        return _unreadable(code, path, version)
    return _answer(CatalogView(language=code, languages=_offered(), messages=messages))


@cache
def _unreadable(code: str, path: Path, version: tuple[int, int] | None) -> CatalogAnswer:
    """English, and a warning (once for each version of the file, or its absence)."""
    log.warning("the %s catalog cannot be read (%s): English is served instead", code, path)
    return _english()


__all__ = [
    "CONTEXT_SEPARATOR",
    "CatalogAnswer",
    "CatalogView",
    "LanguageName",
    "catalog_answer",
    "read_messages",
    "warm_catalogs",
]
