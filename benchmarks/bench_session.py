"""CPU time of one game's session on the largest board: played to the end (asking, after each
move, what the page asks: whose turn, Undo, Redo), then undone to the start and redone.

    .venv/bin/python -m benchmarks.bench_session [--runs 5]

Prints the best of ``--runs`` in ms of CPU time (``time.process_time``). Compare two checkouts
with ``PYTHONPATH=<checkout>``.
"""

from __future__ import annotations

import argparse
import random
import time

from sos import Rules
from sos.app.game.session import GameSession
from sos.app.saving.library import GameRecord
from sos.rules import MAX_APP_SIZE


def run(seed: int = 1) -> float:
    """Seconds of CPU time for one game played, undone and redone."""
    rng = random.Random(seed)
    game = GameSession(GameRecord("g", Rules.square(MAX_APP_SIZE), ("human", "human")))
    start = time.process_time()
    while game.outcome is None:
        game.play(rng.choice(game.state.legal_actions()))
        game.human_to_move()
        game.can_undo()
        game.can_redo()
    while game.undo():
        pass
    while game.redo():
        pass
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    best = min(run() for _ in range(runs))
    print(f"{best * 1000:.1f} ms CPU: a {MAX_APP_SIZE}x{MAX_APP_SIZE} game played, undone and "
          f"redone (best of {runs})")


if __name__ == "__main__":
    main()
