"""Clients of a site of several nodes, as the page behaves: a WebSocket per seat (or
spectator) that says hello, records every event it sees by sequence number, and after its
connection drops connects to the same URL again, with backoff, and takes the new state.

Every wait is bounded: a message that does not come fails the test."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

RECEIVE_S = 20.0
RECONNECT_S = 20.0
MOVED_S = 10.0


class Player:
    """One seat's (or a spectator's) client of one table at ``base`` (host:port)."""

    def __init__(
        self, base: str, table: str, *, token: str | None = None, watch: str | None = None
    ) -> None:
        self.base, self.table, self.token, self.watch = base, table, token, watch
        self.seen: dict[int, dict[str, Any]] = {}
        """Every event seen, by sequence number (the same number twice must be the same
        event)."""
        self.game: dict[str, Any] = {}
        self.seq = 0
        self.node: str | None = None
        self.ws: ClientConnection | None = None
        self.reconnects = 0
        self.presence: tuple[list[int], int] = ([], 0)
        """Who is connected (seats, spectators), as last told."""
        self.chat: list[tuple[int, str | None, str]] = []
        """The table's chat as shown: (seat, name, text), the last state's and after."""
        self.connect()

    # Connecting ----------------------------------------------------------------------

    def connect(self, timeout: float = RECONNECT_S) -> None:
        """Connect (again) with backoff until a state arrives."""
        deadline, pause, last = time.monotonic() + timeout, 0.25, "nothing"
        while time.monotonic() < deadline:
            try:
                self._open()
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                last = repr(error)
                self.close()
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
        raise AssertionError(f"no connection to {self.base} within {timeout:g} s ({last})")

    def _open(self) -> None:
        ws = connect(f"ws://{self.base}/ws/{self.table}", open_timeout=5, close_timeout=2)
        self.ws = ws
        assert ws.response is not None
        self.node = ws.response.headers.get("x-yahtzee-node")
        secret = {"token": self.token} if self.token else {"watch": self.watch}
        ws.send(json.dumps({"v": 1, "type": "hello", **secret}))
        state = self._next("state")
        self._take_state(state)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    # Receiving -----------------------------------------------------------------------

    def _recv(self, timeout: float) -> dict[str, Any]:
        assert self.ws is not None
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            raise AssertionError(f"no message within {timeout:g} s") from None
        if message["type"] == "event":
            self._take_event(message)
        elif message["type"] == "state":
            self._take_state(message)
            seats = message["table"]["seats"]
            connected = [s["seat"] for s in seats if s["connected"]]
            self.presence = (connected, message["spectators"])
        elif message["type"] == "presence":
            self.presence = (message["connected"], message["spectators"])
        elif message["type"] == "chat":
            self.chat.append(_line(message))
        return message

    def _next(self, *types: str, timeout: float = RECEIVE_S) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {types} within {timeout:g} s")
            message = self._recv(left)
            if message["type"] in types:
                return message

    def next(self, *types: str, timeout: float = RECEIVE_S) -> dict[str, Any]:
        """The next message of these types; after a dropped connection, reconnects first
        (the reconnection's state counts as a message of type ``state``)."""
        try:
            return self._next(*types, timeout=timeout)
        except ConnectionClosed:
            self.close()
            self.reconnects += 1
            self.connect()
            if "state" in types:
                return {"type": "state", "seq": self.seq, "game": self.game}
            return self._next(*types, timeout=timeout)

    def _take_event(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        earlier = self.seen.setdefault(seq, message["event"])
        assert earlier == message["event"], f"two different events at seq {seq}"
        assert seq == self.seq + 1, f"event {seq} after {self.seq} without a resync"
        self.seq, self.game = seq, message["game"]

    def _take_state(self, message: dict[str, Any]) -> None:
        assert message["seq"] >= self.seq, "a state older than what was seen"
        self.seq, self.game = message["seq"], message["game"]
        self.chat = [_line(line) for line in message["chat"]]

    def send(self, intent: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"v": 1, **intent}))

    def act(self, intent: dict[str, Any], timeout: float = RECEIVE_S) -> dict[str, Any]:
        """Send an intent (with an id) and return its answer; over the rate limit (this
        client plays faster than people do), wait a moment and send it again."""
        for _ in range(20):
            self.send(intent)
            answer = self.next("ack", "error", timeout=timeout)
            if answer["type"] != "error" or answer["code"] != "rate_limited":
                return answer
            time.sleep(0.3)
        raise AssertionError("rate limited again and again")

    def until_presence(self, seats: list[int], spectators: int, timeout: float = RECEIVE_S) -> None:
        """Read until the presence told is this."""
        deadline = time.monotonic() + timeout
        while self.presence != (seats, spectators):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"presence {self.presence}, not {(seats, spectators)}")
            self.next("presence", "state", timeout=left)

    def until_seq(self, seq: int, timeout: float = RECEIVE_S) -> None:
        """Read until this client has seen the game up to ``seq``."""
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"seq {seq} not seen within {timeout:g} s (at {self.seq}, node {self.node})"
                )
            try:
                self.next("event", "state", timeout=left)
            except AssertionError as error:
                raise AssertionError(
                    f"seq {seq} not seen (at {self.seq}, node {self.node}): {error}"
                ) from None

    def until_chat(self, lines: int, timeout: float = RECEIVE_S) -> None:
        """Read until this client has been shown this many chat lines."""
        deadline = time.monotonic() + timeout
        while len(self.chat) < lines:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{len(self.chat)} chat lines, not {lines} (node {self.node})")
            self.next("chat", "state", timeout=left)


def _line(message: dict[str, Any]) -> tuple[int, str | None, str]:
    return message["seat"], message["name"], message["text"]


def intent_for(game: dict[str, Any], intent_id: str) -> dict[str, Any]:
    """A simple legal move: roll once, then fill the first legal box."""
    if game["dice"] is None:
        return {"type": "roll", "id": intent_id}
    return {"type": "score", "box": game["placements"][0]["box"], "id": intent_id}


def new_table(
    base: str, seats: list[dict[str, Any]], *, turn_timer: int | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"host": "Ann", "seats": seats}
    if turn_timer is not None:
        body["turn_timer"] = turn_timer
    return dict(request(base, "POST", "/api/tables", json=body).json())


def join(base: str, invite: str, name: str) -> dict[str, Any]:
    return dict(request(base, "POST", f"/api/join/{invite}", json={"name": name}).json())


def start(base: str, table: str, token: str) -> None:
    request(
        base, "POST", f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}
    )


def owner_of(base: str, table: str) -> str:
    """The node that serves a table (any node relays the question to it)."""
    return str(request(base, "GET", f"/api/tables/{table}").headers["x-yahtzee-node"])


def request(base: str, method: str, path: str, **options: Any) -> httpx.Response:
    """A successful answer, as the page gets one: ``503 moved`` (the table is between
    owners for a moment, say while a heartbeat is late on a busy machine; nothing was
    done) is asked again after its ``Retry-After``, for up to `MOVED_S`."""
    deadline = time.monotonic() + MOVED_S
    with httpx.Client(base_url=f"http://{base}", timeout=RECEIVE_S) as http:
        while True:
            answer = http.request(method, path, **options)
            moved = answer.status_code == 503 and b'"code":"moved"' in answer.content
            if not moved or time.monotonic() >= deadline:
                assert answer.is_success, answer.text
                return answer
            time.sleep(min(float(answer.headers.get("retry-after", 1)), 1.0))


def serves(base: str, table: str) -> bool:
    """Whether the node at ``base`` serves the table and holds its game."""
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        answer = http.get("/api/health", params={"table": table})
        assert answer.is_success, answer.text
        return bool(answer.json()["serves"])
