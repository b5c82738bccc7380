#!/usr/bin/env python3
"""Equivalence harness of the AI: what each searcher and level does at fixed node budgets.

For a fixed set of positions (3x3 to 8x8, both modes, two and three players; openings, middle
games and endgames, made once from seeded medium/easy games and stored as text) it records,
for each searcher and level, the chosen move, the value and the node count:

* ``ab``: :class:`sos.ai.search.AlphaBeta` at a node budget (``tension`` 0, the hint's and the
  review's setting, and ``tension`` 3, hard's) -> move, value, exact, depth, nodes;
* ``solve``: :meth:`sos.ai.solver.Solver.value` without the book (endgames) -> value, nodes;
* ``result``, ``secure``, ``best``: the solver's :meth:`~sos.ai.solver.Solver.result_action`,
  :meth:`~sos.ai.solver.Solver.secure_action` and :meth:`~sos.ai.solver.Solver.best_action`
  at a node budget (two players) -> move, result / value or ``timeout``, nodes;
* ``optimal``: :meth:`~sos.ai.solver.Solver.optimal_actions` on endgames -> value, moves, nodes;
* ``hard``, ``medium``, ``easy``, ``perfect``: the levels' moves (``hard`` at a node budget);
* ``hint``: :func:`sos.ai.agents.analyse_steps` at a node budget -> move, value, exact, result;
* ``review``: :func:`sos.ai.review.review_steps` of one short game -> every verdict.

The records made from a given commit are the fixture ``benchmarks/data/ai_equivalence.json``;
``tests/ai/test_equivalence.py`` replays a subset of it in seconds. A refactor that keeps the
AI's behaviour keeps every record (moves, values and node counts)::

    python benchmarks/ai_equivalence.py --check            # every record (about a minute)
    python benchmarks/ai_equivalence.py --write --commit X # a new fixture (after a deliberate
                                                           # change of behaviour; say which)

The positions are part of the fixture; ``--new-positions`` makes them afresh (seeded).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Generator, Iterable
from typing import Any, TypeVar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sos import GameState, Rules, new_game  # noqa: E402
from sos.ai.agents import HardAgent, analyse_steps, make_agent  # noqa: E402
from sos.ai.review import review_steps  # noqa: E402
from sos.ai.search import AlphaBeta, SearchTimeout, move_action, run_to_end  # noqa: E402
from sos.ai.solver import Solver  # noqa: E402

FIXTURE = os.path.join(ROOT, "benchmarks", "data", "ai_equivalence.json")

T = TypeVar("T")

#: (rows, cols, mode, players, games): boards the positions come from.
BOARDS: tuple[tuple[int, int, str, int, int], ...] = (
    (3, 3, "general", 2, 2),
    (4, 4, "general", 2, 2),
    (4, 4, "simple", 2, 2),
    (3, 5, "general", 2, 1),
    (5, 5, "general", 2, 2),
    (5, 5, "simple", 2, 2),
    (6, 6, "general", 2, 2),
    (6, 6, "simple", 2, 2),
    (8, 8, "general", 2, 1),
    (8, 8, "simple", 2, 1),
    (5, 5, "general", 3, 1),
    (6, 6, "simple", 3, 1),
    (6, 6, "general", 4, 1),
)
#: Positions taken from each game: after 2 moves (opening), at half the squares (middle
#: game) and at these numbers of empty squares (endgame).
ENDGAME_MARKS = (14, 9)


def make_positions(seed: int = 2026) -> list[dict[str, Any]]:
    """The positions, as dicts (``id``, ``rows``, ``cols``, ``mode``, ``players``, ``text``,
    ``to_move``, ``scores``), from seeded games of medium (and easy) players."""
    out: list[dict[str, Any]] = []
    rng = random.Random(seed)
    for rows, cols, mode, players, games in BOARDS:
        for g in range(games):
            state = new_game(Rules(rows, cols, mode, players))  # type: ignore[arg-type]
            # (simple mode: medium only, else an easy move opens an SOS and ends it at once)
            levels = ("medium",) if mode == "simple" else ("medium", "medium", "easy")
            agents = [make_agent(rng.choice(levels), rng.randrange(1 << 30))
                      for _ in range(players)]
            cells = rows * cols
            marks = [cells - 2, cells // 2] + [m for m in ENDGAME_MARKS if m < cells // 2]
            while not state.is_terminal() and marks:
                if state.empty_squares <= marks[0]:
                    while marks and state.empty_squares <= marks[0]:
                        marks.pop(0)
                    out.append({
                        "id": f"{rows}x{cols}{mode[0]}{players}-{g}-{state.empty_squares}",
                        "rows": rows, "cols": cols, "mode": mode, "players": players,
                        "text": state.to_text(), "to_move": state.current_player(),
                        "scores": list(state.scores),
                    })
                state.apply(agents[state.current_player()].choose_action(state))
    return out


def load_state(p: dict[str, Any]) -> GameState:
    """The :class:`GameState` of a stored position."""
    return GameState.from_text(
        p["text"], mode=p["mode"], players=p["players"], to_move=p["to_move"], scores=p["scores"]
    )


def _run(gen: Generator[None, None, T]) -> T:
    return run_to_end(gen)


def _timed(gen: Generator[None, None, T]) -> tuple[T | None, bool]:
    try:
        return run_to_end(gen), False
    except SearchTimeout:
        return None, True


#: Node budgets of the searches (small: the fixture must replay fast).
AB_NODES = (300, 3000)
SOLVER_NODES = 4000
HARD_NODES = 4000
HINT_NODES = 4000
#: Endgames at most this many empty squares are solved to the end (``solve``, ``optimal``).
SOLVE_EMPTIES = 10


def records_for(p: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """Every record of one position (see the module docstring)."""
    state = load_state(p)
    cols = p["cols"]
    two = p["players"] == 2
    small = p["rows"] * p["cols"] <= 16
    base = {"pos": p["id"]}

    def act(move: int) -> str:
        return str(move_action(move, cols)) if move >= 0 else "-"

    for nodes in AB_NODES:
        for tension in (0, 3):
            ab = AlphaBeta(budget=None, rng=random.Random(7), node_budget=nodes)
            ab.tension = tension
            r = _run(ab.search(state.clone()))
            yield {**base, "kind": "ab", "nodes_budget": nodes, "tension": tension,
                   "move": act(r.move), "value": r.value, "exact": r.exact, "depth": r.depth,
                   "nodes": r.nodes}
    if two and state.empty_squares <= SOLVE_EMPTIES:
        solver = Solver(use_book=False)
        v = _run(solver.value(state))
        yield {**base, "kind": "solve", "value": v, "nodes": solver.nodes}
        solver = Solver(use_book=False)
        value, keep = _run(solver.optimal_actions(state))
        yield {**base, "kind": "optimal", "value": value, "moves": [str(a) for a in keep],
               "nodes": solver.nodes}
    if two and (small or state.empty_squares <= 18):
        for kind in ("result", "secure", "best"):
            solver = Solver(use_book=small)
            rng = random.Random(11)
            gen: Any
            if kind == "result":
                gen = solver.result_action(state, rng, None, SOLVER_NODES)
            elif kind == "secure":
                gen = solver.secure_action(state, rng, None, SOLVER_NODES)
            else:
                gen = solver.best_action(state, rng, None, SOLVER_NODES)
            out, timeout = _timed(gen)
            rec: dict[str, Any] = {**base, "kind": kind, "nodes": solver.nodes,
                                   "timeout": timeout}
            if out is not None:
                rec["move"] = str(out[0]) if out[0] is not None else "-"
                rec["value"] = list(out[1:])
            if kind == "secure":
                rec["refuted"] = [str(a) for a in solver.refuted]
            yield rec
    hard = HardAgent(seed=5, budget=None, node_budget=HARD_NODES)
    yield {**base, "kind": "hard", "move": str(hard.choose_action(state))}
    for level in ("medium", "easy"):
        yield {**base, "kind": level, "move": str(make_agent(level, 3).choose_action(state))}
    if two and small:
        perfect = make_agent("perfect", 3)
        yield {**base, "kind": "perfect", "move": str(perfect.choose_action(state))}
    a = _run(analyse_steps(state, budget=None, seed=1, node_budget=HINT_NODES))
    yield {**base, "kind": "hint", "move": str(a.action), "value": a.value, "exact": a.exact,
           "margin": a.margin, "depth": a.depth, "result": a.result}


def review_records() -> Iterable[dict[str, Any]]:
    """The verdicts of a review of two seeded games (5x5 general: exact endgame and estimated
    opening; 4x4 simple: exact throughout)."""
    for rows, mode, seed in ((5, "general", 1), (4, "simple", 2)):
        state = new_game(Rules(rows, rows, mode))  # type: ignore[arg-type]
        agents = [make_agent("medium", seed), make_agent("easy", seed + 1)]
        while not state.is_terminal():
            state.apply(agents[state.current_player()].choose_action(state))
        review = _run(review_steps(state, exact_nodes=3000, estimate_nodes=800))
        yield {"pos": f"review-{rows}{mode[0]}", "kind": "review",
               "plies": [[str(p.action), p.value_before, p.value_after, p.verdict, p.exact]
                         for p in review.plies]}


def all_records(positions: list[dict[str, Any]], only: set[str] | None = None,
                reviews: bool = True) -> list[dict[str, Any]]:
    """The records of ``positions`` (only the ids in ``only``, if given), then the reviews."""
    out: list[dict[str, Any]] = []
    for p in positions:
        if only is None or p["id"] in only:
            out.extend(records_for(p))
    if reviews:
        out.extend(review_records())
    return out


def compare(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> list[str]:
    """Differences between two record lists, one line each (empty: equivalent)."""
    diffs = []
    if len(expected) != len(got):
        diffs.append(f"{len(expected)} records expected, {len(got)} made")
    for e, g in zip(expected, got, strict=False):
        if e != g:
            diffs.append(f"expected {json.dumps(e)}\n     got {json.dumps(g)}")
    return diffs


def load_fixture(path: str = FIXTURE) -> dict[str, Any]:
    """The stored fixture: ``commit``, ``positions``, ``records``."""
    with open(path, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write a new fixture")
    parser.add_argument("--check", action="store_true", help="compare with the fixture")
    parser.add_argument("--commit", default="", help="commit the fixture is made from")
    parser.add_argument("--new-positions", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.new_positions or not os.path.exists(FIXTURE):
        positions = make_positions()
    else:
        positions = load_fixture()["positions"]
    records = all_records(positions)
    took = time.perf_counter() - start
    kinds: dict[str, int] = {}
    for r in records:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    print(f"{len(positions)} positions, {len(records)} records in {took:.1f} s: "
          + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    if args.write:
        os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
        with open(FIXTURE, "w", encoding="utf-8") as handle:
            json.dump({"commit": args.commit, "positions": positions, "records": records},
                      handle, indent=0, separators=(",", ":"))
            handle.write("\n")
        print(f"wrote {FIXTURE}")
    if args.check:
        expected = load_fixture()["records"]
        diffs = compare(expected, records)
        for d in diffs[:20]:
            print(d)
        changed: dict[str, int] = {}
        modes = {p["id"]: f"{p['mode']} {p['players']}p" for p in positions}
        for e, g in zip(expected, records, strict=False):
            if e != g:
                group = f"{e['kind']} {modes.get(e['pos'], e['pos'])}"
                changed[group] = changed.get(group, 0) + 1
        if changed:
            print("changed records: " + ", ".join(f"{k}: {n}" for k, n in sorted(changed.items())))
        print("EQUIVALENT" if not diffs else f"{len(diffs)} DIFFERENCES")
        return 1 if diffs else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
