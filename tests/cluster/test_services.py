"""The cluster tests' services work: Redis answers (and comes back after a crash), and nginx
spreads requests over its upstreams, steps past a dead one and upgrades WebSockets."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.cluster.conftest import redis_prefix
from tests.raw_http import ask, refusal_message, request
from tests.server_process import free_port
from tests.services import (
    NGINX_TEMPLATE,
    LocalNginx,
    LocalRedis,
    accepts,
    redis_ping,
    render_nginx_config,
)
from tests.waiting import end, wait_until
from yahtzee.web.head_limits import MAX_HEADER_BYTES, MAX_LINE_BYTES
from yahtzee.web.http_guard import HEADER_TIMEOUT_S
from yahtzee.web.limits import MAX_BODY_BYTES

DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"

# A tiny upstream: plain HTTP answers "<name> <X-Forwarded-For> <X-Forwarded-Proto>";
# a WebSocket echoes each message as "<name>:<message>".
UPSTREAM = """
import sys
from http import HTTPStatus
from websockets.sync.server import serve

name, port = sys.argv[1], int(sys.argv[2])

def process_request(connection, request):
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    seen = [request.headers.get(h, "-") for h in ("X-Forwarded-For", "X-Forwarded-Proto")]
    return connection.respond(HTTPStatus.OK, " ".join([name, *seen]))

def echo(websocket):
    for message in websocket:
        websocket.send(f"{name}:{message}")

with serve(echo, "127.0.0.1", port, process_request=process_request) as server:
    server.serve_forever()
"""

Upstream = tuple[str, int, "subprocess.Popen[bytes]"]


def _up_or_gone(port: int, proc: subprocess.Popen[bytes]) -> bool:
    return accepts(port) or proc.poll() is not None


@pytest.fixture
def upstreams() -> Iterator[list[Upstream]]:
    """Two upstream processes, "a" and "b", each on a free port; killed at the end."""
    started: list[Upstream] = []
    try:
        for name in ("a", "b"):
            port = free_port()
            proc = subprocess.Popen([sys.executable, "-c", UPSTREAM, name, str(port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
            started.append((name, port, proc))
        for name, port, proc in started:
            wait_until(partial(_up_or_gone, port, proc), timeout=10,
                       what=f"upstream {name} listening")  # fmt: skip
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        yield started
    finally:
        for _, _, proc in started:
            end(proc)


def test_redis_answers_ping_and_keeps_a_value(redis_server: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_server, socket_timeout=5)
    key = redis_prefix() + "greeting"
    try:
        assert client.ping()
        client.set(key, "hello", ex=60)
        assert client.get(key) == b"hello"
    finally:
        client.delete(key)
        client.close()


def test_prefixes_differ() -> None:
    first, second = redis_prefix(), redis_prefix()
    assert first != second
    assert first.startswith("yz-test-") and first.endswith(":")


def test_local_redis_comes_back_on_its_port_after_a_kill() -> None:
    import redis

    with LocalRedis() as server:
        client = redis.Redis.from_url(server.url, socket_timeout=5)
        try:
            client.set("k", "v")
            server.kill()
            assert not redis_ping(server.port)
            with pytest.raises(redis.ConnectionError):
                client.get("k")
            server.restart()
            assert client.get("k") is None  # reconnected; nothing was persisted
        finally:
            client.close()
    assert not server.folder.exists()


def test_nginx_config_names_every_node_and_hashes_on_the_table() -> None:
    text = render_nginx_config([8001, 8002], 8080, "/srv/lb", as_root=False)
    assert "server 127.0.0.1:8001 max_fails=1 fail_timeout=2s;" in text
    assert "server 127.0.0.1:8002 max_fails=1 fail_timeout=2s;" in text
    assert "listen 127.0.0.1:8080;" in text
    assert "pid /srv/lb/nginx.pid;" in text
    assert "ip_hash" not in text and "user " not in text
    assert "hash $yahtzee_table consistent;" in text
    assert render_nginx_config([8001], 8080, "/srv/lb", as_root=True).startswith("user root;\n")


def test_the_cluster_tests_run_the_projects_nginx_configuration_line_for_line() -> None:
    """What the cluster tests start is deploy/nginx's template, every line of it (those
    with a placeholder filled in), the one docs/deploy.md installs: not a copy."""
    text = render_nginx_config([8001, 8002], 8080, "/srv/lb", as_root=False)
    lines = {line.strip() for line in text.splitlines()}
    template = [line.strip() for line in NGINX_TEMPLATE.read_text().splitlines()]
    fixed = [line for line in template if line and "${" not in line]
    assert len(fixed) > 20 and [line for line in fixed if line not in lines] == []
    assert "deploy/nginx/yahtzee.conf.template" in DEPLOY_DOC.read_text()


def test_nginx_config_sets_the_limits_of_a_node() -> None:
    """The project's nginx file holds requests to a node's own limits (docs/protocol.md)."""
    text = NGINX_TEMPLATE.read_text()
    buffers = re.search(r"large_client_header_buffers (\d+) (\d+)k;", text)
    assert buffers is not None
    count, size = int(buffers[1]), int(buffers[2]) * 1024
    assert (size, count * size) == (MAX_LINE_BYTES, MAX_HEADER_BYTES)
    assert f"client_header_timeout       {HEADER_TIMEOUT_S:g}s;" in text
    assert f"client_max_body_size        {MAX_BODY_BYTES // 1024}k;" in text
    assert f"at most {MAX_BODY_BYTES} bytes" in text and f"at most {MAX_LINE_BYTES} bytes" in text


def test_nginx_refuses_heads_over_a_nodes_limits(upstreams: list[Upstream]) -> None:
    """A 100 KB header, 3,000 headers, a request line over 8 KB, a second Host (a wrong
    one first) and a body over 16 KB are refused by nginx, in the shape a node's
    refusals have; a request within them reaches a node."""
    with LocalNginx([port for _, port, _ in upstreams]) as nginx:
        front = f"127.0.0.1:{nginx.port}"
        close = [("Connection", "close")]
        status, _, text = ask(nginx.port, request(front, "/", close))
        assert status == 200 and text.split()[0] in {"a", "b"}, text
        big = request(front, "/", [("X-Big", "a" * 100_000)])
        refusal_message(ask(nginx.port, big), 431, "headers_too_large")
        many = request(front, "/", [(f"X-Filler-{i:04}", "yes") for i in range(3000)])
        refusal_message(ask(nginx.port, many), 431, "headers_too_large")
        long_line = request(front, "/?pad=" + "a" * MAX_LINE_BYTES)
        refusal_message(ask(nginx.port, long_line), 414, "url_too_long")
        twice = request("evil.example", "/", [("Host", front)])
        refusal_message(ask(nginx.port, twice), 400, "bad_request")
        body = f"POST /api/tables HTTP/1.1\r\nHost: {front}\r\n"
        body += f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n"
        refusal_message(ask(nginx.port, body.encode()), 413, "too_large")


def test_nginx_spreads_requests_and_steps_past_a_dead_node(upstreams: list[Upstream]) -> None:
    with (
        LocalNginx([port for _, port, _ in upstreams]) as nginx,
        httpx.Client(base_url=nginx.base, timeout=10) as client,
    ):
        answers = [client.get("/") for _ in range(6)]
        assert {a.status_code for a in answers} == {200}
        assert {a.text.split()[0] for a in answers} == {"a", "b"}
        assert answers[0].text.split()[1:] == ["127.0.0.1", "http"]

        end(upstreams[0][2])  # SIGKILL node a
        after = [client.get("/") for _ in range(6)]
        assert [(a.status_code, a.text.split()[0]) for a in after] == [(200, "b")] * 6


def test_nginx_upgrades_websockets(upstreams: list[Upstream]) -> None:
    with LocalNginx([port for _, port, _ in upstreams]) as nginx:
        names = set()
        for _ in range(2):
            # /ws/ names no table: round robin
            with connect(f"ws://127.0.0.1:{nginx.port}/ws/", open_timeout=10) as websocket:
                websocket.send("hi")
                name, _, message = str(websocket.recv(timeout=10)).partition(":")
                assert message == "hi"
                names.add(name)
        assert names == {"a", "b"}  # round robin, no stickiness
