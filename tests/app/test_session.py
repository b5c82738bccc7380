"""One game's line of play (sos.app.game.session.GameSession): moves, undo/redo, going to an earlier
position, other lines, and when the computer may move -- under CPython, no browser."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sos import Action, Rules
from sos.app.game.outcome import GameOutcome
from sos.app.game.session import GameSession
from sos.app.saving.library import GameRecord
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


# ---------------------------------------------------------------------- the outcome
def test_the_outcome_is_none_while_playing_and_ends_the_turns() -> None:
    game = GameSession(GameRecord("g", Rules(1, 3, "simple"), ("human", "easy")))
    assert game.outcome is None and game.human_to_move()
    game.play(Action(0, 0, "S"))
    assert game.computer_to_move() == 1
    game.play(Action(0, 1, "O"))  # (the computer's move)
    game.play(Action(0, 2, "S"))  # the human completes the SOS: simple mode ends
    assert game.outcome == GameOutcome("sos", 0, (), (1, 0))
    assert game.outcome is not None and not game.outcome.draw
    assert not game.human_to_move() and game.computer_to_move() is None
    game.go_to(1)  # an earlier position of the line: not over there
    assert game.outcome is None


def test_a_draw_has_no_winner_and_names_the_tied_seats() -> None:
    game = GameSession(GameRecord("g", Rules(1, 3, "general", 3), ("human",) * 3))
    for col in range(3):
        game.play(Action(0, col, "O"))
    assert game.outcome == GameOutcome("full_board", None, (0, 1, 2), (0, 0, 0))
    assert game.outcome is not None and game.outcome.draw


def test_the_record_is_never_stale() -> None:
    """Whatever reads ``game.record`` (the outcome does) reads the line of play as it is now,
    not the one it was opened with: after a move, an undo, a new line and a switch of lines."""
    game = GameSession(GameRecord("g", Rules.square(4), ("human", "human")))
    game.play(Action.parse("S@a1"))
    game.play(Action.parse("O@b1"))
    assert game.record.line == tuple(game.line) and game.record.cursor == 2
    game.undo()
    assert game.record.line == tuple(game.line) and game.record.cursor == 1
    game.play(Action.parse("S@d4"))  # a new line; the old one is a variation
    assert game.record.line == tuple(game.line) and game.record.variations == tuple(
        game.variations
    )
    game.switch_line(0)
    assert game.record.line == tuple(game.line) and game.record.cursor == game.cursor
    assert game.record == game.to_record()  # nothing counted here: the same game


def test_local_and_remote_sessions_ask_one_undo_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from sos.app.share.remote import RemoteSession, new_record

    local = GameSession(GameRecord("g", Rules.square(4), ("human", "human")))
    remote = RemoteSession(replace(new_record(Rules.square(4), 0, ""), id="r"))
    for game in (local, remote):
        game.play(Action.parse("S@a1"))
        assert game.can_undo()
    monkeypatch.setattr(GameSession, "undo_target", lambda self: None)
    for game in (local, remote):
        assert not game.can_undo() and not game.undo()
