"""Play a friend on another device by link (issue 15): two browser contexts are two devices,
one in English, one in German; every move travels as a link the players send each other."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from helpers import GRAB_INTERPRETER, cell, write
from playwright.sync_api import BrowserContext, Page, expect

from sos.app.app import AppSession
from sos.app.saving.library import MemoryStore
from sos.app.share import remote
from sos.app.share.remote import decode_link
from tests import fuzz_inputs as fz

ANNA = "On this device you play Anna (Player 1)."


def ready(page: Page) -> None:
    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)


def open_link(page: Page, link: str) -> None:
    """Open ``link`` on the device of ``page``, which comes to the front (headless Chromium
    draws frames only for the page in front: one behind takes seconds to start)."""
    page.bring_to_front()
    page.goto(link)
    ready(page)


def sent_link(page: Page) -> str:
    """The link the page offers to send (the other side's turn, or the game over)."""
    field = page.get_by_test_id("remote-link")
    expect(field).to_be_visible()
    link = field.input_value()
    assert "?r=" in link, link
    return link


def test_two_devices_play_a_whole_game_by_link(
    page: Page, new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    anna = page  # the file's shared context (English): one device
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    ben = new_context(locale="de-DE", **phone).new_page()  # a phone, in German
    open_link(anna, site_url + "index.html?size=3")

    # Anna starts a game against a friend: 3 x 3, she plays Player 1.
    anna.get_by_test_id("settings").click()
    anna.get_by_test_id("remote").check()
    expect(anna.get_by_test_id("remote-seat")).to_have_value("0")
    anna.get_by_test_id("remote-name").fill("Anna")
    anna.get_by_test_id("settings-start").click()
    expect(anna.get_by_test_id("remote-you")).to_have_text(ANNA)
    expect(anna.get_by_test_id("remote-status")).to_have_text("Your turn.")
    write(anna, 0, 0, "S")
    expect(anna.get_by_test_id("remote-status")).to_have_text(
        "Player 2 is to move on another device: send this link."
    )
    first = sent_link(anna)
    # Only this device's seat moves: a click on Player 2's turn writes nothing.
    expect(cell(anna, 1, 1)).to_have_attribute("aria-disabled", "true")
    cell(anna, 1, 1).click(force=True)
    anna.keyboard.press("O")
    expect(cell(anna, 1, 1)).to_have_text("")

    # Ben (German) opens it: the game comes into his library, he is Player 2.
    open_link(ben, first)
    expect(ben.get_by_test_id("notice")).to_contain_text(
        "Spiel per Link geöffnet: Auf diesem Gerät spielst du Spieler 2."
    )
    expect(cell(ben, 0, 0)).to_have_text("S")
    ben.get_by_test_id("remote-my-name").fill("Ben")
    ben.get_by_test_id("remote-my-name").press("Tab")
    write(ben, 0, 2, "S")
    expect(ben.get_by_test_id("remote-status")).to_have_text(
        "Anna (Spieler 1) ist auf einem anderen Gerät am Zug: Schick diesen Link."
    )
    second = sent_link(ben)

    open_link(anna, second)
    expect(cell(anna, 0, 2)).to_have_text("S")
    write(anna, 2, 0, "S")
    third = sent_link(anna)

    # Ben scores (O between two S's), so he moves again, then sends the link back.
    open_link(ben, third)
    write(ben, 0, 1, "O")
    expect(ben.get_by_test_id("status")).to_contain_text("hat 1 Punkt erzielt")
    expect(ben.get_by_test_id("remote-status")).to_have_text("Du bist am Zug.")
    write(ben, 2, 2, "S")
    fourth = sent_link(ben)

    # Anna sees both moves, the score and that it is her turn (the status names her).
    open_link(anna, fourth)
    expect(cell(anna, 0, 1)).to_have_text("O")
    expect(cell(anna, 2, 2)).to_have_text("S")
    expect(anna.get_by_test_id("score-1")).to_contain_text("1")
    expect(anna.get_by_test_id("status")).to_have_text("Anna to move")
    expect(anna.get_by_test_id("remote-status")).to_have_text("Your turn.")
    expect(anna.get_by_test_id("remote-you")).to_have_text(ANNA)

    # (An out-of-date link and a tampered one: tests/app/test_remote.py's whole game.)

    # Anna finishes: each O scores, so she keeps the turn to the end.
    for row, col in ((1, 1), (1, 0), (1, 2), (2, 1)):
        write(anna, row, col, "O")
    expect(anna.locator("#result-text")).to_have_text("Anna wins, 5–1")
    expect(anna.get_by_test_id("remote-status")).to_have_text(
        "Game over. Send the link so everyone sees the result."
    )
    last = sent_link(anna)
    open_link(ben, last)
    expect(ben.locator("#result-text")).to_have_text("Anna gewinnt, 5–1")
    expect(ben.get_by_test_id("remote-status")).to_contain_text("Spiel vorbei")

    # Ben's library lists the game with the names, the result and the last link.
    ben.get_by_test_id("games").click()
    entry = ben.get_by_test_id("game-entry").filter(has_text="Per Link")
    expect(entry).to_contain_text("Anna gewinnt, 5–1")
    expect(entry).to_contain_text("du: Ben (Spieler 2) · Anna (Spieler 1)")
    href = entry.get_by_test_id("remote-entry-link").get_attribute("href")
    assert href is not None
    listed, received = (decode_link(link.split("?r=", 1)[1]) for link in (href, last))
    assert listed.game_id == received.game_id and listed.line == received.line
    assert len(listed.line) == 9 and listed.names == ("Anna", "Ben")


#: Runs in the page's Pyodide and in CPython: each code's fate (the link, or the error's key).
_DECODE = """
import json as _json
from sos.app.share.remote import LinkError as _LinkError, decode_link as _decode

def _fate(code):
    try:
        return repr(_decode(code))
    except _LinkError as error:
        return error.key
    except Exception as error:  # any other exception is a bug the test reports
        return f"CRASH {type(error).__name__}: {error}"

_json.dumps([_fate(code) for code in _json.loads(REMOTE_CODES)])
"""


def _fates(codes: list[str]) -> Any:
    scope: dict[str, Any] = {"REMOTE_CODES": json.dumps(codes)}
    exec(compile(_DECODE, "<decode>", "exec"), scope)  # the same code as in the page
    return scope["_json"].dumps([scope["_fate"](code) for code in codes])


def test_on_a_phone_the_link_to_send_comes_into_view_after_the_move(
    page: Page, new_context: Callable[..., BrowserContext], site_url: str
) -> None:
    anna = page  # the file's shared context (English): one device
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    ben = new_context(locale="en-US", **phone).new_page()
    open_link(anna, site_url + "index.html?size=5")
    anna.get_by_test_id("settings").click()
    anna.get_by_test_id("remote").check()
    anna.get_by_test_id("settings-start").click()
    write(anna, 0, 1, "S")
    open_link(ben, sent_link(anna))
    expect(ben.get_by_test_id("remote-status")).to_have_text("Your turn.")
    assert ben.evaluate("scrollY") == 0
    copy = ben.get_by_test_id("remote-copy")
    expect(copy).to_be_hidden()  # nothing to send yet
    write(ben, 3, 3, "S")
    # What to do next, send the link, is below the board's fold: it is brought into view.
    for part in ("remote-link", "remote-copy"):
        expect(ben.get_by_test_id(part)).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_a_move_whose_link_was_copied_cannot_be_undone(
    page: Page, site_url: str, size: tuple[int, int], shot: Callable[[Page, str], Path]
) -> None:
    """Undo takes back a slip until the link goes out; once copied (or shared), the move is
    the friend's too: Undo is off, and the line under the link says why."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_link(page, site_url + "index.html?size=4")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("remote").check()
    page.get_by_test_id("settings-start").click()
    write(page, 0, 0, "S")
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_enabled()  # not sent yet
    page.get_by_test_id("remote-copy").click()
    expect(page.locator("#remote-message")).to_contain_text(
        "Your move is on its way, so it can no longer be taken back."
    )
    expect(undo).to_be_disabled()
    shot(page, f"remote-sent-{size[0]}")
    page.reload()
    ready(page)
    expect(cell(page, 0, 0)).to_have_text("S")
    expect(page.get_by_test_id("undo")).to_be_disabled()  # kept with the game


def test_fuzzed_links_give_the_predicted_notice_and_decode_alike_in_pyodide(
    page: Page, site_url: str
) -> None:
    rng = random.Random(15)
    for number in range(4):  # whole start-ups with a damaged (or intact) link
        code = fz.remote_code(rng)
        if number:
            page.evaluate("localStorage.clear()")  # each start as on a new device
        app = AppSession(MemoryStore(), lambda: 1.0, lambda: "cpython1", "en")
        app.start([("r", code)])
        page.goto(site_url + "index.html?r=" + quote(code, safe=""))
        ready(page)
        notices = page.locator("#notice-list li")
        expect(notices).to_have_text(app.notice_texts())
        texts = app.notice_texts()
        assert len(texts) == 1 and texts[0].endswith((".", "।")), texts
        expect(page.get_by_test_id("remote-panel")).to_be_visible(
            visible=remote.is_remote(app.game.record)
        )
    codes = [fz.remote_code(rng) for _ in range(300)]
    page.evaluate(GRAB_INTERPRETER)
    got = page.evaluate(
        """(codes) => { __py.globals.set('REMOTE_CODES', JSON.stringify(codes));
          const out = __py.runPython(DECODE); __py.globals.delete('REMOTE_CODES');
          return out; }""".replace("DECODE", json.dumps(_DECODE)),
        codes,
    )
    assert json.loads(got) == json.loads(_fates(codes))
    assert not any(fate.startswith("CRASH") for fate in json.loads(got))
