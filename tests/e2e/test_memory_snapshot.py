"""The memory snapshot of the interpreter (scripts/pyodide-snap.mjs, scripts/snapshot-worker.mjs).

A first visit starts Python normally and never requests a snapshot: once the game is ready and
the service worker controls the page, a Web Worker makes it on the device from the cached files
(``<html data-snapshot="made">``) and keeps it in Cache Storage; the next start restores it
(``data-snapshot="restored"``). A missing, foreign (another build id), truncated or corrupt
snapshot, or one older than the served sources, falls back to a normal start with one console
warning and no error. Unrouted: the service worker must serve the page as it does for players.
"""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
#: The page's Python (pyscript.toml [files], scripts/bytecode.mjs): sources and pycs.
PYTHON_ZIP = "static/vendor/sos-python.zip"

pytestmark = pytest.mark.unrouted

GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""


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


#: Python: (number of pyscript modules imported, those without a pyc of their source).
PYSCRIPT_PYCS = """
import importlib.util, sys
checked, bad = 0, []
for name, module in sorted(sys.modules.items()):
    path = getattr(module, "__file__", None) or ""
    if name.split(".")[0] != "pyscript" or not path.endswith(".py"):
        continue
    checked += 1
    try:
        with open(importlib.util.cache_from_source(path), "rb") as handle:
            header = handle.read(16)
    except OSError:
        bad.append(f"{name}: no pyc")
        continue
    with open(path, "rb") as handle:
        if header[8:16] != importlib.util.source_hash(handle.read()):
            bad.append(f"{name}: the pyc is of another source")
[checked, bad]
"""


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
        """A first visit, left open until the snapshot is made."""
        self.page.goto(self.url + query)
        self.wait_ready(self.page)
        self.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
        self.made()

    def made(self) -> None:
        """Wait until the page has made the snapshot (in its worker) and stored it."""
        expect(self.page.locator("html")).to_have_attribute(
            "data-snapshot", "made", timeout=120_000
        )

    def again(self) -> str | None:
        """Reload; returns the page's ``data-snapshot`` ("restored"; None or "making" after a
        normal start)."""
        self.warnings.clear()
        self.requests.clear()
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


#: The stored snapshots: [[key, length, {headers}], ...].
STORED = """async () => {
  const cache = await caches.open('sos-snapshot');
  const out = [];
  for (const key of await cache.keys()) {
    const response = await cache.match(key);
    const length = (await response.arrayBuffer()).byteLength;
    out.push([key.url, length, Object.fromEntries(response.headers)]);
  }
  return out;
}"""

#: Rewrites the stored snapshot with ``edit`` (the source of a JS function of (bytes, headers,
#: sha256) returning [bytes, headers]; sha256(bytes) gives the hex SHA-256 the page checks).
EDIT_STORED = """async (edit) => {
  const sha256 = async (bytes) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0')).join('');
  const cache = await caches.open('sos-snapshot');
  const [key] = await cache.keys();
  const response = await cache.match(key);
  const headers = Object.fromEntries(response.headers);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const [edited, newHeaders] = await (0, eval)(edit)(bytes, headers, sha256);
  await cache.put(key, new Response(edited, { headers: newHeaders }));
}"""


def test_made_on_the_device_then_restored_with_fresh_randomness(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    _, url = site()
    v = visit(url)
    v.first()
    # made here, from the cached files: never requested from the site
    assert not [r for r in v.requests if "sos-snapshot-" in r], v.requests
    ((key, length, headers),) = v.page.evaluate(STORED)
    assert "/static/vendor/pyodide/sos-snapshot-" in key
    assert length == int(headers["x-sos-length"]) and len(headers["x-sos-sha256"]) == 64
    assert length <= 30 * 1024 * 1024 + 1024 * 1024, "Pyodide restores a heap of up to 30 MiB"
    assert v.warnings == []
    # What a normal start has; LANG excepted (the browser's language at start-up; the snapshot
    # keeps C.UTF-8, and nothing in the app reads it).
    v.page.evaluate(GRAB_INTERPRETER)
    process = (
        "import os, sys; [sys.executable, sys.argv, sys.path, os.getcwd(),"
        " sorted((k, v) for k, v in os.environ.items() if k != 'LANG')]"
    )
    normal = v.python(process)
    # PyScript's own package came from the zip's pycs (scripts/bytecode.mjs): a pyc of the very
    # source PyScript wrote, for every module of it imported, so none was compiled at start
    checked, bad = v.python(PYSCRIPT_PYCS)
    assert checked >= 5 and bad == [], (checked, bad)

    draws = []
    for run in range(2):
        assert v.again() == "restored"
        assert v.warnings == []
        assert not [r for r in v.requests if "snapshot-worker" in r], "made again after a restore"
        draws.append(v.python("import random; [random.random(), random.getrandbits(64)]"))
        # no trace of the worker that made the snapshot
        restored = v.python(process)
        assert restored == normal
        assert v.python("import sys; 'sos.state' in sys.modules and 'html' in sys.modules")
        # the game works (and the game of the last start was kept): a move is played and shown
        square = v.page.locator(f'button.cell[data-row="{run}"][data-col="{run}"]')
        square.click()
        expect(square).to_have_text("S")
    assert draws[0] != draws[1], "two restored starts drew the same random numbers"


#: Each a JS function (bytes, headers, sha256) -> [bytes, headers].
OTHER_BUILD_ID = """async (bytes, headers, sha256) => {
  bytes.set(new TextEncoder().encode(bytes[16] === 48 ? '1111' : '0000'), 16);  // build id (hex)
  return [bytes, { ...headers, 'x-sos-sha256': await sha256(bytes) }];
}"""
TRUNCATED = "async (bytes, headers) => [bytes.slice(0, bytes.length >> 1), headers]"
CORRUPT = """async (bytes, headers) => {
  bytes.fill(7, bytes.length >> 1, (bytes.length >> 1) + 64);
  return [bytes, headers];
}"""


#: (case, how the stored snapshot is spoilt -- a function for EDIT_STORED, or None: deleted --,
#: the one console warning it gives).
BAD_SNAPSHOTS = [
    ("another build id", OTHER_BUILD_ID, "build id mismatch"),
    ("truncated", TRUNCATED, "not usable"),
    ("corrupt", CORRUPT, "not usable"),
    ("missing from the cache", None, "none stored yet"),
]


def test_bad_or_missing_snapshot_falls_back_to_a_normal_start_and_is_made_again(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    """Each kind of bad snapshot in turn, in one profile (a first visit each would cost a start
    and a snapshot more): a normal start with one warning, the game plays, a good snapshot
    replaces it, and the next start restores that."""
    _, url = site()
    v = visit(url)
    v.first()
    for square, (case, edit, warning) in enumerate(BAD_SNAPSHOTS):
        if edit is None:
            assert v.page.evaluate("caches.delete('sos-snapshot')") is True
        else:
            v.page.evaluate(EDIT_STORED, edit)
        assert v.again() != "restored", f"{case}: the snapshot was used"
        assert len(v.warnings) == 1 and warning in v.warnings[0], (case, v.warnings)
        assert not [r for r in v.requests if "sos-snapshot-" in r], f"{case}: fetched a snapshot"
        assert v.python("import sys; sys.path.count('')") == 1, case
        cell = v.page.locator(f'button.cell[data-row="{square}"][data-col="{square}"]')
        cell.click()
        expect(cell).to_have_text("S")
        v.made()
        assert v.again() == "restored" and v.warnings == [], (case, v.warnings)


def test_snapshot_older_than_the_served_sources_runs_the_served_code(
    site: Callable[..., tuple[Path, str]], visit: Callable[[str], Visit]
) -> None:
    """A source the page is served differs from the one in the snapshot (its key is a hash of
    the sources, so a deploy gives a new key; this is the check behind it)."""
    _, url = site()
    v = visit(url)
    v.first()
    # the service worker now serves a zip with another sos/rules.py than the snapshot was made
    # with (its pyc left as it was: stale, so Python compiles the served source)
    served = io.BytesIO()
    with (
        zipfile.ZipFile(DIST / PYTHON_ZIP) as built,
        zipfile.ZipFile(served, "w", zipfile.ZIP_DEFLATED) as edited,
    ):
        for info in built.infolist():
            data = built.read(info)
            if info.filename == "sos/rules.py":
                data += b"\nSERVED_MARK = 1\n"
            edited.writestr(info, data)
    v.page.evaluate(
        """async ([name, b64]) => {
             const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
             let replaced = 0;
             for (const cacheName of await caches.keys()) {
               const cache = await caches.open(cacheName);
               for (const key of await cache.keys()) {
                 if (!key.url.includes('/' + name)) continue;
                 await cache.put(key, new Response(bytes));
                 replaced += 1;
               }
             }
             if (!replaced) throw new Error(name + ' is not cached');
           }""",
        [PYTHON_ZIP, base64.b64encode(served.getvalue()).decode()],
    )
    assert v.again() == "restored"
    assert len(v.warnings) == 1 and "sos.rules" in v.warnings[0], v.warnings
    assert v.python("import sos.rules, sos.state; sos.rules.SERVED_MARK") == 1
    # modules that import from sos.rules were reloaded too: one Rules class in the app
    assert v.python("import sos.rules, sos.state; sos.state.Rules is sos.rules.Rules") is True
    v.page.locator('button.cell[data-row="0"][data-col="0"]').click()
    expect(v.page.locator('button.cell[data-row="0"][data-col="0"]')).to_have_text("S")
