#!/usr/bin/env python3
"""Accuracy of ``hard`` and of the hint at node budgets, against independent exact values.

The positions are ``benchmarks/data/exact_positions.txt`` (12-16 empty squares, 4x4-6x6, both
modes; exact values and value-keeping actions by the C solver ``benchmarks/csos``, independent
of the page's solver). The ``heldout`` half is the default: it is never used for tuning.

For each position and node budget it records whether ``hard`` (``HardAgent`` at that many
nodes a move) plays an action that keeps the exact value, whether the hint
(``analyse_steps`` at the same budget) has the right sign of the result (win / draw / loss of
the player to move, counting the points already scored), and whether a hint that says
"proven" is right (it must always be). Prints a table by board and mode, and ``JSON {...}``.

    python -m benchmarks.ai_accuracy                       # 72 000 and 16 800 nodes
    python -m benchmarks.ai_accuracy --nodes 35000 --stride 2
    python -m benchmarks.ai_accuracy --split tune --groups "5x5 general,6x6 general"

``--split tune`` measures the other half, the one to tune on; ``--groups`` keeps some boards and
modes. A position's seed is its index in its half, so a position is judged the same way whatever
``--stride`` and ``--groups`` select.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from sos import GameState
from sos.ai.agents import HardAgent, analyse_steps
from sos.ai.base import run_to_end

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "benchmarks", "data", "exact_positions.txt")
#: Nodes a hard move counts in the page's time (1.2 s) on these endgame positions in headless
#: Chromium (``benchmarks/pyodide_browser.py endgame``; benchmarks/RESULTS.md, "Nodes of hard's
#: endgame proof in Chromium"), and with the CPU throttled 4x (a slow phone). The mid-game
#: alpha-beta search counts about half as many a second (bench_ai's ``nodes``: 35 000 a move).
PAGE_NODES = 72_000
PHONE_NODES = 16_800


def load(split: str = "heldout", path: str = DATA) -> list[dict[str, Any]]:
    """The positions of ``split`` (``heldout`` or ``tune``) in ``path`` (a file of
    ``benchmarks/exact_positions.py``'s format)."""
    out = []
    with open(path, encoding="ascii") as handle:
        for line in handle:
            if not line.strip() or line.startswith("#"):
                continue
            board, mode, to_move, scores, value, part, best, source = line.split()
            if part != split:
                continue
            s0, s1 = (int(x) for x in scores.split(","))
            state = GameState.from_text(
                board, mode=mode, to_move=int(to_move), scores=[s0, s1]  # type: ignore[arg-type]
            )
            out.append({"state": state, "value": int(value), "best": set(best.split(",")),
                        "board": f"{state.rules.rows}x{state.rules.cols}", "mode": mode,
                        "source": source})
    return out


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def judge(item: dict[str, Any], nodes: int, seed: int) -> dict[str, Any]:
    """hard's action and the hint's claim on one position at ``nodes``."""
    state: GameState = item["state"]
    me = state.current_player()
    lead = 0 if state.rules.mode == "simple" else state.scores[me] - state.scores[1 - me]
    result = _sign(item["value"] + lead)
    action = str(HardAgent(seed=seed, budget=None, node_budget=nodes).choose_action(state))
    hint = run_to_end(analyse_steps(state, budget=None, seed=seed, node_budget=nodes))
    proven = hint.result
    claimed = proven if proven is not None else _sign(round(hint.margin))
    return {
        "keeps": action in item["best"],
        "hint_sign": claimed == result,
        "proven": proven is not None,
        "overclaim": proven is not None and proven != result,
        "exact_value": hint.exact,
        "action": action,
        "hint": f"{hint.action} {hint.value!r} {hint.result} {hint.exact} {hint.depth}",
    }


def run(
    nodes: int,
    stride: int = 1,
    verbose: bool = False,
    split: str = "heldout",
    groups: set[str] | None = None,
    path: str = DATA,
    empties: tuple[int, int] = (0, 999),
    each: bool = False,
) -> dict[str, Any]:
    """The figures at ``nodes`` on every ``stride``-th position of ``split`` in ``path`` (only
    the ``groups``, e.g. ``{"5x5 general"}``, if given; the seed of a position is its index in
    the split, whatever the stride and groups; only positions with ``empties[0]`` to
    ``empties[1]`` empty squares; ``each``: print a line a position, ``EACH nodes index action
    keeps hint-action hint-value hint-result hint-exact hint-depth``, to compare runtimes
    position by position)."""
    items = load(split, path)
    rows = []
    start = time.perf_counter()
    for i, item in enumerate(items):
        if i % stride or (groups and f"{item['board']} {item['mode']}" not in groups):
            continue
        if not empties[0] <= item["state"].empty_squares <= empties[1]:
            continue
        r = judge(item, nodes, seed=i)
        r["group"] = f"{item['board']} {item['mode']}"
        rows.append(r)
        if each:
            print(f"EACH {nodes} {i} {r['action']} {int(r['keeps'])} {r['hint']}", flush=True)
        if verbose and not (r["keeps"] and r["hint_sign"]):
            print(f"    miss {i}: {item['state'].to_text()} {item['mode']} value {item['value']} "
                  f"keeps {r['keeps']} hint sign {r['hint_sign']} proven {r['proven']}",
                  flush=True)
    out: dict[str, Any] = {"nodes": nodes, "n": len(rows),
                           "seconds": round(time.perf_counter() - start, 1)}
    names = sorted({r["group"] for r in rows})
    print(f"  {nodes} nodes: {'group':<14} {'n':>4} {'keeps value':>12} {'hint sign':>10} "
          f"{'proven':>7} {'wrong proofs':>13}")
    for name in ["all", *names]:
        g = rows if name == "all" else [r for r in rows if r["group"] == name]
        figs = {
            "n": len(g),
            "keeps": 100.0 * sum(r["keeps"] for r in g) / len(g),
            "hint_sign": 100.0 * sum(r["hint_sign"] for r in g) / len(g),
            "proven": 100.0 * sum(r["proven"] for r in g) / len(g),
            "overclaims": sum(r["overclaim"] for r in g),
        }
        out[name] = figs
        print(f"  {'':>{len(str(nodes)) + 7}}{name:<14} {figs['n']:>4} {figs['keeps']:>11.1f}% "
              f"{figs['hint_sign']:>9.1f}% {figs['proven']:>6.1f}% {figs['overclaims']:>13}",
              flush=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--nodes", default=f"{PAGE_NODES},{PHONE_NODES}",
                        help="comma list of node budgets")
    parser.add_argument("--stride", type=int, default=1, help="every n-th position")
    parser.add_argument("--verbose", action="store_true", help="print each miss")
    parser.add_argument("--split", default="heldout",
                        help="heldout (report) or tune (for tuning only)")
    parser.add_argument("--groups", default="",
                        help='comma list of groups, e.g. "5x5 general,6x6 general"')
    parser.add_argument("--data", default=DATA,
                        help="positions file (default benchmarks/data/exact_positions.txt; "
                        "benchmarks/data/exact_positions_b.txt: 300 more, all held out)")
    parser.add_argument("--empties", default="0-999", help="only LO-HI empty squares")
    parser.add_argument("--each", action="store_true",
                        help="print each position's action and hint (EACH lines), to compare "
                        "CPython with Pyodide in Chromium position by position")
    args = parser.parse_args(argv)
    lo, hi = (int(x) for x in args.empties.split("-"))
    groups = {g.strip() for g in args.groups.split(",") if g.strip()} or None
    figures = {
        n: run(int(n), args.stride, args.verbose, args.split, groups, args.data, (lo, hi),
             args.each)
        for n in args.nodes.split(",")
    }
    print("JSON " + json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
