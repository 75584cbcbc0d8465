"""`HeadWatch` alone: the same verdict however a request's bytes are split into reads,
a header that never ends refused once the most a head may hold has come, chunked bodies
(data, not headers) never refused, and the bytes after an upgrade left alone. (Against
a real server: `test_head_limits`.)"""

from __future__ import annotations

from yahtzee.web.head_limits import (
    NOT_HTTP,
    SECOND_HOST,
    HeadLimits,
    HeadRefusal,
    HeadWatch,
    Phase,
    header_too_large,
    headers_too_large,
    line_too_long,
)

LIMITS = HeadLimits()


def fed(data: bytes, size: int) -> HeadRefusal | None:
    """The first refusal of a fresh watch fed ``data`` in reads of ``size`` bytes."""
    watch = HeadWatch(LIMITS)
    for start in range(0, len(data), size):
        refusal = watch.feed(data[start : start + size])
        if refusal is not None:
            return refusal
    return None


def get(target: str = "/", *lines: str) -> bytes:
    return "\r\n".join([f"GET {target} HTTP/1.1", "Host: a", *lines, "", ""]).encode()


def test_the_verdict_does_not_depend_on_how_the_bytes_are_read() -> None:
    line = "/" + "a" * (LIMITS.line - len("GET / HTTP/1.1"))
    header = "X: " + "v" * (LIMITS.field - len("X: "))
    cases = [
        (get(line), None),
        (get(line + "a"), line_too_long(LIMITS)),
        (get("/", header), None),
        (get("/", header + "v"), header_too_large(LIMITS)),
        (get("/", "Host: b"), SECOND_HOST),
        (b"NOT HTTP\r\n\r\n", NOT_HTTP),
    ]
    for data, verdict in cases:
        for size in (1, 7, 1000, len(data)):
            assert fed(data, size) == verdict, (data[:40], size)


def test_a_header_that_never_ends_is_refused_once_a_head_is_full() -> None:
    watch = HeadWatch(LIMITS)
    assert watch.feed(b"GET / HTTP/1.1\r\nX-Stream: ") is None
    came = 0
    while (refusal := watch.feed(b"a" * 1000)) is None:
        came += 1000
        assert came <= LIMITS.held, "the watch held more than a head may"
    assert refusal == headers_too_large(LIMITS)
    assert came > LIMITS.held - 1000


def test_chunked_bodies_and_their_trailers_within_the_limits_pass() -> None:
    chunks = b"".join(b"%x\r\n%s\r\n" % (n, b"d" * n) for n in (1, 5000, 20000, 70000))
    body = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
    whole = body + b"0\r\nX-Trailer: t\r\n\r\n" + get()
    for size in (1, 3, 1000, 65536, len(whole)):
        watch = HeadWatch(LIMITS)
        for start in range(0, len(whole), size):
            assert watch.feed(whole[start : start + size]) is None, (size, start)
        assert (watch.heads_whole, watch.phase) == (2, Phase.IDLE)


def test_the_bytes_after_an_upgrade_are_not_parsed() -> None:
    upgrade = get("/ws", "Connection: Upgrade", "Upgrade: websocket")
    watch = HeadWatch(LIMITS)
    assert watch.feed(upgrade + b"\x81\x05hello not http") is None
