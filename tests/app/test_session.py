"""One game's line of play (sos.app.session.GameSession): moves, undo/redo, going to an earlier
position, other lines, and when the computer may move -- under CPython, no browser."""

from __future__ import annotations

import pytest

from sos import Action
from sos.app.session import GameSession
from sos.state import IllegalActionError
from tests.app.support import A1, A3, B1, C1, D4, record


def test_play_undo_redo_between_people() -> None:
    game = GameSession(record())
    for action in (A1, C1, B1, A3):
        game.play(action)
    assert game.state.scores == (1, 0) and game.cursor == 4
    assert game.undo() and game.cursor == 3
    assert game.undo() and game.cursor == 2 and game.state.scores == (0, 0)
    assert game.redo() and game.cursor == 3 and game.state.scores == (1, 0)
    assert game.can_redo()


def test_illegal_action_raises_and_changes_nothing() -> None:
    game = GameSession(record())
    game.play(A1)
    before = (list(game.line), game.cursor, game.version)
    with pytest.raises(IllegalActionError):
        game.play(Action(0, 0, "O"))
    with pytest.raises(IllegalActionError):
        game.play(Action(9, 9, "S"))
    assert (list(game.line), game.cursor, game.version) == before


def test_undo_against_the_computer_goes_back_to_the_human() -> None:
    game = GameSession(record(("human", "hard")))
    game.play(A1)  # human
    game.play(C1)  # computer
    game.play(D4)  # human
    game.play(Action(3, 0, "S"))  # computer
    assert game.state.current_player() == 0
    assert game.undo()
    assert game.cursor == 2 and game.state.current_player() == 0  # the human's D4 undone too
    assert game.computer_to_move() is None
    assert game.redo()
    assert game.cursor == 4 and game.state.current_player() == 0


def test_computer_waits_while_an_earlier_position_is_shown() -> None:
    game = GameSession(record(("human", "medium")))
    game.play(A1)
    game.play(C1)
    assert game.go_to(1) and game.paused
    assert game.computer_to_move() is None  # it must not play over the later move
    assert game.go_to(2) and not game.paused


def test_a_move_from_an_earlier_position_keeps_the_old_line() -> None:
    game = GameSession(record())
    for action in (A1, C1, B1, A3):
        game.play(action)
    game.go_to(1)
    game.play(D4)
    assert game.line == [A1, D4]
    assert game.variations == [(A1, C1, B1, A3)]
    # Undo, then the old line's move again: back on the old line, nothing duplicated.
    game.undo()
    game.play(C1)
    assert game.line == [A1, C1, B1, A3] and game.cursor == 2
    assert game.variations == [(A1, D4)]
    assert game.switch_line(0) and game.line == [A1, D4] and game.cursor == 2
    assert game.variations == [(A1, C1, B1, A3)]


def test_same_move_as_the_line_just_moves_along() -> None:
    game = GameSession(record())
    game.play(A1)
    game.play(C1)
    game.go_to(0)
    game.play(A1)
    assert game.line == [A1, C1] and game.cursor == 1 and game.variations == []
