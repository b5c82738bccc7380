"""Safari's seven-day limit said where it matters (issue 40, item 5): in a Safari-like context
(Chromium with Safari's user agent string, in a tab) "Your games" says that Safari deletes the
site's data after 7 days without a visit unless SOS is on the Home Screen, with **Export all
games** beside it, and the export holds the game; as a Home Screen app (``navigator.standalone``,
as iOS sets it there) it says what other browsers are told. Chromium's own user agent is not
told. The rule itself (which user agents, which display modes) is tested under CPython in
tests/app/test_keep.py; what WebKitGTK and a real iPhone show: docs/saves.md, "Safari's seven-day
limit"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import wait_saved, write
from playwright.sync_api import Page, expect

IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)
#: iOS sets ``navigator.standalone`` to true in a Home Screen app (false in a Safari tab).
HOME_SCREEN = """Object.defineProperty(Navigator.prototype, 'standalone',
  {get: () => true, configurable: true});"""
SEVEN_DAYS = "Safari deletes this site's data, your games included, after 7 days"


def open_safari(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    query: str,
    init_script: str | None = None,
) -> Page:
    context = new_context(
        user_agent=IPHONE_SAFARI, viewport={"width": 390, "height": 844}, accept_downloads=True
    )
    if init_script:
        context.add_init_script(init_script)
    page: Page = context.new_page()
    page.goto(site_url + "index.html" + query)
    wait_ready(page)
    return page


def test_safari_in_a_tab_is_told_of_the_seven_days_with_export_beside_it(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
) -> None:
    page = open_safari(new_context, site_url, wait_ready, "?size=3&mode=simple")
    assert page.evaluate("navigator.userAgent") == IPHONE_SAFARI
    for col, letter in enumerate("SOS"):
        write(page, 0, col, letter)
    wait_saved(page, "Sa1Ob1Sc1")
    page.get_by_test_id("games").click()
    keep = page.get_by_test_id("games-keep")
    expect(keep).to_contain_text(SEVEN_DAYS)
    expect(keep).to_contain_text("unless SOS is on your Home Screen")
    export = page.get_by_test_id("games-export")
    expect(export).to_be_visible()
    expect(export).to_be_enabled()
    # one tap away: the button is in view beside the notice, not below the list
    box, notice = export.bounding_box(), keep.bounding_box()
    assert box is not None and notice is not None
    assert 0 <= box["y"] - (notice["y"] + notice["height"]) < 80, (notice, box)
    assert box["y"] + box["height"] <= 844
    shot(page, "safari-seven-days-phone")
    with page.expect_download() as download:
        export.click()
    path = download.value.path()
    assert path is not None
    lines = [json.loads(line) for line in Path(path).read_text("utf-8").splitlines()]
    assert lines[0]["format"] == "sos-library" and lines[0]["games"] == 1
    assert [g["line"] for g in lines if g["format"] == "sos-game"] == ["Sa1Ob1Sc1"]

    # in the page's language
    page.goto(page.url.split("?")[0] + "?size=3&mode=simple&lang=de")
    wait_ready(page)
    page.get_by_test_id("games").click()
    expect(page.get_by_test_id("games-keep")).to_contain_text(
        "Safari löscht die Daten dieser Seite")


def test_the_home_screen_app_and_other_browsers_are_not_told(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    page: Page,
) -> None:
    app = open_safari(new_context, site_url, wait_ready, "?size=3", HOME_SCREEN)
    assert app.evaluate("navigator.standalone") is True
    app.get_by_test_id("games").click()
    keep = app.get_by_test_id("games-keep")
    expect(keep).to_contain_text("This browser")  # what every other browser is told
    expect(keep).not_to_contain_text("Safari")
    expect(app.get_by_test_id("games-export")).to_be_visible()

    # Chromium as itself (its user agent says "Safari/" too)
    assert "Chrome/" in page.evaluate("navigator.userAgent")
    page.goto(site_url + "index.html?size=3")
    wait_ready(page)
    page.get_by_test_id("games").click()
    expect(page.get_by_test_id("games-keep")).to_contain_text("This browser")
    expect(page.get_by_test_id("games-keep")).not_to_contain_text("Safari")
