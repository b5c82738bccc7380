"""The layout of issue 43, item 14, measured in Chromium (the first item, no layout shift on the
start screen, is tests/e2e/test_start_layout.py):

- a message in an embed (a notice, the update offer) is laid over the top of the frame: the
  board keeps its size (a 320 x 420 frame's squares stay finger-sized) and nothing covers a square
  or a control;
- a score ("21–0") or a seat's name with its number ("Computer 2") in the status line or the
  result never breaks across lines, at any width from a narrow frame to a desktop; a name of the
  longest length, without a space, still wraps and never widens the page;
- the move list of the largest board (12 x 12) shows each turn's numbers, name and every move
  whole, on a phone and a desktop;
- an O under another player's strike (or dash) stays readable: its counter keeps 3:1 against the
  letter's ink, and the mark keeps 3:1 against the paper, in both themes.

Screenshots: test-results/texts-*.png.
"""

from __future__ import annotations

import functools
import io
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import settle, write
from PIL import Image
from playwright.sync_api import Page, expect
from test_layout import CHECK
from test_layout_players import UNCOVERED

from sos import Rules, new_game
from sos.app.game.view import player_name
from sos.app.saving.transcript import encode_moves
from sos.app.share.players import MAX_NAME
from sos.rules import MAX_APP_SIZE

Opener = Callable[..., Page]
Shot = Callable[[Page, str], Path]

PHONE = (390, 844)
DESKTOP = (1280, 800)
EMBED = (320, 420)


def _size(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


def _square(page: Page) -> float:
    box = page.locator('#board .cell[data-row="0"][data-col="0"]').bounding_box()
    assert box is not None
    return box["width"]


def _random_game(size: int, players: int, winner: int) -> str:
    """The ``game=`` code of a full random game (a fixed seed) that seat ``winner`` wins."""
    for seed in range(1, 500):
        rng = random.Random(seed)
        state = new_game(Rules.square(size, "general", players))
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        scores = state.scores
        if scores[winner] > max(s for seat, s in enumerate(scores) if seat != winner):
            return encode_moves(state.history)
    raise AssertionError("no such game")


# --------------------------------------------------------------------------- a message in an embed


@pytest.mark.parametrize(
    ("frame", "query"),
    [
        (EMBED, "&lang=en"),
        (EMBED, "&lang=de&seats=human,easy"),
        (EMBED, "&players=4"),
        ((700, 500), "&lang=en"),
        ((700, 500), "&lang=ar"),
    ],
    ids=["320x420-en", "320x420-de-computer", "320x420-4p", "700x500-en", "700x500-ar"],
)
def test_a_message_in_an_embed_keeps_the_board_size(
    page: Page, open_app: Opener, shot: Shot, frame: tuple[int, int], query: str
) -> None:
    """A notice (here: the host's bad ``mode=``) and the update offer leave the board as it is
    without them: squares of the same size (at least 40 px on a 320 x 420 frame's 6 x 6 board
    with two players), every square and control uncovered and in view."""
    _size(page, frame)
    open_app(f"?embed=1{query}")
    quiet = _square(page)
    open_app(f"?embed=1{query}&mode=bogus")
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("bogus")
    settle(page)
    shot(page, f"texts-embed-notice-{frame[0]}x{frame[1]}{query.replace('&', '-')}")
    assert abs(_square(page) - quiet) < 0.5, (_square(page), quiet)
    if frame == EMBED and "players" not in query:
        assert quiet >= 40, quiet
    box = notice.bounding_box()
    board = page.locator("#board-wrap").bounding_box()
    assert box is not None and board is not None
    apart = (
        box["y"] + box["height"] <= board["y"]
        or box["x"] >= board["x"] + board["width"]
        or box["x"] + box["width"] <= board["x"]
    )  # above the board, or beside it
    assert box["y"] >= 0 and apart, (box, board)
    assert page.evaluate(UNCOVERED, "#board .cell") == []
    assert page.evaluate(CHECK, True) == []
    # the update offer as well (shown by static/sw-register.js when a new version waits)
    page.evaluate("document.getElementById('update').hidden = false")
    settle(page)
    assert abs(_square(page) - quiet) < 0.5
    assert page.evaluate(UNCOVERED, "#board .cell, [data-testid=update-reload]") == []
    page.evaluate("document.getElementById('update').hidden = true")
    page.locator("#notice-close").click()
    expect(notice).to_be_hidden()
    assert abs(_square(page) - quiet) < 0.5
    assert page.evaluate(CHECK, True) == []


# --------------------------------------------------------------------------- scores and names

#: The units of the status line and the result card that are broken across lines (a Range over
#: each occurrence of a score or of one of the names given, by its line boxes).
BROKEN = """(units) => {
  const out = [];
  for (const id of ["status", "result-text"]) {
    const el = document.getElementById(id);
    if (!el || !el.checkVisibility()) continue;
    const text = el.textContent;
    const nodes = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n, pos = 0; (n = walker.nextNode()); pos += n.data.length) nodes.push([n, pos]);
    const at = (i) => { const [n, pos] = nodes.findLast(([, p]) => p <= i); return [n, i - pos]; };
    const escape = (u) => u.replace(/[.*+?^${}()|[\\]\\\\]/g, "\\\\$&");
    for (const re of [/\\d+(?:–\\d+)+/g, ...units.map((u) => new RegExp(escape(u), "g"))]) {
      for (const m of text.matchAll(re)) {
        const range = document.createRange();
        range.setStart(...at(m.index));
        const [end, offset] = at(m.index + m[0].length - 1);
        range.setEnd(end, offset + 1);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.bottom)));
        if (lines.size > 1) out.push(`${id} at ${innerWidth} px: "${m[0]}" broken in "${text}"`);
      }
    }
  }
  return out;
}"""

#: Widths swept on each kind of screen (the height of each kind).
SWEEPS = {
    "phone": ([*range(320, 431, 5)], 844),  # 390 among them
    "desktop": ([*range(1200, 1441, 8)], 800),  # 1280 among them
    "embed": ([*range(240, 421, 4)], 420),  # 320 among them
}


@pytest.mark.parametrize("where", list(SWEEPS))
@pytest.mark.parametrize(
    ("lang", "size", "players"),
    [("en", 5, 2), ("el", MAX_APP_SIZE, 2), ("en", MAX_APP_SIZE, 4)],
    ids=["en-5x5", "el-largest", "en-largest-4p"],
)
def test_scores_and_numbered_names_never_break_across_lines(
    page: Page, open_app: Opener, shot: Shot, where: str, lang: str, size: int, players: int
) -> None:
    """The result of a game a computer won ("Computer 2 wins, 5–2"; in Greek "Νίκη:
    Υπολογιστής 2, 34–16"), in the status line and the result card, at every width swept: the
    score and the name with its number each on one line."""
    widths, height = SWEEPS[where]
    _size(page, (widths[0], height))
    seats = ",".join(["human"] + ["easy"] * (players - 1))
    embed = "&embed=1" if where == "embed" else ""
    open_app(
        f"?size={size}&players={players}&seats={seats}&lang={lang}"
        f"&game={_random_game(size, players, 1)}{embed}"
    )
    expect(page.get_by_test_id("result")).to_be_visible()
    units = [player_name(lang, seat, kind) for seat in range(players) for kind in ("human", "easy")]
    expect(page.locator("#result-text")).to_contain_text(player_name(lang, 1, "easy"))
    broken: list[str] = []
    for width in widths:
        _size(page, (width, height))
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
        broken += page.evaluate(BROKEN, units)
        if width in (320, 390, 1280):
            shot(page, f"texts-result-{where}-{width}-{lang}-{size}x{size}-{players}p")
    assert broken == [], f"{len(broken)} broken, e.g. {broken[:4]}"


def _finished_3x3_moves() -> list[tuple[int, int, str]]:
    """A 3 x 3 game the first seat wins 1–0 with its last move (O in the middle)."""
    return [
        (0, 0, "O"),
        (0, 1, "O"),
        (0, 2, "O"),
        (1, 0, "S"),
        (1, 2, "S"),
        (2, 0, "O"),
        (2, 1, "O"),
        (2, 2, "O"),
        (1, 1, "O"),
    ]


@pytest.mark.parametrize("screen", [PHONE, DESKTOP, (320, 640)], ids=["phone", "desktop", "narrow"])
def test_a_long_name_without_a_space_wraps_in_the_status_and_the_result(
    page: Page, open_app: Opener, shot: Shot, screen: tuple[int, int]
) -> None:
    """A name of the longest length and no space ("W" x 96) wins: the status line and the
    result card wrap it inside the page (no sideways scroll), the score stays whole."""
    _size(page, screen)
    open_app("?size=3&players=2")
    page.get_by_test_id("settings").click()
    long = "W" * MAX_NAME
    page.get_by_test_id("settings-name-0").fill(long)
    page.get_by_test_id("settings-start").click()
    expect(page.get_by_test_id("settings-name-0")).to_be_hidden()
    for row, col, letter in _finished_3x3_moves():
        write(page, row, col, letter)
    result = page.locator("#result-text")
    expect(result).to_have_text(re.compile(f"^{long}.*1–0"))
    settle(page)
    shot(page, f"texts-long-name-{screen[0]}x{screen[1]}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen[0], f"the page scrolls sideways: {width} > {screen[0]}"
    for selector in ("#status", "#result-text"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= screen[0]
    assert page.evaluate(BROKEN, []) == []
    assert page.evaluate(CHECK, False) == []


# --------------------------------------------------------------------------- the move list


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_move_list_of_the_largest_board_shows_every_turn_and_move_whole(
    page: Page, open_app: Opener, shot: Shot, screen: tuple[int, int], lang: str
) -> None:
    """A full game on the largest board (12 x 12) against the computer: every turn title
    ("138–144. Computer 2") and every move ("O@g10 +1") is shown whole, inside the list."""
    _size(page, screen)
    open_app(
        f"?size={MAX_APP_SIZE}&seats=human,easy&lang={lang}&game={_random_game(MAX_APP_SIZE, 2, 1)}"
    )
    titles = page.locator("#move-list .turn-title")
    name = player_name(lang, 1, "easy")
    expect(titles.filter(has_text=re.compile(rf"^\d{{3}}–\d{{3}}\. {name}$"))).not_to_have_count(0)
    page.locator("#move-list").scroll_into_view_if_needed()
    settle(page)
    shot(page, f"texts-move-list-{screen[0]}x{screen[1]}-{lang}")
    cut = page.locator("#move-list").evaluate(
        """(list) => {
          const box = list.getBoundingClientRect();
          const out = [];
          for (const t of list.querySelectorAll('.turn-title'))
            if (t.scrollWidth > t.clientWidth + 1) out.push(`title ${t.textContent}`);
          for (const p of list.querySelectorAll('.ply')) {
            const r = p.getBoundingClientRect();
            if (p.scrollWidth > p.clientWidth + 1 || r.left < box.left - 0.5
                || r.right > box.left + list.clientWidth + 0.5) out.push(`move ${p.textContent}`);
          }
          return out;
        }"""
    )
    assert cut == [], cut
    assert page.evaluate(CHECK, screen == DESKTOP) == []


@functools.cache
def _chain_then_one_move(size: int) -> str:
    """The ``game=`` code of a full game on ``size`` x ``size`` whose last turn is one move of
    the first seat after a turn of the second of 25 moves or more (a long chain of SOSs):
    random moves, an SOS whenever one can be made once the board is half full (a fixed seed)."""
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game(Rules.square(size, "general", 2))
        while not state.is_terminal():
            moves = state.legal_actions()
            scoring = [a for a in moves if len(moves) < size * size // 2
                       and state.child(a).scores != state.scores]
            state.apply(rng.choice(scoring or moves))
        *before, last = [record.player for record in state.records]  # who played each move
        chain = next((i for i, seat in enumerate(reversed(before)) if seat != 1), len(before))
        if last == 0 and chain >= 25:
            return encode_moves(state.history)
    raise AssertionError("no such game")


#: The move list's view: [the last move's top and bottom, the list's visible top and bottom, the
#: last row's bottom, how many moves are seen whole], px in the viewport.
LIST_VIEW = """(list) => {
  const box = list.getBoundingClientRect(), top = box.top + list.clientTop;
  const bottom = top + list.clientHeight;
  const last = list.querySelector(".ply.current").getBoundingClientRect();
  const seen = [...list.querySelectorAll(".ply")].filter((p) => {
    const r = p.getBoundingClientRect(); return r.top >= top - 0.5 && r.bottom <= bottom + 0.5; });
  return {last: [last.top, last.bottom], view: [top, bottom],
          end: list.lastElementChild.getBoundingClientRect().bottom, seen: seen.length};
}"""


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_move_list_ends_with_the_last_move_after_a_long_chain(
    page: Page, open_app: Opener, shot: Shot, screen: tuple[int, int]
) -> None:
    """A 12 x 12 game against the computer that ends with one move of the player after a
    chain of the computer's SOSs taller than the list: the list is scrolled to its end, the
    last move at its foot and the chain's moves above it, filling the list (it showed only
    "144. Player 1" at its top above ~550 px of blank room), and it starts with a whole line."""
    _size(page, screen)
    open_app(f"?size={MAX_APP_SIZE}&seats=human,hard&game={_chain_then_one_move(MAX_APP_SIZE)}")
    box = page.locator("#move-list")
    expect(box.locator(".ply.current")).to_have_text(re.compile("^[SO]@"))
    box.scroll_into_view_if_needed()
    page.wait_for_function(  # scrolled at the next frame
        "() => document.getElementById('move-list').scrollTop > 0")
    settle(page)
    shot(page, f"texts-move-list-chain-{screen[0]}x{screen[1]}")
    seen = box.evaluate(LIST_VIEW)
    (last_top, last_bottom), (top, bottom) = seen["last"], seen["view"]
    assert top - 0.5 <= last_top and last_bottom <= bottom + 0.5, seen  # the last move in view
    assert bottom - seen["end"] <= 32, seen  # no more than a line's room under it
    assert seen["seen"] >= (bottom - top) // 40, seen  # the moves before it above it
    assert page.evaluate(CHECK, False) == []


# --------------------------------------------------------------------------- marks over letters

#: 3 players on 6 x 6: Player 2 completes S-O-S down column a with O a2 (a strike through it),
#: Player 3 down column c with O c2 (a dash through it).
MARKED = "Sa1Sa3Sc1Se6Oa2Sf1Sc3Se4Sd6Oc2"


def _luminance(rgb: tuple[int, ...]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _rgb(css: str) -> tuple[int, ...]:
    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", css)[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("screen", "size"),
    [(PHONE, 6), (PHONE, MAX_APP_SIZE), (DESKTOP, 6)],
    ids=["phone-6x6", "phone-largest", "desktop-6x6"],
)
def test_an_o_under_a_strike_or_a_dash_stays_readable(
    page: Page, open_app: Opener, shot: Shot, screen: tuple[int, int], size: int, scheme: str
) -> None:
    """Inside the O under a mark (its counter: the two pixel columns of the mark's middle, over
    the middle tenth of the square's height) every pixel keeps 3:1 against the letter's ink; the
    mark is at most a tenth of a square wide and keeps 3:1 against the paper."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    _size(page, screen)
    open_app(f"?size={size}&players=3&game={MARKED}")
    expect(page.locator("[data-sos]")).to_have_count(2)
    settle(page)
    style = page.evaluate(
        """() => {
          const cell = document.querySelector('#board .cell');
          const paper = getComputedStyle(document.getElementById('board-wrap')).backgroundColor;
          const marks = [...document.querySelectorAll('#marks [data-sos] line')].map((l) => {
            const s = getComputedStyle(l);
            return [l.getAttribute('class'), s.stroke, parseFloat(s.strokeWidth)];
          });
          return {ink: getComputedStyle(cell).color, paper, marks};
        }"""
    )
    ink, paper = _rgb(style["ink"]), _rgb(style["paper"])
    assert {cls.split()[1] for cls, _, _ in style["marks"]} == {"strike", "dash"}
    for cls, stroke, width in style["marks"]:
        assert width <= 0.1, (cls, width)  # in squares (the overlay's viewBox)
        assert _contrast(_rgb(stroke), paper) >= 3, (cls, stroke, style["paper"])
    image = Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("RGB")
    shot(page, f"texts-marks-{screen[0]}x{screen[1]}-{size}x{size}-{scheme}")
    worst = {}
    for square, (row, col) in (("a2", (1, 0)), ("c2", (1, 2))):
        box = page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"]').bounding_box()
        assert box is not None
        cx, cy, half = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["height"] / 20
        pixels = [
            image.getpixel((x, y))  # (the marks here run down their column)
            for x in (int(cx - 0.5), int(cx + 0.5))
            for y in range(round(cy - half), round(cy + half) + 1)
        ]
        worst[square] = round(min(_contrast(ink, p) for p in pixels), 2)  # type: ignore[arg-type]
    assert min(worst.values()) >= 3, worst
