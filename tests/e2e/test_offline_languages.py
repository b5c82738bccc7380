"""Every language offline (issue 43, item 6): the service worker precaches every catalog, so a
language never shown before can be chosen offline and the page shows it.

Unrouted, as tests/e2e/test_offline.py (a Playwright route changes how Chromium serves requests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sos.app.text.i18n import LANGUAGES, text

pytestmark = pytest.mark.unrouted


def cached_catalogs(page: Page) -> set[str]:
    """The languages whose catalog (``static/vendor/i18n/<lang>.mo.gz``) is in the precache."""
    found: list[str] = page.evaluate(
        """async () => {
             const out = [];
             for (const name of await caches.keys()) {
               if (!name.includes("precache")) continue;
               const cache = await caches.open(name);
               for (const request of await cache.keys()) {
                 const hit = request.url.match(/static\\/vendor\\/i18n\\/(\\w+)\\.mo\\.gz/);
                 if (hit) out.push(hit[1]);
               }
             }
             return out;
           }"""
    )
    return set(found)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_a_language_chosen_offline_is_shown(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
    size: tuple[int, int],
) -> None:
    context = new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(site_url + "index.html?size=5")
    wait_ready(page)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
    wanted = {lang for lang in LANGUAGES if lang != "en"}
    deadline = time.monotonic() + 90  # (Cache Storage is read through a promise: polled)
    while cached_catalogs(page) != wanted and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert cached_catalogs(page) == wanted, "every catalog is precached"

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-lang").select_option("tr")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.get_by_test_id("new-game")).to_have_text(text("tr", "button.new_game"))
    expect(page.get_by_test_id("settings-start")).to_have_text(text("tr", "settings.start"))
    shot(page, f"offline-language-tr-{size[0]}")
    assert not [line for line in console if "no catalog" in line], console
    context.set_offline(False)
