"""sos.solve against a brute-force minimax, the 1xn strip theorem, the book, and API edges."""

from __future__ import annotations

import contextlib
import random
import time
from functools import cache
from pathlib import Path

import pytest

from sos import Action, GameState, Rules, new_game, solve
from sos.search import SearchTimeout, run_to_end
from sos.solver import Solver, TooManyPlayersError, book, load_book_steps, solve_actions


def brute_value(state: GameState) -> int:
    """Plain minimax over GameState (memoised on the board: the value is board-only)."""
    rules = state.rules

    @cache
    def value(cells: str) -> int:
        s = GameState.from_text(
            "/".join(cells[r * rules.cols : (r + 1) * rules.cols] for r in range(rules.rows)),
            mode=rules.mode,
        )
        best = -(10**9)
        for action in s.legal_actions():
            gain = len(s.apply(action))
            if rules.mode == "simple" and gain:
                v = 1
            elif s.is_terminal():
                v = gain
            elif gain:  # the mover moves again: asked via current_player() below
                assert s.current_player() == 0
                v = gain + value("".join(s.cells))
            else:
                assert s.current_player() == 1
                v = -value("".join(s.cells))
            s.undo()
            best = max(best, v)
        return best

    if state.is_terminal():
        return 0
    return value("".join(state.cells))


@pytest.mark.parametrize("mode", ["general", "simple"])
@pytest.mark.parametrize("n", range(3, 11))
def test_strips_match_brute_force(mode: str, n: int) -> None:
    state = new_game(Rules(1, n, mode))  # type: ignore[arg-type]
    assert solve(state) == brute_value(state)


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_3x3_and_random_positions_match_brute_force(mode: str) -> None:
    rng = random.Random(7)
    assert solve(new_game(Rules(3, 3, mode))) == brute_value(new_game(Rules(3, 3, mode)))  # type: ignore[arg-type]
    for _ in range(25):
        rows, cols = rng.choice([(3, 3), (2, 4), (1, 9), (3, 4)])
        state = new_game(Rules(rows, cols, mode))  # type: ignore[arg-type]
        for _ in range(rng.randint(1, rows * cols - 1)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.empty_squares > 9:
            continue
        assert solve(state) == brute_value(state), repr(state)


@pytest.mark.parametrize("n", range(3, 15))
def test_simple_strip_theorem(n: int) -> None:
    """USAMO 1999/5, Gym 101775L: draw for n < 7, first player wins odd n >= 7, draw even n <= 14
    (second player wins for even n >= 16: 1x16 takes ~50 s, see benchmarks/bench_ai.py)."""
    expected = 1 if (n >= 7 and n % 2) else 0
    assert solve(new_game(Rules(1, n, "simple"))) == expected


def test_values_ignore_scores_and_do_not_mutate() -> None:
    a = GameState.from_text("S.S/.../S.S", to_move=1, scores=[3, 0])
    b = GameState.from_text("S.S/.../S.S", to_move=0)
    before = repr(a)
    assert solve(a) == solve(b)
    assert repr(a) == before


def test_solve_actions_best_is_solve() -> None:
    state = GameState.from_text("S..O/..../.O../S..S")
    actions = solve_actions(state)
    assert actions[0][1] == solve(state)
    assert len(actions) == len(state.legal_actions())


def test_terminal_and_many_players() -> None:
    done = GameState.from_text("SOS/OOO/SOS")
    assert solve(done) == 0
    with pytest.raises(TooManyPlayersError):
        solve(new_game(Rules(3, 3, players=3)))
    assert issubclass(TooManyPlayersError, ValueError)


def test_book_agrees_with_live_solve() -> None:
    entries = book()
    assert entries["g:................"] == 0 and entries["s:................"] == 0
    rng = random.Random(3)
    deep = sorted(k for k in entries if k.count(".") in (11, 12))
    for key in rng.sample(deep, 4):
        mode = "general" if key[0] == "g" else "simple"
        board = key[2:]
        state = GameState.from_text("/".join(board[i : i + 4] for i in (0, 4, 8, 12)), mode=mode)
        live = run_to_end(Solver(use_book=False).value(state))
        assert live == entries[key], key


def test_4x4_uses_book_quickly() -> None:
    solver = Solver()
    assert run_to_end(solver.value(new_game(Rules.square(4)))) == 0
    assert solver.nodes == 1


def test_book_covers_five_letters_and_loads_in_steps() -> None:
    entries = book()
    assert min(k.count(".") for k in entries) == 11
    assert sum(1 for _ in load_book_steps()) == 0  # loaded: returns at once
    import sos.solver as solver_module

    saved = solver_module._books.pop((4, 4))
    try:
        gen = load_book_steps()
        steps = 0
        while True:
            t0 = time.thread_time()
            try:
                next(gen)
            except StopIteration as stop:
                assert stop.value == entries
                break
            assert time.thread_time() - t0 < 0.05
            steps += 1
        assert steps > 5
    finally:
        solver_module._books[4, 4] = saved


def test_missing_book_is_not_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page writes the book into the file system only when a 4x4 game needs it: a solver
    that ran before must not have cached "no book" for good."""
    import sos.solver as solver_module

    # Restored after the test: the fake book below must not stay loaded in place of the real
    # one (hard and perfect would then miss the book).
    monkeypatch.setattr(solver_module, "_books", {})
    monkeypatch.setattr(solver_module, "BOOK_DIR", str(tmp_path))
    assert run_to_end(load_book_steps()) == {}
    assert not solver_module._books
    with open(tmp_path / "book_4x4.txt", "w", encoding="ascii") as handle:
        handle.write("g:................ 0\n")  # (the page writes the whole downloaded file)
    assert run_to_end(load_book_steps()) == {"g:................": 0}


def test_perfect_steps_are_short() -> None:
    """Every step of a 4x4 solve does bounded work (the page stays responsive)."""
    state = GameState.from_text("S.../.O../..../....")
    gen = Solver().best_action(state)
    longest = 0.0
    while True:
        t0 = time.thread_time()
        try:
            next(gen)
        except StopIteration:
            break
        longest = max(longest, time.thread_time() - t0)
    assert longest < 0.03


def _random_position(
    rng: random.Random, rows: int, cols: int, letters: int, mode: str
) -> GameState:
    state = new_game(Rules(rows=rows, cols=cols, mode=mode))  # type: ignore[arg-type]
    while state.rules.cells - state.empty_squares < letters and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_result_action_wins_draws_or_admits_loss(mode: str) -> None:
    """The game result (scores so far + exact future value) decides win / draw / loss."""
    rng = random.Random(11)
    seen = set()
    for _ in range(40):
        state = _random_position(rng, 4, 4, rng.randrange(6, 13), mode)
        if state.is_terminal():
            continue
        me = state.current_player()
        lead = 0 if mode == "simple" else state.scores[me] - state.scores[1 - me]
        expected = (lead + solve(state) > 0) - (lead + solve(state) < 0)
        before = state.cells
        action, result = run_to_end(Solver().result_action(state, random.Random(1)))
        assert state.cells == before
        assert result == expected
        seen.add(result)
        if action is None:
            assert result == -1
            continue
        # The action keeps the result: the exact value of the action, from solve_actions.
        value = dict(solve_actions(state))[action]
        assert ((lead + value > 0) - (lead + value < 0)) == result
    # (random simple-mode positions with a move left are rarely lost)
    assert seen == ({-1, 0, 1} if mode == "general" else {0, 1})


def test_result_action_budget_raises_and_keeps_the_table() -> None:
    # 6x6, 17 empty squares, from a hard-vs-medium game: S in the top left corner is the
    # only action that wins (+4 by solve_actions; every other action loses by 5 or more).
    state = GameState.from_text(ENDGAME_6X6, to_move=1)
    solver = Solver(use_book=False)
    with pytest.raises(SearchTimeout):
        run_to_end(solver.result_action(state, nodes=200))
    assert solver.tt  # what the interrupted search proved is kept
    action, result = run_to_end(solver.result_action(state, random.Random(3)))
    assert (action, result) == (Action(0, 0, "S"), 1)


ENDGAME_6X6 = "..S.OO/SS..SO/...S.O/.O...S/O...SO/OOS.OO"


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_secure_action_never_picks_a_losing_action(mode: str) -> None:
    """Without a budget it settles the result as result_action does; with a small budget its
    action, when it returns one, still keeps at least a draw (checked by brute force)."""
    rng = random.Random(23)
    seen = set()
    for k in range(20):
        state = _random_position(rng, 3, 3, rng.randrange(2, 6), mode)
        if state.is_terminal():
            continue
        me = state.current_player()
        lead = 0 if mode == "simple" else state.scores[me] - state.scores[1 - me]
        exact = brute_value(state)
        expected = (lead + exact > 0) - (lead + exact < 0)
        before = state.cells
        action, result, settled = run_to_end(Solver().secure_action(state, random.Random(k)))
        assert state.cells == before and settled and result == expected
        seen.add(result)
        values = {a: v for a, v in solve_actions(state)}
        if action is None:
            assert expected == -1
            continue
        assert ((lead + values[action] > 0) - (lead + values[action] < 0)) == result
        for nodes in (40, 300):
            try:
                action, result, settled = run_to_end(
                    Solver(use_book=False).secure_action(state, random.Random(k), nodes=nodes)
                )
            except SearchTimeout:
                continue
            if action is None:
                assert expected == -1
                continue
            kept = (lead + values[action] > 0) - (lead + values[action] < 0)
            assert kept >= result >= 0  # a proven draw at least; a claimed win is one
            assert not settled or result == expected
    assert {0, 1} <= seen


def test_secure_action_keeps_the_draw_when_the_win_search_runs_out() -> None:
    # 6x6, 17 empty squares: S in the top left corner wins; every other action loses, so a
    # budget that suffices for the draw stage finds the win too, and a tiny one raises.
    state = GameState.from_text(ENDGAME_6X6, to_move=1)
    with pytest.raises(SearchTimeout):
        run_to_end(Solver(use_book=False).secure_action(state, nodes=200))
    action, result, settled = run_to_end(Solver(use_book=False).secure_action(state))
    assert (action, result, settled) == (Action(0, 0, "S"), 1, True)
    # Empty 3x3 (a draw): with a budget for the draw stage only, the drawing move is kept.
    empty = new_game(Rules(3, 3))
    solver = Solver(use_book=False)
    action, result, settled = run_to_end(solver.secure_action(empty, random.Random(2)))
    assert result == 0 and settled
    spent = solver.nodes
    for nodes in range(50, spent, max(1, spent // 20)):
        try:
            action, result, settled = run_to_end(
                Solver(use_book=False).secure_action(empty, random.Random(2), nodes=nodes)
            )
        except SearchTimeout:
            continue
        assert result == 0 and dict(solve_actions(empty))[action] == 0
        if not settled:
            break
    else:
        pytest.fail("no budget left the win stage unfinished")


def test_accuracy_data_set_holds_exact_values() -> None:
    """tests/data/positions.txt (scripts/build_positions.py): a sample of its positions with
    few empty squares checked against solve_actions (a different solver entry point)."""
    path = Path(__file__).parent / "data" / "positions.txt"
    lines = [x.split() for x in path.read_text().splitlines() if x and not x.startswith("#")]
    assert len(lines) >= 500
    assert {x[0] for x in lines} == {"4x4", "5x5", "6x6"}
    for fields in lines:
        assert len(fields) == 10 and fields[4].count(".") <= 16
        assert set(fields[7].split(",")) <= set(fields[8].split(","))
    rng = random.Random(1)
    sample = rng.sample([x for x in lines if x[4].count(".") <= 8], 24)
    for _size, mode, to_move, scores, board, value, result, optimal, keeping, _ in sample:
        state = GameState.from_text(
            board, mode=mode,  # type: ignore[arg-type]
            to_move=int(to_move), scores=[int(s) for s in scores.split(",")],
        )
        values = dict(solve_actions(state))
        best = max(values.values())
        assert best == int(value) == solve(state)
        assert {str(a) for a, v in values.items() if v == best} == set(optimal.split(","))
        me = state.current_player()
        lead = 0 if mode == "simple" else state.scores[me] - state.scores[1 - me]
        sign = (best + lead > 0) - (best + lead < 0)
        assert sign == int(result)
        kept = {str(a) for a, v in values.items() if (v + lead > 0) - (v + lead < 0) == sign}
        assert kept == set(keeping.split(","))


def test_secure_action_lists_the_actions_it_refuted() -> None:
    # 6x6, 17 empty squares: every action but S in the top left corner loses. Whatever the
    # budget, each action the draw stage refuted before it stopped does lose.
    state = GameState.from_text(ENDGAME_6X6, to_move=1)
    me = state.current_player()
    lead = state.scores[me] - state.scores[1 - me]
    values = dict(solve_actions(state))
    seen = 0
    for nodes in (300, 3000):
        solver = Solver(use_book=False)
        with contextlib.suppress(SearchTimeout):
            run_to_end(solver.secure_action(state, random.Random(5), nodes=nodes))
        for action in solver.refuted:
            assert values[action] + lead < 0
        seen += len(solver.refuted)
    assert seen
