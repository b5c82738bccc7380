"""Layout matrix: every screen size the docs recommend (docs/embedding.md), checked by measurement.

Viewports (two embeds, phones, a tablet, desktops) × players 2–4 with computer seats at every
level × the smallest, default and largest board (3/6/12) × en/de × light/dark × start/mid-game/
game over × with/without a notice, covered pairwise (allpairspy), not as the full product. One
page per viewport is reused for all of that viewport's cases; positions are set through URL
parameters only (``game=`` for mid-game and game-over positions, a bad ``mode=`` for a notice at
the start), so the test does not depend on the page's internals.

In each case: no text is clipped (``scrollWidth <= clientWidth``, no ellipsis, not cut by an
ancestor that hides overflow), the page never scrolls sideways, every enabled control is inside
the viewport or reachable by scrolling the page and is the element found at its centre
(``elementFromPoint``: nothing covers it), the board with its coordinates fits the width; on
embeds, the tablet and desktops the board, the letter buttons (and the game-over panel) are all
in view at once without scrolling. Screenshots go to test-results/layout/.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from allpairspy import AllPairs
from helpers import settle
from playwright.sync_api import Page, expect

from sos import Rules, new_game
from sos.ai import EXACT_MAX_CELLS, LEVELS
from sos.app.saving.transcript import encode_moves
from sos.app.share.params import DEFAULT_SIZE
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS

RESULTS = Path(__file__).resolve().parents[2] / "test-results"

VIEWPORTS = {
    "embed-320x420": (320, 420, True),
    "embed-700x500": (700, 500, True),
    "phone-390x844": (390, 844, False),
    "phone-360x640": (360, 640, False),
    "tablet-768x1024": (768, 1024, False),
    "desktop-1280x800": (1280, 800, False),
    "desktop-1920x1080": (1920, 1080, False),
}
#: Viewports where the board, the letters (and a game-over panel) must be in view together.
ONE_SCREEN = {"embed-320x420", "embed-700x500", "tablet-768x1024", "desktop-1280x800",
              "desktop-1920x1080"}

STATES = ("start", "mid", "over")


class Case(NamedTuple):
    viewport: str
    state: str
    players: int
    size: int
    opponents: str  # "humans", or the level of seat 2 (the next seats take the next levels)
    lang: str
    scheme: str
    notice: bool

    def seats(self) -> tuple[str, ...]:
        if self.opponents == "humans":
            return ("human",) * self.players
        first = LEVELS.index(self.opponents)
        seats = ("human", *(LEVELS[(first + i) % 4] for i in range(self.players - 1)))
        if self.size * self.size > EXACT_MAX_CELLS:  # as the app would (with a notice)
            seats = tuple("hard" if seat == "perfect" else seat for seat in seats)
        return seats

    @property
    def name(self) -> str:
        notice = "notice" if self.notice else "quiet"
        return (f"{self.viewport}-{self.state}-{self.players}p-{self.size}x{self.size}-"
                f"{self.opponents}-{self.lang}-{self.scheme}-{notice}")


#: Every player count, and the smallest, the default and the largest board.
PLAYER_COUNTS = list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
SIZES = [MIN_APP_SIZE, DEFAULT_SIZE, MAX_APP_SIZE]


def _cases() -> dict[str, list[Case]]:
    factors = [list(VIEWPORTS), list(STATES), PLAYER_COUNTS, SIZES,
               ["humans", *LEVELS], ["en", "de"], ["light", "dark"], [True, False]]
    by_viewport: dict[str, list[Case]] = defaultdict(list)
    for row in AllPairs(factors):
        case = Case(*row)
        by_viewport[case.viewport].append(case)
    return by_viewport


CASES = _cases()


def _moves(case: Case) -> str:
    """The ``game=`` code of a random game (seeded by the case) for the mid-game or game-over
    state; a mid-game position has the first seat (a human) to move."""
    rules = Rules.square(case.size, "general", case.players)
    state = new_game(rules)
    rng = random.Random(case.name)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    history = list(state.history)
    if case.state == "mid":
        state = new_game(rules)
        half = len(history) // 2
        for action in history[:half]:
            state.apply(action)
        while state.current_player() != 0 or len(state.history) < 2:
            state.apply(history[len(state.history)])
        history = list(state.history)
    return encode_moves(history)


def _query(case: Case) -> str:
    _, _, embed = VIEWPORTS[case.viewport]
    query = (f"?size={case.size}&players={case.players}&seats={','.join(case.seats())}"
             f"&lang={case.lang}")
    if embed:
        query += "&embed=1&start=now"  # (the layout once the game runs)
    if case.state != "start":
        query += f"&game={_moves(case)}"
    elif case.notice:
        query += "&mode=bogus"  # reported in a notice, the default (general) is used
    return query


#: Returns a list of problems found on the page as it is shown now.
CHECK = (Path(__file__).parent / "layout_check.js").read_text()




@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_layout_matrix(
    viewport: str, page: Page, site_url: str, wait_ready: Callable[..., float]
) -> None:
    width, height, _ = VIEWPORTS[viewport]
    page.set_viewport_size({"width": width, "height": height})
    out = RESULTS / "layout"
    out.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    for case in CASES[viewport]:
        if page.url.startswith(site_url):
            page.evaluate("localStorage.clear()")  # each case starts from its URL alone
        page.emulate_media(color_scheme=case.scheme)  # the theme follows the system
        page.goto(site_url + "index.html" + _query(case))
        wait_ready(page)
        notice = page.get_by_test_id("notice")
        shown = case.state != "start" or case.notice
        expect(notice, case.name).to_be_visible(visible=shown)
        if shown and not case.notice:
            page.locator("#notice-close").click()
        if case.state == "over":
            expect(page.get_by_test_id("result"), case.name).to_be_visible()
            expect(page.locator("#result-text"), case.name).not_to_have_text(re.compile(r"^\s*$"))
        settle(page)  # the SOS marks' draw-in animation ends
        page.screenshot(path=str(out / f"{case.name}.png"), full_page=True, animations="disabled")
        problems = page.evaluate(CHECK, viewport in ONE_SCREEN)  # scrolls as a user would
        failures += [f"{case.name}: {p}" for p in problems]
    assert not failures, "\n".join(failures)


def test_the_matrix_covers_every_pair() -> None:
    """Every pair of values of two factors is in some case, and every viewport meets every
    state (so each page is reused across the start, mid-game and game-over states)."""
    cases = [c for group in CASES.values() for c in group]
    factors = [list(VIEWPORTS), list(STATES), PLAYER_COUNTS, SIZES,
               ["humans", *LEVELS], ["en", "de"], ["light", "dark"], [True, False]]
    missing = [
        (Case._fields[i], a, Case._fields[j], b)
        for i, j in itertools.combinations(range(len(factors)), 2)
        for a in factors[i]
        for b in factors[j]
        if not any(c[i] == a and c[j] == b for c in cases)
    ]
    assert not missing
    print(f"{len(cases)} cases over {len(VIEWPORTS)} viewports")
