"""The game state (sos.state.GameState): apply / undo / clone / child, the end of a game
(is_terminal, outcome, returns), and illegal actions that leave the state unchanged."""

from __future__ import annotations

import pytest

from sos import TERMINAL, Action, GameState, IllegalActionError, Rules, new_game
from sos.state import Outcome, replay


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything a caller can observe of a state."""
    return (
        state.to_text(),
        state.scores,
        state.history,
        state.current_player(),
        state.key(),
        state.legal_actions(),
        state.is_terminal(),
    )


def test_apply_scores_keeps_the_turn_and_undo_restores() -> None:
    state = GameState.from_text("S../.../...")
    before = snapshot(state)
    assert state.apply(Action(0, 2, "S")) == ()  # quiet move: the turn passes
    assert state.current_player() == 1
    lines = state.apply(Action(0, 1, "O"))  # player 1 completes S-O-S on the top row
    assert len(lines) == 1 and state.scores == (0, 1)
    assert state.current_player() == 1  # a scoring move keeps the turn
    assert state.history == (Action(0, 2, "S"), Action(0, 1, "O"))
    assert state.undo() == Action(0, 1, "O")
    assert state.undo() == Action(0, 2, "S")
    assert snapshot(state) == before
    with pytest.raises(IndexError):
        state.undo()


def test_clone_and_child_are_independent() -> None:
    state = new_game(Rules.square(4))
    state.apply(Action(0, 0, "S"))
    copy = state.clone()
    child = state.child(Action(1, 1, "O"))
    assert snapshot(copy) == snapshot(state)  # child() did not touch its parent
    copy.apply(Action(3, 3, "S"))
    assert state.history == (Action(0, 0, "S"),)
    assert child.history == (Action(0, 0, "S"), Action(1, 1, "O"))
    assert child.key() != state.key()


@pytest.mark.parametrize(
    "action",
    [
        Action(0, 0, "O"),  # written square
        Action(3, 0, "S"),  # off the board
        Action(-1, 0, "S"),  # negative index must not wrap around
        Action(0, 1, "X"),  # bad letter
        Action(0, 1, "s"),  # letters are upper case in an Action
        ("a", 1, "S"),  # not even a square
    ],
)
def test_illegal_actions_raise_and_leave_the_state_unchanged(action: Action) -> None:
    state = GameState.from_text("S../.../...")
    before = snapshot(state)
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError):
        state.apply(action)
    with pytest.raises(IllegalActionError):
        state.child(action)
    assert snapshot(state) == before


def test_no_move_after_the_end() -> None:
    state = GameState.from_text("SO./.../...", mode="simple")
    state.apply(Action(0, 2, "S"))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(Action(2, 2, "S"))
    assert snapshot(state) == before


def test_simple_mode_outcome_is_the_first_sos() -> None:
    state = GameState.from_text("SO./.../...", mode="simple", to_move=1)
    assert state.outcome() is None and state.returns() == [0.0, 0.0]
    state.apply(Action(0, 2, "S"))
    assert state.outcome() == Outcome("sos", 1, (), (0, 1))
    assert state.returns() == [-1.0, 1.0]
    state.undo()  # the end is undone with the move
    assert not state.is_terminal() and state.outcome() is None


def test_simple_mode_full_board_without_sos_is_a_draw_of_all_seats() -> None:
    state = replay(
        Rules(1, 3, "simple", players=3), [Action(0, 0, "O"), Action(0, 1, "O"), Action(0, 2, "O")]
    )
    outcome = state.outcome()
    assert outcome == Outcome("full_board", None, (0, 1, 2), (0, 0, 0))
    assert outcome is not None and outcome.is_draw
    assert state.returns() == [0.0, 0.0, 0.0]


def test_general_mode_most_points_wins_and_ties_share_the_draw() -> None:
    won = GameState.from_text("SOS/SO./SOS", scores=(3, 0))
    won.apply(Action(1, 2, "O"))  # completes the right column: 4 points, the board is full
    assert won.outcome() == Outcome("full_board", 0, (), (4, 0))
    assert won.returns() == [1.0, -1.0]
    tie = GameState.from_text("SO./O../...", players=3, scores=(2, 2, 0))
    # fill the board with O's, which never complete an SOS here: the leaders stay tied
    while not tie.is_terminal():
        quiet = next(a for a in tie.legal_actions() if a.letter == "O" and not tie.scoring_lines(a))
        tie.apply(quiet)
    outcome = tie.outcome()
    assert outcome is not None and outcome.winner is None and outcome.tied == (0, 1)
    assert tie.returns() == [0.0, 0.0, -1.0]
