"""sos.solve against a brute-force minimax, the 1xn strip theorem, the book, and API edges."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Generator
from functools import cache
from pathlib import Path

import pytest

from sos import Action, GameState, Rules, new_game, solve
from sos.ai.base import Budget
from sos.ai.search import Position, SearchTimeout, action_move, run_to_end
from sos.ai.solver import (
    Solver,
    TooManyPlayersError,
    book,
    book_key,
    load_book_steps,
    solve_actions,
)


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
@pytest.mark.parametrize(
    "n", [*range(3, 9), *(pytest.param(n, marks=pytest.mark.slow) for n in (9, 10))]
)
def test_strips_match_brute_force(mode: str, n: int) -> None:
    state = new_game(Rules(1, n, mode))  # type: ignore[arg-type]
    assert solve(state) == brute_value(state)


@pytest.mark.slow
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


@pytest.mark.parametrize(
    "n", [*range(3, 12), *(pytest.param(n, marks=pytest.mark.slow) for n in range(12, 15))]
)
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
    import sos.ai.solver as solver_module

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
    import sos.ai.solver as solver_module

    # Restored after the test: the fake book below must not stay loaded in place of the real
    # one (hard and perfect would then miss the book).
    monkeypatch.setattr(solver_module, "_books", {})
    monkeypatch.setattr(solver_module, "BOOK_DIR", str(tmp_path))
    assert run_to_end(load_book_steps()) == {}
    assert not solver_module._books
    with open(tmp_path / "book_4x4.txt", "w", encoding="ascii") as handle:
        handle.write("g:................ 0\n")  # (the page writes the whole downloaded file)
    assert run_to_end(load_book_steps()) == {"g:................": 0}


def test_only_small_boards_look_for_a_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board above EXACT_MAX_CELLS squares never asks for a book file (none can exist); a
    two-player board up to it does, with the transposed shape when its own is missing."""
    import sos.ai.solver as solver_module

    asked: list[tuple[int, int]] = []
    real = solver_module.load_book_steps

    def spy(rows: int = 4, cols: int = 4):  # type: ignore[no-untyped-def]
        asked.append((rows, cols))
        return (yield from real(rows, cols))

    monkeypatch.setattr(solver_module, "load_book_steps", spy)
    big = GameState.from_text("SOS.O/OSOSO/S.SOS/OSOSO/SOS.S")  # 5x5, 3 empty squares
    assert solver_module.EXACT_MAX_CELLS < 25
    run_to_end(Solver().value(big))
    assert asked == []
    run_to_end(Solver().value(GameState.from_text("SOS./OSOS/S.SO/OSOS")))
    assert asked == [(4, 4)]
    asked.clear()
    run_to_end(Solver().value(GameState.from_text("SOS./OSOS/S.SO")))  # 3x4 reads its own
    run_to_end(Solver().value(GameState.from_text("SOS/OS./S.S/OSO")))  # 4x3 reads 4x3, then 3x4
    assert asked == [(3, 4), (4, 3), (3, 4)]


def _board_state(board: str, rows: int, cols: int, mode: str) -> GameState:
    text = "/".join(board[r * cols : (r + 1) * cols] for r in range(rows))
    return GameState.from_text(text, mode=mode)  # type: ignore[arg-type]


def _live_value_of(state: GameState, action: Action) -> int:
    """The mover's exact value of playing ``action`` (as sos.solve), by a solve without book."""
    me = state.current_player()
    child = state.child(action)
    gain = child.scores[me] - state.scores[me]
    if state.rules.mode == "simple" and gain:
        return 1
    rest = run_to_end(Solver(use_book=False).value(child))
    return gain + (rest if child.current_player() == me else -rest)


@pytest.mark.parametrize(("rows", "cols", "letters"), [(3, 4, 1), (3, 5, 4)])
def test_rectangle_books_answer_with_value_keeping_moves(
    rows: int, cols: int, letters: int
) -> None:
    """The engine-only books (3x4: every board with <= 1 letter, 3x5: <= 4) hold exact values,
    and the moves hard and perfect draw from them keep those values (checked by live solves)."""
    entries = book(rows, cols)
    assert max(len(k) - 2 - k.count(".") for k in entries) == letters
    assert entries["g:" + "." * rows * cols] == 0 and entries["s:" + "." * rows * cols] == 0
    rng = random.Random(rows * cols)
    for tag, mode in (("g", "general"), ("s", "simple")):
        # a board one letter short of the deepest (its answers are book boards) and the empty one
        keys = sorted(
            k for k in entries if k[0] == tag and len(k) - 2 - k.count(".") == letters - 1
        )
        for key in ["." * rows * cols, rng.choice(keys)[2:]]:
            state = _board_state(key, rows, cols, mode)
            solver = Solver()
            action, value = run_to_end(solver.best_action(state, random.Random(1)))
            assert value == entries[f"{tag}:{key}"]
            assert solver.nodes < 100  # answered from the book, not searched
            if state.empty_squares <= 12:  # the answer's live solve takes a second or two
                assert _live_value_of(state, action) == value, (key, action)
    deepest = sorted(k for k in entries if len(k) - 2 - k.count(".") == letters)
    for key in rng.sample(deepest, 1):
        state = _board_state(key[2:], rows, cols, "general" if key[0] == "g" else "simple")
        assert run_to_end(Solver(use_book=False).value(state)) == entries[key], key


def test_transposed_board_reads_the_book_of_its_transpose() -> None:
    """A 4x3 board (the 3x4 board turned) is looked up in book_3x4.txt."""
    entries = book(3, 4)
    for mode, tag in (("general", "g"), ("simple", "s")):
        empty = new_game(Rules(4, 3, mode))  # type: ignore[arg-type]
        assert run_to_end(Solver().value(empty)) == entries[tag + ":" + "." * 12]
        for square in range(12):
            for letter in "SO":
                wide = ["."] * 12  # 3x4, row-major
                wide[square] = letter
                r, c = divmod(square, 4)
                tall = ["."] * 12  # its transpose, 4x3
                tall[c * 3 + r] = letter
                solver = Solver()
                value = run_to_end(solver.value(_board_state("".join(tall), 4, 3, mode)))
                assert solver.nodes == 1  # a book hit
                expected = run_to_end(Solver().value(_board_state("".join(wide), 3, 4, mode)))
                assert value == expected


def test_missing_book_for_a_shape_falls_back_to_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the book file of a shape, hard and perfect search: same values, no error."""
    import sos.ai.solver as solver_module

    state = GameState.from_text("..../.S../....")  # 3x4, in book_3x4.txt
    expected = book(3, 4)[book_key(Position(state))]
    monkeypatch.setattr(solver_module, "_books", {})
    monkeypatch.setattr(solver_module, "BOOK_DIR", str(tmp_path))  # no book files there
    solver = Solver()
    assert run_to_end(solver.value(state)) == expected
    assert solver._book is None and solver.nodes > 1000  # searched
    assert not solver_module._books  # "no book" is not remembered (see above)
    action, value = run_to_end(Solver().best_action(state, random.Random(0)))
    assert value == expected and state.is_legal(action)
    from sos.ai.agents import HardAgent

    hard = HardAgent(seed=0, budget=None, node_budget=2_000)
    assert state.is_legal(hard.choose_action(state))


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


@pytest.mark.slow
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


@pytest.mark.slow
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
    path = Path(__file__).parents[1] / "data" / "positions.txt"
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
    for nodes in (300, 3000, 10_000):
        solver = Solver(use_book=False)
        with contextlib.suppress(SearchTimeout):
            run_to_end(solver.secure_action(state, random.Random(5), nodes=nodes))
        for action in solver.refuted:
            assert values[action] + lead < 0
        seen += len(solver.refuted)
    assert seen


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_dead_squares_and_line_bounds_keep_exact_values(mode: str) -> None:
    # Positions with dead squares (every line through them holds a wrong letter: the solver
    # searches one move for all of them) and few live lines (its window is clamped to them).
    rng = random.Random(11)
    checked = 0
    while checked < 10:
        state = new_game(Rules(4, 4, mode))  # type: ignore[arg-type]
        for _ in range(rng.randint(8, 11)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        pos = Position(state)
        _, cover = pos.live_lines()
        empty = pos.tab.full & ~(pos.s_bits | pos.o_bits)
        if not empty & ~cover:
            continue  # no dead square
        checked += 1
        assert run_to_end(Solver(use_book=False).value(state)) == brute_value(state), repr(state)


def test_improve_action_raises_the_proven_value_to_the_exact_one() -> None:
    # 4x4 general: start from an action that keeps less than the position's value.
    state = GameState.from_text("OO.S/OO.S/S..S/SOSO")
    values = dict(solve_actions(state))
    exact = solve(state)
    start, floor = min(values.items(), key=lambda item: item[1])
    assert floor < exact
    action, value, proven = run_to_end(Solver(use_book=False).improve_action(state, start, floor))
    assert (value, proven) == (exact, True) and values[action] == exact
    # Out of budget at once: the starting action and its floor, not an exception.
    cut = run_to_end(Solver(use_book=False).improve_action(state, start, floor, nodes=1))
    assert cut == (start, floor, False)


def test_improve_action_starts_near_a_future_value_of_0() -> None:
    # 4x5 general, player 1 to move: the worst action keeps -12, the position is worth +2.
    # Stepping up one point a test from -12 (the old way) costs twice the nodes of MTD(f) from
    # 0, which lands next to the value (future margins in an endgame lie near 0).
    state = GameState.from_text("S...S/...SS/...../SS..S", mode="general", to_move=1)
    values = dict(solve_actions(state))
    start, floor = min(values.items(), key=lambda item: item[1])
    assert (floor, solve(state)) == (-12, 2)
    solver = Solver(use_book=False)
    action, value, proven = run_to_end(solver.improve_action(state, start, floor))
    assert (value, proven) == (2, True) and values[action] == 2
    stepping = Solver(use_book=False)

    def step_up() -> Generator[None, None, int]:
        pos = yield from stepping._position(state)
        best = action_move(start, pos.cols)
        moves = [best] + [m for m in pos.ordered_moves()[0] if m != best]
        low = floor
        with stepping.budgeted(Budget(None, None)):
            while (found := (yield from stepping._first_reaching(pos, moves, low + 1))) >= 0:
                low += 1
                moves = [found] + [m for m in moves if m != found]
        return low

    assert run_to_end(step_up()) == 2
    assert solver.nodes < stepping.nodes * 0.7


def test_least_loss_action_finds_the_exact_value_from_above() -> None:
    state = GameState.from_text("OO.S/OO.S/S..S/SOSO")
    values = dict(solve_actions(state))
    exact = solve(state)
    for ceiling in (exact, exact + 3):
        solver = Solver(use_book=False)
        action, value, proven = run_to_end(solver.least_loss_action(state, ceiling))
        assert value == exact and values[action] == exact and proven
    with pytest.raises(SearchTimeout):
        run_to_end(Solver(use_book=False).least_loss_action(state, exact + 3, nodes=1))
