"""The memory snapshot of the interpreter (issue 16 §1: scripts/snapshot.mjs, pyodide-snap.mjs).

A first visit starts Python normally and never requests the snapshot; the service worker
precaches it; the next start restores it (``<html data-snapshot="restored">``). A missing,
stale (another build id), truncated or corrupt snapshot, or one older than the served sources,
falls back to a normal start with one console warning and no error. Each test serves its own
copy of ``dist/`` (re-generating ``sw.js`` for what it changed). Unrouted: the service worker
must serve the page as it does for players.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PYODIDE = "static/vendor/pyodide"

pytestmark = pytest.mark.unrouted

GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""


def snapshot_file(site: Path) -> Path:
    (found,) = (site / PYODIDE).glob("sos-snapshot-*.bin.gz")
    return found


@pytest.fixture
def site(
    tmp_path: Path, static_server: Callable[..., str], guard: Any
) -> Callable[..., tuple[Path, str]]:
    """``site(change)`` -> (directory, URL) of a copy of dist/ after ``change(directory)``."""
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)

    def make(change: Callable[[Path], Any] | None = None) -> tuple[Path, str]:
        directory = tmp_path / "site"
        shutil.copytree(DIST, directory)
        if change is not None:
            change(directory)
            subprocess.run(
                ["node", str(ROOT / "scripts" / "site.mjs"), "--sw", str(directory)],
                check=True,
                capture_output=True,
            )
        url = static_server(directory)
        guard.allow_origin(url)
        return directory, url

    return make


class Visit:
    """A browser profile on the site: first visit, then reloads, recording warnings."""

    def __init__(self, page: Page, url: str, wait_ready: Callable[..., float]) -> None:
        self.page, self.url, self.wait_ready = page, url, wait_ready
        self.warnings: list[str] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("request", lambda request: self.requests.append(request.url))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "warning" and message.text.startswith("SOS:"):
            self.warnings.append(message.text)

    def first(self, query: str = "index.html?size=5") -> None:
        self.page.goto(self.url + query)
        self.wait_ready(self.page)
        self.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)

    def again(self) -> str | None:
        """Reload; returns the page's ``data-snapshot`` (None: normal start)."""
        self.warnings.clear()
        self.page.reload()
        self.wait_ready(self.page)
        self.page.evaluate(GRAB_INTERPRETER)
        return self.page.locator("html").get_attribute("data-snapshot")

    def python(self, code: str) -> Any:
        return self.page.evaluate(
            "(code) => { const r = __py.runPython(code); return r?.toJs ? r.toJs() : r; }", code
        )


@pytest.fixture
def visit(
    new_context: Callable[..., Any], wait_ready: Callable[..., float]
) -> Callable[[str], Visit]:
    def make(url: str) -> Visit:
        return Visit(new_context().new_page(), url, wait_ready)

    return make


def test_first_visit_without_then_restored_with_fresh_randomness(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    directory, url = site()
    name = snapshot_file(directory).name
    v = visit(url)
    v.first()
    assert v.page.locator("html").get_attribute("data-snapshot") is None
    assert not [r for r in v.requests if name in r], "the first visit fetched the snapshot"
    # What a normal start has; LANG excepted (the browser's language at start-up; the snapshot
    # keeps C.UTF-8, and nothing in the app reads it).
    v.page.evaluate(GRAB_INTERPRETER)
    process = (
        "import os, sys; [sys.executable, sys.argv, sys.path, os.getcwd(),"
        " sorted((k, v) for k, v in os.environ.items() if k != 'LANG')]"
    )
    normal = v.python(process)

    draws = []
    for run in range(2):
        assert v.again() == "restored"
        assert v.warnings == []
        draws.append(v.python("import random; [random.random(), random.getrandbits(64)]"))
        # no trace of the Node process that made the snapshot
        restored = v.python(process)
        assert restored == normal
        assert v.python("import sys; 'sos.state' in sys.modules and 'html' in sys.modules")
        # the game works (and the game of the last start was kept): a move is played and shown
        square = v.page.locator(f'button.cell[data-row="{run}"][data-col="{run}"]')
        square.click()
        expect(square).to_have_text("S")
    assert draws[0] != draws[1], "two restored starts drew the same random numbers"


def _rewrite(directory: Path, edit: Callable[[bytes], bytes]) -> None:
    path = snapshot_file(directory)
    path.write_bytes(edit(path.read_bytes()))


def _other_build_id(gz: bytes) -> bytes:
    raw = bytearray(gzip.decompress(gz))
    raw[16:20] = b"0000" if raw[16:20] != b"0000" else b"1111"  # the build id (hex text)
    return gzip.compress(bytes(raw), mtime=0)


def _corrupt(gz: bytes) -> bytes:
    data = bytearray(gz)
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(64)
    return bytes(data)


@pytest.mark.parametrize(
    ("case", "change", "warning"),
    [
        ("stale build id", lambda d: _rewrite(d, _other_build_id), "build id mismatch"),
        ("truncated", lambda d: _rewrite(d, lambda b: b[: len(b) // 2]), "not usable"),
        ("corrupt", lambda d: _rewrite(d, _corrupt), "not usable"),
    ],
)
def test_bad_snapshot_falls_back_to_a_normal_start(
    site: Callable[..., tuple[Path, str]],
    visit: Callable[[str], Visit],
    case: str,
    change: Callable[[Path], None],
    warning: str,
) -> None:
    _, url = site(change)
    v = visit(url)
    v.first()
    assert v.again() is None, f"{case}: the snapshot was used"
    assert len(v.warnings) == 1 and warning in v.warnings[0], v.warnings
    assert v.python("import sys; sys.path.count('')") == 1
    v.page.locator('button.cell[data-row="0"][data-col="0"]').click()
    expect(v.page.locator('button.cell[data-row="0"][data-col="0"]')).to_have_text("S")


def test_snapshot_missing_from_the_cache(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    directory, url = site()
    name = snapshot_file(directory).name
    v = visit(url)
    v.first()
    deleted = v.page.evaluate(
        """async (name) => {
             let n = 0;
             for (const key of await caches.keys()) {
               const cache = await caches.open(key);
               for (const request of await cache.keys())
                 if (request.url.includes(name)) n += await cache.delete(request) ? 1 : 0;
             }
             return n;
           }""",
        name,
    )
    assert deleted == 1
    v.requests.clear()
    assert v.again() is None
    assert len(v.warnings) == 1 and "not in the service worker's cache" in v.warnings[0]
    assert not [r for r in v.requests if name in r], "fetched the snapshot from the network"


def test_snapshot_older_than_the_served_sources_runs_the_served_code(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    def edit_source(directory: Path) -> None:
        rules = directory / "sos" / "rules.py"
        rules.write_text(rules.read_text("utf-8") + "\nSERVED_MARK = 1\n", "utf-8")

    _, url = site(edit_source)
    v = visit(url)
    v.first()
    assert v.again() == "restored"
    assert len(v.warnings) == 1 and "sos.rules" in v.warnings[0], v.warnings
    assert v.python("import sos.rules, sos.state; sos.rules.SERVED_MARK") == 1
    # modules that import from sos.rules were reloaded too: one Rules class in the app
    assert v.python("import sos.rules, sos.state; sos.state.Rules is sos.rules.Rules") is True
    v.page.locator('button.cell[data-row="0"][data-col="0"]').click()
    expect(v.page.locator('button.cell[data-row="0"][data-col="0"]')).to_have_text("S")
