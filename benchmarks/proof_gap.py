#!/usr/bin/env python3
"""Where ``hard`` misses the exact value in general mode: the proof's budget or the heuristic's
choice.

For each position of ``benchmarks/data/exact_positions.txt`` (``--split``, general mode, the
boards of ``--boards``) it measures, with the page's solver and no budget:

* ``result``: nodes :meth:`sos.ai.solver.Solver.result_action` needs to prove the game's result
  (a fresh solver, ``hard``'s move order: ``random.Random(seed)``);
* ``improve``: nodes :meth:`sos.ai.solver.Solver.improve_action` then needs to prove the exact
  value (from the proven result up; after a proven loss,
  :meth:`sos.ai.solver.Solver.least_loss_action`, down);
* ``search``: whether the heuristic search alone (``hard``'s :class:`sos.ai.search.AlphaBeta`
  settings) at ``--nodes`` plays a move that keeps the exact value (csos's set);
* ``hard``: whether ``hard`` at ``--nodes`` keeps it.

A miss of ``hard`` with ``result + improve`` far above the budget is the proof's budget; one
where the search alone would also miss is the heuristic's choice. Prints one line a position
and totals; ``--misses`` prints only the positions ``hard`` misses.

    python -m benchmarks.proof_gap --split heldout --nodes 35000 --misses
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from benchmarks.ai_accuracy import DATA, load
from sos.ai.agents import HARD_TENSION, HardAgent, hard_playouts
from sos.ai.base import SearchTimeout, run_to_end
from sos.ai.search import AlphaBeta, move_action
from sos.ai.solver import Solver


def measure(item: dict[str, Any], nodes: int, seed: int, cap: int) -> dict[str, Any]:
    """The figures of one position (see the module docstring); ``cap`` bounds each proof."""
    state = item["state"]
    action = str(HardAgent(seed=seed, budget=None, node_budget=nodes).choose_action(state))
    out: dict[str, Any] = {"hard": action in item["best"], "hard_action": action}
    searcher = AlphaBeta(budget=None, rng=random.Random(seed), node_budget=nodes)
    searcher.tension = HARD_TENSION
    searcher.playouts = hard_playouts(state.rules)
    found = run_to_end(searcher.search(state))
    out["search"] = str(move_action(found.move, state.rules.cols)) in item["best"]
    solver = Solver(use_book=False, tt_limit=10_000_000)
    rng = random.Random(seed)
    try:
        act, result = run_to_end(solver.result_action(state, rng, None, cap))
    except SearchTimeout:
        out.update(result=None, improve=None)
        return out
    out["result"] = solver.nodes
    me = state.current_player()
    lead = state.scores[me] - state.scores[1 - me]
    before = solver.nodes
    if act is None:  # every action loses: the least loss
        try:
            act, value, _ = run_to_end(
                solver.least_loss_action(state, -lead - 1, rng, None, cap)
            )
        except SearchTimeout:
            out["improve"] = None
            return out
        out["improve"] = solver.nodes - before
        out["value_ok"] = value == item["value"]
        return out
    best, value, exact = run_to_end(
        solver.improve_action(state, act, result - lead, rng, None, cap)
    )
    out["improve"] = solver.nodes - before if exact else None
    out["improved_keeps"] = str(best) in item["best"]
    out["value_ok"] = value == item["value"]
    return out


def proof_nodes(item: dict[str, Any], seed: int, cap: int) -> tuple[int, float, bool]:
    """Nodes and CPU seconds the page's solver needs to prove the exact value of ``item``
    the way ``hard`` does (the result, then the least loss or the best margin), a fresh
    solver and ``cap`` nodes at most; and whether it finished."""
    state = item["state"]
    solver = Solver(use_book=False, tt_limit=10_000_000)
    rng = random.Random(seed)
    me = state.current_player()
    lead = state.scores[me] - state.scores[1 - me]
    t0 = time.process_time()
    try:
        act, result = run_to_end(solver.result_action(state, rng, None, cap))
        left = max(1, cap - solver.nodes)
        if act is None:
            act, value, done = run_to_end(
                solver.least_loss_action(state, -lead - 1, rng, None, left)
            )
        else:
            act, value, done = run_to_end(
                solver.improve_action(state, act, result - lead, rng, None, left)
            )
    except SearchTimeout:
        return solver.nodes, time.process_time() - t0, False
    if done and (value != item["value"] or str(act) not in item["best"]):
        raise AssertionError(f"wrong proof: {state.to_text()} {value} {act}")
    return solver.nodes, time.process_time() - t0, done


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--data", default=DATA, help="positions file (benchmarks/exact_positions)")
    parser.add_argument("--boards", default="5x5,6x6")
    parser.add_argument("--nodes", type=int, default=35_000)
    parser.add_argument("--cap", type=int, default=3_000_000, help="node cap of each proof")
    parser.add_argument("--misses", action="store_true", help="only hard's misses")
    parser.add_argument("--proofs", action="store_true",
                        help="only the nodes of each exact proof (proof_nodes), and their sum")
    args = parser.parse_args(argv)
    items = load(args.split, args.data)
    boards = set(args.boards.split(","))
    if args.proofs:
        total = unfinished = 0
        seconds = 0.0
        counts = []
        for i, item in enumerate(items):
            if item["mode"] != "general" or item["board"] not in boards:
                continue
            n, sec, done = proof_nodes(item, i, args.cap)
            counts.append(n)
            total += n
            seconds += sec
            unfinished += not done
            print(f"{i:3} {item['board']} e={item['state'].empty_squares} nodes={n} "
                  f"{'' if done else 'unfinished'}", flush=True)
        counts.sort()
        print(f"{len(counts)} proofs: {total} nodes (median {counts[len(counts) // 2]}), "
              f"{seconds:.1f} CPU s, {total / max(seconds, 1e-9):.0f} nodes/s, "
              f"{unfinished} unfinished at {args.cap}")
        return
    t0 = time.perf_counter()
    rows = []
    for i, item in enumerate(items):  # the seed is the index in the split, as in ai_accuracy
        if item["mode"] != "general" or item["board"] not in boards:
            continue
        if args.misses:
            action = str(HardAgent(seed=i, budget=None, node_budget=args.nodes)
                         .choose_action(item["state"]))
            if action in item["best"]:
                rows.append({"hard": True})
                continue
        r = measure(item, args.nodes, i, args.cap)
        rows.append(r)
        print(f"{i:3} {item['board']} e={item['state'].empty_squares} v={item['value']:+d} "
              f"hard={r['hard']!s:5} search={r['search']!s:5} result={r.get('result')} "
              f"improve={r.get('improve')} {item['state'].to_text()}", flush=True)
    print(f"{len(rows)} positions, hard keeps {sum(r['hard'] for r in rows)}, "
          f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
