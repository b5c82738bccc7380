"""The modules a memory snapshot of the page's interpreter pre-imports (scripts/snapshot.mjs).

Derived from the sources, so that nothing has to be listed by hand when the app changes: start
at the page's entry (static/app.py) and follow every *module-level* import, transitively, through
the ``sos`` package. Imports inside functions are lazy on purpose (the AI, the opening book) and
are not followed. A module is pre-imported when it can live in a snapshot: the standard library
and ``sos`` modules that do not touch the browser. ``sos.web`` modules (they import
``pyscript``/``js``, whose objects cannot be snapshotted) are followed but not pre-imported,
nor are ``pyscript``, ``js``, ``pyodide`` and ``_pyodide`` (set up by the runtime itself).
``EXTRA`` adds what PyScript's own Python imports at start (measured in the page).

``prepare_snapshot`` is the Python half of scripts/snapshot.mjs: it imports those modules in the
build's Pyodide and resets what Node leaves in Python's state. Runs under CPython (tests) and
inside the build's Pyodide; standard library only.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

#: Imported by PyScript's own start-up code in the page (pyscript/*.py), not by ours.
EXTRA: tuple[str, ...] = ("html", "html.entities")
#: Modules that hold browser objects: never pre-imported.
BROWSER = ("pyscript", "js", "pyodide", "_pyodide", "sos.web")
#: The pure module that checks and reseeds a restored interpreter (static/app.py calls it).
HOOK = "sos.web.snapshot"


def _is_browser(name: str) -> bool:
    return any(name == b or name.startswith(b + ".") for b in BROWSER)


def _module_imports(tree: ast.Module, package: str) -> list[str]:
    """Absolute names imported at module level (not inside functions or classes)."""
    found: list[str] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                found.append(module)
                # "from sos.web import embed" may name a submodule: a candidate for our package
                if module.split(".")[0] == "sos":
                    found.extend(f"{module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If | ast.Try):
                # "if TYPE_CHECKING:" blocks are not run; the rest of if/try is module level
                test = getattr(node, "test", None)
                if not (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"):
                    visit(node.body)
                    visit(getattr(node, "orelse", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return found


def start_modules(root: Path, entry: str = "static/app.py") -> list[str]:
    """Modules the page imports at start, in import order (first seen), to pre-import.

    ``root`` is the repository (or site) folder holding ``entry`` and ``sos/``.
    """
    order: list[str] = []
    seen: set[str] = set()
    stdlib = sys.stdlib_module_names

    def source_of(name: str) -> tuple[Path, str] | None:
        base = root.joinpath(*name.split("."))
        if (base / "__init__.py").is_file():
            return base / "__init__.py", name
        if base.with_suffix(".py").is_file():
            return base.with_suffix(".py"), name.rpartition(".")[0]
        return None

    def add(name: str) -> None:
        if not name or name in seen:
            return
        seen.add(name)
        top = name.split(".")[0]
        if top == "sos":
            found = source_of(name)
            if found is None:
                return  # "from sos import Action": an attribute, not a module
            parent = name.rpartition(".")[0]
            if parent:
                add(parent)
            path, package = found
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for imported in _module_imports(tree, package):
                add(imported)
            if not _is_browser(name):
                order.append(name)
        elif top in stdlib and not _is_browser(name):
            order.append(name)

    entry_path = root / entry
    for imported in _module_imports(ast.parse(entry_path.read_text("utf-8")), ""):
        add(imported)
    for name in EXTRA:
        add(name)
    if HOOK not in order and (root / "sos" / "web" / "snapshot.py").is_file():
        add("sos")
        order.append(HOOK)
    return order


#: Environment variables the runtime itself sets, the same in a page; every other one is Node's.
RUNTIME_ENV = ("LD_LIBRARY_PATH", "__LLVM_PROFILE_RT_INIT_ONCE")


def prepare_snapshot(home: str) -> list[str]:
    """In the build's Pyodide, just before the snapshot: import the start modules, record their
    sources (``sos.web.snapshot.record``), reset Node's traces to what a page's interpreter has,
    seed ``random`` with 0 (the page reseeds it), and remove this module. ``home`` is the folder
    holding ``static/app.py`` and ``sos/`` (PyScript's cwd in the page). Returns the modules
    imported (start_modules() minus names that are attributes, not modules).
    """
    import importlib
    import os
    import random

    names = start_modules(Path(home))
    os.chdir(home)
    if "" not in sys.path:
        sys.path.insert(0, "")
    loaded = []
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        loaded.append(name)
    importlib.import_module(HOOK).record()
    sys.executable = f"{home}/this.program"  # as in a page (emscripten's program name)
    sys.argv[:] = [""]
    here = os.path.dirname(__file__)
    while "" in sys.path:
        sys.path.remove("")  # Pyodide inserts "" again after a restore
    while here in sys.path:
        sys.path.remove(here)
    for key in list(os.environ):
        if key not in RUNTIME_ENV:
            del os.environ[key]
    os.environ.update(
        {"HOME": home, "PYTHONINSPECT": "1", "PATH": "/", "PWD": "/", "USER": "web_user",
         "LOGNAME": "web_user", "LANG": "C.UTF-8", "_": "./this.program"}
    )  # fmt: skip
    random.seed(0)  # a fixed state in the file; the page reseeds it at start
    sys.modules.pop(__name__, None)
    return loaded


if __name__ == "__main__":
    print("\n".join(start_modules(Path(sys.argv[1] if len(sys.argv) > 1 else "."))))
