"""The import rules of ARCHITECTURE.md ("Habits") as tests, on a static import graph
(tests/import_graph.py): no import cycle anywhere in ``app/``; ``app/tables`` never imports
``app/api``; route modules of ``app/api`` never import each other; the table core
(``app/tables/core``) imports no asyncio, repository or sockets."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from tests.import_graph import a_cycle, build_graph, cycles

ROOT = Path(__file__).resolve().parents[1]


def _describe(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    return "; ".join(" -> ".join(a_cycle(graph, c)) for c in found)


def test_no_import_cycle_in_app() -> None:
    graph = build_graph(ROOT, "app")
    assert "app.tables.actor" in graph and graph["app.api.ws"], "the graph was not built"
    found = cycles(graph)
    assert not found, "import cycles: " + _describe(graph, found)


def test_the_checker_finds_a_real_cycle(tmp_path: Path) -> None:
    """A package whose modules import each other (one of them from inside a function, one
    under TYPE_CHECKING) is reported; the same package without the loop is not."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from pkg import c\n    return c\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from .a import thing\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    graph = build_graph(tmp_path, "pkg")
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert a_cycle(graph, ["pkg.a", "pkg.c", "pkg.sub.b"]) == [
        "pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]
    (pkg / "c.py").write_text("X = 1\n")
    assert cycles(build_graph(tmp_path, "pkg")) == []


def test_tables_never_import_the_api() -> None:
    graph = build_graph(ROOT, "app")
    bad = sorted(f"{m} -> {d}" for m, deps in graph.items() if m.startswith("app.tables")
                 for d in deps if d.startswith("app.api"))
    assert not bad, bad


def _route_modules() -> set[str]:
    """The modules of app/api that define a router (``router = APIRouter(...)``)."""
    out = set()
    for path in (ROOT / "app" / "api").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                    getattr(node.value.func, "id", None) == "APIRouter":
                out.add(f"app.api.{path.stem}")
    return out


def test_route_modules_never_import_each_other() -> None:
    graph = build_graph(ROOT, "app")
    routes = _route_modules()
    assert {"app.api.lobby", "app.api.pages", "app.api.ws"} <= routes
    bad = sorted(f"{m} -> {d}" for m in routes for d in graph[m] if d in routes)
    assert not bad, bad


def test_the_table_core_does_no_io() -> None:
    """No asyncio, no repository, no sockets, no clock in app/tables/core: ``now`` is given."""
    forbidden = ("asyncio", "app.db", "app.api", "app.tables.actor", "app.tables.registry",
                 "app.tables.connections", "app.tables.cluster", "time", "websockets",
                 "fastapi", "starlette", "sqlalchemy", "random")
    core = ROOT / "app" / "tables" / "core"
    files = sorted(core.glob("*.py"))
    assert len(files) > 5, "no table core found"
    bad = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.name}: {n}" for n in names
                    if any(n == f or n.startswith(f + ".") for f in forbidden)]
    assert not bad, bad


# what a pure module may not bring in, even through what it imports: an event loop, a
# database driver, a web framework, a JSON library (encoding is the shell's: app/tables)
IMPURE = ("asyncio", "sqlalchemy", "redis", "asyncpg", "aiosqlite", "starlette", "fastapi",
          "uvicorn", "websockets", "orjson")


def _pure_modules() -> list[str]:
    """The table core, the games' registry and every game's package and modules."""
    games = ROOT / "app" / "games"
    found = ["app.tables.core", "app.games", "app.games.base"]
    for package in sorted(p.parent for p in games.glob("*/__init__.py")):
        found.append(f"app.games.{package.name}")
        found += [f"app.games.{package.name}.{m.stem}" for m in sorted(package.glob("*.py"))
                  if m.stem != "__init__"]
    return found


def _loaded_by(module: str) -> list[str]:
    """The IMPURE packages in sys.modules after importing ``module`` alone in a fresh
    interpreter (what it imports, and what those import, all the way down)."""
    code = ("import importlib, json, sys; importlib.import_module(sys.argv[1]); "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", code, module], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=60)
    return sorted(set(json.loads(done.stdout)) & set(IMPURE))


def test_the_table_core_and_every_engine_load_no_io_and_no_json_library() -> None:
    """Importing the table core or any engine module, transitively, loads no asyncio, no
    database driver, no web framework and no JSON library (Hanabi's engine used to import
    orjson to encode its own views)."""
    modules = _pure_modules()
    assert {"app.games.hanabi.rules", "app.games.ikebana"} <= set(modules)
    # one interpreter for all of them first (cheap); each alone only if that finds any
    code = ("import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    together = subprocess.run([sys.executable, "-c", code, *modules], cwd=ROOT, check=True,
                              capture_output=True, text=True, timeout=120).stdout.split()
    if set(together) & set(IMPURE):
        bad = {m: found for m in modules if (found := _loaded_by(m))}
        raise AssertionError(f"pure modules load I/O or JSON libraries: {bad}")


def test_the_purity_check_sees_what_a_module_loads_through_another() -> None:
    """The check follows imports: the actor loads asyncio and the connections orjson, both
    through what they import."""
    assert "asyncio" in _loaded_by("app.tables.actor")
    assert "orjson" in _loaded_by("app.tables.connections")
