"""The precompiled bytecode shipped to the browser (scripts/bytecode.mjs) is used and safe.

Runs tests/pyodide/check_bytecode.mjs under the Pyodide the page runs: every module's
checked-hash pyc matches its source, the engine imports without compiling, and a source edited
after the build replaces its stale pyc.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.build  # reads node_modules/ and the built static/vendor/


def test_bytecode_zip_is_current_and_used_under_pyodide() -> None:
    node = shutil.which("node")
    assert node, "node is required (scripts/test.sh installs the npm packages)"
    proc = subprocess.run(
        [node, str(ROOT / "tests" / "pyodide" / "check_bytecode.mjs")],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )
    report = [line for line in proc.stdout.splitlines() if line.startswith("bytecode:")]
    assert proc.returncode == 0 and report, (proc.stdout + proc.stderr)[-3000:]
    assert report[0].startswith("bytecode: ok"), report[0]
