"""Nodes hard searches in the page's time budget, split by phase, this engine and a baseline.

The node budgets of ``bench_ai.py --sections strength`` stand for the page's time budget. One
figure per board hides that the two phases of a move run different code: above
``ENDGAME_EMPTIES`` empty squares only the heuristic alpha-beta runs (the part the new engine
made 2-3x faster), at or below it the endgame prover runs first (about as fast in both). This
prints, per board size and engine, the median nodes per budget of moves in each phase, on
positions from seeded medium-vs-medium games (bench_ai.game_positions, 4 games, and the
same games at 18, 15 and 12 empty squares)::

    python benchmarks/phase_nodes.py 6,8           # this Python
    SOS_BASELINE=<older checkout> python benchmarks/pyodide_browser.py \\
        --script benchmarks/phase_nodes.py 6,8     # in headless Chromium, with the baseline

Use the figures as ``--hard-nodes SIZE:SEARCH/PROVER`` and ``--base-nodes``.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]

from bench_ai import _load_baseline, game_positions  # noqa: E402

from sos import GameState, Rules, new_game  # noqa: E402
from sos.ai.agents import ENDGAME_EMPTIES, hard_budget, make_agent  # noqa: E402


def endgame_positions(size: int, games: int = 4, seed: int = 5) -> list[GameState]:
    """Positions at 18, 15 and 12 empty squares of the games of ``game_positions``."""
    out = []
    for g in range(games):
        state = new_game(Rules.square(size))
        agent = make_agent("medium", seed=seed + g)
        marks = [18, 15, 12]
        while not state.is_terminal() and marks:
            if state.empty_squares <= marks[0]:
                marks.pop(0)
                out.append(state.clone())
            state.apply(agent.choose_action(state))
    return out


def main(argv: list[str]) -> None:
    sizes = [int(x) for x in (argv[0] if argv else "6,8").split(",")]
    makers: dict[str, Any] = {"new": make_agent}
    if os.environ.get("SOS_BASELINE"):
        _load_baseline()
        import sos_baseline.agents  # type: ignore[import-not-found]

        makers["base"] = sos_baseline.agents.make_agent
    for size in sizes:
        positions = [p for p in game_positions(size, games=4) if p.empty_squares > 4]
        seen = {p.empty_squares for p in positions if p.empty_squares <= ENDGAME_EMPTIES}
        if len(seen) < 2:  # larger boards: the prover's phase is past game_positions' 65 %
            positions += endgame_positions(size)
        for name, make in makers.items():
            rates: dict[str, list[float]] = {"search": [], "prover": []}
            for k, state in enumerate(positions):
                agent = make("hard", seed=k)
                budget = hard_budget(state.rules)
                start = time.perf_counter()
                agent.choose_action(state)
                wall = time.perf_counter() - start
                nodes = agent.searcher.nodes + agent.endgame.nodes
                phase = "prover" if state.empty_squares <= ENDGAME_EMPTIES else "search"
                # a move proved early stops short of the budget: count its rate, not its nodes
                rates[phase].append(nodes / max(wall, 1e-9) * budget)
            for phase, values in rates.items():
                values.sort()
                if values:
                    print(f"phase-nodes {size}x{size} {name} {phase}: median "
                          f"{values[len(values) // 2]:.0f} nodes per {budget} s "
                          f"({len(values)} positions, {values[0]:.0f}-{values[-1]:.0f})",
                          flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
