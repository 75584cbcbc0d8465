"""Fixtures for the cluster tests: several ``yahtzee serve`` nodes sharing PostgreSQL and
Redis, behind nginx. Redis is the one CI starts (``YAHTZEE_TEST_REDIS_URL``), else a
throwaway local one when Debian's redis-server is installed; the tests share it, each
under a key prefix of its own (``redis_prefix()``)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from tests.services import LocalRedis, find_binary
from tests.store.conftest import postgres_admin_url

REDIS_URL_ENV = "YAHTZEE_TEST_REDIS_URL"
__all__ = ["postgres_admin_url", "redis_prefix"]  # the PostgreSQL fixture, shared


def redis_prefix() -> str:
    """A fresh key prefix, so that tests sharing one Redis never see each other's keys."""
    return f"yz-test-{uuid.uuid4().hex[:8]}:"


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """The URL of a Redis server for the whole session."""
    url = os.environ.get(REDIS_URL_ENV)
    if url:
        yield url
        return
    if find_binary("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the cluster tests: .ci/run sets {REDIS_URL_ENV}.")
        pytest.skip(
            f"No Redis server: set {REDIS_URL_ENV} or install Debian's redis-server package "
            "(the tests then start a throwaway server)."
        )
    with LocalRedis() as server:
        yield server.url
