"""The game in someone else's page: ?embed=1 in iframes, postMessage events, cross-site boot.

The host page is served by a second local server: on 127.0.0.1 (another port: cross-origin,
same site) or on ``localhost`` (cross-site to the app on 127.0.0.1). Cross-site, Playwright's
default Chromium switches block third-party storage, so ``indexedDB.open`` fails inside the
frame; static/start.js then gives PyScript an in-memory IndexedDB (``data-storage="memory"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import EmbedHost, eager
from playwright.sync_api import Frame, FrameLocator, Page, expect

SIZES = [(320, 420), (700, 500)]


def play_simple_win(game: FrameLocator) -> None:
    """Player 1 writes S, player 2 O, player 1 S: the first SOS wins the simple game."""
    for (row, col), letter in (((0, 0), "S"), ((0, 1), "O"), ((0, 2), "S")):
        game.get_by_test_id(f"letter-{letter}").click()
        game.locator(f'button.cell[data-row="{row}"][data-col="{col}"]').click()


def assert_fits(frame: Frame) -> None:
    """No scrollbars, and every part of the compact view inside the frame's viewport."""
    box = frame.evaluate(
        """() => {
          const d = document.documentElement;
          const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect();
                               return [b.left, b.top, b.right, b.bottom]; };
          return {sw: d.scrollWidth, sh: d.scrollHeight, cw: d.clientWidth, ch: d.clientHeight,
                  vw: innerWidth, vh: innerHeight,
                  parts: {board: r('#board'), letters: r('.letters'), scores: r('#players'),
                          status: r('#status'), link: r('#open-full')}};
        }"""
    )
    assert box["sw"] <= box["cw"] and box["sh"] <= box["ch"], box
    for name, (left, top, right, bottom) in box["parts"].items():
        assert left >= 0 and top >= 0, (name, box)
        assert right <= box["vw"] + 0.5 and bottom <= box["vh"] + 0.5, (name, box)
    board = box["parts"]["board"]
    assert board[2] - board[0] >= 150, f"board too small: {box}"


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize(
    "query", ["size=6&mode=simple", "size=8&players=4&lang=de"], ids=["6x6", "8x8-4p-de"]
)
def test_embed_fits_iframe_without_scrollbars(
    page: Page,
    site_url: str,
    embed: EmbedHost,
    shot: Callable[[Page, str], Path],
    width: int,
    height: int,
    query: str,
) -> None:
    frame, game = embed.open(f"?{query}&embed=1", width=width, height=height)

    expect(game.locator(".app-header")).to_be_hidden()
    for testid in ("letter-S", "letter-O", "status", "score-0", "score-1", "open-full"):
        expect(game.get_by_test_id(testid)).to_be_visible()
    assert_fits(frame)

    link = game.get_by_test_id("open-full")
    expect(link).to_have_attribute("target", "_blank")
    expect(link).to_have_attribute("rel", "noopener")
    href = link.get_attribute("href") or ""
    assert href.startswith(site_url + "index.html?"), href
    params = parse_qs(urlsplit(href).query)
    assert "embed" not in params and params["size"] == [query.split("&")[0][5:]], href

    game.locator('button.cell[data-row="1"][data-col="1"]').click()
    expect(game.locator('button.cell[data-row="1"][data-col="1"]')).to_have_text("S")
    assert_fits(frame)
    shot(page, f"embed-{width}x{height}-{query.replace('&', '-').replace('=', '')}")

    if "simple" in query:  # the game-over box floats over the controls: still no scrollbars
        for (row, col), letter in (((2, 0), "S"), ((2, 1), "O"), ((2, 2), "S")):
            game.get_by_test_id(f"letter-{letter}").click()
            game.locator(f'button.cell[data-row="{row}"][data-col="{col}"]').click()
        expect(game.get_by_test_id("result")).to_be_visible()
        expect(game.get_by_test_id("play-again")).to_be_in_viewport()
        assert_fits(frame)
        shot(page, f"embed-{width}x{height}-over")


def test_embed_view_alone_has_no_chrome(open_app: Callable[..., Page]) -> None:
    page = open_app("?size=4&embed=1")
    expect(page.locator(".app-header")).to_be_hidden()
    expect(page.get_by_test_id("open-full")).to_be_visible()
    expect(page.get_by_test_id("open-full")).to_have_text("Open the full game")
    page.get_by_test_id("new-game").wait_for(state="hidden")
    # Not in a frame: nothing is posted, and the full view shows no embed link.
    full = open_app("?size=4")
    expect(full.get_by_test_id("open-full")).to_be_hidden()
    expect(full.locator(".app-header")).to_be_visible()


def test_same_site_iframe_posts_ready_and_game_over(
    page: Page, site_url: str, embed: EmbedHost
) -> None:
    _frame, game = embed.open("?size=3&mode=simple&embed=1&lang=en", width=700, height=500)
    app_origin = site_url.rstrip("/")

    embed.wait_messages(2, shown=True)
    assert [m["data"]["type"] for m in embed.messages(shown=True)] == ["sos:shown", "sos:ready"]
    assert embed.messages(shown=True)[0]["data"] == {
        "source": "sos-game", "version": 1, "type": "sos:shown", "start": "now"
    }
    ready = embed.messages()
    assert [m["data"]["type"] for m in ready] == ["sos:ready"]
    assert ready[0]["origin"] == app_origin
    assert ready[0]["data"]["version"] == 1
    assert ready[0]["data"]["settings"] == {
        "size": 3,
        "mode": "simple",
        "players": 2,
        "seats": ["human", "human"],
        "lang": "en",
    }

    play_simple_win(game)
    expect(game.get_by_test_id("result")).to_be_visible()
    over = embed.wait_messages(2)[1]
    assert over["origin"] == app_origin
    data = over["data"]
    assert data["type"] == "sos:game-over"
    assert data["winner"] == 0 and data["draw"] is False and data["tied"] == []
    assert data["scores"] == [1, 0] and data["termination"] == "sos"
    assert data["text"] == "Player 1 wins with the first SOS"
    print(json.dumps(data))

    # Exactly one game-over per game, even if the page renders again; a new game can end again.
    # (No wait on the wall clock: a second report of a game would be posted before the next
    # game's, so the whole list, checked at the end, has exactly one per game, in order.)
    game.get_by_test_id("play-again").click()
    play_simple_win(game)
    embed.wait_messages(3)
    assert [m["data"]["type"] for m in embed.messages()][2:3] == ["sos:game-over"]

    # A draw (a full board of O's) says so with winner: null -- the key is there.
    game.get_by_test_id("play-again").click()
    game.get_by_test_id("letter-O").click()
    for row in range(3):
        for col in range(3):
            game.locator(f'button.cell[data-row="{row}"][data-col="{col}"]').click()
    draw = embed.wait_messages(4)[3]["data"]
    assert draw["type"] == "sos:game-over" and "winner" in draw and draw["winner"] is None
    assert draw["draw"] is True and draw["tied"] == [0, 1] and draw["scores"] == [0, 0]
    over = [m["data"] for m in embed.messages()]
    assert [m["type"] for m in over] == ["sos:ready"] + ["sos:game-over"] * 3
    assert [m["draw"] for m in over[1:]] == [False, False, True]  # one report a game


def test_messages_from_the_host_are_ignored(page: Page, embed: EmbedHost) -> None:
    _frame, game = embed.open("?size=3&embed=1")
    for payload in ('{"type": "SKIP_WAITING"}', '"<img src=x onerror=alert(1)>"', "null"):
        page.evaluate(f"document.getElementById('game').contentWindow.postMessage({payload}, '*')")
    page.wait_for_timeout(200)  # bounded: what must not happen (a message acted on)
    expect(game.get_by_test_id("status")).to_have_text("Player 1 to move")
    expect(game.locator("button.cell:not(:empty)")).to_have_count(0)


@pytest.mark.unrouted
def test_cross_site_iframe_with_blocked_storage_boots(
    page: Page, site_url: str, embed: EmbedHost, shot: Callable[[Page, str], Path]
) -> None:
    """Host on localhost, game on 127.0.0.1: IndexedDB is refused in the frame, the game plays."""
    frame, game = embed.open(
        "?size=3&mode=simple&embed=1&lang=en", width=700, height=500, url_host="localhost"
    )
    assert urlsplit(embed.url).hostname == "localhost"

    # The precondition this test is about: the browser refuses IndexedDB to a frame of the
    # app's origin in this page (probed in a second frame: the game's own frame has the
    # in-memory replacement installed)...
    page.evaluate(
        """(src) => new Promise((resolve) => {
             const probe = document.createElement("iframe");
             probe.id = "probe";
             probe.src = src;
             probe.onload = resolve;
             document.body.append(probe);
           })""",
        site_url + "static/icons/icon.svg",
    )
    probe = page.locator("#probe").element_handle()
    assert probe is not None
    probe_frame = probe.content_frame()
    assert probe_frame is not None
    native = probe_frame.evaluate(
        """() => new Promise((resolve) => {
             const request = indexedDB.open("sos-test-probe");
             request.onsuccess = () => { request.result.close(); resolve("opened"); };
             request.onerror = (event) => {
               event.preventDefault();
               resolve(String(request.error));
             };
           })"""
    )
    assert "denied permission" in native, native
    assert frame.evaluate("document.documentElement.dataset.storage") == "memory"
    # ...and the game starts and plays all the same.
    play_simple_win(game)
    expect(game.get_by_test_id("status")).to_have_text("Player 1 wins with the first SOS")
    embed.wait_messages(2)
    assert [m["data"]["type"] for m in embed.messages()] == ["sos:ready", "sos:game-over"]
    shot(page, "embed-cross-site")


TWO_FRAMES = """<!doctype html>
<html><head><meta charset="utf-8"><title>Two boards</title><link rel="icon" href="data:,">
</head><body><p>A blog post with two boards.</p>
<iframe id="one" src="{src}" width="320" height="420" title="SOS 1"></iframe>
<iframe id="two" src="{src}" width="320" height="420" title="SOS 2"></iframe>
</body></html>
"""


@pytest.mark.parametrize("query", ["?embed=1&size=4", "?embed=1"], ids=["sized", "plain"])
def test_two_embeds_in_one_page_never_claim_a_cleared_storage(
    page: Page, embed: EmbedHost, query: str, shot: Callable[[Page, str], Path]
) -> None:
    """Two frames of one origin share storage: one frame's saves (and its tidying of empty
    games) are not a cleared storage for the other, which says nothing of the kind."""
    (embed.folder / "index.html").write_text(
        TWO_FRAMES.format(src=f"{embed.site_url}index.html{eager(query)}"), encoding="utf-8"
    )
    host = embed.static_server(embed.folder)
    embed.guard.allow_origin(host)
    page.set_viewport_size({"width": 760, "height": 560})
    page.goto(host + "index.html")
    frames = [page.frame_locator(f"#{name}") for name in ("one", "two")]
    for game in frames:
        game.locator('html[data-ready="1"]').wait_for(state="attached", timeout=60_000)
    for index, game in enumerate(frames * 2):  # a move in each, then one more in each
        spot = game.locator(f'button.cell[data-row="{index}"][data-col="{index}"]')
        spot.click()
        expect(spot).not_to_have_text("")
    for game in frames:  # focus and visibility checks run again when the page comes back
        game.locator("#board").click(position={"x": 2, "y": 2})
    page.wait_for_timeout(1500)  # what does not happen: no notice within a bounded while
    for game in frames:
        expect(game.get_by_test_id("notice")).not_to_contain_text("storage of this browser")
    shot(page, f"embed-two-frames-{'sized' if 'size' in query else 'plain'}")
