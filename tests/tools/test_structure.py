"""The code's layout shows its design: no circle of imports among the modules of ``sos/app``
and of its subpackages (counting imports inside functions and under ``TYPE_CHECKING``: a circle
there is a circle of design, whatever Python tolerates at run time), and no private name (``_x``)
imported from another module anywhere in ``sos`` (a name another module needs is public, with a
docstring)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOS = ROOT / "sos"


def module_name(path: Path, root: Path = ROOT) -> str:
    """``sos/app/game/outcome.py`` -> ``sos.app.game.outcome`` (a package's ``__init__``: the
    package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, str, int]]:
    """(module imported from, name imported, line) of every import in ``path``, relative
    imports resolved; ``import a.b`` gives (``a.b``, ``""``)."""
    package = module_name(path, root).rsplit(".", 1)[0] if path.name != "__init__.py" \
        else module_name(path, root)
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found += [(source, alias.name, node.lineno) for alias in node.names]
    return found


def app_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of sos/app, in any subpackage -> the modules of sos/app it imports. A package
    (its ``__init__``) is a node too, but not the package a module imports through (``from .
    import outcome`` is an edge to ``outcome``, not to the package)."""
    modules = {module_name(p, root): p for p in sorted((root / "sos" / "app").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for source, imported, _line in imports(path, root):
            if f"{source}.{imported}" in modules:  # from . import outcome
                targets.add(f"{source}.{imported}")
            elif source in modules and not (imported and modules[source].name == "__init__.py"):
                targets.add(source)
        graph[name] = targets - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reaches_into_subpackages(tmp_path: Path) -> None:
    """A circle between modules of two subpackages of sos/app is found, relative imports too."""
    app = tmp_path / "sos" / "app"
    for folder in (app, app / "game", app / "saving"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (app / "game" / "outcome.py").write_text("from ..saving import record\n")
    (app / "saving" / "record.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..game.outcome import X\n"
    )
    (app / "tab.py").write_text("from sos.app.game import outcome\n")
    graph = app_graph(tmp_path)
    assert graph["sos.app.tab"] == {"sos.app.game.outcome"}
    assert circles(graph) == [["sos.app.game.outcome", "sos.app.saving.record"]]


def test_no_circle_of_imports_among_the_app_modules() -> None:
    graph = app_graph()
    assert len(graph) > 30 and any(graph.values())  # the graph is read
    assert circles(graph) == [], "modules of sos/app that import each other in a circle"


def groups_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """The graph of sos/app's groups: each subpackage (``sos.app.game``) and each module at
    sos/app's top (``sos.app.tab``) -> the groups it imports from."""

    def group(module: str) -> str:
        return ".".join(module.split(".")[:3])

    graph: dict[str, set[str]] = {}
    for module, targets in app_graph(root).items():
        if module == "sos.app":
            continue
        found = graph.setdefault(group(module), set())
        found.update(group(target) for target in targets if group(target) != group(module))
    return graph


def test_the_groups_graph_finds_a_circle_between_groups(tmp_path: Path) -> None:
    app = tmp_path / "sos" / "app"
    for folder in (app, app / "game", app / "saving"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (app / "game" / "outcome.py").write_text("from ..saving import record\n")
    (app / "game" / "view.py").write_text("")
    (app / "saving" / "record.py").write_text("")
    (app / "saving" / "index.py").write_text("from ..game import view\n")
    assert circles(app_graph(tmp_path)) == []  # no circle of modules...
    assert circles(groups_graph(tmp_path)) == [["sos.app.game", "sos.app.saving"]]  # ...of groups


def test_no_circle_among_the_groups_of_the_app() -> None:
    """The subpackages of sos/app (text, saving, game, share, learn) and the tab's modules at
    its top import each other in one direction only (docs/architecture.md)."""
    graph = groups_graph()
    assert sum(1 for group in graph if (ROOT / group.replace(".", "/")).is_dir()) >= 5
    assert circles(graph) == [], "groups of sos/app that import each other in a circle"


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {imported} from {source}"
        for path in sorted(SOS.rglob("*.py"))
        for source, imported, line in imports(path)
        if source.startswith("sos") and imported.startswith("_") and not imported.startswith("__")
    ]
    assert found == [], "make the name public (and document it), or keep it in its module"
