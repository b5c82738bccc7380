"""Offline play from the service worker, and the "New version available" offer on a new deploy.

Unrouted on purpose: any Playwright route changes how Chromium serves requests (no HTTP cache,
different service-worker paths). ``python -m http.server``-style servers send no
Cache-Control, so passing offline is not enough: every response must come from the worker.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from benchmarks.site_server import duplicates, serve

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"

pytestmark = pytest.mark.unrouted
#: Bytes a first visit may cost at a Pages-like server, its precache included (issue 40: 7 MB).
#: Every language's catalog is precached, gzip-compressed at build time (<lang>.mo.gz, ~20 kB
#: each: Pages does not compress a .mo) (benchmarks/RESULTS.md, 2026-12-05).
FIRST_VISIT_MAX = 7_000_000


def wait_controlled(page: Page) -> None:
    """Until the service worker has precached the site and controls the page."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)


def precached(page: Page, fragment: str) -> list[str]:
    """Keys of the precache that contain ``fragment``."""
    keys: list[str] = page.evaluate(
        """async (fragment) => {
             const out = [];
             for (const name of await caches.keys()) {
               const cache = await caches.open(name);
               for (const request of await cache.keys())
                 if (request.url.includes(fragment)) out.push(name + " " + request.url);
             }
             return out;
           }""",
        fragment,
    )
    return keys


def precaches(names: list[str]) -> list[str]:
    """The precache caches among cache ``names`` (the lazy files' cache and the memory snapshot's
    live on across versions; their entries of other versions are deleted)."""
    return [name for name in names if "precache" in name]


def cache_names_and_css(page: Page, timeout_s: float = 60) -> tuple[list[str], list[str]]:
    """The cache names and the precached app.css, once the new worker's activation has cleaned
    up: it deletes outdated entries and caches in its ``activate`` event, while the page it
    claimed may already be reloading (``page.wait_for_function`` does not await a promise, hence
    the polling here, bounded like an ``expect``)."""
    deadline = time.monotonic() + timeout_s
    while True:
        names: list[str] = page.evaluate("caches.keys()")
        css = precached(page, "static/css/app.css")
        if (len(precaches(names)) == 1 and len(css) == 1) or time.monotonic() > deadline:
            return names, css
        page.wait_for_timeout(100)


def test_reload_offline_is_served_by_the_service_worker(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
) -> None:
    context = new_context()
    page = context.new_page()
    first_visit: list[str] = []
    page.on("request", lambda request: first_visit.append(request.url))
    page.goto(site_url + "index.html?size=5")
    wait_ready(page)
    until_ready = list(first_visit)  # later, the snapshot's worker loads the wasm too
    wait_controlled(page)
    # First visit: boot.js preloads the runtime's wasm, and the preload is used (one request).
    wasm = site_url + "static/vendor/pyodide/pyodide.asm.wasm"
    assert page.locator(f'link[rel="preload"][href="{wasm}"]').count() == 1
    assert until_ready.count(wasm) == 1, f"wasm requested {until_ready.count(wasm)} times"
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == site_url, "the service worker must control the whole site"

    # The page makes its memory snapshot once the worker controls it (a reload before it is
    # made would stop its worker's requests). It is dropped, so that this offline start is a
    # normal one, after which the page makes it again, offline: from the cached files only.
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
    assert page.evaluate("caches.delete('sos-snapshot')") is True
    responses: list[Response] = []
    failed: list[str] = []
    page.on("response", lambda response: responses.append(response))
    page.on("requestfailed", lambda request: failed.append(f"{request.url} {request.failure}"))
    context.set_offline(True)
    page.reload()
    seconds = wait_ready(page)
    # Served by the worker: no preload, so that Chromium can use its compiled-code cache.
    assert page.locator('link[rel="preload"][href$="pyodide.asm.wasm"]').count() == 0
    page.locator('button.cell[data-row="2"][data-col="2"]').click()
    expect(page.locator('button.cell[data-row="2"][data-col="2"]')).to_have_text("S")
    # Lazily loaded parts still load offline: a new game with another size rebuilds the board.
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move")
    print(f"offline boot: ready {seconds:.2f} s after reload, {len(responses)} responses")
    expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)

    assert not failed, f"requests failed offline: {failed}"
    not_from_sw = [r.url for r in responses if not r.from_service_worker]
    assert not not_from_sw, f"served from elsewhere than the service worker: {not_from_sw}"
    served = {r.url.removeprefix(site_url).split("?")[0] for r in responses}
    for needed in (
        "index.html",
        "pyscript.toml",
        "static/app.py",
        "static/vendor/sos-python.zip",
        "static/vendor/pyscript/core.js",
        "static/vendor/pyodide/pyodide.asm.wasm",
        "static/vendor/pyodide/sos-stdlib.zip",
    ):
        assert needed in served, f"{needed} was not loaded offline; got {sorted(served)}"
    # the trimmed standard library only (scripts/stdlib.mjs): the full one is not shipped
    assert "static/vendor/pyodide/python_stdlib.zip" not in served
    # the game's Python comes in that one zip: no module is requested on its own
    assert not [f for f in served if f.startswith("sos/") and f.endswith(".py")], sorted(served)
    shot(page, "offline-reload")
    context.set_offline(False)


#: Chromium's console warning for a ``<link rel=preload>`` whose response nothing took within a
#: few seconds of the window's load event.
UNUSED_PRELOAD = "preloaded using link preload but not used"


def test_a_returning_visit_preloads_only_what_it_uses_at_once(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
) -> None:
    """On a returning visit (the service worker controls the page, the memory snapshot is
    restored) nothing is preloaded that waits for the interpreter: ``sos-python.zip`` (the
    ``[files]`` of pyscript.toml) is fetched by PyScript only once Python is up -- on a slow
    phone long after the load event, and Chromium then warned that the preload was "not used
    within a few seconds". Here the CPU runs 10 times slower, as a cheap phone's: no such
    warning. (On a first visit the file is preloaded: it comes from the network.)"""
    context = new_context()
    page = context.new_page()
    page.goto(site_url + "index.html?size=5")
    wait_ready(page)
    python_zip = site_url + "static/vendor/sos-python.zip"
    assert page.locator(f'link[rel="preload"][href="{python_zip}"]').count() == 1
    wait_controlled(page)
    html = page.locator("html")
    expect(html).to_have_attribute("data-snapshot", "made", timeout=120_000)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if UNUSED_PRELOAD in m.text else None)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 10})
    try:
        page.reload()
        wait_ready(page, timeout_ms=120_000)
        expect(html).to_have_attribute("data-snapshot", "restored")
        loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        page.wait_for_function(f"performance.now() > {loaded} + 5000", timeout=60_000)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    preloaded = page.evaluate(
        "[...document.querySelectorAll('link[rel=preload]')].map((link) => link.href)"
    )
    assert python_zip not in preloaded, preloaded
    assert not warnings, warnings


@pytest.mark.parametrize("flavour", ["pages", "plain"])
def test_first_visit_fetches_each_file_once_and_never_a_snapshot(
    new_context: Callable[..., Any],
    guard: Any,
    wait_ready: Callable[..., float],
    flavour: str,
) -> None:
    """A first visit, left open until the service worker has precached the site and the page has
    made its memory snapshot: each file's body is sent once (the precache revalidates the page's
    copies: 304s), no snapshot is requested, and it all costs at most FIRST_VISIT_MAX at a server
    that compresses as GitHub Pages does (a Playwright context is a private one: its HTTP cache
    lives in memory) ("pages": ETag + max-age=600, as Pages; "plain": only Last-Modified, as
    ``python -m http.server``). Then offline, the page starts from the service worker, its
    language's catalog (loaded before the worker was there) included."""
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)
    url, log, stop = serve(DIST, flavour=flavour)
    guard.allow_origin(url)
    try:
        context = new_context()
        page = context.new_page()
        page.goto(url + "index.html?size=5&lang=de")
        wait_ready(page)
        wait_controlled(page)
        expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
        # the catalog the page loaded before the worker controlled it is cached too (CACHE_URLS)
        deadline = time.monotonic() + 60
        while not precached(page, "static/vendor/i18n/de.mo.gz") and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert precached(page, "static/vendor/i18n/de.mo.gz"), "de.mo.gz was not cached"
        hits = list(log.hits)
        assert duplicates(hits) == {}, f"sent twice: {duplicates(hits)}"
        assert not [h.path for h in hits if "sos-snapshot-" in h.path]
        # PyScript's plugins the page does not use are neither precached nor imported
        # (pyscript.toml `plugins`): an offline start would fail on them
        unused = re.compile(r"static/vendor/pyscript/(py-editor|py-terminal|py-game|donkey)")
        assert not [h.path for h in hits if unused.search(h.path)]
        assert [h.path for h in hits if h.status == 304], "the precache did not revalidate"
        total = sum(h.bytes for h in hits)
        assert total <= FIRST_VISIT_MAX, f"first visit + precache: {total} bytes"

        responses: list[Response] = []
        page.on("response", lambda response: responses.append(response))
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        expect(page.get_by_test_id("new-game")).to_have_text("Neues Spiel")
        not_from_sw = [r.url for r in responses if not r.from_service_worker]
        assert not not_from_sw, f"served from elsewhere than the service worker: {not_from_sw}"
        assert any(r.url.endswith("/static/vendor/i18n/de.mo.gz") for r in responses)
        context.set_offline(False)
    finally:
        stop()


HAND_OVER_CASES = {
    # A private window's HTTP cache is in memory and keeps no entry over an eighth of its size
    # (Chromium: 6.25 MB of 50 MB): a server that does not compress sends the 9.6 MB wasm, which
    # the precache downloaded a second time before the page handed its copy over.
    "private window, uncompressed": ("private", False),
    # A normal profile (on disk), Pages' gzip: the page's copies too, and FIRST_VISIT_MAX.
    "normal profile, pages": ("normal", True),
}


@pytest.mark.parametrize("case", list(HAND_OVER_CASES))
def test_a_private_window_pays_once(
    case: str,
    new_context: Callable[..., Any],
    browser_type: Any,
    browser_type_launch_args: dict[str, Any],
    guard: Any,
    wait_ready: Callable[..., float],
    tmp_path: Path,
) -> None:
    """A first visit, left open until the worker has installed and the snapshot is made: the
    worker's install takes the page's own copies of the runtime's big files (the page put them
    into ``sos-hand-over``, static/sw-register.js) instead of fetching or revalidating them, so
    every file's body is sent once, the wasm is requested once, the hand-over cache is gone
    once the worker is active, and the page then starts offline from the precache."""
    profile, compress = HAND_OVER_CASES[case]
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)
    url, log, stop = serve(DIST, compress=compress)
    guard.allow_origin(url)
    try:
        if profile == "private":
            context = new_context()
        else:
            context = browser_type.launch_persistent_context(
                str(tmp_path / "profile"), **browser_type_launch_args
            )
            guard.watch_context(context, route=False)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url + "index.html?size=5")
        wait_ready(page)
        wait_controlled(page)
        expect(page.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
        hits = list(log.hits)
        wasm = [h for h in hits if h.path.split("?")[0].endswith("/pyodide.asm.wasm")]
        total = sum(h.bytes for h in hits)
        print(f"{case}: {total / 1e6:.2f} MB, {len(hits)} responses, wasm {wasm}")
        assert duplicates(hits) == {}, f"sent twice: {duplicates(hits)}"
        assert [h.status for h in wasm] == [200], "the worker did not take the page's wasm"
        for name in ("/sos-stdlib.zip", "/sos-python.zip"):
            assert [h.status for h in hits if h.path.split("?")[0].endswith(name)] == [200]
        if compress:
            assert total <= FIRST_VISIT_MAX, f"first visit + precache: {total} bytes"
        assert page.evaluate("caches.has('sos-hand-over')") is False
        assert precached(page, "pyodide.asm.wasm"), "the wasm is not in the precache"

        responses: list[Response] = []
        page.on("response", lambda response: responses.append(response))
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        page.locator('button.cell[data-row="2"][data-col="2"]').click()
        expect(page.locator('button.cell[data-row="2"][data-col="2"]')).to_have_text("S")
        assert any(r.url.endswith("/pyodide.asm.wasm") and r.from_service_worker for r in responses)
        not_from_sw = [r.url for r in responses if not r.from_service_worker]
        assert not not_from_sw, f"served from elsewhere than the service worker: {not_from_sw}"
        context.set_offline(False)
        if profile == "normal":
            context.close()
    finally:
        stop()


def test_new_deploy_offers_reload_and_replaces_old_files(
    new_context: Callable[..., Any],
    static_server: Callable[..., str],
    guard: Any,
    tmp_path: Path,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
) -> None:
    """Deploy v1, visit, deploy v2 (a changed file, sw.js rebuilt), the page offers a reload."""
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)
    site = tmp_path / "site"
    shutil.copytree(DIST, site)
    url = static_server(site)
    guard.allow_origin(url)

    context = new_context()
    page = context.new_page()
    page.goto(url + "index.html?size=4")
    wait_ready(page)
    wait_controlled(page)
    expect(page.get_by_test_id("update")).to_be_hidden()
    old_css = precached(page, "static/css/app.css")
    assert len(old_css) == 1, old_css

    # Deploy v2: one changed file, and the service worker regenerated by the build.
    css = site / "static" / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* v2 */ .v2-marker { }\n", "utf-8")
    old_sw = (site / "sw.js").read_bytes()
    subprocess.run(
        ["node", str(ROOT / "scripts" / "site.mjs"), "--sw", str(site)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert (site / "sw.js").read_bytes() != old_sw, "a changed file must change sw.js"

    # The browser checks for an update (on navigation, or when the tab is shown again).
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    offer = page.get_by_test_id("update")
    expect(offer).to_be_visible(timeout=90_000)
    expect(offer).to_contain_text("New version available")
    # Until the user accepts, the page keeps being served the old version.
    assert "v2-marker" not in page.evaluate("fetch('static/css/app.css').then(r => r.text())")
    shot(page, "update-offer")

    with page.expect_navigation():
        page.get_by_test_id("update-reload").click()
    wait_ready(page)
    expect(page.get_by_test_id("update")).to_be_hidden()
    assert "v2-marker" in page.evaluate("fetch('static/css/app.css').then(r => r.text())")
    names, new_css = cache_names_and_css(page)
    assert len(new_css) == 1 and new_css != old_css, (old_css, new_css)
    assert len(precaches(names)) == 1, f"old caches left behind: {names}"
    assert set(names) - set(precaches(names)) <= {"sos-snapshot", f"sos-lazy-{url}"}, names


def test_service_workers_blocked_the_game_plays_and_keeps_no_copies(
    new_context: Callable[..., Any], site_url: str, wait_ready: Callable[..., float]
) -> None:
    """Where service workers are blocked (Playwright's ``service_workers="block"`` makes
    ``register()`` resolve with nothing, as some browsers' settings do), the page plays without
    offline support and no error (it read ``registration.waiting`` of nothing), and the copies
    it kept for a worker's install (``sos-hand-over``) are deleted."""
    context = new_context(service_workers="block")
    page = context.new_page()
    page.goto(site_url + "index.html?size=4")
    wait_ready(page)
    page.locator('button.cell[data-row="1"][data-col="1"]').click()
    expect(page.locator('button.cell[data-row="1"][data-col="1"]')).to_have_text("S")
    deadline = time.monotonic() + 30
    while page.evaluate("caches.has('sos-hand-over')") and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert page.evaluate("caches.has('sos-hand-over')") is False
    assert page.evaluate("navigator.serviceWorker.controller") is None
    assert page.get_attribute("html", "data-sw") is None
