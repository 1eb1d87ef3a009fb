"""A static import graph of a Python package, and the cycles in it (tests/test_imports.py).

Every ``import`` and ``from ... import`` counts, wherever it is written: at the top, inside a
function, under ``if TYPE_CHECKING``. An import hidden in a function to dodge a cycle is
still a cycle (ARCHITECTURE.md, "Habits"), and a type-only import that closes a loop still
means two modules cannot be read one after the other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

Graph = dict[str, set[str]]


def module_name(root: Path, path: Path) -> str:
    """``root/app/api/ws.py`` -> ``app.api.ws``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(importer: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute module a (possibly relative) ``from`` names."""
    if level == 0:
        return target or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def imports_of(tree: ast.AST, importer: str, is_package: bool,
               modules: set[str]) -> set[str]:
    """The modules of ``modules`` that a module's source imports (anywhere in it)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                while name and name not in modules:  # ``import a.b.c`` of a non-module
                    name = name.rpartition(".")[0]
                if name:
                    out.add(name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(importer, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:  # ``from app.tables import limits``: the module itself
                    out.add(sub)
                elif base in modules:  # ``from app.errors import AppError``
                    out.add(base)
    out.discard(importer)
    return out


def build_graph(root: Path, package: str) -> Graph:
    """Import edges between the modules of ``package`` (a folder under ``root``)."""
    files = sorted((root / package).rglob("*.py"))
    names = {module_name(root, f): f for f in files}
    modules = set(names)
    graph: Graph = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = imports_of(tree, name, path.name == "__init__.py", modules)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted;
    every import cycle lies inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        # iterative depth-first search: (node, iterator over its successors)
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def a_cycle(graph: Graph, component: list[str]) -> list[str]:
    """One concrete loop through a component, for the error message (a -> b -> ... -> a)."""
    members = set(component)
    start = component[0]
    path = [start]
    seen = {start}
    node = start
    while True:
        nxt = sorted(graph[node] & members)
        back = [n for n in nxt if n == start]
        if back and len(path) > 1:
            return [*path, start]
        fresh = [n for n in nxt if n not in seen]
        if not fresh:  # every way on loops to a module already in the path
            loop_to = next(n for n in nxt if n in seen)
            return [*path[path.index(loop_to):], loop_to]
        node = fresh[0]
        seen.add(node)
        path.append(node)
