"""The names that cross between the nodes of a site and its load balancer, here alone:
the headers a node sets on its answers and on what it relays (a server alone loads this
too: it names itself on no answer, and trusts no relay)."""

from __future__ import annotations

from typing import Final

NODE_HEADER: Final = "x-yahtzee-node"
"""On every answer of a node of several: the node's id (`Cluster.node_id`)."""
RELAY_HEADER: Final = "x-yahtzee-relayed-by"
"""On a request or WebSocket relayed to a table's owner: the relaying node's incarnation."""
RELAY_KEY_HEADER: Final = "x-yahtzee-relay-key"
"""With it, the site's relay key (`wire.Keys.relay_key`): the owner trusts the request's
checks to the relaying node, and takes the client's address from `CLIENT_HEADER`."""
CLIENT_HEADER: Final = "x-yahtzee-client"
"""On a relayed request: the address of the client it came from."""


__all__ = ["CLIENT_HEADER", "NODE_HEADER", "RELAY_HEADER", "RELAY_KEY_HEADER"]
