"""Web Push's REST bodies and answers (see ``docs/protocol.md``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from ..service.push import MAX_KEY_TEXT
from ..service.push_address import MAX_ENDPOINT
from ..store.push import PushSubscription


class PushKey(BaseModel):
    """``GET /api/push/key``: the application server key (the VAPID public key, the
    uncompressed P-256 point, base64url)."""

    key: str


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(strict=True)
    p256dh: str = Field(min_length=1, max_length=MAX_KEY_TEXT)
    auth: str = Field(min_length=1, max_length=MAX_KEY_TEXT)


class NewSubscription(BaseModel):
    """``POST /api/push/subscriptions``: the browser's ``PushSubscription.toJSON()`` as it
    is (its ``expirationTime`` and any other field are ignored)."""

    model_config = ConfigDict(strict=True, extra="ignore")
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)
    keys: SubscriptionKeys


class GoneSubscription(BaseModel):
    """``DELETE /api/push/subscriptions``: the endpoint to forget."""

    model_config = ConfigDict(strict=True, extra="ignore")
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)


class SubscriptionView(BaseModel):
    """One of the account's subscriptions: its push service's host and when it was made
    (the endpoint itself is a browser's secret address and is not shown)."""

    service: str
    created_at: str

    @classmethod
    def of(cls, subscription: PushSubscription) -> SubscriptionView:
        host = urlsplit(subscription.endpoint).hostname or ""
        return cls(service=host, created_at=subscription.created_at.isoformat())


class SubscriptionList(BaseModel):
    subscriptions: list[SubscriptionView]
