"""The reference server's modules import each other without circles (DESIGN.md section 4, layers): storage <
models < permissions < presentation < routes. A circle hidden by an import inside a function means a
responsibility sits in the wrong layer, so ruff's PLC0415 refuses those and this test refuses circles among
the imports that run when a module loads (those under ``if TYPE_CHECKING:`` only feed the type checker)."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from reference_server.families import FAMILIES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "reference_server"

Graph = dict[str, set[str]]


def module_files(package: str = PACKAGE, root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by the name of its ``__init__``)."""
    modules: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_imports(body: list[ast.stmt], *, inner: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``body`` that run when the module loads (or, with ``inner``, also those inside
    functions), leaving out ``if TYPE_CHECKING:`` blocks."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _load_time_imports(node.body, inner=inner)
            yield from _load_time_imports(node.orelse, inner=inner)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(handler.body for handler in node.handlers)):
                yield from _load_time_imports(block, inner=inner)
        elif isinstance(node, ast.With | ast.For | ast.While | ast.ClassDef) or (
            inner and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ):
            yield from _load_time_imports(node.body, inner=inner)


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: Mapping[str, Path]) -> set[str]:
    """The kit modules one import statement loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:
        base_parts = module.split(".") if is_package else module.split(".")[:-1]
        base_parts = base_parts[: len(base_parts) - (node.level - 1)]
        base = ".".join([*base_parts, *([node.module] if node.module else [])])
    else:
        base = node.module or ""
    found = {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known}
    if base in known:
        found.add(base)
    return found


def import_graph(package: str = PACKAGE, *, inner: bool = False) -> Graph:
    """Which kit modules each module loads. Loading ``a.b.c`` runs the packages ``a`` and ``a.b`` first, so
    those count too, except the importing module's own ancestors (already loading when it runs)."""
    files = module_files(package)
    graph: Graph = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        own_ancestors = {module.rsplit(".", depth)[0] for depth in range(1, module.count(".") + 1)}
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _load_time_imports(tree.body, inner=inner):
            for target in _targets(module, is_package, node, files):
                parts = target.split(".")
                chain = {".".join(parts[:end]) for end in range(1, len(parts) + 1)}
                edges |= {name for name in chain if name in files and name not in own_ancestors}
        edges.discard(module)
        graph[module] = edges
    return graph


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's components of more than one module: each holds at least one circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
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
    return found


def shortest_cycle(graph: Graph, component: list[str]) -> list[str]:
    """One shortest circle through the first module of ``component``, as ``[a, b, ..., a]``."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return component


def import_cycles(package: str = PACKAGE, *, inner: bool = False) -> list[list[str]]:
    """One circle per strongly connected group of modules."""
    graph = import_graph(package, inner=inner)
    return [shortest_cycle(graph, component) for component in strongly_connected(graph)]


def test_the_graph_sees_the_families() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.app" in graph and f"{PACKAGE}.users.models" in graph
    assert f"{PACKAGE}.endpoints" in graph[f"{PACKAGE}.app"]


def test_the_cycle_finder_finds_a_planted_circle() -> None:
    graph: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    components = strongly_connected(graph)
    assert components == [["a", "b", "c"]]
    assert shortest_cycle(graph, components[0]) == ["a", "b", "c", "a"]


def test_the_reference_server_has_no_import_circles() -> None:
    cycles = import_cycles()
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def inner_imports(package: str = PACKAGE) -> list[str]:
    """``module:line -> target`` of every import of a kit module made inside a function."""
    files = module_files(package)
    found: list[str] = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    for target in _targets(module, path.name == "__init__.py", node, files):
                        found.append(f"{module}:{node.lineno} -> {target}")
    return sorted(set(found))


def test_no_kit_module_is_imported_inside_a_function() -> None:
    """What ruff's PLC0415 says too, kept here so that no circle can hide from the test above."""
    assert inner_imports() == []


def test_the_families_are_all_wired() -> None:
    """Every family package is in ``families.FAMILIES``, with its tables exactly when it has a ``store`` module
    and its ``routes.register`` exactly when it defines one (the app builds itself from that list alone)."""
    packages = sorted(
        path.parent.name for path in (ROOT / PACKAGE).glob("*/routes.py") if (path.parent / "__init__.py").is_file()
    )
    wired = {family.name: family for family in FAMILIES}
    assert sorted(wired) == packages
    for name in packages:
        routes = importlib.import_module(f"{PACKAGE}.{name}.routes")
        assert wired[name].endpoints is routes.ENDPOINTS
        assert wired[name].register is getattr(routes, "register", None), name
        has_store = (ROOT / PACKAGE / name / "store.py").is_file()
        expected = importlib.import_module(f"{PACKAGE}.{name}.store").SCHEMA if has_store else ""
        assert wired[name].schema == expected, name
