"""The text forms (sos.notation): actions (``S@b3``), square names and positions
(``S.S/.O./...``); bad text raises InvalidNotationError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos.notation import Action, InvalidNotationError, column_name, parse_position, square_name


@settings(max_examples=200, deadline=None)
@given(row=st.integers(0, 25), col=st.integers(0, 25), letter=st.sampled_from("SO"))
def test_action_text_round_trip(row: int, col: int, letter: str) -> None:
    action = Action(row, col, letter)
    assert Action.parse(str(action)) == action
    assert Action.parse(" " + str(action).lower() + " ") == action
    assert eval(repr(action), {"Action": Action}) == action  # repr pastes back as Python


def test_square_names_count_columns_from_a_and_rows_from_1() -> None:
    assert column_name(0) == "a" and column_name(25) == "z"
    assert square_name(0, 0) == "a1" and square_name(2, 1) == "b3"
    assert str(Action(2, 1, "O")) == "O@b3"


@pytest.mark.parametrize("text", ["", "S@", "X@a1", "S@a0", "S a1", "S@1a", "S@a1 junk", 7])
def test_bad_action_text_raises(text: object) -> None:
    with pytest.raises(InvalidNotationError):
        Action.parse(text)  # type: ignore[arg-type]


def test_positions_split_into_rows() -> None:
    assert parse_position(" s.S/.o./... ") == ["S.S", ".O.", "..."]


@pytest.mark.parametrize("text", ["", "   ", "S.S/..", "S.X/.../...", "S.S//...", None])
def test_bad_positions_raise(text: object) -> None:
    with pytest.raises(InvalidNotationError):
        parse_position(text)  # type: ignore[arg-type]
