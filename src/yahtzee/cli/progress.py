"""The terminal's view of a solver build: a progress bar on stderr, drawn only when stderr is
a terminal and only once a table is actually being built (a cached table loads silently)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..core.language import _

if TYPE_CHECKING:
    from rich.progress import TaskID

    from ..solver import Progress
    from ..solver.compiling import Kind


@contextmanager
def solver_progress(label: str) -> Iterator[Progress | None]:
    """A ``progress`` callback for the solver that draws a transient bar titled ``label``
    on stderr, or ``None`` (no reports) when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console  # noqa: PLC0415 - only when a terminal shows it
    from rich.progress import Progress as Bar  # noqa: PLC0415

    shown: list[tuple[Bar, TaskID]] = []

    def report(done: int, total: int) -> None:
        if not shown:
            bar = Bar(console=Console(stderr=True), transient=True)
            # kept before it starts: a Ctrl-C that lands inside start() (once the bar
            # has taken stdout over) still finds the bar to stop, and stdout back
            shown.append((bar, bar.add_task(label, total=total)))
            bar.start()
        bar, task = shown[0]
        bar.update(task, completed=done, total=total)

    try:
        yield report
    finally:
        for bar, _task in shown:
            bar.stop()


@contextmanager
def working(label: str, *, always: bool = False) -> Iterator[None]:
    """A spinner with ``label`` and the time spent on stderr while a long step runs (the
    compiling it may need happens in a child process, so the spinner keeps turning);
    when stderr is not a terminal, nothing, or with ``always`` the label once, as a line."""
    if not sys.stderr.isatty():
        if always:
            print(f"{label}...", file=sys.stderr, flush=True)
        yield
        return
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress as Bar  # noqa: PLC0415
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    columns = (SpinnerColumn(), TextColumn(label), TimeElapsedColumn())
    with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
        bar.add_task(label, total=None)
        yield


def compile_first(kind: Kind, what: str) -> None:
    """The first time after an install, numba compiles ``kind``'s kernels (``what``, for
    a player) before any work can start: say so, with about how long it takes (a spinner
    with the time spent on a terminal, else a line), instead of a bar sitting at 0%."""
    from ..solver import compiling  # noqa: PLC0415 - numba loads only here

    if compiling.cached(kind):
        return
    seconds = compiling.COMPILE_SECONDS[kind]
    label = _("Compiling {what} (first run only, about {seconds} s)").format(
        what=what, seconds=seconds
    )
    with working(label, always=True):
        compiling.compile_aside(kind)
