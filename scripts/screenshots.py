"""Screenshots for the README and docs/playing.md: English and German, both themes, phone and
desktop, with named players; a finished game with **Rematch**; the **Statistics** view.

Usage (after `node scripts/build.mjs`, with the test venv): .venv/bin/python scripts/screenshots.py
Writes to docs/screenshots/:

- ``{en,de}-{light,dark}-{phone,desktop}.png``: a 6x6 game of two named players (typed into
  Settings, then the moves played by clicking), stopped mid-game once both have three points;
- ``{en,de}-result-phone.png``: a finished 4x4 game of the same players, its result card with
  Rematch;
- ``{en,de}-stats-desktop.png``: Statistics after five games against the computer (opened as
  finished games by link) and a few rated puzzles.

The games come from seeded engine players, so every run shows the same positions.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sos import Action, Rules, new_game  # noqa: E402
from sos.ai.agents import make_agent  # noqa: E402
from sos.app.learn.rating import RATING_KEY, RatingBook  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
NAMES = {"en": ("Alice", "Bruno"), "de": ("Anna", "Jonas")}
#: Finished games against the computer for the Statistics view: (size, seats, moves).
RECORD = (
    (3, "human,hard", "Sa1Ob1Sc1"),
    (4, "hard,human", "Sa1Ob1Sc1"),
    (4, "human,medium", "Sa1Ob1Sc1"),
    (5, "human,easy", "Sa1Ob1Sc1"),
    (6, "medium,human", "Sa1Ob1Sc1"),
)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def sample_game(size: int, to_end: bool) -> list[Action]:
    """A game of two easy players: to the end, or stopped once both have three points."""
    state = new_game(Rules.square(size))
    agents = [make_agent("easy", seed=0), make_agent("easy", seed=100)]
    while not state.is_terminal() and (
        to_end or not (min(state.scores) >= 3 and len(state.history) >= 18)
    ):
        state.apply(agents[state.current_player()].choose_action(state))
    return list(state.history)


def rating_history() -> str:
    """A stored puzzle rating after eight results."""
    book = RatingBook.load(None)
    for index in range(8):
        book.record(f"p{index}", 2 + index % 3, index % 3 != 1, 1.8e12 + index * 3_600_000)
    return book.dump()


def ready(page: Page) -> None:
    page.wait_for_selector('html[data-ready="1"]', timeout=90_000)


def named_game(page: Page, base: str, lang: str, size: int, moves: list[Action]) -> None:
    """Start a game of two named players in Settings, then play ``moves`` by clicking."""
    page.goto(f"{base}?size={size}&lang={lang}")
    ready(page)
    page.get_by_test_id("settings").click()
    for seat, name in enumerate(NAMES[lang]):
        page.get_by_test_id(f"settings-name-{seat}").fill(name)
    page.get_by_test_id("settings-start").click()
    for action in moves:
        page.get_by_test_id(f"letter-{action.letter}").click()
        square = page.locator(
            f'button.cell[data-row="{action.row}"][data-col="{action.col}"]'
        )
        square.click()
        expect(square).to_have_text(action.letter)
    page.locator("body").hover(position={"x": 1, "y": 1})  # no hover highlight in the shot


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    middle, finished = sample_game(6, to_end=False), sample_game(4, to_end=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )

        def shoot(lang: str, theme: str, size: str, name: str, scene: object) -> None:
            width, height = SIZES[size]
            context = browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=theme  # type: ignore[arg-type]
            )
            page = context.new_page()
            scene(page)  # type: ignore[operator]
            path = OUT / f"{name}.png"
            page.screenshot(path=str(path), animations="disabled")
            print(path.relative_to(ROOT))
            context.close()

        for lang in ("en", "de"):
            for theme in ("light", "dark"):
                for size in SIZES:
                    shoot(lang, theme, size, f"{lang}-{theme}-{size}",
                          lambda page, lang=lang: named_game(page, base, lang, 6, middle))

            def result(page: Page, lang: str = lang) -> None:
                named_game(page, base, lang, 4, finished)
                expect(page.get_by_test_id("rematch")).to_be_visible()

            shoot(lang, "light", "phone", f"{lang}-result-phone", result)

            def stats(page: Page, lang: str = lang) -> None:
                for size, seats, moves in RECORD:
                    page.goto(f"{base}?size={size}&mode=simple&seats={seats}&lang={lang}"
                              f"&game={moves}")
                    ready(page)
                page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                              [RATING_KEY, rating_history()])
                page.goto(f"{base}?lang={lang}")
                ready(page)
                page.get_by_test_id("stats").click()
                expect(page.get_by_test_id("stats-row")).to_have_count(len(RECORD))

            shoot(lang, "light", "desktop", f"{lang}-stats-desktop", stats)
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
