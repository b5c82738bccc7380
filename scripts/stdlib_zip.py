"""The trimmed standard library the page loads instead of Pyodide's python_stdlib.zip (issue 16).

Pyodide's ``python_stdlib.zip`` holds the whole standard library (615 files, 2.5 MB deflated,
not compressed further by GitHub Pages); the page needs a fraction of it. The build
(scripts/stdlib.mjs) runs :func:`build` inside the very Pyodide the page runs, which writes
``static/vendor/pyodide/sos-stdlib.zip`` with only the modules that

1. Pyodide's own start-up imports (``sys.modules`` right after ``loadPyodide``);
2. any ``import`` statement names, at any depth (module level or inside a function), in the
   page's Python: ``sos/**/*.py``, ``static/app.py`` and PyScript's own Python package
   (``@pyscript/core/src/stdlib/pyscript/*.py``), found with :mod:`ast` (:func:`source_imports`);
3. :data:`LAZY` lists: modules imported by name at run time, which no ``import`` statement of
   ours shows;

plus everything those import in turn when they are imported (``sys.modules`` after importing
each of them). Nothing is listed by hand except :data:`LAZY`: a module that imports a new
standard module (``gettext``, ``datetime``, ...) gets it in the zip at the next build.
tests/tools/test_stdlib_zip.py fails when a module our code imports is missing from the built zip,
and every browser test runs the page on this zip.

Each module is in the zip as its bytecode (an unchecked-hash pyc, compiled by the page's own
Python), not its source: see :func:`bytecode`.

Not in the zip, so not importable in the page: what the standard library itself imports only
inside a function that the page never calls (e.g. ``pdb`` from ``breakpoint()``). If a new
feature calls such a function, add the module to :data:`LAZY`.

Runs under CPython (tests: :func:`source_imports`) and inside the build's Pyodide
(:func:`build`); standard library only.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

#: Imported at run time by name (no ``import`` statement of ours shows them), each with why.
LAZY: dict[str, str] = {
    # pyscript.toml [files] unpacks static/vendor/sos-python.zip with pyodide.unpackArchive,
    # i.e. shutil.unpack_archive, which imports zipfile when it is called.
    "zipfile": "pyodide.unpackArchive of the [files] zip (shutil.unpack_archive)",
    "shutil": "pyodide.unpackArchive of the [files] zip",
    "encodings.cp437": "zipfile decodes entry names without the UTF-8 flag as cp437",
    # polyscript runs small Python snippets given as strings (core.js): "import json", "import os".
    "json": "polyscript's inline Python",
    "os": "polyscript's inline Python",
    # Pyodide's runPythonAsync (how PyScript runs <script type="py">) and its error reports.
    "traceback": "error reports of PyScript and Pyodide",
    "encodings.latin_1": "codec lookups by name (bytes.decode / str.encode)",
    "encodings.ascii": "codec lookups by name (bytes.decode / str.encode)",
    "encodings.utf_8": "codec lookups by name (bytes.decode / str.encode)",
}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".") if package else []
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def source_imports(path: Path, package: str = "") -> tuple[set[str], set[str]]:
    """Every module a Python file imports, at any depth: ``(modules, candidates)``.

    ``modules`` are names that must be importable (``import a.b`` gives ``a.b``; ``from a
    import b`` gives ``a``); ``candidates`` are ``a.b`` for ``from a import b``, which names a
    submodule or just an attribute. ``package`` resolves relative imports (``"sos.web"`` for
    sos/web/main.py). Raises SyntaxError for a file that does not parse.
    """
    modules: set[str] = set()
    candidates: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, package)
            modules.add(module)
            candidates.update(f"{module}.{alias.name}" for alias in node.names)
    modules.discard("")
    return modules, candidates


def _package_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts if parts[-1] == "__init__" else parts[:-1]).removesuffix(".__init__")


def page_imports(sources: Iterable[tuple[Path, Path]]) -> tuple[set[str], set[str]]:
    """:func:`source_imports` of many files: ``(file, root)`` pairs, ``root`` being the folder
    their package names start from (the repository for ``sos/``)."""
    modules: set[str] = set()
    candidates: set[str] = set()
    for path, root in sources:
        found, maybe = source_imports(path, _package_of(path, root))
        modules |= found
        candidates |= maybe
    return modules, candidates


def _is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def _stdlib_zip() -> str:
    (found,) = [p for p in sys.path if p.endswith(".zip")]
    return found


def build(source_files: list[str], source_roots: list[str], out: str) -> list[str]:
    """In the build's Pyodide: write ``out``, the trimmed copy of the running standard library
    zip, and return one line per standard module imported, ``"<name> <where>"`` (sorted by
    name), ``where`` being its file in the zip, or ``frozen`` / ``built-in`` for the modules
    the runtime holds itself (os, io, ... are frozen: they need no file).

    ``source_files[i]`` is a Python file of the page, its package named from
    ``source_roots[i]``. Raises ModuleNotFoundError if a standard module that the page
    imports or that :data:`LAZY` lists cannot be imported.
    """
    full = _stdlib_zip()
    modules, candidates = page_imports(
        (Path(file), Path(root)) for file, root in zip(source_files, source_roots, strict=True)
    )
    for name in sorted({*modules, *LAZY} - {"__future__"}):
        if _is_stdlib(name):
            importlib.import_module(name)
    for name in sorted(candidates):
        if _is_stdlib(name) and name.rpartition(".")[0] in sys.modules:
            # "from collections import OrderedDict": an attribute, not a module
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
    importlib.import_module("__future__")  # compiling any "from __future__ import" needs it
    prefix = full + "/"
    held = {
        name: file[len(prefix) :]
        for name, module in sys.modules.items()
        if isinstance(file := getattr(module, "__file__", None), str) and file.startswith(prefix)
    }
    lines = []
    for name, module in sorted(sys.modules.items()):
        if name in held:
            lines.append(f"{name} {held[name]}")
        elif _is_stdlib(name):
            origin = getattr(getattr(module, "__spec__", None), "origin", None)
            if origin in ("frozen", "built-in"):
                lines.append(f"{name} {origin}")
    entries = sorted(set(held.values()))
    with zipfile.ZipFile(full) as source, zipfile.ZipFile(out, "w") as trimmed:
        for entry in entries:
            info = source.getinfo(entry)
            data = source.read(entry)
            name = entry
            if entry.endswith(".py"):
                name, data = f"{entry}c", bytecode(data, f"{full}/{entry}")
            copy = zipfile.ZipInfo(name, info.date_time)
            copy.compress_type = zipfile.ZIP_DEFLATED
            copy.external_attr = info.external_attr
            trimmed.writestr(copy, data, compresslevel=9)
    return lines


def bytecode(source: bytes, filename: str) -> bytes:
    """``source`` compiled by the running Python into an *unchecked-hash* pyc (PEP 552).

    Python compiles a ``.py`` it imports from a zip on every start (zipimport cannot write
    its pyc); the page's start imports ~140 standard modules, so the zip holds their bytecode
    instead of their source: Python's start in Node went from 20 s to 7-8 s (at load ~15; a
    bare ``loadPyodide``). Unchecked: there is no source beside it to compare with. The cost:
    tracebacks show no source line for standard library frames. ``filename`` becomes the
    code's ``co_filename`` (the path the source would have).
    """
    import importlib._bootstrap_external as external
    import importlib.util

    code = compile(source, filename, "exec", dont_inherit=True)
    pyc = external._code_to_hash_pyc(  # type: ignore[attr-defined]
        code, importlib.util.source_hash(source), checked=False
    )
    return bytes(pyc)
