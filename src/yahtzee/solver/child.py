"""The command line of a Python child process (kernel compiling, table builds), isolated
from where the program was started.

``python -c CODE`` puts the current folder first on the import path, so a ``timeit.py``
lying in the folder a player started the game or the server from would run in every
child. ``-I`` (isolated mode) leaves out that folder, the ``PYTHON*`` environment
variables and the user's site folder; the child then finds this very package by the path
it is given, whatever the parent's environment said.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
"""The folder this package is imported from (a source tree's ``src`` or site-packages)."""


def python_child(code: str, *args: str) -> list[str]:
    """``[python, -I, -c, CODE, ARGS...]``, with this package's folder on the path."""
    return [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {ROOT!r}); {code}", *args]
