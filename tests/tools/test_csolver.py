"""The independent C solver and peers (benchmarks/csos) against the page's Python solver.

Compiles ``csos`` with the C compiler (skipped, saying so, only when there is none: CI has gcc)
and compares a small sample; the full comparison (every book position, a larger sample) is
``python -m benchmarks.check_csolver``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from benchmarks.check_csolver import book_positions, random_position
from benchmarks.csos.driver import CSolver, build, compiler
from benchmarks.exact_positions import DEFAULT_OUT, load, parse_line
from sos import GameState, solve
from sos.ai.solver import book_path, solve_actions

pytestmark = pytest.mark.skipif(
    compiler() is None, reason="no C compiler (gcc, cc or clang) to build benchmarks/csos"
)


@pytest.fixture(scope="module")
def csolver() -> Iterator[CSolver]:
    build()
    with CSolver() as c:
        yield c


def test_values_match_the_python_solver_on_sampled_positions(csolver: CSolver) -> None:
    rng = random.Random(7)
    modes = set()
    for _ in range(40):
        state = random_position(rng, max_empties=8)
        modes.add(state.rules.mode)
        assert csolver.solve(state)[0] == solve(state), repr(state)
    assert modes == {"general", "simple"}


def test_action_values_match_the_python_solver(csolver: CSolver) -> None:
    rng = random.Random(11)
    for _ in range(8):
        state = random_position(rng, max_empties=7)
        values, _ = csolver.action_values(state)
        assert values == dict(solve_actions(state)), repr(state)


def test_values_match_the_4x4_book(csolver: CSolver) -> None:
    entries = book_positions(book_path(4, 4))
    sample = entries[:: max(1, len(entries) // 60)]
    assert {mode for mode, _, _ in sample} == {"general", "simple"}
    for mode, text, value in sample:
        state = GameState.from_text(text, mode=mode)  # type: ignore[arg-type]
        assert csolver.solve(state)[0] == value, (mode, text)


def test_a_scoring_move_keeps_the_turn() -> None:
    # S.S: O in the middle scores 1 and the scorer moves again; csos must count it for the mover
    state = GameState.from_text("S.S/.../...")
    with CSolver() as c:
        values, _ = c.action_values(state)
    py = dict(solve_actions(state))
    assert values == py
    assert max(values.values()) >= 1


def test_bad_input_is_an_error_not_a_value(csolver: CSolver) -> None:
    with pytest.raises(ValueError, match="malformed"):
        csolver._ask("solve g S.S/..")
    # the process still answers after the error
    assert csolver.solve(GameState.from_text("S.S/.../..."))[0] == solve(
        GameState.from_text("S.S/.../...")
    )


def test_peers_return_legal_actions(csolver: CSolver) -> None:
    state = GameState.from_text("S.S./..../..../....", mode="simple")
    action, iterations = csolver.mcts_action(state, seconds=0.05, seed=1)
    assert state.is_legal(action) and iterations > 0
    action, iterations = csolver.mcts_action(state, seconds=0.0, seed=1, iterations=500)
    assert state.is_legal(action) and iterations == 500
    # a win in one: both peers take it
    action, _ = csolver.mcts_action(state, seconds=0.0, seed=2, iterations=20_000)
    assert str(action) == "O@b1"
    action, nodes = csolver.alphabeta_action(state, depth=4, seed=3)
    assert str(action) == "O@b1" and nodes > 0
    general = GameState.from_text("S..S/..../..../....", mode="general")
    action, _ = csolver.alphabeta_action(general, depth=4, seed=3)
    assert general.is_legal(action)


def test_exact_positions_file_agrees_with_the_python_solver() -> None:
    positions = load(DEFAULT_OUT)
    groups = {(len(p.board.split("/")), p.mode, p.split) for p in positions}
    wanted = {
        (n, m, s) for n in (4, 5, 6) for m in ("general", "simple") for s in ("tune", "heldout")
    }
    assert wanted <= groups
    for p in positions:
        assert 12 <= p.board.count(".") <= 16, p.line()
        assert parse_line(p.line()) == p
    small = [p for p in positions if p.board.count("/") == 3][:12]
    for p in small:
        state = p.state()
        assert solve(state) == p.value, p.line()
        best = {str(a) for a, v in solve_actions(state) if v == p.value}
        assert best == set(p.best), p.line()


def test_peer_match_plays_paired_games_with_swapped_seats() -> None:
    from benchmarks.peer_match import match

    figures = match(
        4, "general", "medium", "mcts", 2, seed=3, hard_nodes=500, iterations=2000, verbose=False
    )
    assert figures["games"] == 2
    assert figures["win"] + figures["draw"] + figures["loss"] == 2
    assert 0 <= figures["game_points_pct"] <= 100
