"""The board drawn small in "Your games" (issue 32): letters where they stand, SOSs with the
seat that scored them, computed for the entries shown only -- under CPython."""

from __future__ import annotations

import pytest

from sos.app.game.thumbnail import thumbnail
from sos.app.game.view import LineView
from sos.app.saving.library import MemoryStore
from sos.notation import Action
from sos.rules import Rules
from sos.state import GameState, new_game
from tests.app.support import tab


def test_letters_and_lines_of_a_position() -> None:
    state = new_game(Rules.square(3))
    for text in ("S@a1", "O@b2", "S@c3", "O@a2"):
        state.apply(Action.parse(text))
    thumb = thumbnail(state)
    assert (thumb.rows, thumb.cols) == (3, 3)
    assert thumb.letters == ((0, 0, "S"), (1, 1, "O"), (2, 2, "S"), (1, 0, "O"))
    assert thumb.lines == (LineView(0, 0, 2, 2, 0),)  # the diagonal, by seat 0


def test_an_empty_board_draws_nothing_but_its_size() -> None:
    thumb = thumbnail(GameState(Rules.square(4)))
    assert (thumb.rows, thumb.cols, thumb.letters, thumb.lines) == (4, 4, (), ())


def test_each_entry_shown_carries_its_game_board() -> None:
    app = tab(MemoryStore())
    app.game.play(Action.parse("S@a1"))
    app.commit()
    app.new_game()
    app.game.play(Action.parse("O@b2"))
    app.commit()
    entries, _ = app.games()
    boards = {entry.id: entry.thumb.letters for entry in entries if entry.thumb is not None}
    assert sorted(boards.values()) == [((0, 0, "S"),), ((1, 1, "O"),)]


def test_a_page_of_the_list_replays_only_its_own_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """With many games, one page reads and draws only the entries it shows."""
    import sos.app.games_list as app_module

    app = tab(MemoryStore())
    for n in range(40):
        app.game.play(Action(n % 4, (n // 4) % 4, "S"))
        app.commit()
        app.new_game()
    calls: list[int] = []
    real = app_module.thumbnail

    def counting(state: GameState) -> object:
        calls.append(1)
        return real(state)

    monkeypatch.setattr(app_module, "thumbnail", counting)
    entries, total = app.games(10)
    assert total >= 40 and len(entries) == 10
    assert len(calls) == 10
