"""What a memory snapshot of the page's interpreter needs on each side (issue 16).

The build (scripts/snapshot.mjs) imports the page's start-up modules in Pyodide, calls
:func:`record` and saves the interpreter's memory; a later start restores that memory instead of
initialising Python, and static/app.py calls :func:`after_restore` before it imports the app.

A restored interpreter must never run code other than the files the page serves, and must not
replay the random state of the build. So :func:`after_restore`

- compares every ``sos`` module held in the snapshot with the source file now on disk (the one
  PyScript wrote from ``pyscript.toml [files]``): if any differs or is missing, all ``sos``
  modules are dropped from ``sys.modules`` and imported again from the served files (the
  caller warns on the console: stderr would raise PyScript's error banner);
- reseeds the global ``random`` generator from the operating system (``os.urandom``, i.e. the
  browser's ``crypto.getRandomValues``); the app's own generators are seeded from
  ``random.SystemRandom`` when made, so they differ on every start anyway;
- clears the import system's directory caches (made at build time, before PyScript wrote the
  files);
- checks that the standard library zip on disk is the one the snapshot was made with (size and
  CRC-32 recorded by :func:`record`; pyodide-snap.mjs passes the build's trimmed zip on every
  start): zipimport keeps the zip's directory (file offsets) in memory, so with another zip it
  would read wrong bytes. If it differs, that directory is dropped and read again from the
  served zip, and ``"stdlib"`` is reported stale.

Standard library only, no ``js``/``pyscript``: it is itself part of the snapshot.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import sys
import zlib

#: Module name -> ``importlib.util.source_hash`` of its source, set by :func:`record` at build
#: time; empty in an interpreter that was not restored from a snapshot.
RECORDED: dict[str, bytes] = {}
#: Path of the standard library zip -> (size in bytes, CRC-32), set by :func:`record`.
STDLIB: dict[str, tuple[int, int]] = {}


def _stdlib_zips() -> list[str]:
    return [path for path in sys.path if path.endswith(".zip")]


def _identity(path: str) -> tuple[int, int] | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return len(data), zlib.crc32(data)


def _invalidate_path_caches() -> None:
    """The file finders' directory caches, as ``importlib.invalidate_caches()`` clears them,
    without the part that imports ``importlib.metadata`` (a dozen modules the page never
    needs: the trimmed standard library, scripts/stdlib.mjs, does not have them)."""
    for finder in list(sys.path_importer_cache.values()):
        if finder is not None and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()


def _sos_modules() -> list[str]:
    return sorted(name for name in sys.modules if name == "sos" or name.startswith("sos."))


def _source_hash(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return importlib.util.source_hash(handle.read())
    except OSError:
        return None


def record() -> dict[str, bytes]:
    """At build time: remember the source hash of every loaded ``sos`` module (from its file).

    Returns the mapping (also kept in :data:`RECORDED`, which the snapshot carries).
    """
    RECORDED.clear()
    for name in _sos_modules():
        path = getattr(sys.modules[name], "__file__", None)
        digest = _source_hash(path) if path else None
        if digest is None:
            raise RuntimeError(f"snapshot: {name} has no readable source ({path})")
        RECORDED[name] = digest
    STDLIB.clear()
    for path in _stdlib_zips():
        identity = _identity(path)
        if identity is not None:
            STDLIB[path] = identity
    return dict(RECORDED)


def stale_stdlib() -> list[str]:
    """Recorded standard library zips whose file now differs (sorted paths)."""
    return sorted(path for path, identity in STDLIB.items() if _identity(path) != identity)


def stale_modules() -> list[str]:
    """Recorded ``sos`` modules whose served source is missing or differs (sorted names)."""
    stale = []
    for name, digest in sorted(RECORDED.items()):
        path = getattr(sys.modules.get(name), "__file__", None)
        if path is None or _source_hash(path) != digest:
            stale.append(name)
    return stale


def after_restore() -> list[str]:
    """Make a restored interpreter safe to run the app; returns the stale modules dropped.

    A no-op (returns ``[]``) when nothing was recorded, i.e. in a normal start.
    """
    if not RECORDED:
        return []
    _invalidate_path_caches()
    random.seed()  # from os.urandom: every start draws differently
    stale = stale_modules()
    if stale:
        for name in _sos_modules():
            if name != __name__:
                del sys.modules[name]
    zips = stale_stdlib()
    if zips:
        import zipimport

        for path in zips:
            zipimport._zip_directory_cache.pop(path, None)  # type: ignore[attr-defined]
            sys.path_importer_cache.pop(path, None)
        stale.append("stdlib")
    RECORDED.clear()
    STDLIB.clear()
    return stale
