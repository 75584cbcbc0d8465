"""Web Push (REST): the server's application server key, and the signed-in account's push
subscriptions (a browser's, made by its ``PushManager.subscribe``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from ...service.pushing import Pushing
from ..accounts import SignedInDep
from ..deps import StrictJSONRoute
from ..push_models import (
    GoneSubscription,
    NewSubscription,
    PushKey,
    SubscriptionList,
    SubscriptionView,
)

router = APIRouter(prefix="/api/push", route_class=StrictJSONRoute)


async def pushing_of(request: Request) -> Pushing:
    pushing: Pushing = request.app.state.pushing
    return pushing


PushingDep = Annotated[Pushing, Depends(pushing_of)]


@router.get("/key")
async def key(pushing: PushingDep) -> PushKey:
    """The application server key for ``PushManager.subscribe`` (the VAPID public key)."""
    return PushKey(key=pushing.key.public_key)


@router.get("/subscriptions")
async def subscriptions(pushing: PushingDep, account: SignedInDep) -> SubscriptionList:
    """The account's subscriptions, newest first."""
    found = await pushing.subscriptions.of(account.id)
    return SubscriptionList(subscriptions=[SubscriptionView.of(s) for s in found])


@router.post("/subscriptions", status_code=204)
async def subscribe(body: NewSubscription, pushing: PushingDep, account: SignedInDep) -> Response:
    """Keep the browser's subscription for the account (``400 bad_subscription``: its
    endpoint is no push service's https URL on a public address, or its keys are not a
    P-256 point and 16 bytes; nothing is kept)."""
    keys = body.keys
    await pushing.subscriptions.add(account.id, body.endpoint, keys.p256dh, keys.auth)
    return Response(status_code=204)


@router.delete("/subscriptions", status_code=204)
async def unsubscribe(
    body: GoneSubscription, pushing: PushingDep, account: SignedInDep
) -> Response:
    """Forget the account's subscription to ``endpoint`` (done too if it had none)."""
    await pushing.subscriptions.remove(account.id, body.endpoint)
    return Response(status_code=204)
