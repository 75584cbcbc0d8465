"""argparse's own words ("usage:", "options:", its errors) in the player's language.

argparse translates what it writes with the standard library's `gettext.gettext` and
`gettext.ngettext`: the global domain, and the language of ``LANGUAGE``/``LC_*``/``LANG``.
While the command line runs, `speak_argparse` points the global domain at our catalog
and ``LANGUAGE`` at the language chosen (``--lang`` or the environment), and puts both
back after. The msgids below are argparse's (Python 3.11 to 3.13), listed with `N_` only
so that the catalog extracts them: they are never translated from here. They keep
argparse's %-style placeholders (``%(prog)s``, ``%s``, ``%r``), which argparse fills.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager

from ..core import language
from ..core.language import N_, ngettext

WORDS = (
    N_("usage: "),
    N_("%(heading)s:"),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
)
"""argparse's msgids that a player may meet (its programming errors are left out)."""


def _plurals() -> None:  # pragma: no cover - never called: the catalog's extraction reads it
    ngettext("expected %s argument", "expected %s arguments", 2)


@contextmanager
def speak_argparse(code: str) -> Iterator[None]:
    """Within this context argparse speaks ``code`` (English: as it is, untouched)."""
    if code == language.ENGLISH:
        yield
        return
    domain = gettext.textdomain()
    before = os.environ.get("LANGUAGE")
    gettext.bindtextdomain(language.DOMAIN, str(language.LOCALE_DIR))
    gettext.textdomain(language.DOMAIN)
    os.environ["LANGUAGE"] = code
    try:
        yield
    finally:
        gettext.textdomain(domain)
        if before is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = before
