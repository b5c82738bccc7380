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

**Shards** (``--shards``): each distinct first move is a job of its own, so that several cores or
machines can share a board. A shard is one ``csos root ... --moves <move>`` with the checkpoint
prefix ``<R>x<C>-<mode>.<move>`` (``5x5-general.O@a1.txt`` / ``.tt``), started from the bounds of
the merged checkpoint ``<R>x<C>-<mode>.txt`` (``--seed``). ``--jobs J`` runs J shards at a time;
with ``--threshold T`` every move is first only decided against T (is it worth >= T?), all moves
before any exact value, then (unless ``--threshold-only``) the exact values. After each shard
the shard files are merged into ``<R>x<C>-<mode>.txt`` (proven bounds intersect; the nodes and
seconds of the file that spent most on the move). ``--merge`` merges without solving; shards
run elsewhere are merged by copying their ``.txt`` files into ``--dir``.

    python -m benchmarks.solve_boards --boards 5x5 --modes general --shards --jobs 2 \\
        --threshold 1 --tt-bits 26 --nice 19 --stop-at 09:50
    # one shard by hand (any machine), then merge:
    benchmarks/csos/csos root 5 5 g --tt-bits 26 --moves O@a1 --threshold 1 \\
        --checkpoint benchmarks/data/solved/5x5-general.O@a1 \\
        --seed benchmarks/data/solved/5x5-general.txt
    python -m benchmarks.solve_boards --merge
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


def shard_files(prefix: str) -> list[str]:
    """The shard checkpoints ``<prefix>.<move>.txt`` next to ``<prefix>.txt``."""
    directory, base = os.path.split(prefix)
    return sorted(
        os.path.join(directory, f)
        for f in os.listdir(directory or ".")
        if f.startswith(base + ".") and f.endswith(".txt") and "@" in f
    )


def merge(prefix: str) -> bool:
    """Merge the shard checkpoints of ``prefix`` into ``<prefix>.txt``.

    Every bound in a checkpoint is proven, so a move's bounds are the intersection of all files'
    (largest ``lo``, least ``hi``); its nodes and seconds are those of the file that spent the
    most nodes on it (a shard starts from the merged file's count and adds to it). Moves keep
    the order of ``<prefix>.txt``. Returns whether ``<prefix>.txt`` changed.

    Raises:
        ValueError: if a file's bounds contradict another's (``lo > hi`` after merging).
    """
    base = prefix + ".txt"
    if not os.path.exists(base):
        return False
    with open(base, encoding="ascii") as handle:
        text = handle.read()
    header = [line for line in text.splitlines() if line.startswith("#")]
    rows = {m[0]: list(m) for m in read_checkpoint(base)}
    for path in shard_files(prefix):
        for move, lo, hi, nodes, seconds in read_checkpoint(path):
            if move not in rows:
                raise ValueError(f"{path}: {move} is not a first move of {base}")
            row = rows[move]
            row[1] = max(row[1], lo)
            row[2] = min(row[2], hi)
            if nodes > row[3]:
                row[3], row[4] = nodes, seconds
            if row[1] > row[2]:
                raise ValueError(f"{path}: {move} bounds contradict ({row[1]} > {row[2]})")
    out = "\n".join(header) + "\n"
    out += "".join(f"{m} {lo} {hi} {n} {sec:.1f}\n" for m, lo, hi, n, sec in rows.values())
    if out == text:
        return False
    with open(base + ".tmp", "w", encoding="ascii") as handle:
        handle.write(out)
    os.replace(base + ".tmp", base)
    return True


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
        (f[:-4] for f in os.listdir(directory) if f.endswith(".txt") and "@" not in f),
        key=lambda n: (int(n.split("x")[0]), int(n.split("x")[1].split("-")[0]), n),
    )
    lines = [
        "| board | mode | value | first moves exact | nodes | CPU seconds |",
        "|---|---|---|---|---:|---:|",
    ]
    detail = []
    for name in names:
        prefix = os.path.join(directory, name)
        merge(prefix)
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


def run_shards(
    binary: str,
    prefix: str,
    shape: tuple[int, int],
    mode: str,
    args: argparse.Namespace,
    stop: float,
) -> int:
    """Solve the first moves of one board and mode as shards, ``args.jobs`` at a time: with
    ``args.threshold`` first every move against it, then (unless ``args.threshold_only``) every
    move exactly. Merges after each shard. Returns 0, 3 if stopped (time limit or signal), 1 on
    a failure."""
    r, c = shape
    base = [binary, "root", str(r), str(c), mode[0], "--tt-bits", str(args.tt_bits)]
    if not os.path.exists(prefix + ".txt"):
        # writes the list of distinct first moves and stops at once
        subprocess.run([*base, "--checkpoint", prefix, "--stop-at", "1"], check=False)
    wanted = None if args.moves in (None, "all") else set(args.moves.split(","))
    phases: list[int | None] = []
    if args.threshold is not None:
        phases.append(args.threshold)
    if not args.threshold_only:
        phases.append(None)
    for threshold in phases:
        queue = []
        for move, lo, hi, _, _ in read_checkpoint(prefix + ".txt"):
            if wanted is not None and move not in wanted:
                continue
            if lo == hi or (threshold is not None and (lo >= threshold or hi < threshold)):
                continue
            queue.append(move)
        if wanted is not None:  # in the order --moves gives them (e.g. the quickest first)
            order = args.moves.split(",")
            queue.sort(key=order.index)
        running: list[tuple[str, subprocess.Popen[bytes]]] = []
        status = 0
        while queue or running:
            while queue and len(running) < args.jobs and status == 0:
                move = queue.pop(0)
                cmd = ["nice", "-n", str(args.nice), *base, "--moves", move]
                cmd += ["--checkpoint", f"{prefix}.{move}", "--seed", prefix + ".txt"]
                cmd += ["--save-every", str(args.save_every)]
                if threshold is not None:
                    cmd += ["--threshold", str(threshold)]
                if stop:
                    cmd += ["--stop-at", f"{stop:.0f}"]
                print(f"== {' '.join(cmd[3:])}", flush=True)
                running.append((move, subprocess.Popen(cmd)))
            if status and not running:
                break
            time.sleep(0.2)
            for item in list(running):
                code = item[1].poll()
                if code is None:
                    continue
                running.remove(item)
                merge(prefix)
                if code == 3:
                    status = 3
                elif code != 0:
                    print(f"shard {item[0]} failed with status {code}", flush=True)
                    status = status or 1
            if status:
                queue.clear()
        merge(prefix)
        if status:
            return status
    return 0


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
    parser.add_argument("--shards", action="store_true", help="one job a first move")
    parser.add_argument("--jobs", type=int, default=1, help="shards at a time")
    parser.add_argument(
        "--moves", help="shards: these first moves only, in this order (default all)"
    )
    parser.add_argument(
        "--threshold", type=int, help="shards: first decide every move against T (value >= T?)"
    )
    parser.add_argument("--threshold-only", action="store_true", help="no exact values after")
    parser.add_argument(
        "--merge", action="store_true", help="merge the shard checkpoints of --dir; solve nothing"
    )
    args = parser.parse_args(argv)
    if args.report:
        print(report(args.dir))
        return 0
    if args.merge:
        for name in sorted(os.listdir(args.dir)):
            is_merged = name.endswith(".txt") and "@" not in name
            if is_merged and merge(os.path.join(args.dir, name[:-4])):
                print(f"merged {name}")
        return 0
    binary = build()
    os.makedirs(args.dir, exist_ok=True)
    stop = stop_epoch(args.stop_at)
    rows_out = []
    for board in args.boards.split(","):
        r, c = (int(x) for x in board.split("x"))
        for mode in args.modes.split(","):
            prefix = os.path.join(args.dir, f"{r}x{c}-{mode}")
            if args.shards:
                t0 = time.perf_counter()
                code = run_shards(binary, prefix, (r, c), mode, args, stop)
                lo, hi, nodes, seconds, exact = summary(prefix)
                wall = time.perf_counter() - t0
                rows_out.append((f"{r}x{c}", mode, lo, hi, exact, nodes, seconds, wall))
                if code == 3:
                    print("stopped (time limit or signal); checkpoints kept", flush=True)
                    break
                if code:
                    return 1
                continue
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
