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

import pytest
from helpers import wait_saved, write
from playwright.sync_api import Page, Response, expect

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
    # (in the page's language: tests/app/test_keep.py)


def test_the_home_screen_app_and_other_browsers_are_not_told(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
) -> None:
    app = open_safari(new_context, site_url, wait_ready, "?size=3", HOME_SCREEN)
    assert app.evaluate("navigator.standalone") is True
    app.get_by_test_id("games").click()
    keep = app.get_by_test_id("games-keep")
    expect(keep).to_contain_text("This browser")  # what every other browser is told
    expect(keep).not_to_contain_text("Safari")
    expect(app.get_by_test_id("games-export")).to_be_visible()
    # (Chromium's own user agent, which says "Safari/" too: tests/app/test_keep.py)


#: The apple-touch-icon's size and whether every pixel is opaque (iOS fills transparency black).
TOUCH_ICON = """async () => {
  const link = document.querySelector('link[rel="apple-touch-icon"]');
  const bitmap = await createImageBitmap(await (await fetch(link.href)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  let transparent = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] < 255) transparent += 1;
  return {width: bitmap.width, height: bitmap.height, transparent};
}"""
MANIFEST = """async () => {
  const link = document.querySelector('link[rel="manifest"]');
  const manifest = await (await fetch(link.href)).json();
  return {display: manifest.display, start: new URL(manifest.start_url, link.href).href,
          scope: new URL(manifest.scope, link.href).href,
          capable: document.querySelector('meta[name="apple-mobile-web-app-capable"]')?.content,
          title: document.querySelector('meta[name="apple-mobile-web-app-title"]')?.content};
}"""


@pytest.mark.unrouted  # a route changes how Chromium serves the service worker's requests
def test_add_to_home_screen_gives_an_app_that_starts_and_plays_offline(
    new_context: Callable[..., Any],
    site_url: str,
    wait_ready: Callable[..., float],
    shot: Callable[[Page, str], Path],
) -> None:
    """What Safari reads to add the game to the Home Screen (the manifest's standalone display,
    start URL and scope, the metas, an opaque 180x180 touch icon), then the app as iOS opens it
    -- its start URL, ``navigator.standalone`` -- offline after one visit: it starts from the
    service worker, plays, and is not told of the seven days. Safari's own Add to Home Screen
    needs an iPhone (docs/saves.md, "Safari's seven-day limit")."""
    tab = open_safari(new_context, site_url, wait_ready, "?size=5")
    tab.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
    # a reload before the snapshot is made would stop its worker's requests
    expect(tab.locator("html")).to_have_attribute("data-snapshot", "made", timeout=120_000)
    facts = tab.evaluate(MANIFEST)
    assert facts == {"display": "standalone", "start": site_url + "index.html",
                     "scope": site_url, "capable": "yes", "title": "SOS"}, facts
    assert tab.evaluate(TOUCH_ICON) == {"width": 180, "height": 180, "transparent": 0}

    context = tab.context
    context.add_init_script(HOME_SCREEN)
    context.set_offline(True)
    app = context.new_page()
    responses: list[Response] = []
    app.on("response", lambda response: responses.append(response))
    app.goto(facts["start"])
    wait_ready(app)
    assert app.evaluate("navigator.standalone") is True
    app.locator('button.cell[data-row="1"][data-col="1"]').click()
    expect(app.locator('button.cell[data-row="1"][data-col="1"]')).to_have_text("S")
    app.get_by_test_id("games").click()
    expect(app.get_by_test_id("games-keep")).to_contain_text("This browser")
    expect(app.get_by_test_id("games-keep")).not_to_contain_text("Safari")
    shot(app, "safari-home-screen-app-offline")
    not_from_sw = [r.url for r in responses if not r.from_service_worker]
    assert not not_from_sw, f"served from elsewhere than the service worker: {not_from_sw}"
    context.set_offline(False)
