"""Scripted players for the server tests."""

from __future__ import annotations

from typing import Any, Protocol


class Socket(Protocol):
    def send_json(self, data: Any) -> None: ...
    def receive_json(self) -> Any: ...


def next_of(socket: Socket, *types: str) -> dict[str, Any]:
    """The next message of one of ``types`` (others are skipped)."""
    for _ in range(500):
        message = socket.receive_json()
        if message["type"] in types:
            return message  # type: ignore[no-any-return]
    raise AssertionError(f"no {types} message")


def intent_for(game: dict[str, Any]) -> dict[str, Any]:
    """A simple legal move: roll once, then fill the first legal box."""
    if game["dice"] is None:
        return {"v": 1, "type": "roll"}
    return {"v": 1, "type": "score", "box": game["placements"][0]["box"]}


def play_out(sockets: dict[int, Socket], watcher: Socket, game: dict[str, Any]) -> dict[str, Any]:
    """Humans (``sockets`` by seat) act in turn; bots act on their own; ``watcher`` sees
    every event. Returns the final game state."""
    for _ in range(2000):
        if game["phase"] == "over":
            return game
        seat = game["current"]
        if seat in sockets:
            sockets[seat].send_json(intent_for(game))
        message = next_of(watcher, "event", "error")
        assert message["type"] == "event", message
        game = message["game"]
    raise AssertionError("the game did not end")
