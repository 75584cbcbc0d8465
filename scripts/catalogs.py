"""Make and check the translation catalogs with Babel: one gettext catalog per language
(``src/yahtzee/locale/<code>/LC_MESSAGES/yahtzee.po``), compiled to ``.mo``.

    python scripts/catalogs.py extract   # the English strings of the code -> yahtzee.pot
    python scripts/catalogs.py update    # extract, then merge them into every .po
    python scripts/catalogs.py compile   # every .po -> .mo (what the game reads)
    python scripts/catalogs.py check     # untranslated, stale, fuzzy or placeholder faults

Strings are found in the Python code (``_``, ``ngettext``, ``pgettext``, ``N_``), the
page's modules (``t``, ``tn``, ``tp``: Babel's JavaScript extractor) and the page's HTML
(elements marked ``data-i18n``; attributes named in ``data-i18n-attr``). Placeholders are
named, in braces: ``{name}``; a translation keeps exactly the English placeholders.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "yahtzee"
LOCALE = PACKAGE / "locale"
DOMAIN = "yahtzee"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"

KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    "NP_": ((1, "c"), 2),
    "t": None,
    "tn": (1, 2),
    "tp": ((1, "c"), 2),
}
COMMENT_TAGS = ("Translators:",)
TWO_FORMS = {"fr": "(n > 1)", "es": "(n != 1)"}
"""gettext's two plural forms for French and Spanish (CLDR adds a third, for millions, that
no count of this game reaches; the page picks with Intl.PluralRules' "one")."""
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^{}]*)?\}")
PERCENT = re.compile(r"%(?:\(([A-Za-z_][A-Za-z0-9_]*)\))?[-#0+]*\d*(?:\.\d+)?([sdirfg%])")
"""argparse's own strings (translated through our catalog) use %-style placeholders."""


# --- the page's HTML: elements marked data-i18n -----------------------------------------


class _MarkedText(HTMLParser):
    """The text of elements marked ``data-i18n`` and the attributes named by
    ``data-i18n-attr`` (space-separated), with their line numbers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        line = self.getpos()[0]
        for name in values.get("data-i18n-attr", "").split():
            if values.get(name):
                self.found.append((line, values[name]))
        if "data-i18n" in values:
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        for _tag, _line, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for the page's HTML (see `_MarkedText`)."""
    parser = _MarkedText()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, "_", text, []


# --- extraction, merge, compile, check ----------------------------------------------------


def _sources() -> Iterator[tuple[Path, Any]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, "python"
    static = PACKAGE / "web" / "static"
    for path in sorted(static.glob("*.js")):
        if path.name != "sw.js":
            yield path, "javascript"
    for path in sorted(static.glob("*.html")):
        yield path, extract_html


def extracted() -> Catalog:
    """Every marked string of the code, as a template catalog."""
    catalog = Catalog(project="yahtzee", msgid_bugs_address="", fuzzy=False)
    for path, method in _sources():
        with path.open("rb") as file:
            for line, message, comments, context in extract(
                method, file, KEYWORDS, COMMENT_TAGS, {}, strip_comment_tags=True
            ):
                where = (str(path.relative_to(ROOT)), line)
                catalog.add(message, None, [where], auto_comments=comments, context=context)
    for found in catalog:
        # A brace-formatted string is not also %-formatted ("{percent}% less" is not "% l"):
        # PO editors and `pybabel compile` would then ask for a %-placeholder in it.
        if "python-brace-format" in found.flags:
            found.flags.discard("python-format")
    return catalog


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=88, sort_output=False, omit_header=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def codes() -> tuple[str, ...]:
    sys.path.insert(0, str(ROOT / "src"))
    from yahtzee.core.language import TRANSLATED  # noqa: PLC0415

    return TRANSLATED


def update() -> None:
    template = extracted()
    _write(TEMPLATE, template)
    for code in codes():
        path = po_path(code)
        if path.exists():
            catalog = _read(path, code)
        else:
            catalog = Catalog(locale=code, project="yahtzee", fuzzy=False)
            if code in TWO_FORMS:
                headers = [(k, v) for k, v in catalog.mime_headers if k != "Plural-Forms"]
                form = f"nplurals=2; plural={TWO_FORMS[code]};"
                catalog.mime_headers = [*headers, ("Plural-Forms", form)]
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        for message in catalog:  # the template's flags, not those the catalog had
            wanted = template.get(message.id, message.context)
            if wanted is not None:
                message.flags = set(wanted.flags)
        _write(path, catalog)
        print(f"{code}: {len(catalog)} messages, {_untranslated(catalog)} untranslated")


def compile_all() -> None:
    for code in codes():
        catalog = _read(po_path(code), code)
        mo = po_path(code).with_suffix(".mo")
        mo.write_bytes(mo_bytes(catalog))
        print(f"{code}: {mo.relative_to(ROOT)}")


def _untranslated(catalog: Catalog) -> int:
    return sum(1 for message in catalog if message.id and not _complete(message))


def _complete(message: Any) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings) and not message.fuzzy


def placeholders(text: str) -> set[str]:
    """The placeholders of a string: ``{name}`` (a format spec after ``:`` aside), and
    argparse's ``%(name)s`` and ``%s`` (counted: ``%s#2`` is the second)."""
    found = set(PLACEHOLDER.findall(text))
    unnamed = 0
    for name, kind in PERCENT.findall(text):
        if kind == "%":
            continue
        if name:
            found.add(f"%({name})")
        else:
            unnamed += 1
            found.add(f"%{kind}#{unnamed}")
    return found


def _placeholder_faults(message: Any) -> list[str]:
    """The translations of a message whose placeholders are not the English ones. A plural
    form may leave out the count ``{n}`` where the English singular does ("A player has
    left": "Ein Spieler ist gegangen"); every other placeholder is kept in every form."""
    english = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    want = set().union(*(placeholders(text) for text in english))
    count_optional = len(english) > 1 and "n" not in placeholders(english[0])
    faults = []
    for text in strings:
        have = placeholders(text)
        if have != want and not (count_optional and have == want - {"n"}):
            faults.append(text)
    return faults


def problems(code: str, template: Catalog | None = None) -> list[str]:
    """What is wrong with one language's catalog: a string of the code missing from it or
    left untranslated or fuzzy, a string it has that the code no longer has (stale), a
    placeholder unlike the English one, what Babel's checks find (as ``pybabel compile``
    does), a compiled ``.mo`` older than its ``.po``."""
    template = extracted() if template is None else template
    path = po_path(code)
    if not path.exists():
        return [f"{code}: no catalog at {path.relative_to(ROOT)}"]
    catalog = _read(path, code)
    found: list[str] = []
    wanted = {(message.id if isinstance(message.id, str) else message.id[0], message.context)
              for message in template if message.id}  # fmt: skip
    for message in template:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if catalog.get(key, message.context) is None:
            found.append(f"{code}: missing {key!r}")
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if (key, message.context) not in wanted:
            found.append(f"{code}: stale {key!r}")
            continue
        if not _complete(message):
            found.append(f"{code}: untranslated {key!r}")
            continue
        for text in _placeholder_faults(message):
            found.append(f"{code}: placeholders of {key!r}: {text!r}")
    for message, errors in catalog.check():  # Babel's own checks, as `pybabel compile`'s
        for error in errors:
            found.append(f"{code}: {message.id!r}: {error}")
    mo = path.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != mo_bytes(catalog):
        found.append(f"{code}: {mo.relative_to(ROOT)} is not compiled from its .po")
    return found


def check() -> int:
    template = extracted()
    found = [line for code in codes() for line in problems(code, template)]
    for line in found:
        print(line)
    print(f"{len(template)} strings; {len(found)} problems")
    return 1 if found else 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        _write(TEMPLATE, extracted())
        return 0
    if command == "update":
        update()
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "check":
        return check()
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
