"""Taps made before the engine was up (sos.app.early.play_early): played as the first moves of
an empty game on the same board, in order; otherwise dropped with a notice, and a game that
has moves is never changed."""

from __future__ import annotations

from sos.app.app import AppSession
from sos.app.early import EarlyResult, play_early, take_early
from sos.app.game.session import GameSession
from sos.app.saving.library import GameRecord, MemoryStore
from sos.app.text.message import Message
from sos.notation import Action
from sos.rules import Rules
from tests.app.support import factory


def game(size: int = 5, seats: tuple[str, ...] = ("human", "human"), mode: str = "general",
         line: tuple[Action, ...] = ()) -> GameSession:
    rules = Rules.square(size, mode)  # type: ignore[arg-type]
    return GameSession(GameRecord("g1", rules, seats, line=line, cursor=len(line)))


def reason(notice: Message | None) -> str:
    assert notice is not None
    inner = dict(notice.values)["reason"]
    assert isinstance(inner, Message)
    return inner.key


def test_taps_are_the_first_moves_in_order() -> None:
    g = game()
    result = play_early(g, (5, 5), [(0, 0, "S"), (1, 1, "O"), (4, 4, "S")])
    assert result.played == 3 and result.notice is None
    assert [str(a) for a in g.line] == ["S@a1", "O@b2", "S@e5"]
    assert g.state.current_player() == 1  # two players alternated, no SOS


def test_no_taps_change_nothing() -> None:
    g = game()
    assert play_early(g, (5, 5), []).played == 0
    assert g.line == []


def test_a_game_with_moves_is_never_changed() -> None:
    g = game(line=(Action(2, 2, "S"),))
    result = play_early(g, (5, 5), [(0, 0, "S"), (0, 1, "O")])
    assert result.played == 0
    assert reason(result.notice) == "notice.early.started"
    assert result.notice is not None and dict(result.notice.values)["squares"] == 2
    assert [str(a) for a in g.line] == ["S@c3"]


def test_undone_moves_count_as_moves() -> None:
    g = game(line=(Action(2, 2, "S"),))
    assert g.undo()
    assert play_early(g, (5, 5), [(0, 0, "S")]).played == 0
    assert [str(a) for a in g.line] == ["S@c3"] and g.variations == []


def test_another_board_refuses_every_tap() -> None:
    g = game(size=6)
    result = play_early(g, (5, 5), [(0, 0, "S")])
    assert result.played == 0 and reason(result.notice) == "notice.early.board"
    assert g.line == []


def test_a_computer_turn_stops_the_replay() -> None:
    g = game(seats=("human", "easy"))
    result = play_early(g, (5, 5), [(0, 0, "S"), (0, 1, "O"), (0, 2, "S")])
    assert result.played == 1
    assert reason(result.notice) == "notice.early.computer"
    assert result.notice is not None and dict(result.notice.values)["squares"] == 2
    assert [str(a) for a in g.line] == ["S@a1"]


def test_a_computer_moving_first_refuses_the_first_tap() -> None:
    g = game(seats=("easy", "human"))
    result = play_early(g, (5, 5), [(0, 0, "S")])
    assert result.played == 0 and reason(result.notice) == "notice.early.computer"
    assert g.line == []


def test_a_finished_game_stops_the_replay() -> None:
    g = game(mode="simple")
    taps = [(0, 0, "S"), (0, 1, "O"), (0, 2, "S"), (3, 3, "O")]
    result = play_early(g, (5, 5), taps)
    assert result.played == 3 and reason(result.notice) == "notice.early.over"


def test_a_square_off_the_board_stops_the_replay() -> None:
    g = game()
    result = play_early(g, (5, 5), [(0, 0, "S"), (0, 0, "O"), (1, 1, "S")])
    assert result.played == 1 and reason(result.notice) == "notice.early.board"
    result = play_early(game(), (5, 5), [(9, 0, "S")])
    assert result.played == 0


def test_the_notice_reads_in_every_language() -> None:
    g = game(seats=("easy", "human"))
    notice = play_early(g, (5, 5), [(0, 0, "S"), (1, 1, "S")]).notice
    assert notice is not None
    assert notice.text("en") == (
        "The 2 squares you tapped before the game was ready were not played: "
        "it was the computer's turn."
    )
    one = play_early(game(line=(Action(0, 0, "S"),)), (5, 5), [(1, 1, "S")]).notice
    assert one is not None and one.text("en") == (
        "The square you tapped before the game was ready was not played: "
        "this game already has moves."
    )


# ------------------------------------------------------------------ take_early: the frame's game
def frame(store: MemoryStore, key: str = "sos-embed:k") -> AppSession:
    clock, new_id = factory()
    app = AppSession(store, clock, new_id, "en")
    app.start([("embed", "1"), ("size", "5")], "", key)
    return app


def test_taps_on_a_drawn_game_continue_it() -> None:
    store = MemoryStore()
    app = frame(store)
    app.game.play(Action(0, 0, "S"))
    app.commit()
    back = frame(store)  # the reader returns: the frame drew Sa1, then tapped b2
    result = take_early(back, (5, 5), [(1, 1, "O")], (app.game.record.id, "Sa1"))
    assert result == EarlyResult(1, None)
    assert back.game.record.id == app.game.record.id
    assert [str(a) for a in back.game.line] == ["S@a1", "O@b2"]


def test_taps_on_a_drawn_game_that_changed_since_go_to_a_copy_of_what_was_drawn() -> None:
    store = MemoryStore()
    app = frame(store)
    app.game.play(Action(0, 0, "S"))
    app.commit()
    drawn = (app.game.record.id, "Sa1")
    app.game.play(Action(4, 4, "S"))  # another tab moved on after the frame drew Sa1
    app.commit()
    back = frame(store)
    result = take_early(back, (5, 5), [(1, 1, "O")], drawn)
    assert result.played == 1 and result.notice is not None
    assert result.notice.key == "notice.forked"
    assert back.game.record.id != app.game.record.id
    assert [str(a) for a in back.game.line] == ["S@a1", "O@b2"]
    assert [str(a) for a in back.library.get(app.game.record.id).line] == ["S@a1", "S@e5"]


def test_taps_on_an_empty_frame_never_drop_for_a_game_with_moves() -> None:
    store = MemoryStore()
    app = frame(store)
    app.game.play(Action(0, 0, "S"))
    app.commit()
    back = frame(store)  # the frame could not draw it (e.g. the record came later)
    result = take_early(back, (5, 5), [(2, 2, "S")], None)
    assert result == EarlyResult(1, None)
    assert [str(a) for a in back.game.line] == ["S@c3"]
    assert back.library.get(app.game.record.id) is not None  # the other game is kept
    full = AppSession(store, *factory(), "en")  # the full page keeps its rule: dropped
    full.start([], f"g={app.game.record.id}")
    dropped = take_early(full, (5, 5), [(2, 2, "S")], None)
    assert dropped.played == 0 and reason(dropped.notice) == "notice.early.started"
