"""Screenshots for the README: both languages, both themes, phone and desktop.

Usage (after `node scripts/build.mjs`, with the test venv): .venv/bin/python scripts/screenshots.py
Writes docs/screenshots/{en,de}-{light,dark}-{phone,desktop}.png. The position comes from a
share link (``game=``), so no clicking is involved.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sos import Rules, new_game  # noqa: E402
from sos.ai.agents import make_agent  # noqa: E402
from sos.app.record import encode_moves  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def sample_game() -> str:
    """A 6x6 game of two easy players, stopped mid-game once both have scored three points."""
    state = new_game(Rules.square(6))
    agents = [make_agent("easy", seed=0), make_agent("easy", seed=100)]
    while not state.is_terminal() and not (min(state.scores) >= 3 and len(state.history) >= 18):
        state.apply(agents[state.current_player()].choose_action(state))
    return encode_moves(state.history)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    code = sample_game()
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for lang in ("en", "de"):
            for theme in ("light", "dark"):
                for name, (width, height) in SIZES.items():
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, color_scheme=theme
                    )
                    page = context.new_page()
                    page.goto(f"{base}?size=6&lang={lang}&game={code}")
                    page.wait_for_selector('html[data-ready="1"]', timeout=60_000)
                    page.locator("#notice-close").click()
                    path = OUT / f"{lang}-{theme}-{name}.png"
                    page.screenshot(path=str(path), animations="disabled")
                    print(path.relative_to(ROOT))
                    context.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
