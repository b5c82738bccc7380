"""Small page helpers shared by the browser tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Frame, FrameLocator, Locator, Page, expect


def eager(query: str) -> str:
    """``query`` (``"?size=4&embed=1"``) with ``start=now`` when it opens an embed without a
    ``start``: an embed otherwise starts the game only at its reader's first tap
    (docs/embedding.md), so a test that waits for ``data-ready`` without tapping asks for the
    eager start. ``open_app`` and ``EmbedHost.open`` apply it."""
    from urllib.parse import parse_qs

    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    if params.get("embed", [""])[-1] in ("1", "true") and "start" not in params:
        return query + ("&" if query.strip("?") else "?") + "start=now"
    return query


def cell(page: Page, row: int, col: int) -> Locator:
    """The button of square (row, col), both from 0."""
    return page.locator(f'button.cell[data-row="{row}"][data-col="{col}"]')


def write(page: Page, row: int, col: int, letter: str) -> None:
    """Choose ``letter`` with its button, click square (row, col) and wait for the letter."""
    page.get_by_test_id(f"letter-{letter}").click()
    cell(page, row, col).click()
    expect(cell(page, row, col)).to_have_text(letter)


def wait_saved(page: Page, line: str, game_id: str | None = None, timeout: float = 15_000) -> None:
    """Wait until a saved game (``sos-g:<game_id>``, or any when ``None``) holds move line ``line``.

    Saves run under a Web Lock (:func:`sos.web.store.with_lock`), so they land a task after the
    move is drawn: a test reading storage right after a move must wait for them."""
    page.wait_for_function(
        """([id, line]) => Object.keys(localStorage)
              .filter(k => id === null ? k.startsWith('sos-g:') : k === 'sos-g:' + id)
              .some(k => { try { return JSON.parse(localStorage.getItem(k)).line === line; }
                           catch (e) { return false; } })""",
        arg=[game_id, line],
        timeout=timeout,
    )


#: True once no finite animation (CSS animation or transition, e.g. the SOS marks' draw-in)
#: is running; endless ones (a "thinking" indicator) do not count.
ANIMATIONS_DONE = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect === null || a.effect.getComputedTiming().endTime === Infinity)"""


def settle(page: Page, timeout: float = 10_000) -> None:
    """Wait until the page's finite animations have ended (instead of a fixed pause), then
    for two frames (resize observers and layout after a change of the window's size)."""
    page.wait_for_function(ANIMATIONS_DONE, timeout=timeout)
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


#: Expose PyScript's interpreter as ``window.__py`` (the same module instance the page loaded).
GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""


def computer_pause(page: Page, seconds: float) -> None:
    """Set the page's visible pause before each computer move (``sos.web.computer.
    COMPUTER_PAUSE``, 0.45 s) from outside, through PyScript's handle on the interpreter."""
    page.evaluate(GRAB_INTERPRETER)
    page.evaluate(
        f"__py.runPython('import sos.web.computer; sos.web.computer.COMPUTER_PAUSE = {seconds!r}')"
    )


def no_computer_pause(page: Page) -> None:
    """No visible pause before computer moves: for tests about what the computer plays rather
    than its pace."""
    computer_pause(page, 0)


class CpuTrace:
    """Main-thread tasks of a page with their **CPU** time, from the DevTools protocol's tracing.

    Wall time (a ``longtask`` entry's duration) includes the time the renderer was descheduled
    on a loaded machine; ``tdur`` of a trace event is the thread's CPU time. Each top-level
    ``RunTask`` on the renderer's main thread (``CrRendererMain``) is one task.

    Use: ``trace = CpuTrace(page); ...; tasks_ms = trace.stop()``. ``user_timing``: also record
    the page's ``performance.mark`` calls (in :attr:`events` after :meth:`stop`).
    """

    CATEGORIES = ("disabled-by-default-devtools.timeline", "devtools.timeline", "toplevel")

    def __init__(self, page: Page, user_timing: bool = False) -> None:
        self.session = page.context.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.main_thread: set[tuple[int, int]] = set()  # (pid, tid) of CrRendererMain
        self.done = False
        self.session.on("Tracing.dataCollected", lambda params: self.events.extend(params["value"]))
        self.session.on("Tracing.tracingComplete", lambda _params: setattr(self, "done", True))
        self.session.send(
            "Tracing.start",
            {
                "transferMode": "ReportEvents",
                "traceConfig": {
                    "includedCategories": [
                        *self.CATEGORIES, *(["blink.user_timing"] if user_timing else [])
                    ],
                    "excludedCategories": ["*"],
                    "recordMode": "recordContinuously",
                },
            },
        )

    def stop(self, page: Page) -> list[tuple[float, float]]:
        """End the trace; ``(cpu_ms, wall_ms)`` of every main-thread task, longest CPU first."""
        self.session.send("Tracing.end")
        deadline = time.monotonic() + 120  # (a bound for a lost trace, not a verdict)
        while not self.done and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright dispatch the protocol events
        assert self.done, "the trace did not complete"
        main = {
            (e["pid"], e["tid"])
            for e in self.events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"
        }
        # A thread cannot spend more CPU than the time that passed: a tdur over dur (seen once
        # in CI: 65 ms "CPU" in a 25 ms task, on an idle machine) is the thread clock's error,
        # so a task's CPU is counted as at most its wall time.
        tasks = [
            (min(e["tdur"], e["dur"]) / 1000, e["dur"] / 1000)
            for e in self.events
            if e.get("ph") == "X" and e.get("name") == "RunTask"
            and (e["pid"], e["tid"]) in main and "tdur" in e
        ]
        self.session.detach()
        self.main_thread = main
        return sorted(tasks, reverse=True)


#: A blog post with the app in an iframe; ``window.received`` collects the messages it posts.
HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>A blog post</title><link rel="icon" href="data:,">
<style>body{{margin:16px;font:16px sans-serif}}
iframe{{border:1px solid #888;display:block}}</style>
</head><body>
<p>A blog post about SOS.</p>
<iframe id="game" src="{src}" width="{width}" height="{height}" title="SOS"></iframe>
<script>
  window.received = [];
  window.addEventListener("message", (event) => {{
    window.received.push({{origin: event.origin, data: event.data}});
  }});
</script>
</body></html>
"""


class EmbedHost:
    """The app embedded in someone else's page (the ``embed`` fixture of conftest.py).

    :meth:`open` writes a host page (:data:`HOST_PAGE`) with the app in an iframe of the given
    size, serves it from a second local server -- on 127.0.0.1 (another port: cross-origin,
    same site) or on ``localhost`` (cross-site to the app on 127.0.0.1) -- sizes the browser
    window to the frame plus a margin, opens the page and waits until the app in the frame is
    ready. :attr:`url` is the host page's address.
    """

    def __init__(
        self,
        page: Page,
        site_url: str,
        folder: Path,
        static_server: Callable[..., str],
        guard: Any,
    ) -> None:
        self.page = page
        self.site_url = site_url
        self.folder = folder
        self.static_server = static_server
        self.guard = guard
        self.url = ""

    def open(
        self,
        query: str,
        *,
        width: int = 320,
        height: int = 420,
        url_host: str = "127.0.0.1",
        ready: bool = True,
    ) -> tuple[Frame, FrameLocator]:
        """Open a host page framing ``index.html`` + ``query`` (e.g. ``"?size=4&embed=1"``);
        returns the app's frame (to evaluate in) and a locator scope inside it. ``ready``:
        the query gets ``start=now`` (:func:`eager`) and the app is waited for; otherwise the
        query is taken as it is and only the frame's document is waited for."""
        app = f"{self.site_url}index.html{eager(query) if ready else query}"
        (self.folder / "index.html").write_text(
            HOST_PAGE.format(src=app, width=width, height=height), encoding="utf-8"
        )
        host = self.static_server(self.folder, url_host=url_host)
        self.guard.allow_origin(host)
        self.url = host + "index.html"
        self.page.set_viewport_size({"width": width + 100, "height": height + 200})
        self.page.goto(self.url)
        handle = self.page.locator("#game").element_handle()
        assert handle is not None
        frame = handle.content_frame()
        assert frame is not None
        game = self.page.frame_locator("#game")
        if ready:
            game.locator('html[data-ready="1"]').wait_for(state="attached", timeout=60_000)
        else:
            game.locator("#board button.cell").first.wait_for(state="attached")
        return frame, game

    def wait_messages(self, count: int, shown: bool = False) -> list[dict[str, Any]]:
        """Wait until at least ``count`` of the messages :meth:`messages` returns (the same
        filter: ``sos:shown`` left out unless ``shown``) have arrived; returns them."""
        self.page.wait_for_function(
            """([count, shown]) => window.received.filter((m) =>
                 m.data !== null && typeof m.data === "object" && m.data.source === "sos-game"
                 && (shown || m.data.type !== "sos:shown")).length >= count""",
            arg=[count, shown],
        )
        return self.messages(shown)

    def messages(self, shown: bool = False) -> list[dict[str, Any]]:
        """The messages the app posted to the host page (``source: "sos-game"``), in order;
        without the ``sos:shown`` every embed posts first unless ``shown``."""
        got: list[dict[str, Any]] = self.page.evaluate("window.received")
        return [
            m for m in got
            if isinstance(m["data"], dict) and m["data"].get("source") == "sos-game"
            and (shown or m["data"].get("type") != "sos:shown")
        ]
