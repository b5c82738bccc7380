"""The rules of one game (sos.rules.Rules): board sides, mode and player count; anything
outside the allowed ranges raises InvalidRulesError."""

from __future__ import annotations

import itertools

import pytest

from sos.rules import (
    APP_SIZES,
    MAX_APP_SIZE,
    MAX_PLAYERS,
    MAX_SIDE,
    MIN_APP_SIZE,
    MIN_PLAYERS,
    InvalidRulesError,
    Rules,
    app_allows,
)


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
        {"rows": 3, "cols": MAX_SIDE + 1},
        {"rows": 3, "cols": 3, "players": MIN_PLAYERS - 1},
        {"rows": 3, "cols": 3, "players": MAX_PLAYERS + 1},
        {"rows": 3, "cols": 3, "mode": "blitz"},
        {"rows": 3.0, "cols": 3},
    ],
)
def test_bad_rules_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_player_limits_are_the_ones_rules_accept() -> None:
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        assert Rules(3, 3, players=players).players == players


def test_app_allows_exactly_the_square_boards_of_app_sizes() -> None:
    assert list(APP_SIZES) == list(range(MIN_APP_SIZE, MAX_APP_SIZE + 1))
    assert 3 <= MIN_APP_SIZE <= MAX_APP_SIZE <= MAX_SIDE
    for rows, cols in itertools.product(range(1, MAX_APP_SIZE + 3), repeat=2):
        if max(rows, cols) < 3:
            continue  # not a game (Rules refuses it)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            rules = Rules(rows, cols, players=players)
            expected = rows == cols and MIN_APP_SIZE <= rows <= MAX_APP_SIZE
            assert app_allows(rules) == expected, rules
