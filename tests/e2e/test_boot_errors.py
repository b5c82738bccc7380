"""Broken starts show a message, never an endless spinner (static/boot-error.js, issue 16 §3).

Each test serves a modified copy of ``dist/`` (the site as deployed) from a temporary directory
and checks that ``[data-testid=boot-error]`` appears with the message of its kind, in the page's
language, with "Try again" and the technical detail folded in a ``<details>``. The page's own
errors are expected here, so these contexts are not watched by the guard; no host name but
localhost resolves in this browser (conftest's ``--host-resolver-rules``), so nothing leaves.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PYODIDE = "static/vendor/pyodide"

ERROR = "[data-testid=boot-error]"
TITLE = {"en": "The game could not start.", "de": "Das Spiel konnte nicht starten."}
TEXT = {
    ("en", "file"): "A file of the game could not be loaded",
    ("de", "file"): "Eine Datei des Spiels konnte nicht geladen werden",
    ("en", "network"): "Check your internet connection",
    ("en", "portal"): "a page that is not the game (a Wi-Fi sign-in page?)",
    ("en", "clock"): "This device's date is far outside what the game can run with",
    ("en", "runtime"): "The game engine stopped with an error",
    ("en", "slow"): "Starting takes much longer than it should",
}
RETRY = {"en": "Try again", "de": "Erneut versuchen"}


@pytest.fixture
def site(tmp_path: Path, static_server: Callable[..., str]) -> Callable[..., tuple[Path, str]]:
    """``site(change)`` -> (directory, base URL) of a copy of dist/ after ``change(directory)``."""
    if not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)

    def make(change: Callable[[Path], Any]) -> tuple[Path, str]:
        directory = tmp_path / "site"
        shutil.copytree(DIST, directory)
        change(directory)
        return directory, static_server(directory)

    return make


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """Overrides pytest-playwright's (guarded) ``context``, so ``page`` is unguarded here."""
    ctx = browser.new_context()
    yield ctx
    ctx.close()


def expect_boot_error(page: Page, kind: str, detail: str, lang: str = "en") -> None:
    box = page.locator(ERROR)
    expect(box).to_be_visible(timeout=45_000)
    expect(box).to_have_attribute("data-kind", kind)
    expect(box).to_contain_text(TITLE[lang])
    expect(box).to_contain_text(TEXT[(lang, kind)])
    expect(box.get_by_role("button", name=RETRY[lang])).to_be_visible()
    details = box.locator("details")
    expect(details).not_to_have_attribute("open", "")  # folded away
    expect(details.locator("pre")).to_be_hidden()
    expect(details.locator("pre")).to_contain_text(detail)
    expect(page.locator(".loading")).to_be_hidden()  # no spinner left running
    expect(page.locator(".py-error")).to_be_hidden()  # nor PyScript's developer banner
    assert page.locator('html[data-ready="1"]').count() == 0


def test_invalid_pyscript_toml(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    _, url = site(lambda d: (d / "pyscript.toml").write_text('name = "SOS"\n[files\n"a" = '))
    page.goto(url + "index.html")
    expect_boot_error(page, "file", "pyodide.mjs")


def test_missing_python_zip_in_german(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    # the game's Python (pyscript.toml [files]: sources and bytecode of sos/, one zip)
    _, url = site(lambda d: (d / "static" / "vendor" / "sos-python.zip").unlink())
    page.goto(url + "index.html?lang=de")
    expect_boot_error(page, "file", "sos-python.zip", lang="de")


def test_missing_stdlib_zip_in_browser_language_then_try_again(
    site: Callable[..., tuple[Path, str]], browser: Browser
) -> None:
    directory, url = site(lambda d: (d / PYODIDE / "sos-stdlib.zip").unlink())
    german = browser.new_context(locale="de-DE")
    page = german.new_page()
    page.goto(url + "index.html")
    expect_boot_error(page, "file", "sos-stdlib.zip", lang="de")
    # The deployment is repaired: "Try again" starts the game.
    shutil.copy(DIST / PYODIDE / "sos-stdlib.zip", directory / PYODIDE / "sos-stdlib.zip")
    page.get_by_test_id("boot-retry").click()
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=60_000)
    expect(page.locator(ERROR)).to_have_count(0)
    german.close()


def test_corrupt_runtime(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    def corrupt(d: Path) -> None:
        wasm = d / PYODIDE / "pyodide.asm.wasm"
        wasm.write_bytes(wasm.read_bytes()[:100_000])  # a truncated upload

    _, url = site(corrupt)
    page.goto(url + "index.html")
    expect_boot_error(page, "file", "CompileError")


def test_python_error_at_start(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    _, url = site(lambda d: (d / "static" / "app.py").write_text("raise RuntimeError('boom')\n"))
    page.goto(url + "index.html")
    expect_boot_error(page, "runtime", "RuntimeError: boom")


def test_network_lost_on_first_visit(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    _, url = site(lambda d: None)

    def offline(route: Route) -> None:
        route.abort("internetdisconnected")

    page.route("**/static/vendor/pyodide/**", offline)
    page.goto(url + "index.html")
    expect_boot_error(page, "network", "pyodide")


def test_server_down_while_the_browser_is_online(
    site: Callable[..., tuple[Path, str]], page: Page
) -> None:
    """The server stops answering after the page (navigator.onLine stays true): a network
    failure, not a damaged file (issue 25)."""
    _, url = site(lambda d: None)

    def down(route: Route) -> None:
        route.abort("connectionrefused")

    page.route("**/static/vendor/pyodide/**", down)
    page.route(lambda u: "/sw.js?probe=" in u, down)
    page.goto(url + "index.html")
    assert page.evaluate("navigator.onLine") is True
    expect_boot_error(page, "network", "network check: down")


def test_captive_portal_answers_instead_of_the_site(
    site: Callable[..., tuple[Path, str]], page: Page
) -> None:
    """A Wi-Fi sign-in page answers every request after the first page: not a damaged file."""
    _, url = site(lambda d: None)

    def portal(route: Route) -> None:
        route.fulfill(status=200, content_type="text/html", body="<h1>Sign in to Free WiFi</h1>")

    page.route("**/static/vendor/pyodide/**", portal)
    page.route(lambda u: "/sw.js?probe=" in u, portal)
    page.goto(url + "index.html")
    expect_boot_error(page, "portal", "network check: portal")


def test_clock_far_ahead_at_start(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    """Year 10 000: Python in the browser cannot start (its clock, 64-bit nanoseconds since
    1970, overflows after 2262): the page says to set the clock (issue 25)."""
    _, url = site(lambda d: None)
    page.clock.install(time=253_402_300_800 + 36 * 3600)  # 10000-01-02 12:00 UTC
    page.goto(url + "index.html")
    expect_boot_error(page, "clock", "clock: +010000-01-02")


def test_start_that_hangs(site: Callable[..., tuple[Path, str]], page: Page) -> None:
    # The interpreter starts, then the entry script never finishes.
    _, url = site(
        lambda d: (d / "static" / "app.py").write_text("import asyncio\nawait asyncio.Future()\n")
    )
    page.add_init_script('addEventListener("py:ready", () => { window.__pyReady = true; }, true)')
    page.clock.install()
    page.goto(url + "index.html")
    page.wait_for_function("window.__pyReady === true", timeout=60_000)
    expect(page.locator(ERROR)).to_have_count(0)  # not before the timeout
    page.clock.fast_forward(31_000)
    expect_boot_error(page, "slow", "no data-ready after 30 s")
