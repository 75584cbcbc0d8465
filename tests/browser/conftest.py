from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import CHROMIUM_FLAGS, chromium
from tests.server_process import ROOT

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def _chromium() -> Iterator[Any]:
    """One Chromium for a module's tests (a launch costs about 2 s of CPU). Not for the
    whole session: while Playwright's synchronous API is open, ``asyncio.run`` fails
    ("cannot be called from a running event loop"), and other modules' tests use it."""
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_FLAGS, timeout=60_000
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """Chromium for one test: every context (page) the test opened is closed after it,
    so that nothing of one test (storage, sockets, a page still reconnecting) reaches
    the next."""
    try:
        yield _chromium
    finally:
        for context in list(_chromium.contexts):
            context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
