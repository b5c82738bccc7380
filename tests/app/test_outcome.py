"""One outcome of the session (sos.app.game.outcome): whatever outcome_of decides is what the
session, the view, the games list, the embed's event and the text record all say -- shown by
adding a new way to end a game (a resignation kept in the record) in that one place."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sos import Action, Rules, new_game
from sos.app.game import outcome as outcomes
from sos.app.game.outcome import FROM_BOARD, GameOutcome, outcome_of, resolve
from sos.app.game.session import GameSession
from sos.app.game.view import session_view
from sos.app.saving.library import GameRecord, MemoryStore
from sos.app.saving.transcript import format_transcript, parse_transcript
from sos.app.share.embed import GameOverReports
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
    assert message["by"] is None  # an outcome that names no author
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

RESIGN = outcomes.Ending("resign", on_board=False, win_text="result.win", by_player=True,
                         decide=outcomes.best_other)


def test_an_ending_kept_in_the_games_data_is_read_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sos.app.game.counted import counted_result
    from sos.app.game.outcome import ENDING_KEY
    from sos.state import IllegalActionError

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,easy")])
    game = app.game
    game.play(A1)
    game.play(C1)
    game.end("resign")  # the human (seat 0, to move) resigns: the computer wins
    ended = GameOutcome("resign", 1, (), (0, 0), by=0)
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
    assert report is not None and report["termination"] == "resign" and report["by"] == 0
    assert format_transcript(game.state, game.outcome).endswith("(resign by player 1)\n")
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
        game.end("sos")  # read off the board, never kept
    with pytest.raises(ValueError):
        game.end("resign")  # not an ending of this build
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    for col, letter in enumerate("SOS"):
        game.play(Action(0, col, letter))
    with pytest.raises(IllegalActionError):
        game.end("resign")  # over on the board already


def test_a_merge_of_two_tabs_keeps_an_ending_the_other_tab_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sos.app.game.outcome import ENDING_KEY
    from sos.app.saving.library import Library

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    library = Library(MemoryStore(), lambda: 1.0, iter(["id1", "id2"]).__next__)
    one = GameSession(GameRecord("", Rules.square(4), ("human",) * 2))
    one.play(A1)
    stored = library.create(one.to_record())
    two = GameSession(stored)
    one.record = stored
    one.end("resign")  # seat 1, to move, resigns
    library.save(one.to_record())
    result = library.save(two.to_record())  # the same moves, without the ending
    assert result.record.extra.get(ENDING_KEY) == one.record.extra[ENDING_KEY]


def test_only_the_owner_reads_the_boards_verdict() -> None:
    """Whether a game is over is asked through outcome_of: no other module of the app or the
    page reads the engine's verdict on a position (a puzzle is a position, not a game)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "sos"
    allowed = {"app/game/outcome.py", "app/learn/puzzle_set.py", "app/learn/puzzle_why.py"}
    found = [
        str(path.relative_to(root))
        for folder in ("app", "web")
        for path in sorted((root / folder).rglob("*.py"))
        if str(path.relative_to(root)) not in allowed
        and re.search(r"\.outcome\(\)|\.is_terminal\(\)", path.read_text("utf-8"))
    ]
    assert found == [], f"ask sos.app.game.outcome.outcome_of instead: {found}"


# ---------------------------------------------------------------------------- an ending made
# by a player: its author in the outcome, and the one validity rule of kept endings


def test_an_ending_a_player_makes_names_its_author_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The author of an ending (the player to move who resigns) is in the outcome: the view's
    ``{by}``, never among the winners or the drawn, a loss in the statistics."""
    from sos.app.game.counted import counted_result
    from sos.app.text import i18n

    monkeypatch.setitem(i18n.EN, "test.resign", "{by} resigns: {name} wins, {scores}")
    monkeypatch.setitem(i18n.EN, "test.resign.draw", "{by} resigns: draw, {scores}")
    resign = RESIGN._replace(win_text="test.resign", draw_text="test.resign.draw")
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, resign))
    app = tab(MemoryStore(), [("size", "4"), ("seats", "easy,human")])
    game = app.game
    game.play(A1)  # the computer's seat 0
    game.end("resign")  # the human, to move, gives up
    assert game.outcome == GameOutcome("resign", 0, (), (0, 0), by=1)
    assert session_view(game, "en").result == "Player 2 resigns: Computer 1 wins, 0–0"
    assert counted_result(game.to_record()) == ("easy", 4, "loss")
    (entry,) = app.entries()
    assert entry.finished and entry.detail.endswith("Player 2 resigns: Computer 1 wins, 0–0")
    # four players: the best of the others wins; equal best scores draw, without the author
    four = Rules.square(4, "general", 4)
    line = tuple(Action.parse(a) for a in ("S@a1", "O@b1", "S@c1", "S@a3", "O@b3", "S@c3"))
    seats = ("human", "easy", "easy", "easy")
    at = GameSession(GameRecord("g", four, seats, line[:3], 3))  # seat 2 scored, moves again
    at.end("resign")
    assert at.outcome == GameOutcome("resign", None, (0, 1, 3), (0, 0, 1, 0), by=2)
    assert [at.outcome.result_for(seat) for seat in range(4)] == ["draw", "draw", "loss", "draw"]
    assert session_view(at, "en").result == "Computer 3 resigns: draw, 0–0–1–0"
    at = GameSession(GameRecord("g", four, seats, line, len(line)))  # seat 0 scored, moves again
    at.end("resign")
    assert at.outcome == GameOutcome("resign", 2, (), (1, 0, 1, 0), by=0)
    assert counted_result(at.to_record()) == ("easy", 4, "loss")  # equal points, but resigned
    assert session_view(at, "en").result == "Player 1 resigns: Computer 3 wins, 1–1–0–0"


def test_one_validity_rule_for_a_kept_ending(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept ending holds only as its rule says: a saved game whose ending names another
    winner (the one who gave up, or a draw) is not over; nobody resigns for the receiving
    seat; an ending on a finished board is refused."""
    from sos.app.game.outcome import ENDING_KEY, EndingError, kept_outcome

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    state = new_game(Rules.square(4))
    state.apply(A1)  # seat 1 to move
    assert kept_outcome(state, "resign", 0) == GameOutcome("resign", 0, (), (0, 0), by=1)
    for winner, why in ((1, "winner"), (None, "winner"), (True, "winner")):
        with pytest.raises(EndingError) as caught:
            kept_outcome(state, "resign", winner)
        assert caught.value.reason == why
    with pytest.raises(EndingError) as caught:
        kept_outcome(state, "resign", 0, receiver=1)
    assert caught.value.reason == "seat"
    assert kept_outcome(state, "resign", 0, receiver=0).winner == 0
    with pytest.raises(EndingError) as caught:
        kept_outcome(state, "full_board", 0)
    assert caught.value.reason == "unknown"
    record = GameRecord("g", Rules.square(4), ("human",) * 2, state.history)
    forged = {"v": 1, "termination": "resign", "winner": 1, "moves": "Sa1"}
    assert outcome_of(state, replace(record, extra={ENDING_KEY: forged})) is None
    assert outcome_of(state, replace(record, extra={ENDING_KEY: {**forged, "winner": 0}})) \
        == GameOutcome("resign", 0, (), (0, 0), by=1)
