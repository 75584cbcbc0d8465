"""Every public name of the documented modules has a docstring of its own (the API
reference is generated from them), and none uses a Sphinx role that Markdown would show
as it is typed."""

from __future__ import annotations

import enum
import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("yahtzee", "yahtzee.solver", "yahtzee.envs", "yahtzee.envs.multiplayer", "yahtzee.store")
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|data|attr|mod|exc|obj|const):`")


def _own_doc(obj: object) -> str | None:
    doc = getattr(obj, "__doc__", None)
    if inspect.isclass(obj):
        name = obj.__name__
        if doc and doc.startswith(f"{name}("):  # what dataclasses write when there is none
            return None
        if doc is not None and any(
            doc is getattr(base, "__doc__", None) for base in obj.__mro__[1:]
        ):
            return None  # inherited
    return doc.strip() if doc else None


def _public(module_name: str) -> list[tuple[str, object]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    return [(n, getattr(module, n)) for n in names]


def _undocumented() -> list[str]:
    missing = []
    for module_name in MODULES:
        for name, obj in _public(module_name):
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if not _own_doc(obj):
                missing.append(f"{module_name}.{name}")
            if inspect.isclass(obj) and not issubclass(obj, enum.Enum):
                for member, value in vars(obj).items():
                    if member.startswith("_"):
                        continue
                    function = value.fget if isinstance(value, property) else value
                    if isinstance(function, (staticmethod, classmethod)):
                        function = function.__func__
                    if inspect.isfunction(function) and not (function.__doc__ or "").strip():
                        missing.append(f"{module_name}.{name}.{member}")
    return sorted(set(missing))


def test_every_public_name_has_a_docstring() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    assert _undocumented() == []


def test_no_sphinx_roles_in_the_docstrings() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "src").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if ROLE.search(line)
    ]
    assert found == []
