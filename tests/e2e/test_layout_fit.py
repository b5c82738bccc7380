"""Layout flaws found by testers, measured in the browser:

- an embed's messages (notices over the scores, ``div.messages``) show whole lines only -- the
  bottom edge of the area never cuts a line of text in half -- and show that more follows (a
  fade at the bottom edge while the area is not scrolled to its end);
- the "Game review" heading takes one line in the column beside a desktop's board (1280 x 800),
  at its readable size, in several languages;
- a player's name of the longest length keeps the letter choice (S / O) above the fold of a
  1280 x 800 desktop: the name is cut to two lines with an ellipsis in the side column, and the
  whole name stays in the page's text (for screen readers) and in a title;
- a notice on a desktop (a game by link opened, 1280 x 800) leaves the whole board in view;
- Tab through Settings on a phone in German, where its Cancel / Keep / Start bar wraps to two
  rows, brings each control into view above the bar.

Screenshots: test-results/fit-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import settle, write
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from test_layout import CHECK
from test_layout_players import UNCOVERED
from test_layout_texts import _finished_3x3_moves
from test_review_page import query_for, random_game, wait_reviewed

from sos import Action, Rules
from sos.app.share.link import RemoteLink, encode_link
from sos.app.share.players import MAX_NAME

Opener = Callable[..., Page]
Shot = Callable[[Page, str], Path]

DESKTOP = (1280, 800)
PHONE = (390, 844)


def _size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


# --------------------------------------------------------------------------- an embed's messages

#: The messages area's lines of text cut by its visible rect (a line partly inside it, partly
#: outside), the area's scroll range, and the "more" cue's rect and the lines it overlaps.
LINES = """() => {
  const area = document.getElementById("messages");
  const view = area.getBoundingClientRect();
  const top = view.top + area.clientTop, bottom = top + area.clientHeight;
  const cut = [];
  const lines = [];
  for (const li of area.querySelectorAll("li")) {
    const range = document.createRange();
    range.selectNodeContents(li);
    const rows = new Map();
    for (const r of range.getClientRects()) if (r.width > 0) rows.set(Math.round(r.top), r);
    for (const r of rows.values()) {
      lines.push([r.top, r.bottom]);
      const inside = r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
      const outside = r.bottom <= top + 0.5 || r.top >= bottom - 0.5;
      if (!inside && !outside)
        cut.push(`${li.textContent.slice(0, 30)}: ${r.top}-${r.bottom} in ${top}-${bottom}`);
    }
  }
  const more = area.querySelector(".messages-more");
  const m = more ? more.getBoundingClientRect() : {top: 0, bottom: 0};
  const faded = lines.filter(([t, b]) => b > m.top + 0.5 && t < m.bottom - 0.5
    && t >= top - 0.5 && b <= bottom + 0.5);
  return {cut, lines: lines.length, top: area.scrollTop,
    end: area.scrollHeight - area.clientHeight,
    more: [m.top, m.bottom], bottom, faded: faded.length,
    fade: more?.checkVisibility() ? getComputedStyle(more).backgroundImage : "none"};
}"""


#: Watches the messages area's scrolling: when it last scrolled, when a scroll last ended, and a
#: log of both and of the wheel events that reach the page, for a failure's message. (The wheel
#: listener is passive and changes no scroll, but it also routes the wheel through the page's
#: main thread: without one, Chromium's compositor lost about one synthetic wheel in 20 here,
#: with no scroll and no end at all; with it, none in 144 runs.)
WATCH = """() => {
  const area = document.getElementById("messages"), log = [];
  const seen = window.__scrolled = {scroll: 0, end: 0, log};
  const note = (kind) => log.push([kind, Math.round(performance.now()), area.scrollTop]);
  area.addEventListener("scroll", () => { seen.scroll = performance.now(); note("scroll"); });
  area.addEventListener("scrollend", () => { seen.end = performance.now(); note("end"); });
  document.addEventListener("wheel", () => note("wheel"), {capture: true, passive: true});
}"""

#: A wheel is coming: the area counts as moving until a scroll ends after it.
MOVING = "() => { window.__scrolled.scroll = performance.now(); }"

#: The messages area at rest: a scroll ended after its last move, and 400 ms have passed since
#: both. static/boot.js waits for a scroll's end to bring it to rest on a line, and that rest is
#: a smooth scroll of its own, which ends in turn. (A predicate, not a promise: Playwright's
#: wait_for_function settles on the first promise, whatever it resolves to, so a stillness of
#: 400 ms was checked once, and on a busy machine it held before the page's rest had begun.)
STILL = """() => {
  const seen = window.__scrolled, now = performance.now();
  return seen.end >= seen.scroll && now - seen.end >= 400 && now - seen.scroll >= 400;
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_embeds_messages_show_whole_lines_and_a_cue_while_more_follows(
    page: Page, open_app: Opener, shot: Shot, lang: str
) -> None:
    """Four bad parameters in a 320 x 420 frame: four notices, more than the area shows. At the
    top, after a scroll of the wheel by less than a line, by a few lines, and at the end, no line
    of text is cut by the area's edges; while more follows, a fade lies over the area's last
    line at its bottom edge; at the end it lies over none. The board stays as it was."""
    _size(page, (320, 420))
    open_app(f"?embed=1&lang={lang}")
    square = page.locator('#board .cell[data-row="0"][data-col="0"]').bounding_box()
    open_app(f"?embed=1&size=99&players=x&lang={lang}&seats=foo&mode=bogus")
    expect(page.locator("#notice-list li")).to_have_count(4)
    settle(page)
    area = page.locator("#messages")
    box = area.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.evaluate(WATCH)
    for step, wheel in enumerate([0, 7, 50, 10_000]):
        if wheel:
            page.evaluate(MOVING)
            page.mouse.wheel(0, wheel)
        try:
            page.wait_for_function(STILL, polling=100, timeout=10_000)  # the scroll and its rest
        except PlaywrightError as error:
            log = page.evaluate("window.__scrolled.log")
            raise AssertionError(f"step {step}: no rest; scrolls seen: {log}") from error
        shot(page, f"fit-embed-messages-{lang}-{step}")
        seen = page.evaluate(LINES)
        assert seen["lines"] > 6 and seen["end"] > 0, seen  # more than the area shows
        assert seen["cut"] == [], (step, seen)
        assert "gradient" in seen["fade"], seen
        at_end = seen["top"] >= seen["end"] - 1
        assert at_end == (wheel == 10_000), seen
        if at_end:
            assert seen["faded"] == 0, seen  # the cue is gone: no text under it
        else:
            assert seen["faded"] == 1 and abs(seen["more"][1] - seen["bottom"]) < 1, seen
    assert page.locator('#board .cell[data-row="0"][data-col="0"]').bounding_box() == square
    assert page.evaluate(UNCOVERED, "#board .cell, [data-testid=letter-S], #notice-close") == []
    assert page.evaluate(CHECK, True) == []


# --------------------------------------------------------------------------- the review heading


@pytest.mark.parametrize("lang", ["en", "de", "el"])
def test_the_review_heading_takes_one_line_beside_a_desktop_board(
    page: Page, open_app: Opener, shot: Shot, lang: str
) -> None:
    """The heading is one line high (its box no taller than one line box), at least 16 px,
    inside the panel, and the step buttons and × stay in the panel: beside a heading as short
    as English's or German's, under a longer one (Greek)."""
    _size(page, DESKTOP)
    open_app(query_for(random_game(4, 3)) + f"&lang={lang}")
    page.get_by_test_id("review").click()
    wait_reviewed(page)
    settle(page)
    shot(page, f"fit-review-heading-{lang}")
    heading = page.locator("#review-title")
    size, line, height = heading.evaluate(
        "h => { const s = getComputedStyle(h);"
        " return [parseFloat(s.fontSize), parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize),"
        " h.getBoundingClientRect().height]; }"
    )
    assert size >= 16, size
    assert height < 1.5 * line, (lang, height, line)
    panel = page.get_by_test_id("review-panel").bounding_box()
    assert panel is not None
    for selector in ("#review-title", "#review-prev", "#review-next", "#review-end",
                     "#review-close"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert panel["x"] <= box["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"], (
            selector, box, panel,
        )
    if lang in ("en", "de"):  # short enough for the buttons to stay on the heading's row
        title = heading.bounding_box()
        steps = page.locator(".review-steps").bounding_box()
        assert title is not None and steps is not None
        assert abs((title["y"] + title["height"] / 2) - (steps["y"] + steps["height"] / 2)) < 4
    assert page.evaluate(CHECK, True) == []


# --------------------------------------------------------------------------- a long name


#: Names of the longest length: one without a space (the winner), and words.
LONGEST_NAMES = ("W" * MAX_NAME, ("Wolfgang Amadeus " * 6)[:MAX_NAME])

#: The status's and the result's long names: [lines shown, cut, text, title] of each.
CUT = """() => [...document.querySelectorAll("#status .long-name, #result-text .long-name")]
  .filter((e) => e.checkVisibility()).map((e) => [
    e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight),
    e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1, e.textContent,
    e.title])"""

#: The lines the status line's text takes (its box keeps two lines' height on a desktop).
STATUS_LINES = """() => { const s = document.getElementById("status");
  const range = document.createRange(), half = parseFloat(getComputedStyle(s).lineHeight) / 2;
  range.selectNodeContents(s);
  const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top)
    .sort((a, b) => a - b);
  return tops.filter((top, i) => i === 0 || top - tops[i - 1] > half).length; }"""


def _letters_in_view(page: Page, height: int) -> None:
    for letter in ("S", "O"):
        box = page.get_by_test_id(f"letter-{letter}").bounding_box()
        assert box is not None, letter
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (letter, box)
        assert page.evaluate(UNCOVERED, f"[data-testid=letter-{letter}]") == []


def _cut_to_two_lines(page: Page, names: set[str]) -> None:
    shown = page.evaluate(CUT)
    assert {text for _, _, text, _ in shown} == names, shown
    for lines, cut, text, title in shown:
        assert lines < 2.5 and cut and title == text, (lines, cut, text, title)


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_long_name_keeps_the_letters_above_the_fold(
    page: Page, open_app: Opener, shot: Shot, screen: tuple[int, int]
) -> None:
    """Both seats named with ``MAX_NAME`` characters: in the status line (whose turn) and, at
    the end, in the status and the result, each name takes at most two lines, cut with an
    ellipsis; the whole name is in the text (the accessibility tree has it) and in a title. On
    a desktop S and O stay inside the viewport throughout (the 240 px column showed the winner's
    name on seven lines in the status and eleven in the result, and pushed them below it)."""
    winner, other = LONGEST_NAMES
    _size(page, screen)
    open_app("?size=3&players=2")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-name-0").fill(winner)
    page.get_by_test_id("settings-name-1").fill(other)
    page.get_by_test_id("settings-start").click()
    status = page.get_by_test_id("status")
    expect(status).to_have_text(f"{winner} to move")
    settle(page)
    shot(page, f"fit-long-name-{screen[0]}x{screen[1]}")
    _cut_to_two_lines(page, {winner})
    assert page.evaluate(STATUS_LINES) == 1  # "to move" beside the name, not on a third line
    expect(status).to_match_aria_snapshot(f"- paragraph: {winner} to move")
    if screen == DESKTOP:
        _letters_in_view(page, screen[1])
    moves = _finished_3x3_moves()
    write(page, *moves[0])
    expect(status).to_have_text(f"{other} to move")
    _cut_to_two_lines(page, {other})
    assert page.evaluate(STATUS_LINES) == 1
    for move in moves[1:]:
        write(page, *move)
    expect(page.locator("#result-text")).to_have_text(re.compile(f"^{winner}.*1–0"))
    settle(page)
    shot(page, f"fit-long-name-{screen[0]}x{screen[1]}-over")
    assert len(page.evaluate(CUT)) == 2  # the status and the result
    _cut_to_two_lines(page, {winner})
    if screen == DESKTOP:
        _letters_in_view(page, screen[1])
    assert page.evaluate(CHECK, screen == DESKTOP) == []


# --------------------------------------------------------------------------- a notice on a desktop


def _in_view(page: Page, selector: str, height: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5, (selector, box, height)


def test_a_notice_leaves_the_whole_board_in_view_on_a_desktop(
    page: Page, open_app: Opener, shot: Shot
) -> None:
    """A game by link opened at 1280 x 800: the notice ("Game by link opened…") takes a row
    above the board, and the board takes the height left, its bottom row whole in the window
    (the link's panel in the column beside it made the board taller than that, and the notice
    pushed it 60 px down, cutting its bottom row); S, O and the link's Copy are in view too,
    and the page does not scroll."""
    _size(page, DESKTOP)
    link = RemoteLink("h5desk", Rules.square(6, "general", 2),
                      (Action.parse("S@a1"), Action.parse("O@b2")), 0, ("Anna", ""))
    open_app(f"?r={encode_link(link)}")
    expect(page.get_by_test_id("notice")).to_contain_text("Game by link opened")
    expect(page.get_by_test_id("remote-panel")).to_be_visible()
    settle(page)
    shot(page, "fit-notice-link-1280x800")
    for selector in ("#board-wrap", '#board .cell[data-row="5"]', "[data-testid=letter-S]",
                     "[data-testid=letter-O]", "[data-testid=remote-copy]"):
        _in_view(page, selector, DESKTOP[1])
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP[1]
    assert page.evaluate(UNCOVERED, "#board .cell, [data-testid=remote-copy]") == []
    assert page.evaluate(CHECK, True) == []


# --------------------------------------------------------------------------- Settings' bar

#: The element is seen whole: its centre and the middles of its edges (2 px in) hit it.
SEEN_WHOLE = """(e) => { const r = e.getBoundingClientRect(), x = r.x + r.width / 2,
  y = r.y + r.height / 2;
  return [[x, y], [x, r.top + 2], [x, r.bottom - 2], [r.left + 2, y], [r.right - 2, y]]
    .every(([px, py]) => e.contains(document.elementFromPoint(px, py))); }"""


def test_tab_brings_each_setting_into_view_above_the_buttons(
    page: Page, open_app: Opener, shot: Shot
) -> None:
    """Settings on a phone (390 x 844) in German scroll under the Cancel / Keep / Start bar,
    which wraps to two rows there (about 116 px): each control Tab reaches is seen whole when
    it has the focus ("Sprache" was left under the bar, whose scroll padding was 76 px)."""
    _size(page, PHONE)
    open_app("?lang=de")
    page.get_by_test_id("settings").click()
    dialog = page.locator("#settings-dialog")
    expect(dialog).to_be_visible()
    bar = dialog.locator(".dialog-actions").bounding_box()
    assert bar is not None and bar["height"] > 100, bar  # two rows of buttons
    seen = []
    for _ in range(30):
        page.keyboard.press("Tab")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
        focused = dialog.locator(":focus")
        expect(focused).to_have_count(1)
        seen.append((focused.evaluate("e => e.id || e.name"), focused.evaluate(SEEN_WHOLE)))
        if seen[-1][0] == "settings-start":
            break
    shot(page, "fit-settings-tab-de-390x844")
    names = [name for name, _ in seen]
    assert {"settings-lang", "settings-theme", "settings-sound"} <= set(names), names
    assert [name for name, whole in seen if not whole] == [], seen
