"""The rules (REST): the rule sets a new table offers with their cards' boxes, and a
table's limits, for clients to show (the page asks once, as it opens)."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import StrictJSONRoute
from ..rules_models import RulesView

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)


@router.get("/rules")
async def rules() -> RulesView:
    """Each rule set a new table offers (the default first) with its summary and its
    card's boxes in order, the default's name, and a table's limits (seats, the length of
    a name and of a chat message, the longest turn timer)."""
    return RulesView.offered()
