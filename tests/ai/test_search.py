"""The pausable alpha-beta search: exactness near the end, the greedy trap, pausing, budget."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action, GameState, Rules, new_game, solve
from sos.ai.search import (
    INF,
    QUIESCE_DEPTH,
    UNIT,
    AlphaBeta,
    EndgamePosition,
    O,
    Pacer,
    Position,
    S,
    action_move,
    move_action,
    run_to_end,
    safe_playout_steps,
    safe_playouts,
)
from sos.ai.solver import solve_actions

# Greedy S@c1 scores 1 but must then move again and hands back 2 (value -1); the quiet O@c1
# leaves that SOS to the opponent, who then has to hand back more (value +2).
TRAP = "OO.S/OO.S/S..S/SOSO"


def test_trap_is_a_trap() -> None:
    state = GameState.from_text(TRAP)
    values = dict(solve_actions(state))
    assert state.scoring_lines(Action(0, 2, "S"))
    assert values[Action(0, 2, "S")] == -1
    assert values[Action(0, 2, "O")] == 2 == solve(state)


def test_hard_search_sees_the_trap() -> None:
    state = GameState.from_text(TRAP)
    result = run_to_end(AlphaBeta(budget=2.0).search(state))
    assert move_action(result.move, 4) == Action(0, 2, "O")
    assert result.exact and result.value == 2


def test_search_is_exact_on_small_boards() -> None:
    rng = random.Random(11)
    for mode in ("general", "simple"):
        for _ in range(6):
            state = new_game(Rules(3, 3, mode))  # type: ignore[arg-type]
            for _ in range(rng.randint(2, 5)):
                state.apply(rng.choice(state.legal_actions()))
                if state.is_terminal():
                    break
            if state.is_terminal():
                continue
            result = run_to_end(AlphaBeta(budget=30.0).search(state))
            assert result.exact
            assert result.value == solve(state), repr(state)
            # the move it picks keeps that value
            assert dict(solve_actions(state))[move_action(result.move, 3)] == solve(state)


def test_search_does_not_mutate_and_respects_budget() -> None:
    state = new_game(Rules.square(8))
    rng = random.Random(1)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    before = repr(state), state.history
    cpu = time.process_time()
    result = run_to_end(AlphaBeta(budget=0.15).search(state))
    cpu = time.process_time() - cpu
    assert (repr(state), state.history) == before
    assert state.is_legal(move_action(result.move, 8))
    # The budget is wall-clock time; bound the CPU time, which load cannot inflate (a search
    # that ignored its budget would run on for seconds).
    assert cpu < 0.15 + 0.1
    assert not result.exact and result.depth >= 1


def test_node_budget_is_deterministic_and_exact() -> None:
    state = new_game(Rules.square(8))
    rng = random.Random(2)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    runs = [
        run_to_end(AlphaBeta(budget=None, node_budget=1500, rng=random.Random(3)).search(state))
        for _ in range(2)
    ]
    # Pausing more often must not change anything either.
    gen = AlphaBeta(budget=None, node_budget=1500, rng=random.Random(3), slice_nodes=7)
    runs.append(run_to_end(gen.search(state)))
    # The budget is checked at the alpha-beta nodes; a quiescence below one (at most two
    # chains of QUIESCE_DEPTH moves) runs to its end.
    assert all(1500 <= r.nodes <= 1500 + 2 * QUIESCE_DEPTH for r in runs)
    assert len({(r.move, r.value, r.depth, r.nodes) for r in runs}) == 1


def test_search_pauses_and_pauses_do_not_count() -> None:
    state = new_game(Rules.square(6))
    gen = AlphaBeta(budget=0.2, slice_nodes=32).search(state)
    steps = 0
    started = time.perf_counter()
    longest = cpu = 0.0
    while True:
        t0 = time.thread_time()  # CPU time: a loaded machine must not fail this test
        try:
            next(gen)
        except StopIteration as stop:
            result = stop.value
            cpu += time.thread_time() - t0
            break
        step = time.thread_time() - t0
        longest, cpu = max(longest, step), cpu + step
        steps += 1
        time.sleep(0.002)
    wall = time.perf_counter() - started
    assert steps > 5
    assert longest < 0.03  # each step is short (~3 ms): the page stays responsive
    assert cpu <= 0.2 + 0.05  # the budget (wall time, pauses left out) bounds the work done
    assert wall > result.seconds + steps * 0.002 * 0.9


def test_extra_turn_is_asked_not_assumed() -> None:
    # After the scoring O the same player moves again and can score again.
    state = GameState.from_text("S.S../...../S.S..")
    result = run_to_end(AlphaBeta(budget=1.0).search(state))
    assert result.value >= 2  # takes both SOSs in a row


def test_paranoid_search_with_three_and_four_players() -> None:
    for players in (3, 4):
        state = GameState.from_text(".S.S./...../.....", players=players, to_move=2)
        result = run_to_end(AlphaBeta(budget=None, node_budget=5000).search(state))
        assert move_action(result.move, 5) == Action(0, 2, "O")  # takes the point
        state = new_game(Rules(4, 4, players=players))
        for _ in range(5):
            result = run_to_end(AlphaBeta(budget=None, node_budget=1000).search(state))
            state.apply(move_action(result.move, 4))


def test_position_play_unplay_round_trip() -> None:
    state = GameState.from_text("S.O./..S./O...")
    for pos in (Position(state), EndgamePosition(state)):
        snapshot = (list(pos.cells), pos.s_bits, pos.o_bits, pos.key, pos.ordered_moves())
        moves, _, _ = pos.ordered_moves()
        for m in moves:
            pos.play(m)
            pos.unplay()
        assert snapshot == (list(pos.cells), pos.s_bits, pos.o_bits, pos.key, pos.ordered_moves())


def _brute_force_moves(state: GameState) -> tuple[list[tuple[int, int]], set[int], set[int]]:
    """(points, move) of the scoring moves (most points first), and the safe and unsafe quiet
    moves, by trying every action and every reply on copies of the GameState."""
    cols = state.rules.cols

    def points(s: GameState, action: Action) -> int:
        return sum(s.child(action).scores) - sum(s.scores)

    now = {action: points(state, action) for action in state.legal_actions()}
    scoring, safe, unsafe = [], set(), set()
    for action, gain in now.items():
        move = (action.row * cols + action.col) * 2 + (action.letter == "O")
        if gain:
            scoring.append((gain, move))
            continue
        child = state.child(action)
        # unsafe: it lets the next mover score where nothing scored before
        if any(points(child, reply) > now[reply] for reply in child.legal_actions()):
            unsafe.add(move)
        else:
            safe.add(move)
    return sorted(scoring, reverse=True), safe, unsafe


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), size=st.integers(3, 6), fill=st.floats(0, 1))
def test_bitboard_maps_agree_with_the_rules(rng: random.Random, size: int, fill: float) -> None:
    """Position's whole-board bitboard maps and EndgamePosition's per-square tables give the
    moves the rules give (brute force over GameState), in the same order, on boards 3..6."""
    state = new_game(Rules.square(size))
    while not state.is_terminal() and rng.random() < fill ** 0.3:
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    scoring, safe, unsafe = _brute_force_moves(state)
    wide, small = Position(state), EndgamePosition(state)
    assert wide.ordered_moves() == small.ordered_moves()
    assert wide.scoring_moves() == small.scoring_moves() == scoring
    for count in (1, 2, 3):
        assert wide.captures(count) == scoring[:count]
    moves, n_scoring, n_safe = wide.ordered_moves()
    assert set(moves[n_scoring : n_scoring + n_safe]) == safe
    assert set(moves[n_scoring + n_safe :]) == unsafe
    for m in moves[n_scoring:]:
        assert wide.opens(m) == small.opens(m) == (m in unsafe)
        assert wide.gift(m) == small.gift(m)


# A 6x6 position from a game hard lost to medium (seed 62 of the strength benchmark). The only
# winning move, by the solver, is the sacrifice S@b1 (value +5: medium takes the SOS it opens
# and must then move again, so it runs out of safe moves first); the quiet O@e1 hard chose is
# worth -5. Before scoring moves cost no depth, the capture used up a ply and 8000 nodes did not
# see past it.
SACRIFICE = "O..S.O/OS...S/O.S.../S...S./O..S../OSOOOS"


def test_hard_finds_the_parity_sacrifice() -> None:
    state = GameState.from_text(SACRIFICE)
    assert not state.scoring_lines(Action(0, 1, "S"))
    searcher = AlphaBeta(budget=None, node_budget=8000, rng=random.Random(1))
    searcher.tension = 3
    result = run_to_end(searcher.search(state))
    assert move_action(result.move, 6) == Action(0, 1, "S")
    # Without the chain extension the same budget picks another move.
    searcher = AlphaBeta(budget=None, node_budget=8000, rng=random.Random(1))
    searcher.tension = 3
    searcher.extend_chains = False
    result = run_to_end(searcher.search(state))
    assert move_action(result.move, 6) != Action(0, 1, "S")


def test_search_avoids_the_moves_it_is_told_to() -> None:
    state = GameState.from_text(TRAP)
    searcher = AlphaBeta(budget=None, node_budget=5000)
    searcher.avoid = {action_move_of(Action(0, 2, "O"))}
    assert move_action(run_to_end(searcher.search(state)).move, 4) != Action(0, 2, "O")
    every = {action_move_of(a) for a in state.legal_actions()}
    searcher.avoid = every  # all of them: the avoid list is ignored
    assert run_to_end(searcher.search(state)).move in every


def action_move_of(action: Action) -> int:
    return ((action.row * 4 + action.col) << 1) | (action.letter == "O")


def test_simple_mode_searches_only_safe_moves_and_sees_a_dead_end() -> None:
    # Simple mode: a move that opens an SOS loses at once, so while a safe move is left the
    # search does not spend nodes on the others; a position without a safe square is lost.
    state = GameState.from_text("S.S./..../O..O/....", mode="simple")
    pos = Position(state)
    moves, n_scoring, n_safe = pos.ordered_moves()
    assert n_scoring == 1 and n_safe > 0
    searcher = AlphaBeta(budget=None, node_budget=2_000)
    searcher.use_history = False
    moves_searched, _, _ = searcher._moves(pos, -1)
    assert len(moves_searched) == n_scoring + n_safe < len(moves)
    general = Position(GameState.from_text("S.S./..../O..O/....", mode="general"))
    assert len(searcher._moves(general, -1)[0]) == len(moves)
    # No SOS to take and no safe square (each letter on b2 or c2 opens one): the horizon
    # judges it lost, as the solver does.
    dead = GameState.from_text("OOOS/S..S/OOSO", mode="simple")
    dead_pos = Position(dead)
    assert not dead_pos.scoring_moves() and dead_pos.safe_squares() == 0
    assert searcher._quiesce(dead_pos, -INF, INF, QUIESCE_DEPTH) == -UNIT
    assert solve(dead) == -1


def _random_safe_play_value(state: GameState) -> float:
    """The mean result for the side to move when both sides write uniformly random safe moves
    (no SOS scored or opened) until none is left: from the rules alone (``GameState``), as an
    independent check of :func:`safe_playouts`."""
    if state.empty_squares == 0:
        return 0.0
    safe = []
    for action in state.legal_actions():
        assert not state.scoring_lines(action)  # a safe game never offers an SOS
        child = state.child(action)
        if child.is_terminal() or not any(child.scoring_lines(b) for b in child.legal_actions()):
            safe.append(child)
    if not safe:
        return -1.0  # every move opens an SOS: the opponent completes it
    return sum(-_random_safe_play_value(child) for child in safe) / len(safe)


@pytest.mark.parametrize("board", ["..S/O../OSO", ".S./S../..S", "S../.../OS.", "SS./OS./OSS"])
def test_safe_playouts_sample_random_safe_games(board: str) -> None:
    state = GameState.from_text(board, mode="simple")
    pos = Position(state, symmetric=False)
    exact = _random_safe_play_value(state)
    n = 4000
    score, moves = safe_playouts(pos, n, seed=7)
    # 4 000 games: the mean is within 3 standard deviations (<= 0.047) of the exact mean
    assert abs(score / n - exact) < 0.05, (board, score / n, exact)
    assert 0 < moves <= n * state.empty_squares
    assert safe_playouts(pos, n, seed=7) == (score, moves)  # the seed fixes the games
    assert Position(state, symmetric=False).key == pos.key  # pos unchanged


def test_safe_playouts_no_safe_move_and_a_full_board() -> None:
    stuck = GameState.from_text("S..S/OSSS/OOOS/OOOO", mode="simple")
    pos = Position(stuck, symmetric=False)
    assert pos.safe_squares() == 0 and not pos.scoring_moves()
    assert safe_playouts(pos, 10, seed=1) == (-10, 0)  # the side to move must open an SOS
    last = GameState.from_text("SS./OS./OSS", mode="simple").child(Action(0, 2, "O"))
    assert last.empty_squares == 1 and not last.is_terminal()
    # the last square filled safely: a full board without SOS, a draw
    assert _random_safe_play_value(last) == 0.0
    assert safe_playouts(Position(last, symmetric=False), 10, seed=1) == (0, 10)


def test_simple_search_with_playouts_stays_inside_proven_values() -> None:
    # A 6x6 simple middle game: playouts give estimates strictly between a proven loss and
    # a proven win, and their moves are charged to the node budget.
    state = GameState.from_text("S.O..O/....../...S../O...../..O.S./O...SO", mode="simple")
    assert Position(state).safe_squares() == 20 and not Position(state).scoring_moves()
    plain = AlphaBeta(budget=None, node_budget=3000)
    with_playouts = AlphaBeta(budget=None, node_budget=3000)
    with_playouts.playouts = 2
    r0 = run_to_end(plain.search(state))
    r1 = run_to_end(with_playouts.search(state))
    assert not r1.exact and -1 < r1.value < 1
    # without playouts a safe move is 0 unless proven; with them the safe moves differ
    assert set(r0.root_values.values()) <= {-1.0, 0.0, 1.0}
    assert sum(0 < abs(v) < 1 for v in r1.root_values.values()) > 5
    assert r1.nodes <= 3000 + 200 and r1.depth < r0.depth


def _yields(gen):  # type: ignore[no-untyped-def]
    """Drive a generator to its end: (its value, how many times it paused)."""
    pauses = 0
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value, pauses
        pauses += 1


def test_a_leaf_pauses_between_its_playouts_and_searches_the_same() -> None:
    # 8x8 simple: hard judges a quiet leaf by 8 playouts, up to ~10 ms in the browser (4x that
    # on a slow phone), so a step pauses between them once its time is up; where a search
    # pauses changes nothing at a node budget (benchmarks/RESULTS.md, the 50 ms check).
    state = GameState.from_text(
        "S......O/......../..O...../......../....S.../......../.O....../.......S", mode="simple")
    pos = Position(state, symmetric=False)
    assert pos.safe_squares() > 40
    expired = Pacer(step_seconds=0.0)  # every step is over at once
    value, pauses = _yields(safe_playout_steps(pos, 8, pos.key, expired))
    assert pauses == 8 and value == safe_playouts(pos, 8, pos.key)
    assert _yields(safe_playout_steps(pos, 8, pos.key)) == (value, 0)  # no pacer: one piece
    found = []
    for step_seconds in (0.0, 3600.0):  # a pause at every chance, or only every 64 nodes
        searcher = AlphaBeta(budget=None, node_budget=4000, step_seconds=step_seconds)
        searcher.playouts = 8
        result, pauses = _yields(searcher.search(state))
        found.append((result.move, result.value, result.depth, result.nodes, result.root_values,
                      pauses))
    assert found[0][:5] == found[1][:5]
    # each leaf's 8 playouts are paused between: many more pauses than nodes / 64
    assert found[0][5] > 4 * found[1][5] > 0


@pytest.mark.parametrize("size", [3, 5, 7])
def test_live_lines_count_the_lines_that_can_still_be_sos(size: int) -> None:
    rng = random.Random(size)
    for _ in range(20):
        state = new_game(Rules(size, size + 1))
        for _ in range(rng.randrange(state.empty_squares)):
            state.apply(rng.choice(state.legal_actions()))
        rows, cols = state.rules.rows, state.rules.cols
        cells = state.cells
        live = 0
        on_live: set[int] = set()
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    line = [(r + k * dr) * cols + c + k * dc for k in range(3)]
                    if not (0 <= r + 2 * dr < rows and 0 <= c + 2 * dc < cols):
                        continue
                    a, b, e = (cells[i] for i in line)
                    if a != "O" and b != "S" and e != "O" and "." in (a, b, e):
                        live += 1
                        on_live.update(line)
        pos = Position(state)
        got_live, cover = pos.live_lines()
        assert got_live == live
        assert {i for i in range(rows * cols) if (cover >> pos.tab.bit[i]) & 1} == on_live


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False), rows=st.integers(3, 6), cols=st.integers(3, 6))
def test_endgame_tables_follow_play_and_unplay(rng: random.Random, rows: int, cols: int) -> None:
    """EndgamePosition's per-square tables, updated line by line by play and restored by
    unplay, equal the tables of a position built afresh from the same game, at every step of
    a random walk of moves and take-backs (the moves, their order, gains and openings)."""
    state = new_game(Rules(rows=rows, cols=cols))
    pos = EndgamePosition(state)
    for _ in range(2 * rows * cols):
        if state.history and (state.is_terminal() or rng.random() < 0.3):
            state.undo()
            pos.unplay()
        else:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            pos.play(action_move(action, cols))
        fresh = EndgamePosition(state)
        assert pos.cells == fresh.cells
        assert pos.ordered_moves() == fresh.ordered_moves()
        for i in fresh.empties():
            for code in (S, O):
                assert pos.gain(i, code) == fresh.gain(i, code)
            for m in (i << 1, (i << 1) | 1):
                assert pos.opens(m) == fresh.opens(m)
