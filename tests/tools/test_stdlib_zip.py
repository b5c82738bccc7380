"""The page's trimmed standard library (issue 16 §2: scripts/stdlib.mjs, scripts/stdlib_zip.py).

The build writes ``static/vendor/pyodide/sos-stdlib.zip`` with only the standard modules the
page needs; pyodide-snap.mjs passes it to Pyodide as ``stdLibURL``. These tests find every
module the page's Python imports *statically* (``import`` statements at any depth, with ``ast``,
in sos/, static/app.py and PyScript's own Python) and fail when one that Pyodide's full
standard library has is missing from the built zip. The browser tests (tests/e2e/) then run
every feature of the page on that zip.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.build  # reads node_modules/ and the built static/vendor/
sys.path.insert(0, str(ROOT / "scripts"))
import stdlib_zip  # noqa: E402

FULL = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
TRIMMED = ROOT / "static" / "vendor" / "pyodide" / "sos-stdlib.zip"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib"


def _names(path: Path) -> set[str]:
    if not path.is_file():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run `node scripts/build.mjs`")
    with zipfile.ZipFile(path) as archive:
        return set(archive.namelist())


def _file_of(module: str, names: set[str]) -> str | None:
    """The zip entry holding ``module`` (``a/b.py`` or ``a/b/__init__.py``), if any."""
    base = module.replace(".", "/")
    for entry in (f"{base}.py", f"{base}/__init__.py", f"{base}.pyc", f"{base}/__init__.pyc"):
        if entry in names:
            return entry
    return None


def _page_sources() -> list[tuple[Path, Path]]:
    ours = [p for p in (ROOT / "sos").rglob("*.py") if "__pycache__" not in p.parts]
    ours.append(ROOT / "static" / "app.py")
    theirs = sorted((PYSCRIPT / "pyscript").glob("*.py"))
    assert theirs, f"PyScript's Python sources are missing under {PYSCRIPT}"
    return [(p, ROOT) for p in sorted(ours)] + [(p, PYSCRIPT) for p in theirs]


def test_every_standard_module_the_page_imports_is_in_the_trimmed_zip() -> None:
    full, trimmed = _names(FULL), _names(TRIMMED)
    modules, candidates = stdlib_zip.page_imports(_page_sources())
    wanted = modules | candidates | set(stdlib_zip.LAZY)
    # every parent package of a module is imported with it
    wanted |= {".".join(n.split(".")[:i]) for n in wanted for i in range(1, n.count(".") + 1)}
    needed = {f"{entry}c" for name in wanted if (entry := _file_of(name, full))}
    assert {"random.pyc", "json/__init__.pyc", "html/__init__.pyc"} <= needed  # walk finds them
    runtime = {  # frozen or built into the runtime: no file needed
        name
        for line in (ROOT / "static" / "vendor" / "sos-stdlib-modules.txt").read_text().splitlines()
        for name, where in [line.split(" ")]
        if where in ("frozen", "built-in")
    }
    missing = sorted(
        entry
        for entry in needed - trimmed
        if entry.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".") not in runtime
    )
    assert not missing, (
        f"the page imports standard modules that sos-stdlib.zip lacks: {missing}; "
        "rebuild (node scripts/build.mjs), or add a module imported by name to LAZY in "
        "scripts/stdlib_zip.py"
    )


def test_trimmed_zip_holds_bytecode_of_the_same_files() -> None:
    full, trimmed = _names(FULL), _names(TRIMMED)
    assert {n.removesuffix("c") for n in trimmed} <= full  # Pyodide's own files, nothing else
    assert all(n.endswith(".pyc") for n in trimmed if n.endswith((".py", ".pyc")))
    assert TRIMMED.stat().st_size < 0.7 * FULL.stat().st_size
    with zipfile.ZipFile(TRIMMED) as b:
        magic = {b.read(n)[:4] for n in trimmed if n.endswith(".pyc")}
        assert len(magic) == 1  # one Python (the page's 3.14, not this one)
        for name in ("random.pyc", "pyodide/__init__.pyc", "_pyodide/_base.pyc"):
            assert int.from_bytes(b.read(name)[4:8], "little") == 0b01  # hash-based, unchecked


def test_source_imports_finds_imports_at_any_depth(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text(
        "import json, os.path\n"
        "from . import sibling\n"
        "from .other import thing\n"
        "def later():\n"
        "    import gettext\n"
        "    from datetime import date\n"
        "class K:\n"
        "    def m(self):\n"
        "        if True:\n"
        "            import zlib\n"
    )
    modules, candidates = stdlib_zip.source_imports(package / "mod.py", "pkg")
    assert modules == {"json", "os.path", "pkg", "pkg.other", "gettext", "datetime", "zlib"}
    assert candidates == {"pkg.sibling", "pkg.other.thing", "datetime.date"}


def test_the_page_loads_the_trimmed_zip_in_every_start() -> None:
    wrapper = (ROOT / "scripts" / "pyodide-snap.mjs").read_text("utf-8")
    assert 'new URL("./sos-stdlib.zip", import.meta.url)' in wrapper
    assert "stdLibURL: STDLIB" in wrapper  # both the normal start and the restore
    # the preload (static/boot.js adds it after the first frame) names the same zip
    boot = (ROOT / "static" / "boot.js").read_text("utf-8")
    assert '"./vendor/pyodide/sos-stdlib.zip"' in boot
    for page in (ROOT / "index.html", ROOT / "static" / "boot.js"):
        assert "python_stdlib.zip" not in page.read_text("utf-8")
