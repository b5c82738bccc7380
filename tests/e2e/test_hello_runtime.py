"""Smoke test of the vendored runtime: a hello-world PyScript page boots from our origin alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page


def test_hello_page_boots_from_own_origin(
    page: Page,
    site_url: str,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
) -> None:
    page.goto(site_url + "benchmarks/hello/index.html")
    wait_ready(page)
    seconds = page.evaluate("performance.now()") / 1000
    text = page.locator("#out").text_content() or ""
    assert text.startswith("Hello from Python 3."), text
    print(f"hello page ready {seconds:.2f} s after navigation start; {text}")
    shot(page, "hello-runtime")
