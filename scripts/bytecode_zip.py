"""Write the page's Python zip (static/vendor/sos-python.zip): sources and checked-hash bytecode
(PEP 552); run by scripts/bytecode.mjs inside Pyodide, so that the pycs are those of the
browser's Python (3.14), not this machine's.

The zip is deterministic: entries in the given order with a fixed timestamp, so an unchanged
build keeps the service worker's revision of it.
"""

from __future__ import annotations

import ast
import importlib.util
import py_compile
import sys
import zipfile

_SCRATCH = "/tmp/module.pyc"  # (in Pyodide's in-memory file system)
_STAMP = (1980, 1, 1, 0, 0, 0)


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    entry = zipfile.ZipInfo(name, _STAMP)
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)


def reached(files: list[str], source_root: str, entry: str) -> list[str]:
    """Those of ``files`` (package paths such as ``"pyscript/web.py"``) that importing ``entry``
    imports: its module-level imports (in ``if``/``try`` blocks too, not inside functions or
    classes), followed through ``files``; in the order of ``files``."""
    by_name = {f[:-3].replace("/", ".").removesuffix(".__init__"): f for f in files}
    seen: set[str] = set()
    todo = [entry]
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        with open(f"{source_root}/{file}", encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        nodes = list(tree.body)
        while nodes:  # module level only: not inside functions or classes
            node = nodes.pop()
            if isinstance(node, ast.If | ast.Try):
                nodes += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
                nodes += [n for handler in getattr(node, "handlers", []) for n in handler.body]
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            for name in names:
                parts = name.split(".")
                for end in range(1, len(parts) + 1):  # a.b.c imports a and a.b too
                    found = by_name.get(".".join(parts[:end]))
                    if found is not None:
                        todo.append(found)
    return [f for f in files if f in seen]


def build(files: list[str], compiled_only: list[str], source_root: str, out: str) -> str:
    """Write ``out``: each of ``files`` (paths relative to ``source_root``, e.g.
    ``"sos/state.py"``) as its source and its pyc (``sos/__pycache__/state.cpython-XY.pyc``),
    and each of ``compiled_only`` as its pyc alone (sources another program writes, e.g.
    PyScript's ``pyscript/*.py``); returns the Python version used.

    Raises ``py_compile.PyCompileError`` on a syntax error.
    """
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in [*files, *compiled_only]:
            py_compile.compile(
                f"{source_root}/{file}",
                cfile=_SCRATCH,
                dfile=file,
                doraise=True,
                invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
            )
            if file in files:
                with open(f"{source_root}/{file}", "rb") as handle:
                    _add(archive, file, handle.read())
            with open(_SCRATCH, "rb") as handle:
                _add(archive, importlib.util.cache_from_source(file), handle.read())
    return sys.version.split()[0]
