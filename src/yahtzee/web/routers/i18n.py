"""``GET /api/i18n/{code}``: a language's translations, for the page (`web.i18n`).

Asked again each time (``no-cache``) with its ``ETag`` (the answer's bytes): a new catalog
is seen at once, an unchanged one costs a ``304``; the service worker keeps every
language's answer for offline use (`shell.APP_ADDRESSES`)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from ..i18n import CatalogView, catalog_answer
from ..page_files import HTTP_NOT_MODIFIED, REVALIDATE

router = APIRouter(prefix="/api/i18n")


@router.get("/{code}", response_model=CatalogView)
async def catalog(code: str, request: Request) -> Response:
    """The translations of the language ``code`` names (``de``, ``sv``; ``de-AT`` is
    German): ``{"language", "languages": [{"code", "name"}], "messages"}``. A code we do
    not speak is English, with no messages (never an error)."""
    found = catalog_answer(code)
    headers = {"cache-control": REVALIDATE, "etag": found.etag}
    asked = request.headers.get("if-none-match", "")
    if found.etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=HTTP_NOT_MODIFIED, headers=headers)
    return Response(found.body, media_type="application/json", headers=headers)
