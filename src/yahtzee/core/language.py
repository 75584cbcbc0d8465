"""The player's language: which one is spoken, and the catalog that speaks it.

Every string a player meets is written in English in the code, marked for translation
with `_` (``_("Roll the dice")``), `ngettext` (plural forms), `pgettext` (a word with a
context, as a box's name per edition) or `N_` (a string defined at import time and
translated where it is shown). Placeholders are named, in braces, and filled after the
translation: ``_("Unknown box {name}.").format(name=name)``, so a translation may put
them in its own order.

The catalogs are gettext catalogs (``locale/<code>/LC_MESSAGES/yahtzee.po``, made and
checked with Babel: ``scripts/catalogs.py``), compiled to ``.mo`` files that this module
reads with the standard library's `gettext`. One set of catalogs serves every face: the
terminal, the command line, the server's messages and (as data) the page.

The language in force is a process-wide default (`set_language`: the terminal game and
the command line choose it once, from ``--lang`` or ``LANGUAGE``/``LANG``) that a context
may override (`speaking`: the server, per request and per connection). Unknown codes
fall back to English; a catalog missing on disk is English with a warning, never a crash.
Standard library only.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .errors import InvalidInput, show

DOMAIN = "yahtzee"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs lie: ``<code>/LC_MESSAGES/yahtzee.po`` and ``.mo``."""


@dataclass(frozen=True, slots=True)
class Language:
    """One language the game speaks: its code (as in ``--lang de``), its name in itself
    (what a picker shows) and in English."""

    code: str
    name: str
    english: str


LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", "English"),
    Language("de", "Deutsch", "German"),
    Language("fr", "Français", "French"),
    Language("es", "Español", "Spanish"),
    Language("nl", "Nederlands", "Dutch"),
    Language("sv", "Svenska", "Swedish"),
    Language("da", "Dansk", "Danish"),
    Language("nb", "Norsk bokmål", "Norwegian Bokmål"),
)
ENGLISH = "en"
CODES: tuple[str, ...] = tuple(language.code for language in LANGUAGES)
TRANSLATED: tuple[str, ...] = tuple(code for code in CODES if code != ENGLISH)
"""The languages that have a catalog (English is the code's own text)."""

_ALSO: Mapping[str, str] = {"no": "nb", "nn": "nb", "nob": "nb", "nno": "nb"}
"""Tags that name a language of ours under another code: Norwegian, its Nynorsk (whose
readers read Bokmål) and the three-letter codes."""

_TAG = re.compile(r"[A-Za-z]{2,3}(?=$|[-_.@])")
_HEADER_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")

_process_language = ENGLISH
_context_language: ContextVar[str | None] = ContextVar("yahtzee_language", default=None)


def language_named(code: str) -> Language:
    """The `Language` of a supported code (English for any other)."""
    for language in LANGUAGES:
        if language.code == code:
            return language
    return LANGUAGES[0]


def match(tag: str) -> str | None:
    """The code of ours that a language tag names, or None: ``"de-AT"``, ``"de_DE.UTF-8"``,
    ``"sv_SE@euro"``, ``"no"`` and ``"nb-NO"`` all match; ``"C"``, ``"POSIX"`` and
    languages we do not speak do not."""
    found = _TAG.match(tag.strip()) if isinstance(tag, str) else None
    if found is None:
        return None
    code = found.group(0).lower()
    code = _ALSO.get(code, code)
    return code if code in CODES else None


def choose(tags: Iterable[str]) -> str:
    """The first of the given tags (most wanted first) that we speak; English if none."""
    for tag in tags:
        code = match(tag)
        if code is not None:
            return code
    return ENGLISH


def accepted(header: str | None) -> list[str]:
    """The tags of an HTTP ``Accept-Language`` header, most wanted first (``q=0`` left
    out; a malformed part is skipped)."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:1000].split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if _HEADER_TAG.fullmatch(tag.strip()) and weight > 0:
            weighted.append((-weight, index, tag.strip()))
    return [tag for _weight, _index, tag in sorted(weighted)]


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: ``LANGUAGE`` (a
    colon-separated list), then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; English if
    none names a language we speak (``LANG=C`` among them)."""
    env = os.environ if environ is None else environ
    tags: list[str] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            tags.extend(value.split(":") if name == "LANGUAGE" else [value])
    return choose(tags)


def parse_language(text: str) -> str:
    """The code a player typed (``--lang de``, ``de-CH``, ``sv_SE``), or `InvalidInput`
    naming the languages."""
    code = match(text) if isinstance(text, str) else None
    if code is None:
        raise InvalidInput(unknown_language(text), code="unknown_language")
    return code


def unknown_language(text: object) -> str:
    """The line that says a language is not one of ours and names those that are."""
    names = ", ".join(f"{language.code} ({language.name})" for language in LANGUAGES)
    return _("Unknown language {code}. Languages: {languages}.").format(
        code=show(text), languages=names
    )


def current() -> str:
    """The code of the language in force here."""
    return _context_language.get() or _process_language


def set_language(code: str) -> None:
    """Make ``code`` this process's language (for the terminal game and the command line,
    chosen once at the start; threads they start speak it too). An unknown code is
    English."""
    global _process_language  # noqa: PLW0603 - one process-wide choice, made at the start
    _process_language = code if code in CODES else ENGLISH


@contextmanager
def speaking(code: str) -> Iterator[str]:
    """Speak ``code`` within this context (a server's request or connection) and return
    to the language before after; an unknown code is English."""
    chosen = code if code in CODES else ENGLISH
    token = _context_language.set(chosen)
    try:
        yield chosen
    finally:
        _context_language.reset(token)


def catalog_path(code: str) -> Path:
    """The compiled catalog (``.mo``) of a language."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """The catalog of a language, read once; English (the code's own text) for English,
    for an unknown code and, with a warning, for a catalog missing or unreadable on disk."""
    if code not in TRANSLATED:
        return _gettext.NullTranslations()
    path = catalog_path(code)
    try:
        with path.open("rb") as file:
            return _gettext.GNUTranslations(file)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        warnings.warn(
            f"The {language_named(code).english} catalog cannot be read ({path}: "
            f"{type(error).__name__}); English is shown instead.",
            RuntimeWarning,
            stacklevel=2,
        )
        return _gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the language in force."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or the plural form (as the language in force counts) for ``n``."""
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, as said in ``context`` (``"american box"``)."""
    return translations(current()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """`ngettext` within a context."""
    return translations(current()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for the catalog without translating it here (it is translated where
    it is shown, with `_`)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark a string said in ``context`` for the catalog without translating it here (it
    is translated where it is shown, with `pgettext` and the same context)."""
    return message
