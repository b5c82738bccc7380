"""Fixtures for the end-to-end tests: a local static server, Debian's Chromium, and a guard.

Every test under tests/e2e/ is marked ``e2e``. The autouse ``guard`` watches every browser
context the test creates (through pytest-playwright's ``context``/``page``/``new_context``) and
fails the test on any renderer crash (naming the test; the minidump is kept in
test-results/crash-dumps/), any uncaught page error, any console error, any Content-Security-Policy
violation (a ``securitypolicyviolation`` listener added to every page by an init script reports
it as a console error and keeps it in ``window.__cspViolations``), and any request that leaves
the site's origin (``data:``/``blob:`` excepted). Foreign requests are also aborted by a route, so
nothing actually leaves the machine. Note: any route disables Chromium's HTTP cache; mark a test
``@pytest.mark.unrouted`` to keep cache/service-worker behaviour as users see it (foreign
requests are then still recorded, and the browser cannot resolve host names other than
localhost anyway, see ``--host-resolver-rules`` below).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import playwright.sync_api as pw
import pytest
from helpers import EmbedHost, eager
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Route

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results"
#: Where Chromium's crash handler writes a renderer's minidump (docs/crash.md). Debian's Chromium
#: ignores ``--crash-dumps-dir`` (a headless-shell switch) and writes to ~/.config/chromium/Crash
#: Reports unless ``BREAKPAD_DUMP_LOCATION`` names another folder (checked with DevTools'
#: ``Page.crash``: one .dmp in crash-dumps/pending/).
CRASH_DUMPS = RESULTS / "crash-dumps"
E2E_DIR = Path(__file__).resolve().parent
READY_SELECTOR = 'html[data-ready="1"]'
BOOT_TIMEOUT_MS = 60_000  # Pyodide cold boot is 3-5 s on a 2-core box; CI can be much slower.
LOCAL_SCHEMES = frozenset({"data", "blob", "about"})

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # Belt and braces: no host name but localhost resolves, so nothing can leave by accident.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in item.path.parents:
            item.add_marker(pytest.mark.e2e)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.access(executable, os.X_OK):
        pytest.fail(
            f"no Chromium at {executable}: install it (Debian: apt-get install -y chromium) "
            "or set CHROMIUM=/path/to/chromium",
            pytrace=False,
        )
    return {
        **browser_type_launch_args,
        "executable_path": executable,
        "headless": browser_type_launch_args.get("headless", True),
        "args": CHROMIUM_ARGS,
        "env": {**os.environ, "BREAKPAD_DUMP_LOCATION": str(CRASH_DUMPS)},
    }


# --------------------------------------------------------------------------- static server


class _StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Like ``python -m http.server`` but with explicit MIME types and no log noise."""

    extensions_map = {  # noqa: RUF012 - class attribute of the stdlib handler
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",  # required for WebAssembly.instantiateStreaming
        ".mjs": "text/javascript",  # module scripts are rejected with a non-JS MIME type
        ".js": "text/javascript",
        ".json": "application/json",
        ".css": "text/css",
        ".html": "text/html",
        ".py": "text/x-python",
        ".toml": "application/toml",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
        ".webmanifest": "application/manifest+json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the browser dropping a connection mid-response is not a test failure


def _start_server(directory: Path, host: str, url_host: str) -> tuple[_QuietServer, str]:
    handler = functools.partial(_StaticHandler, directory=str(directory))
    server = _QuietServer((host, 0), handler)
    threading.Thread(target=server.serve_forever, name="e2e-http", daemon=True).start()
    return server, f"http://{url_host}:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def static_server() -> Iterator[Callable[..., str]]:
    """Factory: ``static_server(directory=ROOT, url_host="127.0.0.1")`` -> base URL.

    Each call starts another server on a free port (e.g. ``url_host="localhost"`` for a parent
    page that is cross-site to the app on 127.0.0.1). All are shut down after the session.
    """
    servers: list[_QuietServer] = []

    def start(directory: Path = ROOT, url_host: str = "127.0.0.1") -> str:
        server, url = _start_server(directory, "127.0.0.1", url_host)
        servers.append(server)
        return url

    yield start
    # shutdown() waits for the server's next poll (up to 0.5 s): all at once, not one by one
    # (a session starts a few dozen servers: 10 s of teardown when stopped in turn).
    stopping = [threading.Thread(target=server.shutdown) for server in servers]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()
    for server in servers:
        server.server_close()


@pytest.fixture(scope="session")
def site_url(static_server: Callable[..., str]) -> str:
    """Base URL ("http://127.0.0.1:PORT/") of a static server for the repository root."""
    if not (ROOT / "static" / "vendor" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail(
            "static/vendor/ is missing: run `npm ci && node scripts/build.mjs` "
            "(scripts/test.sh does this)",
            pytrace=False,
        )
    return static_server()


# --------------------------------------------------------------------------- guard


#: Init script for every watched context: a CSP violation anywhere in the page (index.html's
#: meta policy) becomes a console error, so the guard fails the test; also kept for asserts.
CSP_WATCH = """(() => {
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    const text = `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`
      + ` at ${e.sourceFile || "?"}:${e.lineNumber}:${e.columnNumber} ${e.sample || ""}`;
    window.__cspViolations.push(text);
    console.error(text);
  }, true);
})();"""


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


class BrowserGuard:
    """Collects page errors, console errors and foreign requests of the watched contexts."""

    def __init__(self, site_url: str, test: str = "") -> None:
        self.site_url = site_url
        self.test = test  # the test's node id, named when a renderer crashes
        self.allowed_origins = {origin_of(site_url)}
        self.problems: list[str] = []
        self._console_allow: list[re.Pattern[str]] = []
        self._contexts: list[BrowserContext] = []

    # -- configuration for tests that need it
    def allow_origin(self, url: str) -> None:
        """Treat another origin (e.g. a second local server) as part of the site."""
        self.allowed_origins.add(origin_of(url))

    def allow_console_error(self, pattern: str) -> None:
        """Ignore console errors matching ``pattern`` (re.search), for errors a test provokes."""
        self._console_allow.append(re.compile(pattern))

    # -- recording
    def is_local(self, url: str) -> bool:
        scheme = urlsplit(url).scheme.lower()
        return scheme in LOCAL_SCHEMES or origin_of(url) in self.allowed_origins

    def _add(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def _on_request(self, request: Request) -> None:
        if not self.is_local(request.url):
            self._add(f"request leaving the origin: {request.method} {request.url}")

    def _on_route(self, route: Route) -> None:
        self._add(f"request leaving the origin: {route.request.method} {route.request.url}")
        route.abort("blockedbyclient")

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        text = message.text
        if any(p.search(text) for p in self._console_allow):
            return
        where = message.location.get("url", "")
        line = message.location.get("lineNumber")
        self._add(f"console error: {text}" + (f"  [{where}:{line}]" if where else ""))

    def _on_page_error(self, error: pw.Error) -> None:
        self._add(f"page error: {error.stack or error.message}")

    def _on_crash(self, page: Page) -> None:
        self._add(
            f"renderer crashed (\"Target crashed\") in {self.test or 'this test'} at {page.url};"
            f" its minidump is in {CRASH_DUMPS.relative_to(ROOT)}/pending (docs/crash.md)"
        )

    def watch_page(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)
        page.on("crash", self._on_crash)

    def watch_context(self, context: BrowserContext, *, route: bool = True) -> None:
        self._contexts.append(context)
        context.add_init_script(CSP_WATCH)
        context.on("request", self._on_request)
        context.on("page", self.watch_page)
        for page in context.pages:
            self.watch_page(page)
        if route:
            context.route(lambda url: not self.is_local(url), self._on_route)

    def flush(self) -> None:
        """Let Playwright deliver the events the browser already sent: one round trip to each
        frame of each open page (a frame of another site runs in a process of its own), through
        a timer task, so that tasks the page had queued run first. Bounded: a frame stuck in a
        long task is left after a second. (Instead of a fixed 100 ms pause: 184 tests.)"""
        for context in self._contexts:
            for page in context.pages:
                if page.is_closed():
                    continue
                for frame in page.frames:
                    with contextlib.suppress(pw.Error):
                        frame.wait_for_function(
                            "() => new Promise((done) => setTimeout(() => done(true)))",
                            polling=50, timeout=1000,
                        )

    def report(self) -> str:
        return "browser problems:\n" + "\n".join(f"  - {p}" for p in self.problems)


@pytest.fixture(autouse=True)
def guard(site_url: str, request: pytest.FixtureRequest) -> BrowserGuard:
    return BrowserGuard(site_url, request.node.nodeid)


# --------------------------------------------------------------------------- shared contexts
#
# A page boot in a new browser context is a first visit: Chromium compiles Pyodide's wasm,
# Python starts without the memory snapshot, and the service worker downloads its whole precache
# (22 MiB) in the background. The tests of the files listed in SHARED_CONTEXT_FILES therefore
# share one context (for the whole session) among those that use ``page``/``context``/
# ``open_app``: the first such test is a first visit, the others are returning visits (HTTP
# and code caches warm, the service worker serves the files and the snapshot), as for most
# players. Between tests the site's data is wiped --
# local storage, IndexedDB, cookies -- so every test still starts with no saved game and no
# preference; only the service worker and its cache stay. A test that needs a first visit asks
# for ``new_context()`` (its own context, closed after the test) or is marked ``fresh_context``.
# ``SOS_E2E_FRESH=1`` gives every test its own context again (to tell whether sharing matters).

#: The test files whose tests share a context (each file checked to pass that way; a file not
#: listed keeps a context per test until it has been run both ways).
SHARED_CONTEXT_FILES = frozenset(
    {
        "test_backup.py", "test_layout_players.py",
        "test_computer.py", "test_embed.py", "test_experience.py", "test_fuzz_browser.py",
        "test_game.py", "test_languages.py", "test_layout.py", "test_layout_review.py",
        "test_library.py", "test_page_limits.py", "test_players.py", "test_players_details.py",
        "test_players_sound.py", "test_puzzle_page.py", "test_remote_games.py",
        "test_review_page.py", "test_saves.py", "test_security.py", "test_stats.py",
        "test_newcomer.py",
    }
)

#: What is wiped between the tests sharing a context (everything but the service worker and
#: Cache Storage, which make the next start a returning visit).
WIPED = "cookies,file_systems,indexeddb,local_storage,websql,shared_storage,storage_buckets"


class SharedContext:
    """One browser context for the tests of a file; the guard of the running test sees all.

    The CSP init script, the request listener and the foreign-request route are installed once;
    they report to :attr:`guard`, the current test's guard.
    """

    def __init__(self, context: BrowserContext, *, route: bool) -> None:
        self.context = context
        self.guard: BrowserGuard | None = None
        self.kept: KeptPage | None = None  # the page of a RESET_FILES file, kept for the file
        context.add_init_script(CSP_WATCH)
        context.add_init_script(TEST_HOOK)
        context.on("request", lambda r: self.guard._on_request(r) if self.guard else None)
        context.on("page", self._watch)
        if route:
            context.route(self._foreign, self._on_route)
        # A blank page kept open for the file: the wipe between tests is sent through its
        # DevTools session (the Storage domain acts on the whole context), so no page has to
        # be opened and closed for it after each test.
        self.janitor = context.new_page()
        self.cdp = context.new_cdp_session(self.janitor)

    def _watch(self, page: Page) -> None:
        """Report the page's errors to the running test's guard (a kept page outlives one)."""
        page.on("console", lambda m: self.guard._on_console(m) if self.guard else None)
        page.on("pageerror", lambda e: self.guard._on_page_error(e) if self.guard else None)
        page.on("crash", lambda pg: self.guard._on_crash(pg) if self.guard else None)

    def _foreign(self, url: str) -> bool:
        return self.guard is not None and not self.guard.is_local(url)

    def _on_route(self, route: Route) -> None:
        if self.guard is not None:
            self.guard._on_route(route)
        else:
            route.abort("blockedbyclient")

    def lend(self, guard: BrowserGuard) -> BrowserContext:
        self.guard = guard
        guard._contexts.append(self.context)
        return self.context

    def give_back(self, guard: BrowserGuard) -> None:
        """Close the test's pages (a save they still hold is made as they go; the kept page's
        app is stopped instead), then wipe the data of every origin the test allowed."""
        if self.kept is not None and not self.kept.tidy():
            self.kept = None
        for other in self.context.pages:
            if other is not self.janitor and (self.kept is None or other is not self.kept.page):
                other.close()
        self.context.set_offline(False)
        self.context.clear_cookies()
        origins = sorted(guard.allowed_origins | {origin_of(guard.site_url)})
        for origin in origins:
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": WIPED})
        self._check_wiped(origins)
        self.guard = None

    def _check_wiped(self, origins: list[str]) -> None:
        """Make sure no save of a closed page lands after the wipe.

        A page's local-storage writes reach the browser process asynchronously; a page closed
        while it saved (a game recorded as the test ended) could commit after the wipe, on a
        loaded machine, and the next test found that game in its record (a CI failure seen on
        main: two rows in Statistics after one game). The janitor therefore opens a small file
        of each origin, reads ``localStorage.length`` and wipes again until it is zero.
        """
        for origin in origins:
            for _attempt in range(20):
                try:
                    self.janitor.goto(origin + "/static/icons/icon.svg", wait_until="commit")
                    left = self.janitor.evaluate("() => localStorage.length")
                except pw.Error:
                    break  # an origin that serves nothing any more (its server is gone)
                if left == 0:
                    break
                time.sleep(0.1)
                self.cdp.send(
                    "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": WIPED}
                )
        self.janitor.goto("about:blank")


#: The test files whose tests also share one page, its app started again in place between tests
#: (``__sosTest.start(url)``, sos/web/testing.py) instead of a navigation: a file pays one
#: Pyodide start, as pytest-pyodide's module-scoped ``selenium`` fixture does. ``open_app`` on
#: that page starts again in place; a ``goto``/``reload`` still navigates for real. A test that
#: changes the page in ways a start in place cannot undo (an init script, an exposed function,
#: ``page.clock``, emulated media, a route) leaves it to be closed after it (:class:`KeptPage`);
#: ``@pytest.mark.fresh_page`` gives a test a page of its own. ``SOS_E2E_FRESH=1`` turns it off.
RESET_FILES = SHARED_CONTEXT_FILES

#: Init script of the shared contexts: asks the page for the tests' hook (sos/web/testing.py).
TEST_HOOK = "window.__sosTest = window.__sosTest || {};"

#: What a test may do to a page that a start in place cannot undo: the page is closed after it.
_STICKY = (
    "add_init_script", "expose_function", "expose_binding", "set_extra_http_headers",
    "emulate_media", "route", "route_from_har", "route_web_socket", "unroute_all",
    "add_locator_handler", "set_default_timeout", "set_default_navigation_timeout",
)


#: ``helpers.computer_pause``'s evaluation: undone by a start in place.
_PAUSE_ONLY = re.compile(
    r"^__py\.runPython\('import sos\.web\.computer; "
    r"sos\.web\.computer\.COMPUTER_PAUSE = [\d.]+'\) None$"
)


class KeptPage:
    """A page kept for the tests of a file: listeners the test added are removed after it, the
    window's size put back, the app stopped; a sticky change (:data:`_STICKY`, ``clock``) or a
    crash makes it be closed instead."""

    def __init__(self, page: Page, viewport: dict[str, int] | None) -> None:
        self.page = page
        self.viewport = viewport
        self.sticky = False
        self.listeners: list[tuple[str, Any]] = []
        self.crashed = False
        page.on("crash", lambda _page: setattr(self, "crashed", True))
        base = type(page)
        kept = self

        def mark(name: str) -> Callable[..., Any]:
            method = getattr(base, name)

            def call(self: Page, *args: Any, **kwargs: Any) -> Any:
                kept.sticky = True
                return method(self, *args, **kwargs)

            return call

        def listen(name: str) -> Callable[..., Any]:
            method = getattr(base, name)

            def call(self: Page, event: str, handler: Any) -> Any:
                kept.listeners.append((event, handler))
                return method(self, event, handler)

            return call

        def clock(self: Page) -> Any:
            kept.sticky = True
            return base.clock.fget(self)  # type: ignore[attr-defined]

        evaluate = base.evaluate

        def run_python(self: Page, expression: str, arg: Any = None, **kwargs: Any) -> Any:
            """An evaluation that runs Python in the page may change its modules for good
            (``__py.runPython``): the page is closed after the test. Only setting the
            computer's pause is undone by a start in place (sos/web/testing.py)."""
            code = f"{expression} {arg!r}"
            if ("runPython" in code or "__py.globals" in code) and not _PAUSE_ONLY.search(code):
                kept.sticky = True
            return evaluate(self, expression, arg, **kwargs)

        members: dict[str, Any] = {name: mark(name) for name in _STICKY}
        members.update(
            on=listen("on"), once=listen("once"), clock=property(clock), evaluate=run_python
        )
        page.__class__ = type("KeptPage", (base,), members)
        page._sos_kept = self  # type: ignore[attr-defined]

    def tidy(self) -> bool:
        """After a test: make the page ready for the next one; False if it was closed."""
        page = self.page
        if page.is_closed() or self.crashed or self.sticky:
            with contextlib.suppress(pw.Error):
                page.close()
            return False
        for event, handler in self.listeners:
            with contextlib.suppress(Exception):
                page.remove_listener(event, handler)
        self.listeners.clear()
        try:
            stopped = page.evaluate(
                "() => { const hook = window.__sosTest; if (!hook || !hook.stop) return false;"
                " hook.stop(); return true; }"
            )
            if not stopped:  # not the app, or an app still starting: nothing of it may save
                page.goto("about:blank")
            if self.viewport is not None and page.viewport_size != self.viewport:
                page.set_viewport_size(self.viewport)
        except pw.Error:
            with contextlib.suppress(pw.Error):
                page.close()
            return False
        return True


class PageCount:
    """How many documents of the app a worker's tests loaded (each a Pyodide start, or the
    static page of an untouched embed), how many of them in a new browser context (a first
    visit), and how many starts in place replaced a load."""

    def __init__(self) -> None:
        self.loads = 0
        self.first_visits = 0
        self.in_place = 0
        self._contexts: set[int] = set()

    def watch(self, context: BrowserContext, site: str) -> None:
        def requested(request: Request) -> None:
            parts = urlsplit(request.url)
            if (
                request.resource_type != "document"
                or origin_of(request.url) != site
                or not parts.path.endswith(("/", "index.html"))
            ):
                return
            self.loads += 1
            if id(context) not in self._contexts:
                self._contexts.add(id(context))
                self.first_visits += 1

        context.on("request", requested)


PAGES = PageCount()


@pytest.fixture(scope="session")
def _shared_contexts(
    browser: pw.Browser, browser_context_args: dict[str, Any]
) -> Iterator[dict[bool, SharedContext]]:
    """The shared contexts of the session, by ``route`` (unrouted tests get their own): one
    for all the files listed, so that only the first test of the session is a first visit."""
    shared: dict[bool, SharedContext] = {}
    yield shared
    for one in shared.values():
        one.context.close()


@pytest.fixture
def context(
    request: pytest.FixtureRequest,
    new_context: Callable[..., BrowserContext],
    _shared_contexts: dict[bool, SharedContext],
    browser: pw.Browser,
    browser_context_args: dict[str, Any],
    guard: BrowserGuard,
    _artifacts_recorder: Any,
    site_url: str,
) -> Iterator[BrowserContext]:
    """The browser context of ``page``: this file's shared context (see above), or a new one
    for a test marked ``fresh_context``."""
    if (
        request.node.path.name not in SHARED_CONTEXT_FILES
        or request.node.get_closest_marker("fresh_context") is not None
        or os.environ.get("SOS_E2E_FRESH")
    ):
        yield new_context()
        return
    route = request.node.get_closest_marker("unrouted") is None
    shared = _shared_contexts.get(route)
    if shared is None:
        shared = SharedContext(browser.new_context(**browser_context_args), route=route)
        PAGES.watch(shared.context, origin_of(site_url))
        _shared_contexts[route] = shared
    context = shared.lend(guard)
    yield context
    if getattr(request.node, "_sos_failed", True):
        # as pytest-playwright does for a context it closes: screenshots, kept on failure
        _artifacts_recorder.on_will_close_browser_context(context)
    shared.give_back(guard)


@pytest.fixture
def page(
    request: pytest.FixtureRequest,
    context: BrowserContext,
    _shared_contexts: dict[bool, SharedContext],
    browser_context_args: dict[str, Any],
) -> Page:
    """The test's page: in a file of :data:`RESET_FILES` the file's kept page (its app started
    again in place by ``open_app``), else a new page of ``context``."""
    shared = next((one for one in _shared_contexts.values() if one.context is context), None)
    if (
        shared is None
        or request.node.path.name not in RESET_FILES
        or request.node.get_closest_marker("fresh_page") is not None
    ):
        return context.new_page()
    module = str(request.node.path)
    if shared.kept is not None and (
        shared.kept.page.is_closed() or getattr(shared.kept, "module", module) != module
    ):
        with contextlib.suppress(pw.Error):
            shared.kept.page.close()
        shared.kept = None
    if shared.kept is None:
        shared.kept = KeptPage(context.new_page(), browser_context_args.get("viewport"))
        shared.kept.module = module  # type: ignore[attr-defined]
    return shared.kept.page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when in ("setup", "call"):
        item._sos_failed = getattr(item, "_sos_failed", False) or report.failed  # type: ignore[attr-defined]
    return report


@pytest.fixture
def new_context(
    new_context: Callable[..., BrowserContext],
    guard: BrowserGuard,
    request: pytest.FixtureRequest,
) -> Callable[..., BrowserContext]:
    """pytest-playwright's context factory, with the guard attached to every context."""
    route = request.node.get_closest_marker("unrouted") is None

    def make(**kwargs: Any) -> BrowserContext:
        context = new_context(**kwargs)
        guard.watch_context(context, route=route)
        PAGES.watch(context, origin_of(guard.site_url))
        return context

    return make


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    browser_guard = getattr(item, "funcargs", {}).get("guard")
    if not isinstance(browser_guard, BrowserGuard):
        return (yield)
    try:
        result = yield
    except BaseException as exc:
        browser_guard.flush()
        if browser_guard.problems:
            exc.add_note(browser_guard.report())
        raise
    browser_guard.flush()
    if browser_guard.problems:
        pytest.fail(browser_guard.report(), pytrace=False)
    return result


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def open_app(page: Page, site_url: str, guard: BrowserGuard) -> Callable[..., Page]:
    """``open_app("?size=5")`` opens index.html (+ query) and waits for ``data-ready="1"``
    (an embed's query gets ``start=now``: :func:`helpers.eager`).

    Fails early, with the reasons, if the page reports errors while booting.
    """

    def open_(query: str = "", *, path: str = "index.html", on: Page | None = None) -> Page:
        target = on or page
        url = site_url + path + eager(query)  # (an embed: start=now)
        if not _start_in_place(target, url, site_url):
            target.goto(url)
        _wait_ready(target, guard)
        return target

    return open_


def _start_in_place(page: Page, url: str, site_url: str) -> bool:
    """Start the app of a kept page again on ``url`` without a navigation (sos/web/testing.py),
    where the page shows the app with its tests' hook and ``url`` is not an embed; False where
    it must navigate."""
    kept = getattr(page, "_sos_kept", None)
    if kept is None or kept.sticky or os.environ.get("SOS_E2E_FRESH"):
        return False  # (an init script, a clock, ... of the test apply from a navigation on)
    here = urlsplit(page.url)
    if origin_of(page.url) != origin_of(site_url) or not here.path.endswith(("/", "index.html")):
        return False
    if "embed" in dict(parse_qsl(here.query)):
        return False
    if "embed=" in urlsplit(url).query or not urlsplit(url).path.endswith("index.html"):
        return False
    if not page.evaluate("() => Boolean(window.__sosTest && window.__sosTest.start)"):
        return False
    page.evaluate("(url) => window.__sosTest.start(url)", url)
    PAGES.in_place += 1
    return True


def _wait_ready(
    page: Page, guard: BrowserGuard | None = None, timeout_ms: int = BOOT_TIMEOUT_MS
) -> float:
    """Wait for ``html[data-ready="1"]``, returning the seconds waited.

    Polls in short slices so that a boot failure reported to the guard fails the test at once
    instead of after the full timeout.
    """
    ready = page.locator(READY_SELECTOR)
    start = time.monotonic()
    while True:
        try:
            ready.wait_for(state="attached", timeout=250)
            return time.monotonic() - start
        except pw.TimeoutError:
            pass
        if guard is not None and guard.problems:
            pytest.fail(f"page did not get ready; {guard.report()}", pytrace=False)
        if (time.monotonic() - start) * 1000 >= timeout_ms:
            pytest.fail(
                f"{READY_SELECTOR} not reached within {timeout_ms / 1000:.0f} s", pytrace=False
            )


@pytest.fixture(name="wait_ready")
def wait_ready_fixture(guard: BrowserGuard) -> Callable[..., float]:
    """``wait_ready(page, timeout_ms=60_000)`` -> seconds until ``data-ready="1"`` (guarded)."""
    return functools.partial(_wait_ready, guard=guard)


@pytest.fixture
def embed(
    page: Page,
    site_url: str,
    tmp_path: Path,
    static_server: Callable[..., str],
    guard: BrowserGuard,
) -> EmbedHost:
    """``frame, game = embed.open("?size=4&embed=1", width=320, height=420)``: the app in an
    iframe of a host page served from another origin (helpers.EmbedHost)."""
    return EmbedHost(page, site_url, tmp_path, static_server, guard)


@pytest.fixture
def shot() -> Callable[[Page, str], Path]:
    """``shot(page, "board-5x5")`` saves test-results/board-5x5.png and returns its path."""

    def save(page: Page, name: str) -> Path:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        return path

    return save


# --------------------------------------------------------------------------- page starts


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker writes its :data:`PAGES` counts for the summary (pytest-xdist runs a session a
    worker; the controller adds them up)."""
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    if PAGES.loads or PAGES.in_place:
        RESULTS.mkdir(parents=True, exist_ok=True)
        counts = {"loads": PAGES.loads, "first": PAGES.first_visits, "in_place": PAGES.in_place}
        (RESULTS / f"page-starts-{worker}.json").write_text(json.dumps(counts))


