"""The rules of one game (sos.rules.Rules): board sides, mode and player count; anything
outside the allowed ranges raises InvalidRulesError."""

from __future__ import annotations

import pytest

from sos.rules import MAX_SIDE, InvalidRulesError, Rules


def test_square_rules_and_cells() -> None:
    rules = Rules.square(5, "simple", 3)
    assert (rules.rows, rules.cols, rules.mode, rules.players) == (5, 5, "simple", 3)
    assert rules.cells == 25
    assert Rules(1, 3).cells == 3  # a strip of three squares holds one SOS
    assert Rules(MAX_SIDE, MAX_SIDE).cells == MAX_SIDE**2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 2, "cols": 2},
        {"rows": 0, "cols": 5},
        {"rows": 3, "cols": 27},
        {"rows": 3, "cols": 3, "players": 1},
        {"rows": 3, "cols": 3, "players": 5},
        {"rows": 3, "cols": 3, "mode": "blitz"},
        {"rows": 3.0, "cols": 3},
    ],
)
def test_bad_rules_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        Rules(**kwargs)  # type: ignore[arg-type]
