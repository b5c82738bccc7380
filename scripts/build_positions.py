#!/usr/bin/env python3
"""Build the accuracy data set: game positions with their exact values, by the solver.

Plays games on 4x4, 5x5 and 6x6 (both modes, two players), half of them hard against hard and
half hard against medium, seats swapped from game to game, and takes up to
``--per-game`` positions with at most ``--max-empty`` (and at least ``--min-empty``) empty
squares from each. Every position is solved exactly by :class:`sos.ai.solver.Solver`
(:meth:`~sos.ai.solver.Solver.optimal_actions`, then null-window tests at the result threshold).
To keep the build short the games' hard players search ``--game-nodes`` nodes a move (well
below the page's budget); the positions only need to be ones that hard's games reach.

Output (``tests/data/positions.txt``), one position a line, fields separated by one space::

    <rows>x<cols> <mode> <to_move> <score0>,<score1> <board> <value> <result> \
        <optimal> <keeping> <source>

* ``board``: rows from the top separated by ``/`` (``S``, ``O``, ``.``), as
  :meth:`sos.GameState.from_text` reads it (with ``mode``, ``to_move`` and ``scores``);
* ``value``: the exact value for the player to move, in future points (``general``:
  own minus opponent's points still to be made; ``simple``: +1 / 0 / -1);
* ``result``: +1 / 0 / -1, the game's result for the player to move under best play
  (the sign of the current lead plus ``value``; ``simple``: ``value``);
* ``optimal``: every action that keeps ``value`` (``S@b3`` notation, comma separated);
* ``keeping``: every action that keeps ``result`` (a superset of ``optimal``);
* ``source``: ``hard-hard`` or ``hard-medium`` and the game number.

Lines starting with ``#`` are comments. Usage (about 20 minutes on one core)::

    python scripts/build_positions.py [--out tests/data/positions.txt] [--games 30]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sos import GameState, Rules, new_game  # noqa: E402
from sos.ai.agents import HardAgent, make_agent  # noqa: E402
from sos.ai.search import Position, action_move, run_to_end  # noqa: E402
from sos.ai.solver import Solver  # noqa: E402

SIZES = (4, 5, 6)
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "positions.txt")


def keeping_actions(solver: Solver, state: GameState, value: int, result: int) -> list[str]:
    """Actions whose exact value keeps the game's ``result`` (null-window tests)."""
    pos = Position(state)
    me = pos.to_move
    lead = 0 if pos.simple else pos.scores[me] - pos.scores[1 - me]
    if result < 0:
        return sorted(str(a) for a in state.legal_actions())  # every action loses
    threshold = (1 if result > 0 else 0) - lead
    out = []
    for action in state.legal_actions():
        m = action_move(action, pos.cols)
        gain = pos.play(m)
        try:
            v = run_to_end(solver._child(pos, gain, threshold - 1, threshold))
        finally:
            pos.unplay()
        if v >= threshold:
            out.append(str(action))
    return sorted(out)


def game_positions(
    size: int, mode: str, index: int, game_nodes: int, per_game: int, lo: int, hi: int
) -> list[tuple[GameState, str]]:
    """Up to ``per_game`` positions with ``lo``..``hi`` empty squares from one game."""
    kind = "hard-hard" if index % 2 == 0 else "hard-medium"
    hard = HardAgent(seed=index, budget=None, node_budget=game_nodes)
    other = (
        HardAgent(seed=index + 500, budget=None, node_budget=game_nodes)
        if kind == "hard-hard"
        else make_agent("medium", seed=index + 500)
    )
    seats = [hard, other] if (index // 2) % 2 == 0 else [other, hard]
    state = new_game(Rules.square(size, mode))  # type: ignore[arg-type]
    found: list[GameState] = []
    while not state.is_terminal():
        if lo <= state.empty_squares <= hi:
            found.append(state.clone())
        state.apply(seats[state.current_player()].choose_action(state))
    rng = random.Random(size * 1000 + index)
    picked = rng.sample(found, min(per_game, len(found)))
    return [(s, f"{kind}#{index}") for s in picked]


def line(state: GameState, source: str, solver: Solver) -> str:
    value, optimal = run_to_end(solver.optimal_actions(state))
    me = state.current_player()
    lead = 0 if state.rules.mode == "simple" else state.scores[me] - state.scores[1 - me]
    total = value + lead
    result = (total > 0) - (total < 0)
    keeping = keeping_actions(solver, state, value, result)
    rules = state.rules
    board = state.to_text()
    return " ".join([
        f"{rules.rows}x{rules.cols}", rules.mode, str(me),
        ",".join(str(s) for s in state.scores), board, str(value), str(result),
        ",".join(sorted(str(a) for a in optimal)), ",".join(keeping), source,
    ])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--games", type=int, default=30, help="games per board size and mode")
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument("--min-empty", type=int, default=4)
    parser.add_argument("--max-empty", type=int, default=16)
    parser.add_argument("--game-nodes", type=int, default=3000)
    args = parser.parse_args(argv)
    lines = [
        "# SOS accuracy data set: built by scripts/build_positions.py (format in its docstring)",
        f"# {args.games} games per board and mode, {args.per_game} positions a game, "
        f"{args.min_empty}-{args.max_empty} empty squares, hard at {args.game_nodes} nodes",
    ]
    start = time.perf_counter()
    for size in SIZES:
        for mode in ("general", "simple"):
            count = 0
            for index in range(args.games):
                solver = Solver()  # (reads the 4x4 opening book on 4x4)
                for state, source in game_positions(
                    size, mode, index, args.game_nodes, args.per_game, args.min_empty,
                    args.max_empty,
                ):
                    lines.append(line(state, source, solver))
                    count += 1
            print(f"{size}x{size} {mode}: {count} positions "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    with open(args.out, "w", encoding="ascii") as handle:
        handle.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 2} positions to {args.out}")


if __name__ == "__main__":
    main()
