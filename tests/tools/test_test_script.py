"""scripts/test.sh's lanes: full (= .ci/run), --quick and --setup, and ARGS passed to pytest.

The real script (and .ci/run) runs in a temporary project skeleton whose ``.venv/bin/python``,
``ruff``, ``mypy``, ``node``, ``npm`` and Chromium are stand-ins that record each call, so the
test checks which steps each lane runs without installing, building or testing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = '#!/usr/bin/env bash\necho "{name} $*" >> "$CALLS"\n'
FAKE_NODE = RECORD.format(name="node") + (
    'if [ "$1" = -p ]; then echo 20; fi\n'
    'if [ "$1" = scripts/build.mjs ]; then mkdir -p static/vendor; echo "build: done"; fi\n'
)
FAKE_NPM = RECORD.format(name="npm") + "mkdir -p node_modules\n"
PYTEST_LANE_QUICK = "-m not e2e and not slow and not build"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "scripts").mkdir(parents=True)
    (root / ".ci").mkdir()
    for name in ("scripts/test.sh", "scripts/npm_deps.sh", ".ci/run"):
        shutil.copy2(ROOT / name, root / name)
    (root / "package-lock.json").write_text('{"lockfileVersion": 3}\n')
    (root / "requirements-test.txt").write_text("")
    venv = root / ".venv" / "bin"
    venv.mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fakes = {
        venv / "python": RECORD.format(name="python"),
        venv / "ruff": RECORD.format(name="ruff"),
        venv / "mypy": RECORD.format(name="mypy"),
        bin_dir / "node": FAKE_NODE,
        bin_dir / "npm": FAKE_NPM,
        bin_dir / "chromium": RECORD.format(name="chromium"),
    }
    for path, text in fakes.items():
        path.write_text(text)
        path.chmod(0o755)
    return root


def _run(project: Path, *args: str, script: str = "scripts/test.sh") -> tuple[int, str, list[str]]:
    env = dict(os.environ)
    env["PATH"] = f"{project.parent / 'bin'}:{env['PATH']}"
    env["CALLS"] = str(project.parent / "calls.txt")
    env["CHROMIUM"] = str(project.parent / "bin" / "chromium")
    env.pop("CI", None)
    proc = subprocess.run(
        [str(project / script), *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    calls_file = project.parent / "calls.txt"
    calls = calls_file.read_text().splitlines() if calls_file.exists() else []
    return proc.returncode, proc.stdout + proc.stderr, calls


def _steps(calls: list[str]) -> list[str]:
    """The calls without the version probes (``node -p``, ``chromium --version``)."""
    return [c for c in calls if not c.startswith(("node -p", "chromium --version"))]


def test_full_lane_runs_everything_and_passes_args_to_pytest(project: Path) -> None:
    code, out, calls = _run(project, "tests/e2e", "-x")
    assert code == 0, out
    assert _steps(calls) == [
        "python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt",
        "npm ci --no-audit --no-fund --loglevel=error",
        "node scripts/build.mjs",
        "ruff check sos tests scripts benchmarks",
        "mypy --strict sos scripts/bytecode_zip.py scripts/snapshot_modules.py "
        "scripts/stdlib_zip.py scripts/outdated.py",
        "node tests/pyodide/run_engine_tests.mjs",
        "python -m pytest -n 2 --dist loadfile --durations=25 tests/e2e -x",
    ]
    # npm runs again only after the lock changed
    code, out, calls = _run(project)
    assert code == 0, out
    assert [c for c in calls if c.startswith("npm")] == [
        "npm ci --no-audit --no-fund --loglevel=error"
    ]
    assert calls[-1] == "python -m pytest -n 2 --dist loadfile --durations=25"  # every test


def test_ci_runs_the_full_lane(project: Path) -> None:
    code, out, calls = _run(project, "-k", "board", script=".ci/run")
    assert code == 0, out
    assert "node tests/pyodide/run_engine_tests.mjs" in calls
    assert calls[-1] == "python -m pytest -n 2 --dist loadfile --durations=25 -k board"


def test_quick_lane_is_lint_and_cpython_tests_only(project: Path) -> None:
    code, out, calls = _run(project, "--quick", "-k", "board")
    assert code == 0, out
    assert _steps(calls) == [
        "python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt",
        "ruff check sos tests scripts benchmarks",
        "mypy --strict sos scripts/bytecode_zip.py scripts/snapshot_modules.py "
        "scripts/stdlib_zip.py scripts/outdated.py",
        f"python -m pytest {PYTEST_LANE_QUICK} -k board",
    ]
    assert not (project / "node_modules").exists()


def test_setup_lane_installs_and_builds_but_tests_nothing(project: Path) -> None:
    code, out, calls = _run(project, "--setup")
    assert code == 0, out
    assert _steps(calls) == [
        "python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt",
        "npm ci --no-audit --no-fund --loglevel=error",
        "node scripts/build.mjs",
    ]
    assert "chromium --version" in calls
    assert "no test was run" in out
    assert (project / "static" / "vendor" / ".build-stamp").exists()


def test_setup_lane_refuses_pytest_args(project: Path) -> None:
    code, out, calls = _run(project, "--setup", "-k", "board")
    assert code != 0
    assert "--setup runs no test" in out
    assert calls == []


def test_engine_lane_builds_then_runs_the_cross_engine_tests_in_one_engine(project: Path) -> None:
    code, out, calls = _run(project, "--engine", "webkit", "-x")
    assert code == 0, out
    assert _steps(calls)[-1] == "python -m pytest tests/engines -x"
    assert "node scripts/build.mjs" in calls
    assert not any(c.startswith(("ruff", "mypy")) for c in calls)
    assert "SOS_ENGINES=webkit" in out or "in webkit" in out
    code, out, calls = _run(project, "--engine")
    assert code == 0, out
    assert "in chromium,firefox,webkit" in out and calls[-1] == "python -m pytest tests/engines"
    code, out, calls = _run(project, "--engine", "opera")
    assert code != 0 and "unknown engine" in out


def test_repeat_lane_sets_up_then_repeats_the_named_tests(project: Path) -> None:
    code, out, calls = _run(project, "--repeat", "10", "tests/e2e/test_game.py", "-k", "letter")
    assert code == 0, out
    assert "node scripts/build.mjs" in calls
    assert not any(c.startswith(("ruff", "mypy")) for c in calls)
    assert _steps(calls)[-1] == "python scripts/repeat.py -n 10 tests/e2e/test_game.py -k letter"
    for wrong in (["--repeat"], ["--repeat", "ten", "tests"], ["--repeat", "3"]):
        (project.parent / "calls.txt").unlink(missing_ok=True)
        code, out, calls = _run(project, *wrong)
        assert code != 0 and "--repeat" in out and calls == [], wrong


def test_help_lists_the_lanes(project: Path) -> None:
    code, out, _ = _run(project, "--help")
    assert code == 0
    for lane in ("--quick", "--setup", "--repeat", "ARGS go to pytest"):
        assert lane in out
