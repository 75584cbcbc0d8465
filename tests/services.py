"""Redis and nginx for the cluster tests, as throwaway processes on 127.0.0.1
(`benchmarks.parts`, which the cluster benchmark starts too).

CI (``.ci/run``) installs Debian's redis-server and nginx; locally a test that needs one
that is missing is skipped with the reason (under CI it fails: nothing is skipped there)."""

from __future__ import annotations

import os

import pytest
from benchmarks import parts
from benchmarks.parts import (
    NGINX_TEMPLATE,
    accepts,
    find_binary,
    redis_ping,
    render_nginx_config,
)

__all__ = [
    "NGINX_TEMPLATE",
    "LocalNginx",
    "LocalRedis",
    "accepts",
    "find_binary",
    "redis_ping",
    "render_nginx_config",
    "require",
]


def require(binary: str) -> str:
    """The path of ``binary``; without it the test is skipped, or fails under CI."""
    path = find_binary(binary)
    if path is None:
        reason = f"{binary} is not installed (Debian's package provides it; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the cluster tests: {reason}.")
        pytest.skip(reason)
    return path


class LocalRedis(parts.LocalRedis):
    """``redis-server`` on 127.0.0.1, without persistence, in a temporary folder (skipped
    where it is not installed). ``with LocalRedis() as redis:`` starts it and stops it."""

    def __init__(self, port: int | None = None) -> None:
        super().__init__(port, program=require("redis-server"))


class LocalNginx(parts.LocalNginx):
    """nginx on 127.0.0.1 in front of ``upstream_ports`` (skipped where it is not
    installed). ``with LocalNginx([...]) as nginx:`` starts and stops it."""

    def __init__(
        self, upstream_ports: list[int], *, port: int | None = None, hashed: bool = True
    ) -> None:
        super().__init__(upstream_ports, port=port, hashed=hashed, program=require("nginx"))
