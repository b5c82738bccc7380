"""Property tests of the engine over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action, GameState, IllegalActionError, Rules, new_game
from sos.board import count_sos

sizes = st.tuples(st.integers(1, 7), st.integers(3, 7)).map(
    lambda rc: rc if rc[0] >= 3 or rc[1] >= 3 else (3, 3)
)


def _random_game(rules: Rules, seed: int) -> tuple[GameState, list[GameState]]:
    rng = random.Random(seed)
    state = new_game(rules)
    snapshots = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        snapshots.append(state.clone())
    return state, snapshots


@settings(max_examples=150, deadline=None)
@given(size=sizes, players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_general_final_scores_sum_to_sos_on_board(
    size: tuple[int, int], players: int, seed: int
) -> None:
    rows, cols = size
    state, _ = _random_game(Rules(rows, cols, "general", players), seed)
    assert sum(state.scores) == count_sos(list(state.cells), rows, cols)
    assert state.empty_squares == 0


@settings(max_examples=100, deadline=None)
@given(
    size=sizes,
    mode=st.sampled_from(["general", "simple"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_undo_every_move_restores_each_state(
    size: tuple[int, int], mode: str, players: int, seed: int
) -> None:
    rows, cols = size
    state, snapshots = _random_game(Rules(rows, cols, mode, players), seed)  # type: ignore[arg-type]
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert state == expected
        assert state.key() == expected.key()
        assert state.to_text() == expected.to_text()
    assert state == new_game(Rules(rows, cols, mode, players))  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32))
def test_legal_actions_are_empty_squares_times_letters(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    rng = random.Random(seed)
    state = new_game(Rules(rows, cols))
    while not state.is_terminal():
        empties = {(i // cols, i % cols) for i, c in enumerate(state.cells) if c == "."}
        legal = state.legal_actions()
        assert set(legal) == {Action(r, c, x) for r, c in empties for x in "SO"}
        assert len(legal) == 2 * len(empties)
        before = state.scores
        mover = state.current_player()
        lines = state.apply(rng.choice(legal))
        assert all(a >= b for a, b in zip(state.scores, before, strict=True))
        assert state.scores[mover] == before[mover] + len(lines)
        if not state.is_terminal():
            # Extra-turn rule: a scoring move keeps the mover; a quiet one passes the turn.
            expected = mover if lines else (mover + 1) % state.rules.players
            assert state.current_player() == expected


@settings(max_examples=100, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32), to_move=st.integers(0, 1))
def test_text_round_trip(size: tuple[int, int], seed: int, to_move: int) -> None:
    rows, cols = size
    state, _ = _random_game(Rules(rows, cols), seed)
    for cut in range(len(state.history) + 1):
        text = _replayed(Rules(rows, cols), state.history[:cut]).to_text()
        again = GameState.from_text(text, to_move=to_move)
        assert again.to_text() == text


def _replayed(rules: Rules, actions: tuple[Action, ...]) -> GameState:
    state = new_game(rules)
    for action in actions:
        state.apply(action)
    return state


@settings(max_examples=60, deadline=None)
@given(size=sizes, seed=st.integers(0, 2**32))
def test_simple_mode_ends_exactly_at_first_sos(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    rng = random.Random(seed)
    state = new_game(Rules(rows, cols, "simple"))
    while not state.is_terminal():
        mover = state.current_player()
        lines = state.apply(rng.choice(state.legal_actions()))
        if lines:
            outcome = state.outcome()
            assert outcome is not None and outcome.winner == mover
            assert state.is_terminal()
        else:
            assert count_sos(list(state.cells), rows, cols) == 0
            assert state.is_terminal() == (state.empty_squares == 0)


@settings(max_examples=200, deadline=None)
@given(
    row=st.integers(-5, 10),
    col=st.integers(-5, 10),
    letter=st.sampled_from(["S", "O", "X", "", "s", "SO"]),
)
def test_illegal_actions_raise_and_change_nothing(row: int, col: int, letter: str) -> None:
    state = GameState.from_text("S.../.O../..../...S")
    before = state.clone()
    action = Action(row, col, letter)
    if state.is_legal(action):
        state.apply(action)
        return
    try:
        state.apply(action)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{action!r} accepted")
    assert state == before


# ---------------------------------------------------------------- every public operation
# (issue 6: the tests above cover general 2-player games; these add the other modes and seat
# counts, is_legal/scoring_lines/child/clone/key/outcome/returns and Action text.)

modes = st.sampled_from(["general", "simple"])


@settings(max_examples=120, deadline=None)
@given(size=sizes, mode=modes, players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_every_operation_agrees_along_a_game(
    size: tuple[int, int], mode: str, players: int, seed: int
) -> None:
    rows, cols = size
    rules = Rules(rows, cols, mode, players)  # type: ignore[arg-type]
    rng = random.Random(seed)
    state = new_game(rules)
    while True:
        empties = [(i // cols, i % cols) for i, c in enumerate(state.cells) if c == "."]
        scored_last = bool(state.records) and bool(state.records[-1].lines)
        # Terminal exactly at a full board (general) or at the first SOS (simple).
        ended = not empties or (mode == "simple" and scored_last)
        assert state.is_terminal() == ended
        assert (state.outcome() is None) == (not ended)
        legal = state.legal_actions()
        expected = set() if ended else {Action(r, c, x) for r, c in empties for x in "SO"}
        assert set(legal) == expected and len(legal) == len(expected)
        probe = Action(rng.randint(-1, rows), rng.randint(-1, cols), rng.choice("SOX"))
        assert state.is_legal(probe) == (probe in expected)
        # The text form, with the seat to move and the scores, is the same position.
        if not ended:
            again = GameState.from_text(
                state.to_text(), mode, players, state.current_player(), state.scores  # type: ignore[arg-type]
            )
            assert again.key() == state.key() and again.legal_actions() == legal
        if ended:
            break
        action = rng.choice(legal)
        assert Action.parse(str(action)) == action
        predicted = state.scoring_lines(action)
        before = state.clone()
        child = state.child(action)
        assert state == before  # child() leaves the parent alone
        lines = state.apply(action)
        assert list(lines) == predicted
        assert child == state and child.key() == state.key()
        assert before != state
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == state.scores
    returns = state.returns()
    assert len(returns) == players and all(r in (-1.0, 0.0, 1.0) for r in returns)
    if outcome.winner is not None:
        assert returns[outcome.winner] == 1.0 and returns.count(1.0) == 1
        if mode == "general":
            assert state.scores[outcome.winner] == max(state.scores)
    else:
        assert 1.0 not in returns
        assert set(outcome.tied) == {p for p, r in enumerate(returns) if r == 0.0}
    assert state.current_player() == -1 and state.legal_actions() == []
