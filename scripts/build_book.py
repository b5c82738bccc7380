#!/usr/bin/env python3
"""Build the 4x4 opening book sos/book_4x4.txt used by sos.solver (and the `perfect` level).

The book holds the exact value (for the player to move; see sos.solver) of every 4x4 board
with at most ``--letters`` letters (default 5), for both modes, one line per board up to
symmetry::

    g:S..............O 1        (mode g = general, s = simple; board row-major, least of its
                                 8 symmetric images; value as sos.solve)

Boards are solved from the fullest to the emptiest with one shared transposition table, so
the later (emptier, harder) solves reuse the earlier ones. Simple-mode boards that already
hold an SOS are finished games and are left out. Run from the repository root:

    python scripts/build_book.py [--letters 4] [--out sos/book_4x4.txt]

About 2.5 minutes on one core for 5 letters (CPython 3.11; most of it the general-mode
5-letter boards); the file is about 910 KB, 120 KB gzip (4 letters: 185 KB).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sos import GameState  # noqa: E402
from sos.board import count_sos  # noqa: E402
from sos.search import Position, run_to_end  # noqa: E402
from sos.solver import Solver, canonical_text  # noqa: E402

SIZE = 4


def boards(letters: int) -> list[str]:
    """Canonical texts of every 4x4 board with exactly ``letters`` letters."""
    seen: set[str] = set()
    n = SIZE * SIZE
    empty = GameState.from_text("/".join(["." * SIZE] * SIZE))
    for squares in itertools.combinations(range(n), letters):
        for word in itertools.product("SO", repeat=letters):
            cells = ["."] * n
            for i, ch in zip(squares, word, strict=True):
                cells[i] = ch
            text = "".join(cells)
            probe = Position(empty)
            probe.cells = [".SO".index(ch) for ch in text]
            canon = canonical_text(probe)
            seen.add(canon)
    return sorted(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--letters", type=int, default=5, help="most letters on a book board")
    parser.add_argument("--out", default=str(ROOT / "sos" / "book_4x4.txt"))
    args = parser.parse_args()
    lines = [
        "# SOS opening book: exact values of 4x4 boards (built by scripts/build_book.py).",
        f"# <mode g|s>:<canonical board, row-major> <value for the player to move>; "
        f"boards with <= {args.letters} letters.",
    ]
    started = time.perf_counter()
    for mode, tag in (("general", "g"), ("simple", "s")):
        solver = Solver(use_book=False)
        entries: list[str] = []
        for letters in range(args.letters, -1, -1):
            t0 = time.perf_counter()
            count = 0
            for canon in boards(letters):
                cells = list(canon)
                if mode == "simple" and count_sos(cells, SIZE, SIZE):
                    continue
                text = "/".join(canon[r * SIZE : (r + 1) * SIZE] for r in range(SIZE))
                state = GameState.from_text(text, mode=mode)
                value = run_to_end(solver.value(state))
                entries.append(f"{tag}:{canon} {value}")
                count += 1
            print(
                f"{mode}: {count} boards with {letters} letters in "
                f"{time.perf_counter() - t0:.1f} s (table {len(solver.tt)})",
                flush=True,
            )
        lines.extend(sorted(entries))
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="ascii")
    size = Path(args.out).stat().st_size
    print(f"wrote {args.out}: {len(lines) - 2} boards, {size} bytes, "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
