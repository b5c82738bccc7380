"""Each embed on a page is its own game, and a returning reader's game is drawn before the
engine is up (issue 43, items 1 and 2; docs/embedding.md, "Several frames in one page").

A blog post with two frames of the same address (``?embed=1``, the default start at the first
tap): a tap in each is a move of that frame's game -- the second frame's first tap is played,
not dropped, and neither frame shows the other's move. After a reload of the host page each
frame draws its own game from the first paint, before any Python runs, and a tap then is the
next move of that game. Frames whose host names one game (``id=``) share it.

These tests each take a browser context of their own (a first visit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from helpers import EmbedHost, cell, wait_saved
from playwright.sync_api import FrameLocator, Page, expect

from sos.app.text.i18n import text

#: A blog post with two frames of the game, 320x420 each.
TWO_FRAMES = """<!doctype html>
<html><head><meta charset="utf-8"><title>Two boards</title><link rel="icon" href="data:,">
<style>body{{margin:8px;font:16px sans-serif}} iframe{{border:1px solid #888}}</style>
</head><body><p>A blog post with two boards.</p>
<iframe id="one" src="{src}" width="320" height="420" title="SOS 1"></iframe>
<iframe id="two" src="{src}" width="320" height="420" title="SOS 2"></iframe>
</body></html>
"""


def open_two(page: Page, embed: EmbedHost, query: str) -> tuple[FrameLocator, FrameLocator]:
    """The host page with two frames of ``index.html`` + ``query`` (taken as it is: no
    ``start=now``), each drawn (its static board), none started."""
    (embed.folder / "index.html").write_text(
        TWO_FRAMES.format(src=f"{embed.site_url}index.html{query}"), encoding="utf-8"
    )
    host = embed.static_server(embed.folder)
    embed.guard.allow_origin(host)
    page.set_viewport_size({"width": 700, "height": 520})
    page.goto(host + "index.html")
    frames = (page.frame_locator("#one"), page.frame_locator("#two"))
    for game in frames:
        game.locator("#board button.cell").first.wait_for(state="attached")
    return frames


def ready(game: FrameLocator) -> None:
    expect(game.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)


def letters(game: FrameLocator) -> dict[str, str]:
    """The squares that show a letter, as {"a1": "S", ...}."""
    found: dict[str, str] = game.locator("#board").evaluate(
        """(board) => Object.fromEntries([...board.querySelectorAll("button.cell")]
             .filter((b) => b.textContent)
             .map((b) => [String.fromCharCode(97 + Number(b.dataset.col))
                          + (Number(b.dataset.row) + 1), b.textContent]))"""
    )
    return found


def test_two_frames_are_two_games_and_each_comes_back_drawn(
    page: Page, embed: EmbedHost, shot: Callable[[Page, str], Path]
) -> None:
    one, two = open_two(page, embed, "?embed=1")
    # A tap in the first frame starts it and is its first move.
    cell(one, 0, 0).click()
    ready(one)
    expect(cell(one, 0, 0)).to_have_text("S")
    # The second frame's first tap is played too, in a game of its own.
    two.get_by_test_id("letter-O").click()
    cell(two, 1, 1).click()
    ready(two)
    expect(cell(two, 1, 1)).to_have_text("O")
    expect(two.get_by_test_id("status")).to_have_text("Player 2 to move")
    expect(two.get_by_test_id("notice")).to_be_hidden()
    assert letters(two) == {"b2": "O"}
    # A move in one frame does not show in the other.
    one.get_by_test_id("letter-S").click()
    cell(one, 2, 2).click()
    expect(cell(one, 2, 2)).to_have_text("S")
    wait_saved(page.frames[1], "Sa1Sc3")
    wait_saved(page.frames[1], "Ob2")
    page.wait_for_timeout(500)  # bounded: what must not happen (the other frame following)
    assert letters(one) == {"a1": "S", "c3": "S"}
    assert letters(two) == {"b2": "O"}
    shot(page, "embed-two-games")

    # The reader comes back: each frame draws its own game before any Python runs.
    page.reload()
    for game in (one, two):
        game.locator("#board button.cell").first.wait_for(state="attached")
        expect(game.locator("html")).to_have_attribute("data-runtime", "waiting")
    expect(cell(one, 0, 0)).to_have_text("S")
    label = text("en", "cell.letter", square="a1", letter="S")
    expect(cell(one, 0, 0)).to_have_attribute("aria-label", label)
    expect(cell(two, 1, 1)).to_have_text("O")
    assert letters(one) == {"a1": "S", "c3": "S"}
    assert letters(two) == {"b2": "O"}
    expect(one.get_by_test_id("status")).to_have_text("Player 1 to move")
    expect(two.get_by_test_id("status")).to_have_text("Player 2 to move")
    shot(page, "embed-two-games-drawn")

    # A tap then (before the engine is up: it starts it) is the next move of that game.
    one.get_by_test_id("letter-O").click()
    cell(one, 3, 3).click()
    expect(cell(one, 3, 3)).to_have_text("O")
    ready(one)
    expect(one.get_by_test_id("notice")).to_be_hidden()
    expect(one.get_by_test_id("status")).to_have_text("Player 2 to move")
    expect(one.get_by_test_id("move-list").locator("button.ply")).to_have_count(3)
    wait_saved(page.frames[1], "Sa1Sc3Od4")
    assert letters(one) == {"a1": "S", "c3": "S", "d4": "O"}
    expect(two.locator("html")).to_have_attribute("data-runtime", "waiting")
    stored = page.frames[1].evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('sos-g:'))"
        ".map((k) => JSON.parse(localStorage.getItem(k)).line).sort()"
    )
    assert stored == ["Ob2", "Sa1Sc3Od4"], json.dumps(stored)


def test_frames_the_host_names_alike_share_one_game(page: Page, embed: EmbedHost) -> None:
    one, two = open_two(page, embed, "?embed=1&size=5&id=post-7")
    cell(one, 4, 4).click()
    ready(one)
    wait_saved(page.frames[1], "Se5")
    page.reload()
    for game in (one, two):
        game.locator("#board button.cell").first.wait_for(state="attached")
        expect(cell(game, 4, 4)).to_have_text("S")
        expect(game.locator("html")).to_have_attribute("data-runtime", "waiting")
    cell(two, 0, 4).click()
    ready(two)
    wait_saved(page.frames[1], "Se5Se1")
    assert letters(two) == {"e5": "S", "e1": "S"}
    expect(two.get_by_test_id("notice")).to_be_hidden()


def test_a_letter_chosen_in_one_frame_stays_in_that_frame(page: Page, embed: EmbedHost) -> None:
    """The letter is a frame's own: O chosen in the second frame (and saved as the reader's
    preference when that frame starts) does not become the letter of the first frame, which
    showed S when it was drawn and starts later."""
    one, two = open_two(page, embed, "?embed=1")
    two.get_by_test_id("letter-O").click()
    cell(two, 0, 0).click()
    ready(two)
    expect(cell(two, 0, 0)).to_have_text("O")
    cell(one, 2, 2).click()
    ready(one)
    expect(cell(one, 2, 2)).to_have_text("S")
    expect(one.get_by_test_id("letter-S")).to_have_attribute("aria-pressed", "true")
    expect(one.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "false")
    cell(one, 1, 1).click()
    expect(cell(one, 1, 1)).to_have_text("S")
    expect(two.get_by_test_id("letter-O")).to_have_attribute("aria-pressed", "true")


def test_each_frame_keeps_its_game_when_the_referrer_is_withheld(
    page: Page, embed: EmbedHost
) -> None:
    """Issue 50 item 16: a frame's key was made from document.referrer, which Firefox withholds
    once the service worker controls the frame and a host's referrer policy can withhold on
    one visit and not on another; the reader then came back to an empty board. Here the host
    sends no referrer on the second visit: each frame still draws its own game. A game saved
    under the key the earlier version made (from the referrer) comes back too."""
    one, two = open_two(page, embed, "?embed=1&size=5")
    cell(one, 0, 0).click()
    ready(one)
    two.get_by_test_id("letter-O").click()
    cell(two, 1, 1).click()
    ready(two)
    for frame, line in ((page.frames[1], "Sa1"), (page.frames[2], "Ob2")):
        frame.wait_for_function(  # the frame's record, under its key
            "(line) => JSON.parse(localStorage.getItem(sosBoot.embedKey) ?? 'null')?.line === line",
            arg=line,
        )
    host = embed.folder / "index.html"
    plain = host.read_text(encoding="utf-8")
    host.write_text(
        plain.replace("<head>", '<head><meta name="referrer" content="no-referrer">'),
        encoding="utf-8",
    )
    page.reload()
    for game in (one, two):
        game.locator("#board button.cell").first.wait_for(state="attached")
    assert page.frames[1].evaluate("document.referrer") == ""  # withheld on this visit
    assert letters(one) == {"a1": "S"} and letters(two) == {"b2": "O"}

    # A game saved by the earlier version under its key (made from the referrer's origin):
    # the record is moved there, as an earlier version left it, and the frame draws it again.
    host.write_text(plain, encoding="utf-8")
    page.reload()
    one.locator("#board button.cell").first.wait_for(state="attached")
    moved = page.frames[1].evaluate(
        """() => { const old = sosBoot.embedOldKeys, key = sosBoot.embedKey;
                   localStorage.setItem(old[1], localStorage.getItem(key));
                   localStorage.removeItem(key);
                   return [document.referrer, old.length]; }"""
    )
    assert moved[0] != "" and moved[1] >= 2, moved
    page.reload()
    for game in (one, two):
        game.locator("#board button.cell").first.wait_for(state="attached")
    assert letters(one) == {"a1": "S"} and letters(two) == {"b2": "O"}
    cell(one, 4, 4).click()  # the next move of that game (the letter O frame two left chosen)
    ready(one)
    page.frames[1].wait_for_function(  # kept under the frame's key now
        "() => JSON.parse(localStorage.getItem(sosBoot.embedKey) ?? 'null')?.line === 'Sa1Oe5'"
    )
    expect(one.get_by_test_id("notice")).to_be_hidden()
