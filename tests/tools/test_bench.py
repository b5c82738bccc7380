"""The strength benchmark's node budgets by phase (benchmarks/bench_ai.py)."""

from __future__ import annotations

from benchmarks.bench_ai import parse_nodes, phase_nodes
from sos import GameState, Rules, new_game
from sos.ai.agents import ENDGAME_EMPTIES


def test_parse_nodes_per_size_and_phase() -> None:
    assert parse_nodes(None) == {}
    assert parse_nodes("9000") == {0: 9000}
    assert parse_nodes("6:40000/37000,8:15250") == {6: (40000, 37000), 8: 15250}


def test_phase_nodes_pick_the_prover_figure_at_the_endgame_threshold() -> None:
    opening = new_game(Rules.square(6))
    assert phase_nodes((40000, 37000), opening) == 40000
    assert phase_nodes(15250, opening) == 15250
    assert phase_nodes(None, opening) is None
    # 6x6 with exactly ENDGAME_EMPTIES empty squares (and one more): prover, then search
    filled = 36 - ENDGAME_EMPTIES
    text = "".join("O" if i < filled else "." for i in range(36))
    rows = "/".join(text[r * 6 : r * 6 + 6] for r in range(6))
    at = GameState.from_text(rows)
    assert at.empty_squares == ENDGAME_EMPTIES
    assert phase_nodes((40000, 37000), at) == 37000
    text = "".join("O" if i < filled - 1 else "." for i in range(36))
    above = GameState.from_text("/".join(text[r * 6 : r * 6 + 6] for r in range(6)))
    assert phase_nodes((40000, 37000), above) == 40000
