"""Every value that crosses between the nodes of a site, each with its own encoding.

The nodes share no memory and send each other no game news: a table's owner alone
serves it. What they share lives in Redis (`Keys`): each node's heartbeat and card
(`NodeCard`: where it is reached), and each table's ownership lease, whose value is
the owning node's `Incarnation`. A request that reached the wrong node is relayed to the
owner, marked with `RELAY_HEADER` (so that it is never relayed twice; the headers' names
are `names`', which a server alone loads too).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Final

from ...core import InvalidInput
from .names import CLIENT_HEADER, NODE_HEADER, RELAY_HEADER, RELAY_KEY_HEADER

MAX_TEXT: Final = 512
"""The longest value accepted from Redis or a relay header."""


def _text(raw: str | bytes) -> str:
    text = raw.decode() if isinstance(raw, bytes) else raw
    if len(text) > MAX_TEXT:
        raise InvalidInput("A value from another node is too long.")
    return text


@dataclass(frozen=True, slots=True)
class Incarnation:
    """One run of a node: its id (``--node-id``) and a token drawn at each start, so that
    a node restarted under the same id never takes its dead run's leases for its own."""

    node: str
    run: str

    @classmethod
    def fresh(cls, node: str) -> Incarnation:
        return cls(node, secrets.token_hex(4))

    def encode(self) -> str:
        return f"{self.node}/{self.run}"

    @classmethod
    def decode(cls, raw: str | bytes) -> Incarnation:
        node, slash, run = _text(raw).rpartition("/")
        if not slash or not node or not run:
            raise InvalidInput("Not a node's incarnation.")
        return cls(node, run)


@dataclass(frozen=True, slots=True)
class NodeCard:
    """Where a node's incarnation is reached (``host:port``, for relays)."""

    who: Incarnation
    address: str

    def encode(self) -> str:
        return json.dumps({"node": self.who.node, "run": self.who.run, "address": self.address})

    @classmethod
    def decode(cls, raw: str | bytes) -> NodeCard:
        try:
            data = json.loads(_text(raw))
            node, run, address = data["node"], data["run"], data["address"]
        except (ValueError, KeyError, TypeError):
            raise InvalidInput("Not a node's card.") from None
        if not all(isinstance(v, str) and v for v in (node, run, address)):
            raise InvalidInput("Not a node's card.")
        return cls(Incarnation(node, run), address)


@dataclass(frozen=True, slots=True)
class Keys:
    """Where a site's shared values live in Redis (all under one prefix)."""

    prefix: str

    @property
    def nodes(self) -> str:
        """A sorted set: each incarnation scored by its last heartbeat (Redis's clock, ms)."""
        return f"{self.prefix}nodes"

    @property
    def cards(self) -> str:
        """A hash: each incarnation's `NodeCard`."""
        return f"{self.prefix}cards"

    @property
    def relay_key(self) -> str:
        """A string: the site's secret that marks a request relayed by one of its nodes."""
        return f"{self.prefix}relay-key"

    def lease(self, table_id: str) -> str:
        """A string with a time to live: the owning `Incarnation` of a table."""
        return f"{self.prefix}own:{table_id}"

    def owned(self, who: Incarnation) -> str:
        """A set: the tables an incarnation claimed (what the others take over when it
        dies)."""
        return f"{self.prefix}owned:{who.encode()}"


__all__ = [
    "CLIENT_HEADER",
    "NODE_HEADER",
    "RELAY_HEADER",
    "RELAY_KEY_HEADER",
    "Incarnation",
    "Keys",
    "NodeCard",
]
