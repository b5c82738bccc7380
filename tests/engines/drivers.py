"""One small page-driver interface over three browser engines, for the cross-engine tests.

=========  ==========================================  =========================================
engine     browser (Debian package)                    client
=========  ==========================================  =========================================
chromium   ``chromium`` (Blink), headless              Playwright (the suite's own client, CDP)
firefox    ``firefox-esr`` (Gecko), headless           WebDriver BiDi over a websocket, with
                                                       Selenium's BiDi connection (PyPI)
webkit     ``webkit2gtk-driver`` (WebKitGTK: Safari's  Selenium's WebKitGTK driver (classic
           engine; MiniBrowser), under our own Xvfb    WebDriver through ``WebKitWebDriver``)
=========  ==========================================  =========================================

Why these clients: Debian packages no geckodriver and nothing may be downloaded from outside the
package registries, so Firefox is driven through the WebDriver BiDi server it has built in
(``--remote-debugging-port``). Selenium's ``WebSocketConnection`` speaks that protocol from
Python, in the same pytest process as the other tests, and Selenium is needed for WebKitGTK anyway;
puppeteer-core (npm) would drive Firefox as well but from Node, so every step of a test would
cross a process boundary. Playwright cannot drive Debian's Firefox or WebKitGTK (it needs its own
patched builds, which it downloads).

A :class:`Profile` is one browser profile with one page (its own storage, service worker and
caches): a Playwright context (Chromium), a BiDi user context (Firefox) or a MiniBrowser of its own
(WebKitGTK: an automation session is ephemeral, so each has empty storage). Every page action is
the same call in the three engines: :meth:`Profile.call` runs a JavaScript function (source text)
with JSON arguments and returns its awaited JSON result; clicks and keys are real input events of
the engine's automation (not ``element.click()``).
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The engines in the order the suite runs them.
ENGINES = ("chromium", "firefox", "webkit")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get(
    "MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
)
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"

#: What each engine needs, and the Debian package that brings it.
NEEDS = {
    "chromium": ((CHROMIUM, "chromium"),),
    "firefox": ((FIREFOX, "firefox-esr"),),
    "webkit": (
        (WEBKIT_DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "webkit2gtk-driver"), (XVFB, "xvfb")
    ),
}

#: The flags of the suite's Chromium (tests/e2e/conftest.py), nothing leaves the machine.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
]  # fmt: skip

#: Firefox preferences on top of those its remote agent sets (``remote.prefs.recommended``):
#: no host name but the local ones resolves, and no service of Mozilla's is called.
FIREFOX_PREFS = {
    "network.dns.localDomains": "localhost",
    "network.proxy.type": 0,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "app.normandy.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "dom.serviceWorkers.testing.enabled": False,
}

#: WebDriver's code points of the keys the tests press (W3C WebDriver, "Keyboard actions").
KEYS = {
    "Enter": "\ue007", "Escape": "\ue00c", "Tab": "\ue004", "Home": "\ue011", "End": "\ue010",
    "ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014", "ArrowDown": "\ue015",
    "Control": "\ue009",
}  # fmt: skip


def missing(engine: str) -> list[str]:
    """What ``engine`` lacks on this machine: ``"path (package)"`` for each, empty if nothing."""
    return [f"{path} (Debian package {package})" for path, package in NEEDS[engine]
            if not os.access(path, os.X_OK)]  # fmt: skip


class EngineError(AssertionError):
    """A page action failed in the browser (its message says what the engine reported)."""


def _wrap(function: str) -> str:
    """``function`` (JS source of a function) called with the arguments of a JSON array; its
    awaited result comes back as JSON text (``undefined`` as ``null``)."""
    return (
        "async (json) => { const value = await (" + function + ")(...JSON.parse(json));"
        " return JSON.stringify(value === undefined ? null : value); }"
    )


class Profile:
    """One browser profile with one page. Subclasses implement the engine's primitives."""

    engine = ""

    # -- primitives (one per engine)
    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        """Reload the page and wait for its ``load`` event."""
        raise NotImplementedError

    def call(self, function: str, *args: Any) -> Any:
        """Run JavaScript ``function`` (source) with ``args`` (JSON); its awaited result."""
        raise NotImplementedError

    def click(self, selector: str) -> None:
        """A real mouse click at the centre of the first element matching ``selector``."""
        raise NotImplementedError

    def press(self, key: str) -> None:
        """Press and release ``key`` (a character or a name of :data:`KEYS`)."""
        raise NotImplementedError

    def screenshot(self) -> bytes:
        """The viewport as PNG bytes (device pixels)."""
        raise NotImplementedError

    def resize(self, width: int, height: int) -> tuple[int, int]:
        """Ask for a viewport of ``width`` × ``height`` CSS px; returns the one obtained."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- built on them
    def wait_for(
        self, function: str, *args: Any, timeout: float = 60, what: str = ""
    ) -> Any:
        """Call ``function`` until its result is truthy (every 100 ms), and return it; fail
        with ``what`` (or the function) after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while True:
            try:
                last = self.call(function, *args)
            except EngineError as error:  # a navigation under way destroys the context
                last = f"error: {error}"
            else:
                if last:
                    return last
            if time.monotonic() > deadline:
                raise EngineError(f"[{self.engine}] not within {timeout:.0f} s: "
                                  f"{what or function} (last: {last!r})")
            time.sleep(0.1)

    def ready(self, timeout: float = 240) -> float:
        """Wait for ``html[data-ready="1"]``, failing at once on a boot error; seconds waited.

        The page's own report of a slow start (no ``data-ready`` 30 s after the runtime
        started, static/boot-error.js) is not an error here: on a loaded machine a first visit
        in WebKit takes longer, and the page drops that report when the game is up."""
        start = time.monotonic()
        state = self.wait_for(
            """() => { const html = document.documentElement;
              if (html.dataset.ready === '1') return 'ready';
              const box = document.querySelector('[data-testid=boot-error]');
              if (html.dataset.boot === 'failed' && box
                  && !box.textContent.includes('no data-ready after'))
                return 'failed: ' + box.textContent;
              return null; }""",
            timeout=timeout, what='html[data-ready="1"]',
        )  # fmt: skip
        if state != "ready":
            raise EngineError(f"[{self.engine}] the game did not start: {state}")
        return time.monotonic() - start

    def open(self, url: str, timeout: float = 240) -> float:
        self.goto(url)
        return self.ready(timeout)

    def text(self, selector: str) -> str | None:
        return self.call(
            "(s) => { const e = document.querySelector(s); return e ? e.textContent : null; }",
            selector,
        )  # type: ignore[no-any-return]

    def attr(self, selector: str, name: str) -> str | None:
        return self.call(  # type: ignore[no-any-return]
            "(s, n) => { const e = document.querySelector(s);"
            " return e ? e.getAttribute(n) : null; }",
            selector, name,
        )  # fmt: skip

    def count(self, selector: str) -> int:
        return int(self.call("(s) => document.querySelectorAll(s).length", selector))

    def visible(self, selector: str) -> bool:
        return bool(self.call(
            """(s) => { const e = document.querySelector(s);
              if (!e) return false; const r = e.getBoundingClientRect();
              return r.width > 0 && r.height > 0
                && getComputedStyle(e).visibility !== 'hidden'; }""",
            selector,
        ))  # fmt: skip

    def wait_text(
        self, selector: str, expected: str, timeout: float = 60, contains: bool = False
    ) -> None:
        """Wait until the text of ``selector`` is ``expected`` (or contains it)."""
        self.wait_for(
            """(s, t, c) => { const e = document.querySelector(s);
              if (!e) return false; const x = e.textContent.trim();
              return c ? x.includes(t) : x === t; }""",
            selector, expected, contains, timeout=timeout,
            what=f"{selector} {'contains' if contains else 'is'} {expected!r} "
            f"(now {self.text(selector)!r})",
        )  # fmt: skip

    def wait_visible(self, selector: str, timeout: float = 60) -> None:
        self.wait_for(
            """(s) => { const e = document.querySelector(s); if (!e) return false;
              const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; }""",
            selector, timeout=timeout, what=f"{selector} visible",
        )  # fmt: skip

    def cell(self, row: int, col: int, board: str = "#board") -> str:
        return f'{board} button.cell[data-row="{row}"][data-col="{col}"]'

    def write(self, row: int, col: int, letter: str, timeout: float = 60) -> None:
        """Choose ``letter`` with its button, click square (row, col), wait for the letter."""
        self.click(f'[data-testid="letter-{letter}"]')
        self.click(self.cell(row, col))
        self.wait_text(self.cell(row, col), letter, timeout=timeout)

    def foreign_requests(self) -> list[str]:
        """Every resource the page loaded from another origin than its own (Resource Timing)."""
        return self.call(  # type: ignore[no-any-return]
            """() => performance.getEntriesByType('resource').map(e => e.name)
              .filter(u => !u.startsWith(location.origin + '/')
                && !/^(data|blob|about):/.test(u))"""
        )


# --------------------------------------------------------------------------- Chromium


class ChromiumProfile(Profile):
    """A Playwright browser context with one page."""

    engine = "chromium"

    def __init__(self, browser: Any, width: int, height: int, scale: float) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=scale
        )
        self.page = self.context.new_page()

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="load", timeout=120_000)

    def reload(self) -> None:
        self.page.reload(wait_until="load", timeout=120_000)

    def call(self, function: str, *args: Any) -> Any:
        from playwright.sync_api import Error

        try:
            return json.loads(self.page.evaluate(_wrap(function), json.dumps(args)))
        except Error as error:
            raise EngineError(f"[chromium] {error.message.splitlines()[0]}") from None

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click(timeout=60_000)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def screenshot(self) -> bytes:
        return bytes(self.page.screenshot(animations="disabled"))

    def resize(self, width: int, height: int) -> tuple[int, int]:
        self.page.set_viewport_size({"width": width, "height": height})
        return width, height

    def close(self) -> None:
        self.context.close()


class Chromium:
    """Debian's Chromium through Playwright (``playwright``: the session's Playwright)."""

    name = "chromium"

    def __init__(self, playwright: Any) -> None:
        self.browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        self.version = f"chromium {self.browser.version}"

    def profile(self, width: int = 1280, height: int = 800, scale: float = 1) -> Profile:
        return ChromiumProfile(self.browser, width, height, scale)

    def close(self) -> None:
        self.browser.close()


# --------------------------------------------------------------------------- Firefox


class FirefoxProfile(Profile):
    """A BiDi user context (its own cookies, storage, caches and service workers) with one tab."""

    engine = "firefox"

    def __init__(self, firefox: Firefox, width: int, height: int, scale: float) -> None:
        self.firefox = firefox
        self.user_context = firefox.send("browser.createUserContext", {})["userContext"]
        self.context = firefox.send(
            "browsingContext.create", {"type": "tab", "userContext": self.user_context}
        )["context"]
        self.scale = scale
        self.resize(width, height)

    def goto(self, url: str) -> None:
        self.firefox.send(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def reload(self) -> None:
        self.firefox.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def call(self, function: str, *args: Any) -> Any:
        reply = self.firefox.send(
            "script.callFunction",
            {
                "functionDeclaration": _wrap(function),
                "arguments": [{"type": "string", "value": json.dumps(args)}],
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        if reply.get("type") == "exception":
            details = reply["exceptionDetails"]
            raise EngineError(f"[firefox] {details.get('text', details)}")
        return json.loads(reply["result"]["value"])

    def _centre(self, selector: str) -> tuple[int, int]:
        """The centre of ``selector``'s element once it is where a click lands, as Playwright
        waits before its clicks: the same box in two animation frames running, and the element
        (or a child) the one hit at its centre. A click sent while the page still moves (e.g.
        the result card going after Undo) can press on one element and release on another:
        no click at all (a fresh-clone CI lost Firefox's Redo so)."""
        box = self.wait_for(
            """async (s) => { const e = document.querySelector(s); if (!e) return 'none';
              e.scrollIntoView({block: 'nearest', inline: 'nearest'});
              const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
              await frame();
              const a = e.getBoundingClientRect();
              await frame();
              const r = e.getBoundingClientRect();
              if (a.left !== r.left || a.top !== r.top || a.width !== r.width
                  || a.height !== r.height) return null;
              const x = r.left + r.width / 2, y = r.top + r.height / 2;
              const hit = document.elementFromPoint(x, y);
              return hit && (hit === e || e.contains(hit)) ? [x, y] : null; }""",
            selector,
            what=f"{selector} at rest and the one hit at its centre",
        )
        if box == "none":
            raise EngineError(f"[firefox] no element {selector}")
        return int(box[0]), int(box[1])

    def click(self, selector: str) -> None:
        x, y = self._centre(selector)
        self.firefox.send("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}],
        }]})  # fmt: skip

    def press(self, key: str) -> None:
        value = KEYS.get(key, key)
        self.firefox.send("input.performActions", {"context": self.context, "actions": [{
            "type": "key", "id": "keyboard",
            "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}],
        }]})  # fmt: skip

    def screenshot(self) -> bytes:
        data = self.firefox.send(
            "browsingContext.captureScreenshot", {"context": self.context, "origin": "viewport"}
        )["data"]
        return base64.b64decode(data)

    def resize(self, width: int, height: int) -> tuple[int, int]:
        self.firefox.send("browsingContext.setViewport", {
            "context": self.context, "viewport": {"width": width, "height": height},
            "devicePixelRatio": self.scale,
        })  # fmt: skip
        return width, height

    def close(self) -> None:
        self.firefox.send("browsingContext.close", {"context": self.context})
        self.firefox.send("browser.removeUserContext", {"userContext": self.user_context})


class Firefox:
    """Debian's Firefox ESR, headless, with a new profile folder, driven over WebDriver BiDi."""

    name = "firefox"

    def __init__(self, timeout: float = 180) -> None:
        from selenium.webdriver.remote.websocket_connection import WebSocketConnection

        self.folder = Path(tempfile.mkdtemp(prefix="sos-firefox-"))
        (self.folder / "user.js").write_text(
            "".join(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n"
                    for key, value in FIREFOX_PREFS.items()),
            encoding="utf-8",
        )  # fmt: skip
        self.log = (self.folder / "firefox.log").open("w+b")
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", str(self.folder),
             "--remote-debugging-port=0", "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
        )  # fmt: skip
        url = self._listening(timeout)
        self.connection = WebSocketConnection(url + "/session", timeout, 0.005)
        caps = self.send("session.new", {"capabilities": {}})["capabilities"]
        self.version = f"{caps['browserName']} {caps['browserVersion']}"

    def _listening(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.log.seek(0)
            for line in self.log.read().decode(errors="replace").splitlines():
                if line.startswith("WebDriver BiDi listening on "):
                    return line.rsplit(" ", 1)[1]
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.close()
        raise EngineError("Firefox's WebDriver BiDi server did not start")

    def send(self, method: str, params: dict[str, Any]) -> Any:
        reply = self.connection.send_cmd(method, params)
        if reply.get("type") == "error" or "error" in reply:
            raise EngineError(f"[firefox] {method}: {reply.get('error')}: {reply.get('message')}")
        return reply["result"]

    def profile(self, width: int = 1280, height: int = 800, scale: float = 1) -> Profile:
        return FirefoxProfile(self, width, height, scale)

    def close(self) -> None:
        try:
            if getattr(self, "connection", None) is not None:
                self.connection.send_cmd("browser.close", {})
                self.connection.close()
        except Exception:  # closing anyway
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


# --------------------------------------------------------------------------- WebKitGTK


class WebKitProfile(Profile):
    """A MiniBrowser of its own (an automation session: ephemeral storage), one window."""

    engine = "webkit"

    def __init__(self, webkit: WebKit, width: int, height: int) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(
            executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": webkit.display}
        )
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        webkit.version = f"WebKitGTK {self.driver.capabilities.get('browserVersion', '?')}"
        self.driver.set_script_timeout(180)
        self.driver.set_page_load_timeout(180)
        self.resize(width, height)

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def call(self, function: str, *args: Any) -> Any:
        from selenium.common.exceptions import WebDriverException

        script = (
            "const done = arguments[arguments.length - 1];"
            "(" + _wrap(function) + ")(arguments[0]).then(done,"
            " (e) => done(JSON.stringify({__sosError: String(e && e.stack || e)})));"
        )
        try:
            text = self.driver.execute_async_script(script, json.dumps(args))
        except WebDriverException as error:
            raise EngineError(f"[webkit] {error.msg}") from None
        value = json.loads(text)
        if isinstance(value, dict) and "__sosError" in value:
            raise EngineError(f"[webkit] {value['__sosError']}")
        return value

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(KEYS.get(key, key)).perform()

    def screenshot(self) -> bytes:
        return bytes(self.driver.get_screenshot_as_png())

    def resize(self, width: int, height: int) -> tuple[int, int]:
        """The window is the viewport plus MiniBrowser's toolbar; a GTK window is no narrower
        than its toolbar (447 px here), so a phone's 390 px gets that width."""
        self.driver.set_window_size(width, height)
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        self.driver.set_window_size(width, height + (height - inner[1]))
        got = self.driver.execute_script("return [innerWidth, innerHeight]")
        return int(got[0]), int(got[1])

    def close(self) -> None:
        self.driver.quit()


class WebKit:
    """WebKitGTK's MiniBrowser under an Xvfb display this object starts (and stops)."""

    name = "webkit"

    def __init__(self) -> None:
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            self.xvfb.kill()
            raise EngineError("Xvfb did not start")
        self.display = ":" + number.decode().strip()
        self.version = "WebKitGTK"  # + the version the first session reports


    def profile(self, width: int = 1280, height: int = 800, scale: float = 1) -> Profile:
        return WebKitProfile(self, width, height)

    def close(self) -> None:
        self.xvfb.terminate()
        try:
            self.xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.xvfb.kill()


Engine = Chromium | Firefox | WebKit


# --------------------------------------------------------------------------- the site

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """A static server of the repository on 127.0.0.1 that logs every request path and sends
    ``Cache-Control: no-cache`` (so that a page served while the server is down came from the
    service worker, not from the HTTP cache). :meth:`stop` takes the site off the network."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        #: (path, status) of every answer, in the order sent
        self.sent: list[tuple[str, int]] = []
        log, sent = self.paths, self.sent

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {  # noqa: RUF012 - the stdlib handler's class attribute
                **http.server.SimpleHTTPRequestHandler.extensions_map,
                ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                ".json": "application/json", ".css": "text/css", ".html": "text/html",
                ".py": "text/x-python", ".toml": "application/toml", ".zip": "application/zip",
                ".svg": "image/svg+xml", ".webmanifest": "application/manifest+json",
            }  # fmt: skip

            def end_headers(self) -> None:
                self.send_header("Cache-Control", "no-cache")
                super().end_headers()

            def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
                log.append(self.path)
                try:
                    status = int(code)
                except (TypeError, ValueError):
                    status = 0
                sent.append((self.path, status))

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Quiet(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass

        self.httpd = Quiet(("127.0.0.1", 0), functools.partial(Handler, directory=str(ROOT)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.origin = self.url.rstrip("/")
        threading.Thread(target=self.httpd.serve_forever, name="engines-http", daemon=True).start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.running = False



def launch(name: str, playwright: Callable[[], Any]) -> Engine:
    """Start engine ``name``; ``playwright`` gives the session's Playwright (Chromium only)."""
    if name == "chromium":
        return Chromium(playwright())
    if name == "firefox":
        return Firefox()
    if name == "webkit":
        return WebKit()
    raise ValueError(f"unknown engine {name!r}: one of {', '.join(ENGINES)}")


@contextmanager
def launched(names: Sequence[str]) -> Iterator[dict[str, Engine]]:
    """The engines ``names`` started, one Playwright for the Chromium one, all closed on leaving.

    For the benchmarks: raises ``SystemExit`` naming what an engine lacks (``scripts/test.sh
    --setup`` installs it) before any starts."""
    for name in names:
        if missing(name):
            raise SystemExit(f"{name}: missing {missing(name)} (scripts/test.sh --setup)")
    playwright: Any = None

    def get_playwright() -> Any:
        nonlocal playwright
        if playwright is None:
            from playwright.sync_api import sync_playwright

            playwright = sync_playwright().start()
        return playwright

    engines: dict[str, Engine] = {}
    try:
        for name in names:
            engines[name] = launch(name, get_playwright)
        yield engines
    finally:
        for engine in engines.values():
            engine.close()
        if playwright is not None:
            playwright.stop()


def rotation(names: Sequence[str], runs: int) -> Iterator[tuple[int, str]]:
    """``(run, engine)`` for ``runs`` runs of every engine, the first engine of each run moved on
    by one (so that no engine always goes first, on a machine still busy with the one before)."""
    for run in range(runs):
        shift = run % len(names)
        for name in [*names[shift:], *names[:shift]]:
            yield run, name
