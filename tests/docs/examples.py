"""Running a page's Python examples as a reader would, checking what they print."""

from __future__ import annotations

import contextlib
import io
import re


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run_examples(text: str, name: str) -> int:
    """Run each ``python`` block of ``text`` in a fresh namespace; a ``print(...)  # X``
    line must print a line starting with X (up to a parenthesis or ", as ..." remark).
    Returns how many blocks ran."""
    blocks = python_blocks(text)
    for example in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(example, name, "exec"), {})
        printed = out.getvalue().splitlines()
        shown = [
            line.split("  # ", 1)[1]
            for line in example.splitlines()
            if line.startswith("print(") and "  # " in line
        ]
        for want, got in zip(shown, printed, strict=False):
            expected = want.split(", as")[0].split(" (")[0]
            assert got.startswith(expected), (name, want, got)
    return len(blocks)
