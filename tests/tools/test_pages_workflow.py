"""The GitHub Pages workflow is valid (schema check by check-jsonschema) and deploys dist/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_workflow_matches_the_github_workflow_schema() -> None:
    result = check(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_rejects_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    text = WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:", 1)
    broken.write_text(text, encoding="utf-8")
    assert check(broken).returncode != 0


def test_workflow_builds_and_deploys_only_dist() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    for needed in (
        "npm ci",
        "node scripts/build.mjs",
        "actions/upload-pages-artifact@",
        "path: dist",
        "actions/deploy-pages@",
        "pages: write",
        "id-token: write",
        "name: github-pages",
    ):
        assert needed in text, f"pages.yml lacks {needed!r}"
