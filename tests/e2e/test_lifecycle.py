"""Frozen, discarded and restored tabs (docs/reliability.md): a tab restored from the
back/forward cache (``pageshow`` with ``persisted``) or resumed after a freeze (``resume``)
shows the saved game when another tab or a link moved it on meanwhile, and loses nothing of its
own; a discarded tab reloads to the same game.

Playwright starts Chromium with ``--disable-back-forward-cache``; the bfcache test launches a
browser of its own without it, and checks that the page really was restored from the cache
(a value set on ``window`` before leaving is still there, and ``pageshow`` said
``persisted``). ``Page.setWebLifecycleState`` does nothing in headless Chromium, so the freeze
is staged (see its test)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator

import pytest
from helpers import wait_saved, write
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from conftest import CHROMIUM_ARGS, BrowserGuard

WRITTEN = "button.cell:has-text('S'), button.cell:has-text('O')"
READY = 'html[data-ready="1"]'


def game_id(page: Page) -> str:
    match = re.search(r"#g=([a-z0-9]+)", page.url)
    assert match, page.url
    return match.group(1)


def ready(page: Page) -> None:
    page.wait_for_selector(READY, timeout=60_000)


def stored_line(page: Page, game: str) -> str:
    raw = page.evaluate("(id) => localStorage.getItem('sos-g:' + id)", game)
    return str(json.loads(raw)["line"]) if raw else ""


#: A switch that makes a tab deaf to ``storage`` events, as a frozen tab is (it runs no task).
#: Chromium delivers on restore the events a page missed in the back/forward cache; the page
#: cannot count on that (a discarded event, another engine), so the bfcache test makes it deaf
#: too: the page must catch up by itself.
DEAF = """const add = window.addEventListener.bind(window);
window.addEventListener = (type, listener, ...rest) => add(type, type !== 'storage'
  ? listener : (event) => { if (!window.__frozen) listener(event); }, ...rest);"""


@pytest.fixture
def bfcache_browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium as the tests launch it, but with the back/forward cache on."""
    browser = playwright.chromium.launch(
        executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield browser
    browser.close()


def test_a_tab_restored_from_the_back_forward_cache_shows_the_moves_made_meanwhile(
    bfcache_browser: Browser, site_url: str, guard: BrowserGuard
) -> None:
    context = bfcache_browser.new_context()
    guard.watch_context(context, route=False)  # (routing keeps pages out of the cache)
    context.add_init_script(DEAF)
    one = context.new_page()
    one.goto(site_url + "index.html?size=4")
    ready(one)
    write(one, 0, 0, "S")
    write(one, 1, 1, "O")
    game = game_id(one)
    wait_saved(one, "Sa1Ob2", game)
    # A first visit makes the memory snapshot in a worker, under a Web Lock that the other
    # tab's start would contend for (which evicts a page from the cache): wait until it is made.
    one.wait_for_function(
        "() => ['made', 'failed', 'restored'].includes(document.documentElement.dataset.snapshot)"
        " && navigator.serviceWorker.controller",
        timeout=180_000,
    )
    one.evaluate(
        """() => { window.__before = 'kept'; window.__frozen = true;
                   addEventListener('pageshow', (e) => { window.__persisted = e.persisted; }); }"""
    )
    guard.allow_console_error(r"status of 404")  # (its favicon.ico, asked for by that page)
    one.goto(site_url + "static/manifest.webmanifest")  # the game goes into the cache

    # Meanwhile another tab (or a link to this game) moves it on.
    two = context.new_page()
    two.goto(site_url + "index.html#g=" + game)
    ready(two)
    expect(two.locator(WRITTEN)).to_have_count(2)
    write(two, 2, 3, "S")
    wait_saved(two, "Sa1Ob2Sd3", game)
    two.close()

    one.bring_to_front()
    one.go_back(wait_until="commit")  # restored from the cache: no load event
    one.wait_for_function("() => window.__persisted === true", timeout=30_000)
    assert one.evaluate("window.__before") == "kept"  # the same page, not a reload
    expect(one.locator(WRITTEN)).to_have_count(3)
    expect(one.get_by_test_id("status")).to_have_text("Player 2 to move")
    write(one, 3, 3, "O")  # and it plays on from there, losing nothing
    wait_saved(one, "Sa1Ob2Sd3Od4", game)
    context.close()


def test_a_frozen_tab_resumes_on_the_moves_made_meanwhile(
    new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    """Headless Chromium does not freeze a page (``Page.setWebLifecycleState`` changes nothing
    there: no ``freeze``, no ``resume``), so the freeze is staged: the tab hears no ``storage``
    event while "frozen" (as a frozen tab runs no task), then gets ``resume`` on its document,
    as Chromium fires it."""
    context = new_context()
    context.add_init_script(DEAF)
    one = context.new_page()
    one.goto(site_url + "index.html?size=4")
    ready(one)
    write(one, 0, 0, "S")
    write(one, 1, 1, "O")
    game = game_id(one)
    wait_saved(one, "Sa1Ob2", game)
    one.evaluate("document.dispatchEvent(new Event('freeze')); window.__frozen = true")

    two = context.new_page()
    two.goto(site_url + "index.html#g=" + game)
    ready(two)
    write(two, 2, 3, "S")
    wait_saved(two, "Sa1Ob2Sd3", game)
    two.close()

    one.bring_to_front()
    expect(one.locator(WRITTEN)).to_have_count(2)  # it heard nothing
    one.evaluate("window.__frozen = false; document.dispatchEvent(new Event('resume'))")
    expect(one.locator(WRITTEN)).to_have_count(3)
    expect(one.get_by_test_id("status")).to_have_text("Player 2 to move")
    write(one, 3, 3, "O")
    wait_saved(one, "Sa1Ob2Sd3Od4", game)
    assert stored_line(one, game) == "Sa1Ob2Sd3Od4"


def hold_the_lock(context: BrowserContext, site_url: str, guard: BrowserGuard) -> Page:
    """Another tab of the site that holds the library's lock until ``window.__release()``."""
    guard.allow_console_error(r"status of 404")  # (the file page's favicon.ico)
    other = context.new_page()
    other.goto(site_url + "static/manifest.webmanifest")
    other.evaluate(
        """() => { navigator.locks.request('sos-library',
                     () => new Promise((release) => { window.__release = release; })); }"""
    )
    other.wait_for_function(
        "() => navigator.locks.query().then((q) => q.held.some((l) => l.name === 'sos-library'))"
    )
    return other


def test_a_tab_that_freezes_with_a_save_waiting_makes_it_at_once(
    open_app: Callable[..., Page], context: BrowserContext, site_url: str, guard: BrowserGuard
) -> None:
    """A frozen tab may be discarded without another event: a save still waiting for the
    library's lock (another tab holds it) is made when the tab freezes."""
    one = open_app("?size=4")
    write(one, 0, 0, "S")
    game = game_id(one)
    wait_saved(one, "Sa1", game)
    other = hold_the_lock(context, site_url, guard)
    one.bring_to_front()
    write(one, 1, 1, "O")  # its save waits for the lock
    one.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert stored_line(one, game) == "Sa1"
    one.evaluate("document.dispatchEvent(new Event('freeze'))")  # (staged, as above)
    assert stored_line(one, game) == "Sa1Ob2"
    other.evaluate("window.__release()")
    other.close()


def test_a_move_whose_save_waits_is_kept_by_new_game_and_back(
    open_app: Callable[..., Page], context: BrowserContext, site_url: str, guard: BrowserGuard
) -> None:
    """A move's save waits for the library's lock (here another tab holds it; under load the
    lock alone takes that long); New game at once, then Back: the move is there. Before, the
    first game was left stored empty, pruned by the new one, and Back showed nothing (found by
    the CI of a fresh clone under load)."""
    one = open_app("?size=4")
    game = game_id(one)
    other = hold_the_lock(context, site_url, guard)
    one.bring_to_front()
    write(one, 0, 0, "S")  # its save waits for the lock
    one.get_by_test_id("new-game").click()
    expect(one.locator(WRITTEN)).to_have_count(0)
    assert game_id(one) != game
    one.go_back()
    expect(one.locator(WRITTEN)).to_have_count(1)
    assert game_id(one) == game and stored_line(one, game) == "Sa1"
    other.evaluate("window.__release()")
    other.close()
    one.go_forward()
    expect(one.locator(WRITTEN)).to_have_count(0)
    one.go_back()
    expect(one.locator(WRITTEN)).to_have_count(1)


def test_a_discarded_tab_reloads_to_the_same_game(
    open_app: Callable[..., Page], context: BrowserContext
) -> None:
    """A discarded tab keeps only its address; when it is shown again the browser loads it
    anew: the same game, with every move saved, including another tab's since."""
    one = open_app("?size=4")
    write(one, 0, 0, "S")
    write(one, 1, 1, "O")
    game = game_id(one)
    address = one.url
    wait_saved(one, "Sa1Ob2", game)
    one.close()  # discarded: nothing of the page is left but its address
    two = context.new_page()
    two.goto(address.split("#")[0].split("?")[0] + "#g=" + game)
    ready(two)
    write(two, 2, 3, "S")
    wait_saved(two, "Sa1Ob2Sd3", game)
    again = context.new_page()
    again.goto(address)  # the discarded tab shown again
    ready(again)
    assert game_id(again) == game
    expect(again.locator(WRITTEN)).to_have_count(3)
