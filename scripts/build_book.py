#!/usr/bin/env python3
"""Build an opening book sos/ai/book_<rows>x<cols>.txt used by sos.ai.solver (hard and perfect).

A book holds the exact value (for the player to move; see sos.ai.solver) of every board of one
shape with at most ``--letters`` letters, for both modes, one line per board up to symmetry::

    g:S..............O 1        (mode g = general, s = simple; board row-major, least of its
                                 symmetric images (8 on a square, 4 on a rectangle); value as
                                 sos.solve)

Boards are solved from the fullest to the emptiest with one shared transposition table, so
the later (emptier, harder) solves reuse the earlier ones. Simple-mode boards that already
hold an SOS are finished games and are left out. Run from the repository root:

    python scripts/build_book.py                      # 4x4, 5 letters (the page's book)
    python scripts/build_book.py --rows 3 --cols 4    # the engine's 3x4 book (LETTERS: 1)
    python scripts/build_book.py --rows 3 --cols 5    # the engine's 3x5 book (LETTERS: 4)

The letters per shape (:data:`LETTERS`) are the fewest with which ``hard`` (at the node
budget standing for the page's 1.2 s) lost no game to perfect play (benchmarks/RESULTS.md).
4x4: about 2.5 minutes on one core (CPython 3.11; most of it the general-mode 5-letter
boards); the file is about 910 KB, 120 KB gzip (4 letters: 185 KB). 3x4: 3 s, 487 bytes.
3x5: about 2 minutes, 269 KB (37 KB gzip). A 4x3 or 5x3 board reads the book of its
transpose, so only 3x4 and 3x5 are built. The page ships only the 4x4 book (scripts/site.mjs).
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
from sos.ai.search import Position, run_to_end  # noqa: E402
from sos.ai.solver import Solver, canonical_text  # noqa: E402
from sos.board import count_sos  # noqa: E402

#: Default ``--letters`` per board shape (rows, cols): the fewest that suffice (see above).
LETTERS = {(4, 4): 5, (3, 4): 1, (3, 5): 4}


def boards(letters: int, rows: int = 4, cols: int = 4) -> list[str]:
    """Canonical texts of every ``rows`` x ``cols`` board with exactly ``letters`` letters."""
    seen: set[str] = set()
    n = rows * cols
    empty = GameState.from_text("/".join(["." * cols] * rows))
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
    parser.add_argument("--rows", type=int, default=4, help="board height (default 4)")
    parser.add_argument("--cols", type=int, default=4, help="board width (default 4)")
    parser.add_argument("--letters", type=int, default=None,
                        help="most letters on a book board (default: LETTERS of the shape)")
    parser.add_argument("--out", default=None, help="default: sos/ai/book_<rows>x<cols>.txt")
    args = parser.parse_args()
    rows, cols = args.rows, args.cols
    if args.letters is None:
        if (rows, cols) not in LETTERS:
            parser.error(f"give --letters for a {rows}x{cols} book")
        args.letters = LETTERS[rows, cols]
    if args.out is None:
        args.out = str(ROOT / "sos" / "ai" / f"book_{rows}x{cols}.txt")
    lines = [
        f"# SOS opening book: exact values of {rows}x{cols} boards "
        "(built by scripts/build_book.py).",
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
            for canon in boards(letters, rows, cols):
                cells = list(canon)
                if mode == "simple" and count_sos(cells, rows, cols):
                    continue
                text = "/".join(canon[r * cols : (r + 1) * cols] for r in range(rows))
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
