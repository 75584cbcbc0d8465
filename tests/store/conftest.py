from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.parts import local_postgres

BACKENDS = ["sqlite", "postgresql"]
URL_ENV = "YAHTZEE_TEST_POSTGRES_URL"
"""The PostgreSQL server CI starts (else the tests start a throwaway local one)."""


@pytest.fixture(scope="session")
def postgres_admin_url() -> Iterator[str]:
    url = os.environ.get(URL_ENV)
    if url:
        yield url
        return
    server = local_postgres()
    if server is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests: .ci/run sets {URL_ENV}.")
        pytest.skip(
            f"No PostgreSQL server: set {URL_ENV} or install Debian's postgresql package "
            "(the tests then start a throwaway server)."
        )
    try:
        yield server.start()
    finally:
        server.stop()


def new_database(admin_url: str) -> str:
    import psycopg

    name = f"yahtzee_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'records.db'}"
    return new_database(request.getfixturevalue("postgres_admin_url"))
