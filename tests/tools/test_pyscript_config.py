"""pyscript.toml must ship every engine module to the browser (in one zip) and load Pyodide from
our origin."""

from __future__ import annotations

import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyscript.toml"
#: Pyodide's loader wrapped to restore the build's memory snapshot (scripts/pyodide-snap.mjs),
#: next to pyodide.mjs: PyScript derives the runtime's indexURL from its folder.
LOCAL_INTERPRETER = "./static/vendor/pyodide/pyodide-snap.mjs"


def _normalise(path: str) -> str:
    return path.removeprefix("./")


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    assert CONFIG.is_file(), "pyscript.toml is missing at the repository root"
    with CONFIG.open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def files(config: dict[str, Any]) -> dict[str, str]:
    table = config.get("files")
    assert isinstance(table, dict), "pyscript.toml needs a [files] table"
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
    return table


def _engine_sources() -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "sos").rglob("*.py")
        if "__pycache__" not in p.parts
    )


def test_interpreter_is_the_vendored_pyodide(config: dict[str, Any]) -> None:
    interpreter = config.get("interpreter")
    assert interpreter == LOCAL_INTERPRETER, (
        f"interpreter must be {LOCAL_INTERPRETER!r} "
        f"(without it PyScript loads Pyodide from a CDN), got {interpreter!r}"
    )
    assert "://" not in interpreter and not interpreter.startswith("//")
    wrapper = (ROOT / "scripts" / "pyodide-snap.mjs").read_text("utf-8")
    assert 'from "./pyodide.mjs"' in wrapper  # the vendored Pyodide, same folder


def test_no_remote_packages(config: dict[str, Any]) -> None:
    # Packages would be downloaded from a CDN/PyPI at start-up; the engine is stdlib only.
    assert not config.get("packages"), "pyscript.toml must not list packages"


#: The one [files] entry: the page's Python (scripts/bytecode.mjs), unpacked into the cwd.
PYTHON_ZIP = "./static/vendor/sos-python.zip"


def test_the_python_comes_in_one_zip(files: dict[str, str]) -> None:
    # One file, not one per module: every [files] entry is a fetch, a preload and a write at
    # start-up (docs/performance.md). The zip's content is checked after the build, below.
    assert files == {PYTHON_ZIP: "./*"}, f"[files] must be {{{PYTHON_ZIP!r}: './*'}}, got {files}"


@pytest.mark.build
def test_the_zip_holds_every_engine_module_as_it_is_in_the_repository() -> None:
    sources = _engine_sources()
    assert sources, "no sos/**/*.py found"
    zip_path = CONFIG.parent / _normalise(PYTHON_ZIP)
    assert zip_path.is_file(), f"the build did not write {zip_path}: run `node scripts/build.mjs`"
    with zipfile.ZipFile(zip_path) as archive:
        names = set(archive.namelist())
        missing = [path for path in sources if path not in names]
        assert not missing, f"{_normalise(PYTHON_ZIP)} lacks {missing}: rebuild"
        stale = [p for p in sources if archive.read(p) != (ROOT / p).read_bytes()]
        assert not stale, f"{_normalise(PYTHON_ZIP)} holds other versions of {stale}: rebuild"
        extra = sorted(n for n in names if n.endswith(".py") and n not in sources)
        assert not extra, f"sources in the zip that the repository lacks: {extra}"


def _built(source: str) -> bool:
    """A file the build writes (static/vendor/), absent from a fresh clone before the build."""
    return _normalise(source).startswith("static/vendor/")


def test_every_source_exists_and_keeps_its_package_path(files: dict[str, str]) -> None:
    for source, destination in files.items():
        assert "://" not in source, f"[files] source must be local: {source}"
        assert _built(source) or (CONFIG.parent / source).is_file(), (
            f"[files] source does not exist: {source}"
        )
        if _normalise(source).startswith("sos/"):
            assert _normalise(destination) == _normalise(source), (
                f"{source} must be installed as {_normalise(source)} so `import sos...` works, "
                f"not {destination}"
            )


@pytest.mark.build
def test_every_built_source_exists_after_the_build(files: dict[str, str]) -> None:
    built = [source for source in files if _built(source)]
    assert built, "pyscript.toml loads nothing from static/vendor/ (the Python zip is expected)"
    missing = [source for source in built if not (CONFIG.parent / source).is_file()]
    assert not missing, f"the build did not write {missing}: run `node scripts/build.mjs`"
