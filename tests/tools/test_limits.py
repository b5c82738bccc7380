"""The board limits have one owner (sos/rules.py; the default size: sos/app/share/params.py), and
the code that runs before Python reads them from the file the build writes (scripts/limits.mjs ->
static/vendor/limits.js, imported by static/boot.js), not from a copy kept by hand."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sos.app.share.params import DEFAULT_SIZE
from sos.rules import APP_SIZES, MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "static" / "vendor" / "limits.js"
EXPECTED: dict[str, int | list[int]] = {
    "APP_SIZES": list(APP_SIZES), "DEFAULT_SIZE": DEFAULT_SIZE,
    "MIN_PLAYERS": MIN_PLAYERS, "MAX_PLAYERS": MAX_PLAYERS,
}


def exported(module: str) -> dict[str, int | list[int]]:
    """``export const NAME = <integer or [integers]>;`` lines of a generated module, as a dict."""
    found = re.findall(r"^export const (\w+) = (-?\d+|\[[-\d, ]*\]);$", module, re.MULTILINE)
    return {name: json.loads(value) for name, value in found}


def test_the_generator_writes_the_limits_python_defines(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "node is required (scripts/test.sh installs it with the npm packages)"
    out = tmp_path / "limits.js"
    proc = subprocess.run(
        [node, str(ROOT / "scripts" / "limits.mjs"), str(out)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert exported(out.read_text("utf-8")) == EXPECTED


@pytest.mark.build  # checks the build's output: not in the quick lane, which builds nothing
def test_the_built_file_matches_sos_rules() -> None:
    if not BUILT.is_file():
        pytest.fail("static/vendor/limits.js is missing: run `node scripts/build.mjs`",
                    pytrace=False)
    assert exported(BUILT.read_text("utf-8")) == EXPECTED, (
        "static/vendor/limits.js is out of date: run `node scripts/build.mjs`"
    )
    deployed = ROOT / "dist" / "static" / "vendor" / "limits.js"
    if deployed.is_file():  # dist/ is the site as deployed, made by the same build
        assert deployed.read_text("utf-8") == BUILT.read_text("utf-8")


def test_boot_js_takes_the_limits_from_the_built_module() -> None:
    boot = (ROOT / "static" / "boot.js").read_text("utf-8")
    assert re.search(
        r'^import \{ APP_SIZES, DEFAULT_SIZE, MAX_PLAYERS, MIN_PLAYERS \} '
        r'from "\./vendor/limits\.js";$',
        boot, re.MULTILINE,
    )
    code = "\n".join(line.split("//")[0] for line in boot.splitlines())
    limits = {"MIN_APP_SIZE": MIN_APP_SIZE, "MAX_APP_SIZE": MAX_APP_SIZE,
              "DEFAULT_SIZE": DEFAULT_SIZE, "MIN_PLAYERS": MIN_PLAYERS, "MAX_PLAYERS": MAX_PLAYERS}
    for name, value in limits.items():  # no copy of a limit as a number
        assert not re.search(rf"(?<![\w.]){value}(?![\w.])", code), f"{name} = {value} in boot.js"
    # the board's size is taken from the list Python offers, not checked against a range again
    assert re.search(r"\bAPP_SIZES\.includes\(rawSize\)", code)
    assert "MIN_APP_SIZE" not in code and "MAX_APP_SIZE" not in code
    # index.html preloads the module boot.js imports, so it costs no extra round trip
    page = (ROOT / "index.html").read_text("utf-8")
    assert '<link rel="modulepreload" href="./static/vendor/limits.js">' in page


# Every statement of a board limit in the players' and contributors' docs, with the owner's
# value it must state (a change of sos/rules.py that leaves a page behind fails here). A new
# statement of a limit gets a line here; ``test_no_board_limit_is_stated_elsewhere`` finds one
# that has none.
STATED_LIMITS = [
    ("README.md", r"boards from (\d+)×(\d+) to (\d+)×(\d+)",
     (MIN_APP_SIZE, MIN_APP_SIZE, MAX_APP_SIZE, MAX_APP_SIZE)),
    ("docs/playing.md", r"boards from (\d+)×(\d+) to (\d+)×(\d+) \((\d+)×(\d+) by default\)",
     (MIN_APP_SIZE, MIN_APP_SIZE, MAX_APP_SIZE, MAX_APP_SIZE, DEFAULT_SIZE, DEFAULT_SIZE)),
    ("docs/playing.md", r"\| `size` \| (\d+) … (\d+) \(a size × size board\) \| (\d+) \|",
     (MIN_APP_SIZE, MAX_APP_SIZE, DEFAULT_SIZE)),
    ("docs/playing.md", r"A full (\d+)×(\d+) game is about", (MAX_APP_SIZE, MAX_APP_SIZE)),
    ("docs/contributing.md", r"boards (\d+)×(\d+) / (\d+)×(\d+) / (\d+)×(\d+), English",
     (MIN_APP_SIZE, MIN_APP_SIZE, DEFAULT_SIZE, DEFAULT_SIZE, MAX_APP_SIZE, MAX_APP_SIZE)),
    ("docs/performance.md", r"play 30 moves on (\d+)×(\d+)", (MAX_APP_SIZE, MAX_APP_SIZE)),
]
LIMIT_DOCS = sorted({path for path, _pattern, _values in STATED_LIMITS})


@pytest.mark.parametrize(("path", "pattern", "values"), STATED_LIMITS)
def test_the_docs_state_the_limits_of_their_owner(
    path: str, pattern: str, values: tuple[int, ...]
) -> None:
    text = " ".join((ROOT / path).read_text("utf-8").split())  # a statement may wrap
    found = re.findall(pattern, text)
    assert found, f"{path}: no statement matching {pattern!r} (reworded? update STATED_LIMITS)"
    for groups in found:
        assert tuple(int(g) for g in groups) == values, (
            f"{path} states {groups}, the owner (sos/rules.py, sos/app/share/params.py) says "
            f"{values}"
        )


@pytest.mark.parametrize("path", LIMIT_DOCS)
def test_no_board_limit_is_stated_elsewhere(path: str) -> None:
    """The largest board, written as "N×N", appears only in the statements listed above."""
    text = " ".join((ROOT / path).read_text("utf-8").split())
    listed = [p for doc, p, _v in STATED_LIMITS if doc == path]
    for pattern in listed:
        text = re.sub(pattern, "", text)
    assert f"{MAX_APP_SIZE}×{MAX_APP_SIZE}" not in text, (
        f"{path} states the largest board outside STATED_LIMITS"
    )


def test_tests_and_benchmarks_take_the_largest_board_from_the_code() -> None:
    """A test or benchmark about the largest board names ``MAX_APP_SIZE``; a literal copy of
    its value in ``Rules.square(N)``, ``size=N``, ``("size", "N")`` or ``Settings(N, …)``
    would test the old board after the limit changes."""
    n = MAX_APP_SIZE
    literal = re.compile(
        rf"square\({n}\b|size={n}\b|\(\"size\", \"{n}\"\)|Settings\({n}\b"
    )
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("tests", "benchmarks")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if literal.search(line.split("#")[0])
    ]
    assert found == [], "take the largest board from sos.rules.MAX_APP_SIZE:\n" + "\n".join(found)
