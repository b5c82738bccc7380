#!/usr/bin/env python3
"""What the board thumbnails of "Your games" cost (issue 32): CPU time of one page of the list
(``AppSession.games(30)``) with and without thumbnails, on a library of ``--games`` games of
1-20 random moves in a ``MemoryStore``; prints figures (not a timed test).

Usage: ``.venv/bin/python -m benchmarks.bench_thumbnails --games 10000``
"""

from __future__ import annotations

import argparse
import random
import time

from sos.app import app as app_module
from sos.app.game.thumbnail import Thumbnail
from sos.app.saving.library import MemoryStore
from sos.state import GameState
from tests.app.support import tab


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    app = tab(MemoryStore())
    rng = random.Random(1)
    for _ in range(args.games):
        for _ in range(rng.randint(1, 20)):
            app.game.play(rng.choice(app.game.state.legal_actions()))
        app.commit()
        app.new_game()

    def page_ms() -> float:
        start = time.process_time()
        for _ in range(args.repeat):
            app.games(30)
        return (time.process_time() - start) / args.repeat * 1000

    real = app_module.thumbnail
    calls: list[int] = []

    def counting(state: GameState) -> Thumbnail:
        calls.append(1)
        return real(state)

    app_module.thumbnail = counting
    with_thumbs = page_ms()
    app_module.thumbnail = lambda state: None  # type: ignore[assignment,return-value]
    without = page_ms()
    app_module.thumbnail = real
    print(f"{args.games} games: a page of 30 entries {with_thumbs:.2f} ms CPU with thumbnails "
          f"({len(calls) // args.repeat} drawn a page), {without:.2f} ms without")


if __name__ == "__main__":
    main()
