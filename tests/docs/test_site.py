"""The documentation site: it builds with warnings as errors (broken links and references
fail), its code examples run, and the protocol page and the message models agree."""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from tests.docs.examples import python_blocks, run_examples

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BUILD_TIMEOUT = 300


def _needs(module: str) -> None:
    """Skip locally without ``module`` (the docs extra); in CI it must be there."""
    if importlib.util.find_spec(module) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is not installed: CI installs the docs extra")
        pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")


def test_the_site_builds_strict(tmp_path: Path) -> None:
    _needs("mkdocs")
    _needs("mkdocstrings")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr[-3000:]
    home = (tmp_path / "index.html").read_text()
    assert "Quick start" in home
    cli = (tmp_path / "reference" / "cli" / "index.html").read_text()
    assert "yahtzee tables build" in cli and "--real-dice" in cli  # generated from the parser
    assert re.search(r"--real(?!-dice)", cli) is None  # no hidden option leaks into it
    api = (tmp_path / "reference" / "solver" / "index.html").read_text()
    assert "expected_total" in api and ":func:" not in api


GUIDES = sorted(p for p in DOCS.rglob("*.md") if python_blocks(p.read_text()))


@pytest.mark.parametrize("page", GUIDES, ids=[str(p.relative_to(DOCS)) for p in GUIDES])
def test_the_guides_examples_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YAHTZEE_CACHE_DIR", str(tmp_path))
    assert run_examples(page.read_text(), str(page)) > 0


def _section(text: str, heading: str) -> str:
    return text.split(heading, 1)[1].split("\n#", 1)[0]


def test_the_protocol_page_and_the_messages_agree() -> None:
    pytest.importorskip("fastapi")
    from yahtzee.web import messages, protocol

    text = (DOCS / "protocol.md").read_text()
    to_client = {
        get_args(cls.model_fields["type"].annotation)[0]
        for _, cls in inspect.getmembers(messages, inspect.isclass)
        if issubclass(cls, messages.BaseModel) and "type" in getattr(cls, "model_fields", {})
    }
    from_client = {
        get_args(cls.model_fields["type"].annotation)[0]
        for _, cls in inspect.getmembers(protocol, inspect.isclass)
        if issubclass(cls, protocol.BaseModel) and "type" in getattr(cls, "model_fields", {})
    }
    documented = re.compile(r'\{"(?:v": 1, ")?type": "([a-z_]+)"')
    server = set(documented.findall(_section(text, "### From the server")))
    server -= {"roll", "score", "undo", "playoff"}  # events inside an "event" message
    rows = [r for r in _section(text, "### From a client").splitlines() if r.startswith("| `{")]
    client = {documented.search(row).group(1) for row in rows}  # type: ignore[union-attr]
    assert to_client == server
    assert from_client == client


def test_the_protocol_page_lists_every_rest_call() -> None:
    pytest.importorskip("fastapi")
    from yahtzee.web.app import create_app

    app = create_app("sqlite:///:memory:", bot_delay=0)
    routes = {
        re.sub(r"\{[^}]*\}", "{}", f"{method} {path}")
        for path, item in app.openapi()["paths"].items()
        if path.startswith("/api/")
        for method in (m.upper() for m in item)
    }
    lobby = _section((DOCS / "protocol.md").read_text(), "## Lobby (REST, JSON)")
    calls = re.findall(r"\| `((?:GET|POST|PUT|PATCH|DELETE) /api/[^`]*)`", lobby)
    documented = {re.sub(r"\{[^}]*\}", "{}", call) for call in calls}
    assert routes == documented
