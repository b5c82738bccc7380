"""Solve empty SOS boards with the offline C solver (``benchmarks/csos``): the value of every
first move and of the board, in both modes; resumable.

Each board and mode runs ``csos root`` (niced) with a checkpoint prefix
``<dir>/<R>x<C>-<mode>``: ``.txt`` holds every distinct first move (up to symmetry) with its
proven bounds ``lo hi`` (equal when exact), nodes and seconds — updated after every
null-window test, so an interrupted run keeps what it proved — and ``.tt`` (not in git) the
transposition table's larger entries, saved every ``--save-every`` seconds and at the stop.
A later run with the same prefix reads both and continues where it stopped.

Values as :func:`sos.solve` for the first player: general, the final score difference under
optimal play; simple, +1 win, 0 draw, -1 loss.

    python -m benchmarks.solve_boards --boards 3x3,3x4,3x5,4x4,4x5 --modes general,simple
    python -m benchmarks.solve_boards --boards 5x5 --modes simple --stop-at 08:10 --tt-bits 26

Prints one line a move and a summary table (markdown) at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
import time

from benchmarks.csos.driver import build

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "data", "solved")


def stop_epoch(text: str | None) -> float:
    """``HH:MM`` (UTC, today or tomorrow) as seconds since the epoch; 0 for no limit."""
    if not text:
        return 0.0
    hour, minute = (int(x) for x in text.split(":"))
    now = dt.datetime.now(dt.UTC)
    at = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if at <= now:
        at += dt.timedelta(days=1)
    return at.timestamp()


def read_checkpoint(path: str) -> list[tuple[str, int, int, int, float]]:
    """(move, lo, hi, nodes, seconds) of each first move in a ``.txt`` checkpoint."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="ascii") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            move, lo, hi, nodes, seconds = line.split()
            out.append((move, int(lo), int(hi), int(nodes), float(seconds)))
    return out


def summary(prefix: str) -> tuple[int, int, int, float, bool]:
    """(board lo, board hi, nodes, seconds, every move exact) from a checkpoint."""
    moves = read_checkpoint(prefix + ".txt")
    if not moves:
        return (0, 0, 0, 0.0, False)
    lo = max(m[1] for m in moves)
    hi = max(m[2] for m in moves)
    return (
        lo,
        hi,
        sum(m[3] for m in moves),
        sum(m[4] for m in moves),
        all(m[1] == m[2] for m in moves),
    )


def report(directory: str) -> str:
    """Markdown tables of every checkpoint in ``directory``: one row a board and mode, then the
    first moves of each (value, or proven bounds ``[lo, hi]``; nodes; CPU seconds)."""
    names = sorted(
        (f[:-4] for f in os.listdir(directory) if f.endswith(".txt")),
        key=lambda n: (int(n.split("x")[0]), int(n.split("x")[1].split("-")[0]), n),
    )
    lines = [
        "| board | mode | value | first moves exact | nodes | CPU seconds |",
        "|---|---|---|---|---:|---:|",
    ]
    detail = []
    for name in names:
        prefix = os.path.join(directory, name)
        board, mode = name.split("-")
        lo, hi, nodes, seconds, _ = summary(prefix)
        value = str(lo) if lo == hi else f"[{lo}, {hi}] (bounds)"
        moves = read_checkpoint(prefix + ".txt")
        done = sum(1 for m in moves if m[1] == m[2])
        lines.append(
            f"| {board} | {mode} | {value} | {done} of {len(moves)} | {nodes:,} | {seconds:.1f} |"
        )
        cells = [
            f"{m} {lo_m if lo_m == hi_m else f'[{lo_m}, {hi_m}]'}" for m, lo_m, hi_m, _, _ in moves
        ]
        detail.append(f"- {board} {mode}: " + ", ".join(cells))
    return (
        "\n".join(lines)
        + "\n\nFirst moves (one of each set of moves equal by symmetry):\n\n"
        + ("\n".join(detail))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default="3x3,3x4,3x5,4x4,4x5")
    parser.add_argument("--modes", default="general,simple")
    parser.add_argument("--dir", default=DEFAULT_DIR)
    parser.add_argument("--tt-bits", type=int, default=24, help="table entries 2^B (16 bytes)")
    parser.add_argument("--stop-at", help="HH:MM UTC: stop, save the checkpoint")
    parser.add_argument("--save-every", type=float, default=600.0)
    parser.add_argument("--nice", type=int, default=15)
    parser.add_argument(
        "--report", action="store_true", help="print the tables of --dir; solve nothing"
    )
    args = parser.parse_args(argv)
    if args.report:
        print(report(args.dir))
        return 0
    binary = build()
    os.makedirs(args.dir, exist_ok=True)
    stop = stop_epoch(args.stop_at)
    rows_out = []
    for board in args.boards.split(","):
        r, c = (int(x) for x in board.split("x"))
        for mode in args.modes.split(","):
            prefix = os.path.join(args.dir, f"{r}x{c}-{mode}")
            cmd = ["nice", "-n", str(args.nice), binary, "root", str(r), str(c), mode[0]]
            cmd += ["--tt-bits", str(args.tt_bits), "--checkpoint", prefix]
            cmd += ["--save-every", str(args.save_every)]
            if stop:
                cmd += ["--stop-at", f"{stop:.0f}"]
            print(f"== {r}x{c} {mode}: {' '.join(cmd[3:])}", flush=True)
            t0 = time.perf_counter()
            result = subprocess.run(cmd, check=False)
            wall = time.perf_counter() - t0
            lo, hi, nodes, seconds, exact = summary(prefix)
            rows_out.append((f"{r}x{c}", mode, lo, hi, exact, nodes, seconds, wall))
            if result.returncode == 3:
                print("stopped (time limit or signal); checkpoint kept", flush=True)
                break
            if result.returncode != 0:
                print(f"csos root failed with status {result.returncode}", flush=True)
                return 1
        else:
            continue
        break
    print("\n| board | mode | value | nodes | CPU seconds | wall seconds |")
    print("|---|---|---|---:|---:|---:|")
    for board, mode, lo, hi, exact, nodes, seconds, wall in rows_out:
        value = str(lo) if lo == hi else f"[{lo}, {hi}]"
        if lo == hi and not exact:
            value += " (some moves bounded)"
        print(f"| {board} | {mode} | {value} | {nodes:,} | {seconds:.1f} | {wall:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
