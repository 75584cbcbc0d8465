"""The import graphs: no import circles, in the package or in the page's modules, and every
import of the package respects the layers.

Every ``.py`` file under ``src/yahtzee`` is parsed with ``ast``; every import, at module
level, inside a function or under ``if TYPE_CHECKING:``, is an edge to the module it names
(``from X import name`` is an edge to ``X.name`` when that is a module, else to ``X``; a
package is its ``__init__``). A type-only import never runs, but it ties the two modules
as much as any other (one cannot be read, typed or moved without the other): it counts for
the circles and for the layers alike.

The page's JavaScript modules (``web/static/*.js``) are read for their ``import ... from
"./x.js"``, ``export ... from "./x.js"``, ``import "./x.js"`` and ``import("./x.js")``: an
edge to the module of the page that the relative address names.
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = "yahtzee"
PAGE = SRC / PACKAGE / "web" / "static"
TOP = PACKAGE  # the layer of yahtzee/__init__.py and yahtzee/__main__.py

# The layer of a module is the first dotted component after ``yahtzee.``; each layer may
# import only the layers listed for it (itself included).
LAYERS: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "solver": frozenset({"core", "solver"}),
    "store": frozenset({"core", "store"}),
    "service": frozenset({"core", "solver", "store", "service"}),
    "render": frozenset({"core", "solver", "store", "render"}),
    "envs": frozenset({"core", "solver", "envs"}),
    "tui": frozenset({"core", "solver", "store", "service", "render", "tui"}),
    "web": frozenset({"core", "solver", "store", "service", "render", "web"}),
    # the entry point: anything but the RL environments
    "cli": frozenset({"core", "solver", "store", "service", "render", "tui", "web", "cli", TOP}),
    TOP: frozenset({"core", "cli"}),
}


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    path: Path
    line: int
    type_only: bool  # under ``if TYPE_CHECKING:``

    def where(self, src: Path) -> str:
        return f"{self.path.relative_to(src)}:{self.line}"


@dataclass
class Graph:
    src: Path
    modules: dict[str, Path] = field(default_factory=dict)
    packages: set[str] = field(default_factory=set)
    imports: list[Import] = field(default_factory=list)

    def edges(self) -> dict[str, dict[str, Import]]:
        """source -> target -> the first import that makes the edge (type-only ones too)."""
        edges: dict[str, dict[str, Import]] = {m: {} for m in self.modules}
        for imp in self.imports:
            edges[imp.source].setdefault(imp.target, imp)
        return edges


def module_name(src: Path, path: Path) -> tuple[str, bool]:
    """The dotted name of ``path`` under ``src``, and whether it is a package."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Collector(ast.NodeVisitor):
    """Every import in one module, resolved to modules of the package."""

    def __init__(self, graph: Graph, module: str, path: Path, package: str) -> None:
        self.graph = graph
        self.module = module
        self.path = path
        self.is_package = module in graph.packages
        self.package = package
        self.type_only = False

    def known(self, name: str) -> str | None:
        """``name`` if it is a module of the package, else its longest prefix that is."""
        parts = name.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in self.graph.modules:
                return candidate
            parts.pop()
        return None

    def add(self, target: str, node: ast.AST) -> None:
        if target != self.package and not target.startswith(self.package + "."):
            return
        found = self.known(target)
        if found is not None and found != self.module:
            line = getattr(node, "lineno", 0)
            self.graph.imports.append(Import(self.module, found, self.path, line, self.type_only))

    def base(self, level: int) -> str:
        """The package that a relative import of ``level`` dots starts from."""
        parts = self.module.split(".")
        if not self.is_package:
            parts = parts[:-1]  # a module's "." is the package that holds it
        if level - 1 > len(parts) - 1:
            raise ValueError(f"{self.path}: relative import beyond the top package")
        return ".".join(parts[: len(parts) - (level - 1)])

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            outer, self.type_only = self.type_only, True
            for child in node.body:
                self.visit(child)
            self.type_only = outer
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            start = self.base(node.level)
            origin = f"{start}.{node.module}" if node.module else start
        else:
            origin = node.module or ""
        for alias in node.names:
            submodule = f"{origin}.{alias.name}"
            if alias.name != "*" and submodule in self.graph.modules:
                self.add(submodule, node)
            else:
                self.add(origin, node)

    def visit_Call(self, node: ast.Call) -> None:
        """``importlib.import_module("yahtzee.x")`` (a constant name) is an import too."""
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in {"import_module", "__import__"} and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self.add(first.value, node)
        self.generic_visit(node)


def walk(src: Path, package: str = PACKAGE) -> Graph:
    """The import graph of ``package`` under ``src``."""
    graph = Graph(src)
    for path in sorted((src / package).rglob("*.py")):
        name, is_package = module_name(src, path)
        graph.modules[name] = path
        if is_package:
            graph.packages.add(name)
    for name, path in graph.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        _Collector(graph, name, path, package).visit(tree)
    return graph


# The page's modules --------------------------------------------------------------------

_STRING = r"""(?P<q>["'])(?P<address>[^"'\n]+)(?P=q)"""
_JS_IMPORTS = (
    # import { a, b } from "./x.js"; import * as x from "./x.js"; export { a } from "./x.js"
    # (the braces may run over several lines); a statement starts its line
    re.compile(rf"^[ \t]*(?:import|export)\b[^;\"'`]*?\bfrom\s*{_STRING}", re.MULTILINE),
    re.compile(rf"^[ \t]*import\s*{_STRING}", re.MULTILINE),  # import "./x.js" (for its effect)
    re.compile(rf"\bimport\(\s*{_STRING}\s*\)"),  # import("./x.js"), anywhere
)


def walk_page(folder: Path = PAGE) -> Graph:
    """The import graph of the page's modules (``*.js`` in ``folder``, named by their path
    under it): each relative address (``./x.js``, ``../x.js``) that names one of them is an
    edge; any other address (a library's, a URL) is none."""
    graph = Graph(folder)
    for path in sorted(folder.rglob("*.js")):
        graph.modules[path.relative_to(folder).as_posix()] = path
    for name, path in graph.modules.items():
        text = path.read_text(encoding="utf-8")
        for pattern in _JS_IMPORTS:
            for found in pattern.finditer(text):
                address = found.group("address")
                if not address.startswith(("./", "../")):
                    continue
                target = (path.parent / address).resolve()
                if not target.is_relative_to(folder.resolve()):
                    continue
                target_name = target.relative_to(folder.resolve()).as_posix()
                if target_name in graph.modules and target_name != name:
                    line = text.count("\n", 0, found.start()) + 1
                    graph.imports.append(Import(name, target_name, path, line, type_only=False))
    return graph


def strongly_connected(edges: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, {}))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def _shortest_cycle(
    start: str, members: set[str], edges: dict[str, dict[str, Import]]
) -> list[str]:
    """The shortest path start -> ... -> start inside one component."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(edges[node]):
                if nxt not in members:
                    continue
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{start} is on no cycle")  # pragma: no cover - Tarjan says it is


def circles(graph: Graph) -> list[str]:
    """Every import circle, as a readable chain with the line of each import: for each
    strongly connected component, the shortest circle through each of its modules."""
    edges = graph.edges()
    found: list[str] = []
    for component in strongly_connected(edges):
        if len(component) < 2:  # a module's import of itself is not recorded
            continue
        seen: set[tuple[str, ...]] = set()
        for start in component:
            chain = _shortest_cycle(start, set(component), edges)
            first = chain.index(min(chain[:-1]))
            key = tuple(chain[first:-1] + chain[:first])
            if key in seen:
                continue
            seen.add(key)
            ring = [*key, key[0]]
            steps = [f"{a} ({edges[a][b].where(graph.src)})" for a, b in itertools.pairwise(ring)]
            found.append(" -> ".join([*steps, ring[-1]]))
    return found


def layer(module: str) -> str:
    """``core`` for ``yahtzee.core.dice``; TOP for ``yahtzee`` and ``yahtzee.__main__``."""
    parts = module.split(".")
    if len(parts) == 1 or (len(parts) == 2 and parts[1] == "__main__"):
        return TOP
    return parts[1]


def layering_violations(graph: Graph, layers: dict[str, frozenset[str]] = LAYERS) -> list[str]:
    """Every import from a layer to one it may not import (TYPE_CHECKING ones included)."""
    found = []
    for name in graph.modules:
        if layer(name) not in layers:
            found.append(f"{name}: no rule for the layer {layer(name)!r} in LAYERS")
    for imp in graph.imports:
        source, target = layer(imp.source), layer(imp.target)
        allowed = layers.get(source)
        if allowed is not None and target not in allowed:
            found.append(
                f"{imp.where(graph.src)}: {imp.source} imports {imp.target} "
                f"({source} may import only {', '.join(sorted(allowed))})"
            )
    return found


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_checker_finds_a_circle_and_a_layering_violation(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "yahtzee/__init__.py": "from .core import dice\n",
            "yahtzee/__main__.py": "from yahtzee.cli import main\n",
            "yahtzee/cli/__init__.py": "def main():\n    from ..core import dice\n",
            "yahtzee/core/__init__.py": "",
            "yahtzee/core/dice.py": "import yahtzee.core.rules as rules\n",
            "yahtzee/core/rules.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from .dice import Dice  # a circle, though it never runs
                    from ..store import Store  # but an import across the layers all the same
                else:
                    Dice = None
            """,
            "yahtzee/store/__init__.py": "",
            "yahtzee/web/__init__.py": "",
            "yahtzee/web/app.py": """
                from .. import core
                from . import connection
            """,
            "yahtzee/web/connection.py": """
                def session():
                    from .app import core  # inside a function: it counts
                    from ..cli import main  # web may not import cli
            """,
        },
    )
    graph = walk(tmp_path)
    edges = {(i.source, i.target, i.type_only) for i in graph.imports}
    assert edges == {
        ("yahtzee", "yahtzee.core.dice", False),  # from .core import dice: the submodule
        ("yahtzee.__main__", "yahtzee.cli", False),  # main is no module: the package
        ("yahtzee.cli", "yahtzee.core.dice", False),
        ("yahtzee.core.dice", "yahtzee.core.rules", False),
        ("yahtzee.core.rules", "yahtzee.core.dice", True),
        ("yahtzee.core.rules", "yahtzee.store", True),
        ("yahtzee.web.app", "yahtzee.core", False),  # from .. import core
        ("yahtzee.web.app", "yahtzee.web.connection", False),  # from . import connection
        ("yahtzee.web.connection", "yahtzee.web.app", False),
        ("yahtzee.web.connection", "yahtzee.cli", False),
    }
    assert circles(graph) == [
        # a type-only import closes a circle as any other does
        "yahtzee.core.dice (yahtzee/core/dice.py:1) -> "
        "yahtzee.core.rules (yahtzee/core/rules.py:4) -> yahtzee.core.dice",
        "yahtzee.web.app (yahtzee/web/app.py:3) -> "
        "yahtzee.web.connection (yahtzee/web/connection.py:3) "
        "-> yahtzee.web.app",
    ]
    assert layering_violations(graph) == [
        "yahtzee/core/rules.py:5: yahtzee.core.rules imports yahtzee.store "
        "(core may import only core)",
        "yahtzee/web/connection.py:4: yahtzee.web.connection imports yahtzee.cli "
        "(web may import only core, render, service, solver, store, web)",
    ]


def test_the_checker_finds_a_circle_of_the_page(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "app.js": """
                // The page. import { nothing } from "./lobby.js" (a comment: no import)
                import { $, state } from "./state.js";
                import {
                  drawLobby,
                  setupCreate,
                } from "./lobby.js";
                import "./fx.js";
                const url = "http://example.com/x.js"; // from "./over.js": no import
            """,
            "state.js": "export const state = {};\n",
            "fx.js": 'export { play } from "./sound/play.js";\n',
            "sound/play.js": """
                import { state } from "../state.js";
                import confetti from "https://example.com/confetti.js";
                export function play() { return import("../lobby.js"); }
            """,
            "lobby.js": """
                import { state } from './state.js';
                export * from "./missing.js";
                export function drawLobby() {}
                export function setupCreate() { showScreen(); }
                import { showScreen } from "./app.js";
            """,
            "notes.txt": 'import { drawLobby } from "./lobby.js";\n',
        },
    )
    graph = walk_page(tmp_path)
    assert set(graph.modules) == {"app.js", "state.js", "fx.js", "sound/play.js", "lobby.js"}
    edges = {(i.source, i.target, i.line) for i in graph.imports}
    assert edges == {
        ("app.js", "state.js", 3),
        ("app.js", "lobby.js", 4),  # its braces over several lines
        ("app.js", "fx.js", 8),  # for its effect
        ("fx.js", "sound/play.js", 1),  # export ... from
        ("sound/play.js", "state.js", 2),  # ../
        ("sound/play.js", "lobby.js", 4),  # import(), a module loaded later
        ("lobby.js", "state.js", 2),  # single quotes
        ("lobby.js", "app.js", 6),  # after the code: imports are hoisted
    }
    assert circles(graph) == [
        "app.js (app.js:4) -> lobby.js (lobby.js:6) -> app.js",
        "app.js (app.js:8) -> fx.js (fx.js:1) -> sound/play.js (sound/play.js:4) -> "
        "lobby.js (lobby.js:6) -> app.js",
    ]


def test_the_walk_sees_the_whole_package() -> None:
    graph = walk(SRC)
    assert len(graph.modules) > 50, sorted(graph.modules)
    assert {"yahtzee", "yahtzee.core", "yahtzee.cli"} <= set(graph.modules)
    assert len(graph.imports) > 100, len(graph.imports)


def test_the_walk_sees_the_whole_page() -> None:
    graph = walk_page()
    assert {"app.js", "state.js", "card.js", "lobby.js", "daily.js", "over.js"} <= set(
        graph.modules
    )
    assert len(graph.imports) > 40, len(graph.imports)


def test_no_import_circles() -> None:
    found = circles(walk(SRC))
    assert not found, "import circles:\n" + "\n".join(found)


def test_no_import_circles_in_the_page() -> None:
    found = circles(walk_page())
    assert not found, "import circles of the page's modules:\n" + "\n".join(found)


def test_every_import_respects_the_layers() -> None:
    found = layering_violations(walk(SRC))
    assert not found, "imports across the layers:\n" + "\n".join(found)
