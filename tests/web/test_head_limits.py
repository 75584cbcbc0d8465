"""The limits of a request's head against a real ``yahtzee serve`` process, over raw
sockets: a request line, a header line, the header lines' number and their size, each
refused one byte past its limit (and served at it) with the documented refusal; a second
``Host``; a stream of header bytes cut, nothing more of it read and the server's memory
bounded; WebSockets served as before."""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.raw_http import WAIT, Answer, answer_of, ask, connect, refusal_message, request
from tests.server_process import START_TIMEOUT, ServerProcess
from tests.waiting import wait_until
from tests.web.helpers import next_of, seated
from yahtzee.web.head_limits import MAX_HEADER_BYTES, MAX_HEADERS, MAX_LINE_BYTES
from yahtzee.web.security import SECURITY_HEADERS

STREAMED = 64 * 1024 * 1024
"""What each streaming attacker would send (far more than any socket buffers hold)."""
PIECE = 64 * 1024
ATTACKERS = 4
GROWTH_KB = 8 * 1024
"""The most the server's memory may grow under the attack: a few reads of the sockets."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("head-limits") / "server.db"
    process = ServerProcess(f"sqlite:///{db}")
    try:
        process.start()
        yield process
    finally:
        process.stop()


def host(server: ServerProcess) -> str:
    return f"127.0.0.1:{server.port}"


def refused(answer: Answer, status: int, code: str) -> str:
    """The message of a refusal in the documented shape, with the security headers."""
    headers = answer[1]
    assert all(headers[name] == value for name, value in SECURITY_HEADERS.items()), headers
    return refusal_message(answer, status, code)


def served(answer: Answer) -> None:
    assert answer[0] == 200, answer


def health_of_line(length: int) -> str:
    """A path to /api/health whose request line (``GET PATH HTTP/1.1``) has ``length``
    bytes."""
    path = "/api/health?pad="
    return path + "a" * (length - len(f"GET {path} HTTP/1.1"))


def header_lines(name: str, count: int, total: int) -> list[tuple[str, str]]:
    """The header lines after ``Host: name`` of a request with ``count`` of them whose
    bytes (CRLFs included) are ``total``: ``Connection: close`` and fillers of even size."""
    fixed = [("Host", name), ("Connection", "close")]
    room = total - sum(len(f"{n}: {v}\r\n") for n, v in fixed)
    fillers = count - len(fixed)
    sizes = [room // fillers + (1 if i < room % fillers else 0) for i in range(fillers)]
    lines = [(f"X-Fill-{i:03}", size - len(f"X-Fill-{i:03}: \r\n")) for i, size in enumerate(sizes)]
    return [fixed[1], *((n, "y" * length) for n, length in lines)]


def test_a_100_kb_header_and_3000_headers_are_refused(server: ServerProcess) -> None:
    big = ask(server.port, request(host(server), headers=[("X-Big", "a" * 100_000)]))
    assert str(MAX_LINE_BYTES) in refused(big, 431, "headers_too_large")
    many = [(f"X-Filler-{i}", "yes") for i in range(3000)]
    assert str(MAX_HEADERS) in refused(
        ask(server.port, request(host(server), headers=many)), 431, "headers_too_large"
    )


def test_a_request_line_is_served_at_its_limit_and_refused_past_it(server: ServerProcess) -> None:
    close = [("Connection", "close")]
    served(ask(server.port, request(host(server), health_of_line(MAX_LINE_BYTES), close)))
    too_long = request(host(server), health_of_line(MAX_LINE_BYTES + 1), close)
    assert str(MAX_LINE_BYTES) in refused(ask(server.port, too_long), 414, "url_too_long")


def test_a_header_line_is_served_at_its_limit_and_refused_past_it(server: ServerProcess) -> None:
    def long_line(length: int) -> bytes:
        value = "v" * (length - len("X-Long: "))
        return request(host(server), headers=[("Connection", "close"), ("X-Long", value)])

    served(ask(server.port, long_line(MAX_LINE_BYTES)))
    too_long = ask(server.port, long_line(MAX_LINE_BYTES + 1))
    assert str(MAX_LINE_BYTES) in refused(too_long, 431, "headers_too_large")


def test_header_lines_are_served_at_their_limits_and_refused_past_them(
    server: ServerProcess,
) -> None:
    """100 header lines of 32 KB in all served; one line more, or one byte more,
    refused."""
    name = host(server)
    served(
        ask(server.port, request(name, headers=header_lines(name, MAX_HEADERS, MAX_HEADER_BYTES)))
    )
    many = request(name, headers=header_lines(name, MAX_HEADERS + 1, MAX_HEADER_BYTES))
    assert str(MAX_HEADERS) in refused(ask(server.port, many), 431, "headers_too_large")
    large = request(name, headers=header_lines(name, MAX_HEADERS, MAX_HEADER_BYTES + 1))
    assert str(MAX_HEADER_BYTES) in refused(ask(server.port, large), 431, "headers_too_large")


def test_a_second_host_is_refused(server: ServerProcess) -> None:
    """Whichever comes first, the wrong one or the right one."""
    right, wrong = host(server), "evil.example"
    for first, second in ((wrong, right), (right, wrong)):
        twice = request(first, headers=[("Host", second), ("Connection", "close")])
        assert "Host" in refused(ask(server.port, twice), 400, "bad_request")


def test_bytes_that_are_not_http_are_refused_in_the_documented_shape(
    server: ServerProcess,
) -> None:
    refused(ask(server.port, b"HELLO THERE\r\n\r\n"), 400, "bad_request")


def test_a_websocket_and_keep_alive_requests_are_served(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=WAIT) as http:  # one connection
        assert [http.get("/api/health").status_code for _ in range(3)] == [200] * 3
        made = http.post("/api/tables", json={"host": "Ann"})
        assert made.status_code == 201, made.text
    table = made.json()
    base = server.base.removeprefix("http://")
    with seated(base, table["table"]["id"], token=table["token"]) as ann:
        assert next_of(ann, "state", timeout=WAIT)["you"]["seat"] == 0
        ann.send_json({"v": 1, "type": "resync"})
        assert next_of(ann, "state", timeout=WAIT)["you"]["seat"] == 0


def stream(port: int, head: bytes) -> tuple[int, bytes]:
    """Send ``head`` and then `STREAMED` bytes of one header line that never ends, as
    fast as the server takes them, until it stops them (for `WAIT` seconds at most);
    what was sent of them, and what the server answered meanwhile (read as it comes: a
    reset could drop it unread)."""
    sent, got = 0, b""
    piece = memoryview(b"a" * PIECE)
    deadline = time.monotonic() + WAIT
    with connect(port) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        try:
            while sent < STREAMED and time.monotonic() < deadline:
                readable, writable, _ = select.select([sock], [sock], [], WAIT)
                if readable:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    got += chunk
                elif writable:
                    sent += sock.send(piece)
        except ConnectionError:  # closed, with our bytes unread
            pass
    return sent, got


def streamed_header(server: ServerProcess) -> bytes:
    return f"GET /api/health HTTP/1.1\r\nHost: {host(server)}\r\nX-Stream: ".encode()


def peak_kb(pid: int) -> int:
    """The process's peak resident memory since `reset_peak` (VmHWM), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/PID/status")


def reset_peak(pid: int) -> int:
    """Set the process's peak resident memory to its present one, and return that."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
    return peak_kb(pid)


def solver_ready(server: ServerProcess) -> bool:
    """Whether the server has its solver's tables loaded (a hundred MB, at its start)."""
    return bool(httpx.get(f"{server.base}/api/health", timeout=WAIT).json()["solver"] == "ready")


def test_streamed_header_bytes_are_cut_and_memory_stays_bounded(server: ServerProcess) -> None:
    """Four sockets each stream one header's bytes: each is answered 431 and then not
    read (its sending blocks, far short of what it would send, until the server closes
    it), and the server's peak memory grows by a few reads at most."""
    assert server.pid is not None
    wait_until(lambda: solver_ready(server), timeout=START_TIMEOUT, what="the solver loaded")
    before = reset_peak(server.pid)
    with ThreadPoolExecutor(ATTACKERS) as pool:
        heads = [streamed_header(server)] * ATTACKERS
        streams = list(pool.map(stream, [server.port] * ATTACKERS, heads))
    grown = peak_kb(server.pid) - before
    for sent, got in streams:
        assert sent < STREAMED // 4, sent
        refused(answer_of(got), 431, "headers_too_large")
    assert grown < GROWTH_KB, f"the server grew by {grown} KB"
    served(ask(server.port, request(host(server), headers=[("Connection", "close")])))


def test_streamed_trailer_bytes_are_cut(server: ServerProcess) -> None:
    """The trailer fields of a chunked body count as headers: one that never ends is
    answered 431 and then not read, as a header would be."""
    head = (
        f"POST /api/tables HTTP/1.1\r\nHost: {host(server)}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        "2\r\n{}\r\n0\r\nX-Trailer: "
    )
    sent, got = stream(server.port, head.encode())
    assert sent < STREAMED // 4, sent
    refused(answer_of(got), 431, "headers_too_large")
