"""The sharded solve of empty boards (``benchmarks/solve_boards.py --shards``): each first move a
job of its own (``csos root --moves``), decided first against a threshold, merged into one
checkpoint with the same values as the whole-board solve."""

from __future__ import annotations

import os
import subprocess

import pytest

from benchmarks.csos.driver import build, compiler
from benchmarks.solve_boards import DEFAULT_DIR, main, merge, read_checkpoint

pytestmark = pytest.mark.skipif(
    compiler() is None, reason="no C compiler (gcc, cc or clang) to build benchmarks/csos"
)


def _values(path: str) -> dict[str, tuple[int, int]]:
    return {m: (lo, hi) for m, lo, hi, _, _ in read_checkpoint(path)}


def test_shards_give_the_published_values(tmp_path: os.PathLike[str]) -> None:
    out = str(tmp_path)
    args = ["--boards", "3x4", "--modes", "general,simple", "--shards", "--jobs", "2"]
    assert main([*args, "--threshold", "1", "--tt-bits", "16", "--dir", out, "--nice", "0"]) == 0
    for mode in ("general", "simple"):
        merged = _values(os.path.join(out, f"3x4-{mode}.txt"))
        assert merged == _values(os.path.join(DEFAULT_DIR, f"3x4-{mode}.txt"))
        # one shard checkpoint a distinct first move, holding only that move
        shards = sorted(
            f
            for f in os.listdir(out)
            if f.startswith(f"3x4-{mode}.") and "@" in f and f.endswith(".txt")
        )
        assert [s.split(".")[1] for s in shards] == sorted(merged)
        for s in shards:
            assert list(_values(os.path.join(out, s))) == [s.split(".")[1]]


def test_threshold_only_decides_each_move_against_it(tmp_path: os.PathLike[str]) -> None:
    out = str(tmp_path)
    args = "--boards 4x4 --modes general --shards --threshold 0 --threshold-only --tt-bits 16"
    assert main([*args.split(), "--dir", out, "--nice", "0"]) == 0
    exact = _values(os.path.join(DEFAULT_DIR, "4x4-general.txt"))
    for move, (lo, hi) in _values(os.path.join(out, "4x4-general.txt")).items():
        value = exact[move][0]
        assert lo <= value <= hi
        assert lo >= 0 or hi < 0  # "value >= 0?" is decided
        assert lo < hi  # and no more than that was proven (4x4's moves are 0 or -1)


def test_csos_shard_by_any_symmetric_name(tmp_path: os.PathLike[str]) -> None:
    binary = build()
    prefix = os.path.join(str(tmp_path), "4x4-general.x")
    # S@d4 is S@a1 under a symmetry of the square: the shard solves that class
    shard = ["--tt-bits", "16", "--moves", "S@d4", "--checkpoint", prefix]
    cmd = [binary, "root", "4", "4", "g", *shard]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert run.stdout.startswith("S@a1 -1 -1 ")
    assert _values(prefix + ".txt") == {"S@a1": (-1, -1)}


def test_merge_intersects_proven_bounds_and_rejects_contradictions(
    tmp_path: os.PathLike[str],
) -> None:
    out = str(tmp_path)
    prefix = os.path.join(out, "5x5-general")
    head = "# csos root checkpoint\n# move lo hi nodes cpu_seconds\n"
    with open(prefix + ".txt", "w", encoding="ascii") as f:  # as the run had it at first
        f.write(head + "S@a1 0 0 706808486 717.1\nO@a1 -45 45 311358810 279.4\nS@b1 -47 47 0 0.0\n")
    with open(prefix + ".O@a1.txt", "w", encoding="ascii") as f:
        f.write(head + "O@a1 -45 0 999999999 900.0\n")
    with open(prefix + ".S@b1.txt", "w", encoding="ascii") as f:
        f.write(head + "S@b1 -3 47 5 1.0\n")
    assert merge(prefix)
    merged = {m: (lo, hi, n) for m, lo, hi, n, _ in read_checkpoint(prefix + ".txt")}
    assert merged["O@a1"] == (-45, 0, 999999999)  # the most nodes spent
    assert merged["S@b1"] == (-3, 47, 5)
    assert merged["S@a1"] == (0, 0, 706808486)  # untouched: no shard file
    assert not merge(prefix)  # nothing new
    with open(prefix + ".S@b1.txt", "w", encoding="ascii") as f:
        f.write(head + "S@b1 48 48 5 1.0\n")
    with pytest.raises(ValueError, match="contradict"):
        merge(prefix)
