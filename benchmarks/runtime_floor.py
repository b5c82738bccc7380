#!/usr/bin/env python3
"""The floor of the Pyodide runtime: nanoseconds per basic Python operation, and the ratios.

    python benchmarks/runtime_floor.py                   # this interpreter only
    node benchmarks/pyodide_bench.mjs --script benchmarks/runtime_floor.py   # Pyodide in Node
    python benchmarks/pyodide_browser.py --script benchmarks/runtime_floor.py  # Pyodide, Chromium
    python benchmarks/runtime_floor.py --compare [--hosts node,chromium] [--rounds 3]

Each figure is the time of one iteration of ``for i in range(n): BODY`` (loop overhead
included; the ``empty loop`` row is that overhead), the best of 15 runs of >= 20 ms each: the
minimum is what the runtime can do, the other runs lost time to other processes. The last row
is the engine itself: one random 8x8 playout (legal_actions + apply until full, as
bench_ai.py's ``playouts``), timed the same way. A warm-up of about a second comes first, so
that V8 has tiered the WebAssembly up. The last line is ``JSON {...}``.

``--compare`` runs the figures here (CPython), then under the hosts named, ``--rounds`` times in
turn (each figure the best of all rounds: on a loaded machine, the closest to its floor), and
prints a table
of Pyodide ÷ CPython time ratios: for the engine's ratio to fall much below the ratios of the
operations it is made of, the engine would have to stop using them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from bisect import bisect_left
from collections.abc import Callable
from typing import Any, NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(ROOT, "sos")) and ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sos import Rules, new_game  # noqa: E402


class _Slots:
    __slots__ = ("a", "b")

    def __init__(self) -> None:
        self.a = 1
        self.b = 2

    def m(self) -> int:
        return self.a


class _Pattern(NamedTuple):
    a: int
    b: int
    line: object


def _f(x: int) -> int:
    return x


#: name -> (kind, loop body); ``i`` is the loop index, ``x`` a local int.
BENCHES: dict[str, tuple[str, str]] = {
    "empty loop": ("bytecode", "pass"),
    "int arithmetic": ("bytecode", "x = (x * 3 + i) & 1023"),
    "local assignments (3)": ("bytecode", "a = x; x = a; a = x"),
    "tuple unpack (3)": ("bytecode", "a, b, c = t3"),
    "list index read": ("bytecode", "a = lst[i & 63]"),
    "list index store": ("bytecode", "lst[i & 63] = i"),
    "str == in an if": ("bytecode", "if cells[i & 63] == 'S': x += 1"),
    "slot attribute read": ("bytecode", "a = obj.a"),
    "slot attribute store": ("bytecode", "obj.b = i"),
    "Python function call": ("bytecode", "f(i)"),
    "Python method call": ("bytecode", "obj.m()"),
    "loop over 8 patterns": ("bytecode",
                             "for p in pats:\n            if cells[p.a] == 'O': x += 1"),
    "len()": ("C call", "len(lst)"),
    "isinstance()": ("C call", "isinstance(t3, tuple)"),
    "list.append + pop": ("C call", "lst.append(i); lst.pop()"),
    "dict.get": ("C call", "d.get(i & 63)"),
    "bisect_left (64)": ("C call", "bisect_left(lst, i & 63)"),
    "tuple.__new__ (3)": ("C call", "tnew(P, t3)"),
    "list.copy (128)": ("C call", "lst128.copy()"),
    "del + insert slice": ("C call", "del lst128[4:6]; lst128[4:4] = t2"),
    "bytearray read": ("C call", "a = ba[i & 63]"),
    "random.getrandbits": ("C call", "rng.getrandbits(7)"),
    "random.randrange": ("C call", "rng.randrange(100)"),
    "sum(range(1000))": ("C bulk", "sum(range(1000))"),
    "sorted(1000 floats)": ("C bulk", "sorted(floats)"),
    "list.copy (10000)": ("C bulk", "big.copy()"),
    "bytes.count (10000)": ("C bulk", "data.count(1)"),
}


def _compile() -> dict[str, Callable[[int], object]]:
    env: dict[str, Any] = {
        "lst": list(range(64)), "cells": ["S", "O", "."] * 22, "lst128": list(range(128)),
        "obj": _Slots(), "d": {i: i for i in range(64)}, "ba": bytearray(64),
        "rng": random.Random(1), "t3": (1, 2, 3), "t2": (0, 1), "tnew": tuple.__new__,
        "P": _Pattern, "pats": tuple(_Pattern(i, i + 1, None) for i in range(8)), "f": _f,
        "bisect_left": bisect_left, "big": list(range(10000)), "data": bytes(10000),
        "floats": [random.Random(2).random() for _ in range(1000)],
    }
    out: dict[str, Callable[[int], object]] = {}
    for name, (_, body) in BENCHES.items():
        namespace = dict(env)
        exec(f"def bench(n):\n    x = 0\n    for i in range(n):\n        {body}\n", namespace)
        out[name] = namespace["bench"]
    return out


_RNG = random.Random(1)


def _playouts(n: int) -> None:
    rng = _RNG
    rules = Rules.square(8)
    for _ in range(n):
        state = new_game(rules)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])


def best_ns(fn: Callable[[int], object], target: float = 0.02, repeats: int = 15) -> float:
    """Nanoseconds per iteration of ``fn(n)``: the best of ``repeats`` runs of >= ``target`` s."""
    n = 1
    while True:
        t0 = time.perf_counter()
        fn(n)
        if time.perf_counter() - t0 >= target:
            break
        n *= 2
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def measure() -> dict[str, float]:
    funcs = _compile()
    start = time.perf_counter()
    while time.perf_counter() - start < 1.0:  # warm-up: let V8 tier the interpreter up
        _playouts(20)
        for fn in funcs.values():
            fn(200)
    out = {name: best_ns(fn) for name, fn in funcs.items()}
    out["8x8 random playout"] = best_ns(_playouts, target=0.05, repeats=15)
    return out


def _kind(name: str) -> str:
    return BENCHES[name][0] if name in BENCHES else "engine"


def compare(hosts: list[str], rounds: int) -> None:
    """Run here and under each host, ``rounds`` times in turn; keep each figure's best."""
    figures: dict[str, dict[str, float]] = {}

    def keep(name: str, ns: dict[str, float]) -> None:
        old = figures.setdefault(name, ns)
        for op, value in ns.items():
            old[op] = min(old.get(op, value), value)

    commands = {
        "node": ["node", os.path.join(ROOT, "benchmarks", "pyodide_bench.mjs"), "--script",
                 os.path.abspath(__file__)],
        "chromium": [sys.executable, os.path.join(ROOT, "benchmarks", "pyodide_browser.py"),
                     "--script", os.path.abspath(__file__)],
    }
    for _ in range(rounds):
        keep("CPython " + sys.version.split()[0], measure())
        for host in hosts:
            proc = subprocess.run(commands[host], capture_output=True, text=True, check=False)
            lines = [line for line in proc.stdout.splitlines() if line.startswith("JSON ")]
            if proc.returncode != 0 or not lines:
                print(f"{host}: failed\n{proc.stdout[-1500:]}{proc.stderr[-1500:]}")
                continue
            keep(f"Pyodide {host}", json.loads(lines[-1][5:])["ns"])
    names = list(figures)
    print("| operation | kind | " + " | ".join(f"{n} (ns)" for n in names) + " | "
          + " | ".join(f"÷ CPython, {n.split()[-1]}" for n in names[1:]) + " |")
    print("| --- " * (2 + 2 * len(names) - 1) + "|")
    base = figures[names[0]]
    for op in base:
        ns = [figures[n].get(op, float("nan")) for n in names]
        cells = [f"{v:,.0f}" if v >= 1000 else f"{v:.1f}" for v in ns]
        ratios = [f"{v / base[op]:.2f}" for v in ns[1:]]
        print(f"| {op} | {_kind(op)} | " + " | ".join(cells + ratios) + " |")
    print("JSON " + json.dumps(figures))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", action="store_true",
                        help="also run under Pyodide (--hosts) and print the ratios")
    parser.add_argument("--hosts", default="node,chromium", help="node, chromium or both")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --compare: runs of each host, in turn (best figure kept)")
    args = parser.parse_args(argv)
    if args.compare:
        compare([h for h in args.hosts.split(",") if h], args.rounds)
        return
    figures = measure()
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    for name, ns in figures.items():
        print(f"  {name:24s} {_kind(name):8s} {ns:10.1f} ns")
    print("JSON " + json.dumps({"python": sys.version.split()[0], "platform": sys.platform,
                               "ns": figures}))


if __name__ == "__main__":
    main()
