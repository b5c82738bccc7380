"""Check the independent C solver (benchmarks/csos) against the page's Python solver.

1. Every position of the shipped opening books (``sos/ai/book_*.txt``: 3x4, 3x5, 4x4, both
   modes): the book's value against ``csos``.
2. A sampled set: positions from random games on 3x3..4x5 with few enough empty squares for
   :func:`sos.solve` (``--max-empties``), in both modes, compared value by value, and for a
   part of them every action's value against :func:`sos.ai.solver.solve_actions`.

Prints the counts, the mismatches (none expected), nodes and times. Exit status 1 on any
mismatch.

    python -m benchmarks.check_csolver [--samples 300] [--seed 1] [--max-empties 11]
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import sys
import time

from benchmarks.csos.driver import CSolver
from sos import GameState, Rules, new_game
from sos.ai.solver import BOOK_DIR, solve, solve_actions


def book_positions(path: str) -> list[tuple[str, str, int]]:
    """(mode ``general|simple``, board text, value) of every entry of one book file."""
    name = os.path.basename(path)[len("book_") : -len(".txt")]
    rows, cols = (int(x) for x in name.split("x"))
    out = []
    with open(path, encoding="ascii") as handle:
        for line in handle:
            if not line.strip() or line.startswith("#"):
                continue
            key, value = line.split()
            mode = "simple" if key[0] == "s" else "general"
            flat = key[2:]
            text = "/".join(flat[r * cols : (r + 1) * cols] for r in range(rows))
            out.append((mode, text, int(value)))
    return out


def random_position(rng: random.Random, max_empties: int) -> GameState:
    """A position of a random game (uniform random moves) on a random small board, with at
    most ``max_empties`` empty squares and the game not over."""
    while True:
        rows, cols = rng.choice([(3, 3), (3, 4), (4, 3), (3, 5), (4, 4), (4, 5), (5, 4)])
        mode = rng.choice(["general", "simple"])
        state = new_game(Rules(rows=rows, cols=cols, mode=mode))
        stop = rng.randint(1, min(max_empties, rows * cols - 1))
        while not state.is_terminal() and state.empty_squares > stop:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state


def check_books(c: CSolver) -> tuple[int, list[str]]:
    """Compare every book entry; returns (count, mismatch descriptions)."""
    count = 0
    bad: list[str] = []
    for path in sorted(glob.glob(os.path.join(BOOK_DIR, "book_*.txt"))):
        t0 = time.perf_counter()
        nodes = 0
        entries = book_positions(path)
        for mode, text, value in entries:
            state = GameState.from_text(text, mode=mode)  # type: ignore[arg-type]
            got, n = c.solve(state)
            nodes += n
            count += 1
            if got != value:
                bad.append(f"{os.path.basename(path)} {mode} {text}: book {value}, csos {got}")
        print(
            f"{os.path.basename(path)}: {len(entries)} positions, "
            f"{nodes} csos nodes, {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
    return count, bad


def check_sample(
    c: CSolver, samples: int, seed: int, max_empties: int, actions_every: int = 5
) -> tuple[int, list[str]]:
    """Compare ``samples`` random positions (and every action of each ``actions_every``-th)."""
    rng = random.Random(seed)
    bad: list[str] = []
    py_time = c_time = 0.0
    for k in range(samples):
        state = random_position(rng, max_empties)
        t0 = time.perf_counter()
        want = solve(state)
        t1 = time.perf_counter()
        got, _ = c.solve(state)
        t2 = time.perf_counter()
        py_time += t1 - t0
        c_time += t2 - t1
        if got != want:
            bad.append(f"{state!r}: sos.solve {want}, csos {got}")
        if k % actions_every == 0:
            py_actions = dict(solve_actions(state))
            c_actions, _ = c.action_values(state)
            if py_actions != c_actions:
                diff = {
                    str(a): (v, c_actions.get(a))
                    for a, v in py_actions.items()
                    if c_actions.get(a) != v
                }
                bad.append(f"{state!r}: action values differ (python, csos): {diff}")
    print(f"sample: {samples} positions, python {py_time:.1f} s, csos {c_time:.2f} s", flush=True)
    return samples, bad


def check_first_moves(spec: str, directory: str) -> list[str]:
    """``RxC:mode:move,move``: the value of each first move by :func:`sos.solve` (the page's
    solver, no book) against the checkpoint of ``benchmarks/solve_boards.py`` in ``directory``.
    Returns mismatch descriptions; prints each comparison with its time."""
    from benchmarks.solve_boards import read_checkpoint
    from sos import Action

    board, mode, moves = spec.split(":")
    rows, cols = (int(x) for x in board.split("x"))
    proven = {
        m: (lo, hi)
        for m, lo, hi, _, _ in read_checkpoint(os.path.join(directory, f"{board}-{mode}.txt"))
    }
    bad = []
    for name in moves.split(","):
        state = new_game(Rules(rows=rows, cols=cols, mode=mode))  # type: ignore[arg-type]
        gained = len(state.apply(Action.parse(name)))
        t0 = time.perf_counter()
        child = solve(state)
        value = gained + child if gained and mode == "general" else (1 if gained else -child)
        lo, hi = proven.get(name, (None, None))
        print(
            f"{board} {mode} first move {name}: sos.solve {value}, csos [{lo}, {hi}] "
            f"({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        if lo is None or not lo <= value <= hi:
            bad.append(f"{board} {mode} {name}: sos.solve {value}, csos [{lo}, {hi}]")
    return bad


def check_exact_positions(c: CSolver) -> list[str]:
    """Every position of ``benchmarks/data/exact_positions.txt`` re-solved by ``c``: its value
    and its set of value-keeping actions. Returns mismatch descriptions."""
    from benchmarks.exact_positions import load

    bad = []
    positions = load()
    for p in positions:
        state = p.state()
        value, _ = c.solve(state)
        actions, _ = c.action_values(state)
        best = {str(a) for a, v in actions.items() if v == value}
        if value != p.value or best != set(p.best):
            bad.append(f"{p.line()}: csos {value} {sorted(best)}")
    print(f"exact positions: {len(positions)} re-solved", flush=True)
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-empties", type=int, default=11)
    parser.add_argument("--no-books", action="store_true")
    parser.add_argument(
        "--first-moves",
        help="RxC:mode:move,...: check first-move values of benchmarks/data/solved (slow)",
    )
    parser.add_argument(
        "--exact-positions",
        action="store_true",
        help="re-solve benchmarks/data/exact_positions.txt instead (values and best actions)",
    )
    args = parser.parse_args(argv)
    if args.exact_positions:
        with CSolver() as c:
            exact_bad = check_exact_positions(c)
        for line in exact_bad:
            print("MISMATCH", line)
        print(f"mismatches: {len(exact_bad)}")
        return 1 if exact_bad else 0
    if args.first_moves:
        from benchmarks.solve_boards import DEFAULT_DIR

        first_bad = check_first_moves(args.first_moves, DEFAULT_DIR)
        for line in first_bad:
            print("MISMATCH", line)
        return 1 if first_bad else 0
    with CSolver() as c:
        bad: list[str] = []
        n_book = 0
        if not args.no_books:
            n_book, book_bad = check_books(c)
            bad += book_bad
        n_sample, sample_bad = check_sample(c, args.samples, args.seed, args.max_empties)
        bad += sample_bad
    for line in bad[:50]:
        print("MISMATCH", line)
    print(f"books: {n_book} positions; sample: {n_sample} positions; mismatches: {len(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
