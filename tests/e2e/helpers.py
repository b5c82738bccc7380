"""Small page helpers shared by the browser tests."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Locator, Page, expect


def cell(page: Page, row: int, col: int) -> Locator:
    """The button of square (row, col), both from 0."""
    return page.locator(f'button.cell[data-row="{row}"][data-col="{col}"]')


def write(page: Page, row: int, col: int, letter: str) -> None:
    """Choose ``letter`` with its button, click square (row, col) and wait for the letter."""
    page.get_by_test_id(f"letter-{letter}").click()
    cell(page, row, col).click()
    expect(cell(page, row, col)).to_have_text(letter)


class CpuTrace:
    """Main-thread tasks of a page with their **CPU** time, from the DevTools protocol's tracing.

    Wall time (a ``longtask`` entry's duration) includes the time the renderer was descheduled
    on a loaded machine; ``tdur`` of a trace event is the thread's CPU time. Each top-level
    ``RunTask`` on the renderer's main thread (``CrRendererMain``) is one task.

    Use: ``trace = CpuTrace(page); ...; tasks_ms = trace.stop()``.
    """

    CATEGORIES = ("disabled-by-default-devtools.timeline", "devtools.timeline", "toplevel")

    def __init__(self, page: Page) -> None:
        self.session = page.context.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.done = False
        self.session.on("Tracing.dataCollected", lambda params: self.events.extend(params["value"]))
        self.session.on("Tracing.tracingComplete", lambda _params: setattr(self, "done", True))
        self.session.send(
            "Tracing.start",
            {
                "transferMode": "ReportEvents",
                "traceConfig": {
                    "includedCategories": list(self.CATEGORIES),
                    "excludedCategories": ["*"],
                    "recordMode": "recordContinuously",
                },
            },
        )

    def stop(self, page: Page) -> list[tuple[float, float]]:
        """End the trace; ``(cpu_ms, wall_ms)`` of every main-thread task, longest CPU first."""
        self.session.send("Tracing.end")
        deadline = time.monotonic() + 30
        while not self.done and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright dispatch the protocol events
        assert self.done, "the trace did not complete"
        main = {
            (e["pid"], e["tid"])
            for e in self.events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"
        }
        tasks = [
            (e["tdur"] / 1000, e["dur"] / 1000)
            for e in self.events
            if e.get("ph") == "X" and e.get("name") == "RunTask"
            and (e["pid"], e["tid"]) in main and "tdur" in e
        ]
        self.session.detach()
        return sorted(tasks, reverse=True)
