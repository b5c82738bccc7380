"""The rule cases of the game, as plain functions (no pytest), so that they run unchanged
under CPython (tests/engine/test_rule_cases.py) and under Pyodide in Node
(tests/pyodide/run_engine_tests.mjs), the Python the browser runs.

Positions: rows split by ``/``, ``.`` empty; squares (row, col) from 0; the mover scores.
"""

from __future__ import annotations

from sos import (
    TERMINAL,
    Action,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    Line,
    Rules,
    new_game,
)


def case_01_two_diagonals_one_extra_turn() -> None:
    state = GameState.from_text("S.S/.../S.S")
    lines = state.apply(Action(1, 1, "O"))
    assert len(lines) == 2 and state.scores == (2, 0)
    assert state.current_player() == 0
    # One extra turn, not two: a quiet move now passes to player 1.
    assert state.apply(Action(1, 0, "S")) == ()
    assert state.current_player() == 1


def case_02_o_in_the_middle_scores_four() -> None:
    state = GameState.from_text("SSS/S.S/SSS")
    lines = state.apply(Action(1, 1, "O"))
    assert state.scores == (4, 0)
    assert set(lines) == {Line(0, 0, 2, 2), Line(0, 1, 2, 1), Line(0, 2, 2, 0), Line(1, 0, 1, 2)}
    assert state.is_terminal() and state.current_player() == TERMINAL


def case_03_o_counts_its_line_once() -> None:
    state = GameState.from_text(".../S.S/...")
    assert state.apply(Action(1, 1, "O")) == (Line(1, 0, 1, 2),)
    assert state.scores == (1, 0)


def case_04_anti_diagonal() -> None:
    state = GameState.from_text("..S/.O./...")
    assert state.apply(Action(2, 0, "S")) == (Line(0, 2, 2, 0),)
    assert state.scores == (1, 0) and state.current_player() == 0


def case_05_strip_shares_letters() -> None:
    state = GameState.from_text("SOSO.")
    assert state.rules == Rules(rows=1, cols=5)
    assert state.apply(Action(0, 4, "S")) == (Line(0, 2, 0, 4),)
    assert state.scores == (1, 0)


def case_06_old_sos_not_rescored() -> None:
    state = GameState.from_text("SOS/.../...")
    assert state.apply(Action(2, 2, "O")) == ()
    assert state.scores == (0, 0) and state.current_player() == 1


def case_07_general_last_square_scores_and_ends() -> None:
    state = GameState.from_text("OOO/OOO/SO.", to_move=1, scores=[1, 0])
    lines = state.apply(Action(2, 2, "S"))
    assert lines == (Line(2, 0, 2, 2),)
    assert state.scores == (1, 1)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.tied == (0, 1)
    # The same last move with player 1 behind by two: player 0 still wins.
    state = GameState.from_text("OOO/OOO/SO.", to_move=1, scores=[3, 0])
    state.apply(Action(2, 2, "S"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (3, 1)
    assert state.returns() == [1.0, -1.0]


def case_08_simple_filling_move_with_sos_wins() -> None:
    state = GameState.from_text("SOO/OOO/OO.", mode="simple", to_move=1)
    assert not state.is_terminal()
    state.apply(Action(2, 2, "S"))
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "sos" and outcome.winner == 1
    assert state.returns() == [-1.0, 1.0]


def case_09_simple_sos_from_opponents_letters() -> None:
    state = new_game(Rules(rows=3, cols=3, mode="simple"))
    state.apply(Action(0, 0, "S"))  # player 0
    state.apply(Action(0, 2, "S"))  # player 1
    assert state.current_player() == 0
    state.apply(Action(0, 1, "O"))  # player 0 completes S-O-S
    outcome = state.outcome()
    assert state.is_terminal() and outcome is not None and outcome.winner == 0
    # In simple mode the game ends at the first SOS, even mid-board.
    assert state.legal_actions() == []


def case_10_full_board_equal_scores_is_draw() -> None:
    state = GameState.from_text("OOO/OOO/OO.")
    state.apply(Action(2, 2, "O"))
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.scores == (0, 0)
    assert state.returns() == [0.0, 0.0]
    state = GameState.from_text("SOS/SOS/SO.", scores=[1, 1])
    state.apply(Action(2, 2, "O"))  # no SOS: S-O-O
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.tied == (0, 1)
    simple = GameState.from_text("OOO/OOO/OO.", mode="simple")
    simple.apply(Action(2, 2, "O"))
    outcome = simple.outcome()
    assert outcome is not None and outcome.is_draw and outcome.termination == "full_board"


def _assert_rejected(state: GameState, action: object) -> None:
    before = (state.to_text(), state.scores, state.current_player(), state.history)
    try:
        state.apply(action)  # type: ignore[arg-type]
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{action!r} was accepted")
    assert (state.to_text(), state.scores, state.current_player(), state.history) == before


def case_11_illegal_actions_change_nothing() -> None:
    state = GameState.from_text("S../.../...")
    _assert_rejected(state, Action(0, 0, "O"))  # occupied
    _assert_rejected(state, Action(3, 0, "S"))  # off the board
    _assert_rejected(state, Action(-1, 0, "S"))  # negative must not wrap around
    _assert_rejected(state, Action(0, -1, "S"))
    _assert_rejected(state, Action(1, 1, "X"))  # bad letter
    _assert_rejected(state, Action(1, 1, "s"))
    _assert_rejected(state, Action(1, 1, ""))
    over = GameState.from_text("SOS/OSO/SO.")
    over.apply(Action(2, 2, "O"))
    assert over.is_terminal()
    _assert_rejected(over, Action(0, 0, "S"))  # move after the end
    simple = GameState.from_text(".../S.S/...", mode="simple")
    simple.apply(Action(1, 1, "O"))
    _assert_rejected(simple, Action(0, 0, "S"))


def case_12_undo_restores_everything() -> None:
    state = GameState.from_text("S.S/.../S.S", to_move=1, scores=[0, 3])
    start = state.clone()
    state.apply(Action(1, 1, "O"))
    state.apply(Action(0, 1, "S"))
    assert state.scores == (0, 5)
    state.undo()
    state.undo()
    assert state == start and state.key() == start.key()
    try:
        state.undo()
    except IndexError:
        pass
    else:
        raise AssertionError("undo past the start was accepted")


def case_13_notation_round_trip() -> None:
    for text in ("S@a1", "O@l12", "S@c10"):
        assert str(Action.parse(text)) == text
    assert Action.parse(" s@B3 ") == Action(2, 1, "S")
    for bad in ("", "S@", "X@a1", "S@a0", "Sa1", "S@1a", "S@a1x"):
        try:
            Action.parse(bad)
        except InvalidNotationError:
            pass
        else:
            raise AssertionError(f"{bad!r} parsed")
    text = "S.S/.O./..O"
    assert GameState.from_text(text).to_text() == text
    for bad in ("", "S.S/..", "S.X/.../...", "/"):
        try:
            GameState.from_text(bad)
        except InvalidNotationError:
            pass
        else:
            raise AssertionError(f"{bad!r} read as a position")


def case_14_three_players_turn_order() -> None:
    state = new_game(Rules(rows=4, cols=4, players=3))
    order = []
    for action in (Action(0, 0, "S"), Action(0, 1, "O"), Action(0, 2, "S"), Action(3, 3, "O")):
        order.append(state.current_player())
        state.apply(action)
    # Seat 2 completed the SOS on a1-c1 and moved again; then the turn returns to seat 0.
    assert order == [0, 1, 2, 2]
    assert state.scores == (0, 0, 1) and state.current_player() == 0


def case_15_simple_rejects_position_with_sos() -> None:
    try:
        GameState.from_text("SOS/.../...", mode="simple")
    except InvalidNotationError:
        pass
    else:
        raise AssertionError("a finished simple-mode position was accepted")
