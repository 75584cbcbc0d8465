"""``GET /api/advisor/{rules}/table``: a rule set's advisor table file, for the page to
advise offline (the format: `yahtzee.solver.web_table`; the page's reader:
``static/advisor_table.js``).

The file is made once per rule set and kept in memory, gzip-compressed (it is public: no
secret beside it for BREACH to read), in a worker thread: the solver's table loaded (or
built, for a rule set whose table is not cached yet), encoded, compressed. Its address is
versioned (`table_address`): ``?v=SOLVER.FORMAT.SCORING``, which changes whenever the
bytes could (another solver version, another file format, other scoring rules), so that
address is cached for good (``immutable``). The same bytes without ``v``, or under
another ``v``, are ``no-cache`` (asked again each time with their ``ETag``).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
from dataclasses import dataclass

from fastapi import APIRouter, Request, Response

from ...core import InvalidInput, RuleSet
from ...solver import SOLVER_VERSION, cached_solver, web_table
from ...solver.loaded_once import LoadedOnce
from ..page_files import HTTP_NOT_MODIFIED, IMMUTABLE, REVALIDATE

router = APIRouter(prefix="/api/advisor")

CONTENT_TYPE = "application/octet-stream"
GZIP_LEVEL = 9


@dataclass(frozen=True, slots=True)
class TableFile:
    """A rule set's table file, gzip-compressed, and its entity tag."""

    gzipped: bytes
    etag: str


_FILES: LoadedOnce[str, TableFile] = LoadedOnce()


def table_version(rules: RuleSet) -> str:
    """What names this rule set's table bytes: the solver's version, the file format's
    version and the scoring rules (``1.1.joker-forced-bonus-100``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", rules.scoring_key.lower()).strip("-")
    return f"{SOLVER_VERSION}.{web_table.VERSION}.{slug}"


def table_address(rules: RuleSet) -> str:
    """The address under which the table of ``rules`` is cached for good (a service
    worker precaches the official rules' one)."""
    return f"/api/advisor/{rules.name}/table?v={table_version(rules)}"


def _make(rules: RuleSet) -> TableFile:
    data = web_table.encode(cached_solver(rules).table, rules)
    gzipped = gzip.compress(data, GZIP_LEVEL, mtime=0)
    return TableFile(gzipped, '"' + hashlib.sha256(gzipped).hexdigest()[:32] + '"')


def table_file(rules: RuleSet) -> TableFile:
    """The table file of ``rules`` (made now, in this thread, unless it is kept)."""
    return _FILES.get(rules.scoring_key, lambda: _make(rules))


def rules_named(name: str) -> RuleSet:
    try:
        return RuleSet.named(name)
    except InvalidInput as unknown:
        raise InvalidInput(str(unknown), code="no_rules") from None


@router.get(
    "/{rules}/table",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE: {}}, "description": "the table file, gzipped"}},
)
async def table(rules: str, request: Request, v: str | None = None) -> Response:
    """The rule set's advisor table file (``Content-Encoding: gzip``); made on first
    use in a worker thread (the solver's table is built then if it is not cached).
    ``404 no_rules`` for a rule set that is not one of ``/api/rules``."""
    rule_set = rules_named(rules)
    found: TableFile | None = None
    if rule_set.scoring_key in _FILES:
        found = table_file(rule_set)
    else:
        found = await asyncio.to_thread(table_file, rule_set)
    address = table_address(rule_set)
    headers = {
        "ETag": found.etag,
        "Cache-Control": IMMUTABLE if v == table_version(rule_set) else REVALIDATE,
        "Content-Location": address,
        "Vary": "Accept-Encoding",
    }
    if found.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=HTTP_NOT_MODIFIED, headers=headers)
    if "gzip" not in request.headers.get("accept-encoding", ""):
        body = await asyncio.to_thread(gzip.decompress, found.gzipped)
        return Response(body, media_type=CONTENT_TYPE, headers=headers)
    headers["Content-Encoding"] = "gzip"
    return Response(found.gzipped, media_type=CONTENT_TYPE, headers=headers)


__all__ = ["TableFile", "router", "table_address", "table_file", "table_version"]
