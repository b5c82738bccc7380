"""Write a zip of checked-hash bytecode (PEP 552) for Python sources; run by scripts/bytecode.mjs
inside Pyodide, so that the pycs are those of the browser's Python (3.14), not this machine's.

The zip is deterministic: entries in the given order with a fixed timestamp, so an unchanged
build keeps the service worker's revision of it.
"""

from __future__ import annotations

import importlib.util
import py_compile
import sys
import zipfile

_SCRATCH = "/tmp/module.pyc"  # (in Pyodide's in-memory file system)

def build(files: list[str], source_root: str, out: str) -> str:
    """Compile each of ``files`` (paths relative to ``source_root``, e.g. ``"sos/state.py"``)
    into ``out`` as ``sos/__pycache__/state.cpython-XY.pyc``; returns the Python version used.

    Raises ``py_compile.PyCompileError`` on a syntax error.
    """
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            py_compile.compile(
                f"{source_root}/{file}",
                cfile=_SCRATCH,
                dfile=file,
                doraise=True,
                invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
            )
            entry = zipfile.ZipInfo(importlib.util.cache_from_source(file), (1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            with open(_SCRATCH, "rb") as handle:
                archive.writestr(entry, handle.read())
    return sys.version.split()[0]
