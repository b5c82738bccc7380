"""The build's memory snapshot: which modules it pre-imports, and the checks after a restore.

``scripts/snapshot_modules.py`` derives the modules from the sources (module-level imports from
static/app.py on); ``sos.web.snapshot`` records source hashes at build time and, after a
restore, drops pre-imported modules whose served source differs. Browser behaviour (restore,
fallbacks, reseeding) is in tests/e2e/test_memory_snapshot.py.
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sos.web import snapshot

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import snapshot_modules  # noqa: E402


def test_start_modules_follow_module_level_imports_only() -> None:
    names = snapshot_modules.start_modules(ROOT)
    assert len(names) == len(set(names))
    # the engine and what the app imports at start
    needed_at_start = ("sos", "sos.state", "sos.rules", "sos.app.text.i18n", "asyncio", "html")
    for needed in (*needed_at_start, "html.entities"):
        assert needed in names
    # the hook that checks a restored interpreter
    assert snapshot_modules.HOOK in names
    # browser modules are never pre-imported; lazily imported modules (inside functions) neither
    assert not [n for n in names if n.split(".")[0] in ("js", "pyscript", "pyodide")]
    assert not [n for n in names if n.startswith("sos.web.") and n != snapshot_modules.HOOK]
    for lazy in ("sos.ai.agents", "sos.ai.search", "sos.ai.solver"):
        assert lazy not in names


def test_start_modules_of_a_new_package(tmp_path: Path) -> None:
    """A package added under sos/ and imported at start is found without listing it anywhere."""
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "app.py").write_text("from sos.web.main import APP\n")
    web = tmp_path / "sos" / "web"
    extra = tmp_path / "sos" / "extra"
    web.mkdir(parents=True)
    extra.mkdir()
    (tmp_path / "sos" / "__init__.py").write_text("")
    (web / "__init__.py").write_text("")
    (web / "main.py").write_text(
        "import js\nfrom sos.extra import session\nfrom ..extra.view import render\n"
        "def later():\n    import sos.ai\n"
    )
    (extra / "__init__.py").write_text("")
    (extra / "session.py").write_text("from __future__ import annotations\nimport json\n")
    (extra / "view.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import decimal\n"
    )
    assert snapshot_modules.start_modules(tmp_path) == [
        "sos", "sos.extra", "__future__", "json", "sos.extra.session", "typing", "sos.extra.view",
        "html", "html.entities",
    ]  # fmt: skip


@pytest.fixture
def recorded() -> Iterator[None]:
    """Restore ``snapshot.RECORDED`` and the ``sos`` modules after a test."""
    saved = dict(snapshot.RECORDED)
    modules = {n: m for n, m in sys.modules.items() if n == "sos" or n.startswith("sos.")}
    yield
    snapshot.RECORDED.clear()
    snapshot.RECORDED.update(saved)
    for name in [n for n in sys.modules if n == "sos" or n.startswith("sos.")]:
        del sys.modules[name]
    sys.modules.update(modules)


@pytest.mark.usefixtures("recorded")
def test_record_then_after_restore_keeps_matching_modules() -> None:
    import sos.state

    recorded = snapshot.record()
    assert "sos.state" in recorded and "sos" in recorded
    random.seed(1)
    first = random.random()
    random.seed(1)
    assert snapshot.after_restore() == []
    assert sys.modules["sos.state"] is sos.state  # nothing reloaded
    assert random.random() != first  # reseeded from os.urandom
    assert snapshot.RECORDED == {}  # a second call is a no-op
    assert snapshot.after_restore() == []


@pytest.mark.usefixtures("recorded")
def test_after_restore_drops_every_sos_module_when_one_source_differs() -> None:
    import sos.rules
    import sos.state

    snapshot.record()
    snapshot.RECORDED["sos.rules"] = b"\0" * 8  # as if the build had another sos/rules.py
    assert snapshot.after_restore() == ["sos.rules"]
    assert "sos.rules" not in sys.modules and "sos.state" not in sys.modules
    assert "sos.web.snapshot" in sys.modules
    assert importlib.import_module("sos.state") is not sos.state


@pytest.mark.usefixtures("recorded")
def test_record_refuses_a_module_without_source() -> None:
    import types

    sys.modules["sos.generated"] = types.ModuleType("sos.generated")
    with pytest.raises(RuntimeError, match=r"sos\.generated"):
        snapshot.record()


@pytest.mark.usefixtures("recorded")
def test_after_restore_rereads_a_standard_library_zip_other_than_the_snapshots(
    tmp_path: Path,
) -> None:
    """zipimport keeps a zip's directory (offsets) in memory: a restored interpreter given
    another zip than the build's must read the directory again, not the old offsets."""
    import zipfile

    lib = tmp_path / "stdlib-test.zip"
    with zipfile.ZipFile(lib, "w") as archive:
        archive.writestr("zz_first_mod.py", "VALUE = 1\n")
    sys.path.insert(0, str(lib))
    try:
        importlib.import_module("zz_first_mod")
        snapshot.record()
        assert snapshot.STDLIB[str(lib)][0] == lib.stat().st_size
        with zipfile.ZipFile(lib, "w") as archive:  # another build: other files, other offsets
            archive.writestr("zz_padding.py", "# " + "x" * 500 + "\n")
            archive.writestr("zz_second_mod.py", "VALUE = 2\n")
        assert snapshot.after_restore() == ["stdlib"]
        assert importlib.import_module("zz_second_mod").VALUE == 2
        assert snapshot.STDLIB == {}
    finally:
        sys.path.remove(str(lib))
        for name in ("zz_first_mod", "zz_second_mod"):
            sys.modules.pop(name, None)


@pytest.mark.usefixtures("recorded")
def test_after_restore_keeps_the_same_standard_library_zip(tmp_path: Path) -> None:
    import zipfile

    lib = tmp_path / "stdlib-same.zip"
    with zipfile.ZipFile(lib, "w") as archive:
        archive.writestr("zz_same_mod.py", "VALUE = 1\n")
    sys.path.insert(0, str(lib))
    try:
        importlib.import_module("zz_same_mod")
        snapshot.record()
        assert snapshot.after_restore() == []
    finally:
        sys.path.remove(str(lib))
        sys.modules.pop("zz_same_mod", None)
