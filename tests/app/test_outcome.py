"""One outcome of the session (sos.app.outcome): whatever outcome_of decides is what the
session, the view, the games list, the embed's event and the text record all say -- shown by
adding a new way to end a game (a resignation kept in the record) in that one place."""

from __future__ import annotations

import pytest

from sos import Action, Rules, new_game
from sos.app import outcome as outcomes
from sos.app.embed import GameOverReports
from sos.app.library import GameRecord, MemoryStore
from sos.app.outcome import FROM_BOARD, GameOutcome, outcome_of, resolve
from sos.app.session import GameSession
from sos.app.transcript import format_transcript, parse_transcript
from sos.app.view import session_view
from tests.app.support import A1, C1, tab

board_only = outcomes.outcome_of


def with_resignation(state: object, record: GameRecord | None = None) -> GameOutcome | None:
    """outcome_of plus a resignation: ``record.extra["resigned"]`` = the seat that resigned."""
    seat = record.extra.get("resigned") if record is not None else None
    if isinstance(seat, int):
        scores = tuple(state.scores)  # type: ignore[attr-defined]
        return GameOutcome("resign", 1 - seat, (), scores)
    return board_only(state, record)  # type: ignore[arg-type]


def test_the_board_decides_today() -> None:
    state = new_game(Rules(1, 3, "simple"))
    assert outcome_of(state) is None and resolve(state, FROM_BOARD) is None
    for col, letter in enumerate("SOS"):
        state.apply(Action(0, col, letter))
    assert outcome_of(state) == GameOutcome("sos", 0, (), (1, 0))
    assert resolve(state, None) is None  # the caller's outcome wins over the board's


def test_a_new_ending_is_one_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcomes, "outcome_of", with_resignation)
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    app.game.play(C1)
    app.game.record.extra["resigned"] = 0  # player 1 resigns (what a Resign button would do)
    app.commit()
    game = app.game
    # the session: nobody moves any more
    assert game.outcome == GameOutcome("resign", 1, (), (0, 0))
    assert not game.human_to_move() and game.computer_to_move() is None
    # the view: result shown, board locked, status is the result
    vm = session_view(game, "en")
    assert vm.game_over and vm.locked and vm.result == "Player 2 wins, 0–0"
    assert vm.status == vm.result
    # the games list
    (entry,) = app.entries()
    assert entry.finished and entry.detail == "2 moves · Player 2 wins, 0–0"
    # the embed's event
    message = GameOverReports().message(game, app.settings(), "en")
    assert message is not None and message["winner"] == 1 and message["termination"] == "resign"
    # the text record
    text = format_transcript(game.state, game.outcome)
    assert text.endswith("# result: player 2 wins, scores 0-0 (resign)\n")
    assert parse_transcript(text).history == (A1, C1)  # the comment does not disturb reading


def test_the_record_states_a_board_ending() -> None:
    game = GameSession(GameRecord("g", Rules(1, 3, "general", 3), ("human",) * 3))
    for col in range(3):
        game.play(Action(0, col, "O"))
    text = format_transcript(game.state, game.outcome)
    assert text.splitlines()[-1] == "# result: draw, scores 0-0-0 (full board)"
    assert format_transcript(game.state) == text.rsplit("# result", 1)[0]


# ---------------------------------------------------------------------------- an ending kept in
# the game's data, through the real mechanism (an ending added to ENDINGS for the test only)

RESIGN = outcomes.Ending("resign", on_board=False, win_text="result.win")


def test_an_ending_kept_in_the_games_data_is_read_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sos.app.counted import counted_result
    from sos.app.outcome import ENDING_KEY
    from sos.state import IllegalActionError

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,easy")])
    game = app.game
    game.play(A1)
    game.play(C1)
    game.end("resign", 1)  # the human (seat 0) resigns: the computer wins
    ended = GameOutcome("resign", 1, (), (0, 0))
    assert game.outcome == ended
    assert game.record.extra[ENDING_KEY] == {
        "v": 1, "termination": "resign", "winner": 1, "moves": "Sa1Sc1",
    }
    with pytest.raises(IllegalActionError):  # nobody moves after the end
        game.play(Action(3, 3, "S"))
    assert not game.human_to_move() and game.computer_to_move() is None
    assert app.commit() == "saved"
    stored = app.library.get(game.record.id)
    assert stored is not None and outcome_of(stored.state(), stored) == ended  # saved, read back
    assert session_view(game, "en").result == "Computer 2 wins, 0–0"
    (entry,) = app.entries()
    assert entry.finished
    report = GameOverReports().message(game, app.settings(), "en")
    assert report is not None and report["termination"] == "resign"
    assert format_transcript(game.state, game.outcome).endswith("(resign)\n")
    assert counted_result(game.to_record()) == ("easy", 4, "loss")  # the statistics
    # the session asks the outcome at each position it steps through
    assert game.undo() and game.outcome is None and game.cursor == 0
    assert game.redo() and game.outcome == ended and game.cursor == 2
    assert game.go_to(1) and game.outcome is None
    # an ending this build does not list (a newer build's) is ignored, and kept
    monkeypatch.setattr(outcomes, "ENDINGS", outcomes.ENDINGS[:-1])
    assert outcome_of(stored.state(), stored) is None and ENDING_KEY in stored.extra


def test_only_an_ending_kept_in_the_data_can_be_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    from sos.state import IllegalActionError

    game = GameSession(GameRecord("g", Rules(1, 3, "simple"), ("human",) * 2))
    with pytest.raises(ValueError):
        game.end("sos", 0)  # read off the board, never kept
    with pytest.raises(ValueError):
        game.end("resign", 0)  # not an ending of this build
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    with pytest.raises(ValueError):
        game.end("resign", 2)  # no such seat
    for col, letter in enumerate("SOS"):
        game.play(Action(0, col, letter))
    with pytest.raises(IllegalActionError):
        game.end("resign", 1)  # over on the board already


def test_a_merge_of_two_tabs_keeps_an_ending_the_other_tab_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sos.app.library import Library
    from sos.app.outcome import ENDING_KEY

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    library = Library(MemoryStore(), lambda: 1.0, iter(["id1", "id2"]).__next__)
    one = GameSession(GameRecord("", Rules.square(4), ("human",) * 2))
    one.play(A1)
    stored = library.create(one.to_record())
    two = GameSession(stored)
    one.record = stored
    one.end("resign", 0)
    library.save(one.to_record())
    result = library.save(two.to_record())  # the same moves, without the ending
    assert result.record.extra.get(ENDING_KEY) == one.record.extra[ENDING_KEY]


def test_only_the_owner_reads_the_boards_verdict() -> None:
    """Whether a game is over is asked through outcome_of: no other module of the app or the
    page reads the engine's verdict on a position (a puzzle is a position, not a game)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "sos"
    allowed = {"app/outcome.py", "app/puzzle_set.py", "app/puzzle_why.py"}
    found = [
        str(path.relative_to(root))
        for folder in ("app", "web")
        for path in sorted((root / folder).glob("*.py"))
        if str(path.relative_to(root)) not in allowed
        and re.search(r"\.outcome\(\)|\.is_terminal\(\)", path.read_text("utf-8"))
    ]
    assert found == [], f"ask sos.app.outcome.outcome_of instead: {found}"
