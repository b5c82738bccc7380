"""The record against the computer follows the result a game ended with, not the position it
shows (issue 32): the result is kept in the game once it ends; undo, redo, review and a
takeback that ends the game differently never change it. Old saves without it still count."""

from __future__ import annotations

import json

from sos.app.game.counted import RESULT_KEY, counted_result, line_result, stamp, stored_result
from sos.app.game.session import GameSession
from sos.app.learn.stats import tally
from sos.app.saving.library import GameRecord, Library, MemoryStore, dump_game, load_game
from sos.notation import Action
from sos.rules import Rules

SIMPLE3 = Rules.square(3, "simple")
A = Action.parse


def session(seats: tuple[str, ...] = ("human", "easy")) -> GameSession:
    return GameSession(GameRecord("g1", SIMPLE3, seats))


def test_a_finished_game_keeps_its_result_through_undo_redo_and_review() -> None:
    game = session()
    for text in ("S@a1", "O@b1"):
        game.play(A(text))
    assert RESULT_KEY not in game.to_record().extra  # still going: nothing counted
    assert counted_result(game.to_record()) is None
    game.play(A("S@c1"))  # S-O-S: the human (seat 0) wins the simple game
    saved = game.to_record()
    assert saved.extra[RESULT_KEY] == {"v": 1, "result": "win", "moves": 3}
    game.record = saved  # as the page does after a save
    game.undo()
    assert counted_result(game.to_record()) == ("easy", 3, "win")
    game.go_to(0)  # the review / the move list at the start
    assert counted_result(game.to_record()) == ("easy", 3, "win")
    game.redo()
    assert counted_result(game.to_record()) == ("easy", 3, "win")


def test_a_takeback_that_ends_differently_never_rewrites_the_result() -> None:
    game = session(("human", "hard"))
    for text in ("S@a1", "O@b1", "S@c1"):
        game.play(A(text))
    game.record = game.to_record()  # saved once, ended: a win
    game.go_to(1)  # back to after S@a1: the computer's O@b1 is undone
    for text in ("S@c3", "O@b1", "S@c1"):  # now the computer (seat 1) completes S-O-S
        game.play(A(text))
    assert game.state.outcome() is not None and game.state.outcome().winner == 1  # type: ignore[union-attr]
    assert line_result(game.to_record()) == "loss"  # the new line ends in a loss ...
    assert counted_result(game.to_record()) == ("hard", 3, "win")  # ... the record keeps the win
    assert len(tally([game.to_record()])) == 1 and tally([game.to_record()])[0].games == 1


def test_the_result_survives_a_save_and_reload() -> None:
    game = session()
    for text in ("S@a1", "O@b1", "S@c1"):
        game.play(A(text))
    library = Library(MemoryStore(), lambda: 1.0, iter(["id1", "id2"]).__next__)
    written = library.create(game.to_record())
    back = load_game(dump_game(written))
    assert stored_result(back) == "win"
    game = GameSession(back)
    game.undo()
    saved = library.save(game.to_record()).record
    assert saved.cursor == 2 and counted_result(saved) == ("easy", 3, "win")


def test_old_saves_without_the_entry_count_by_the_end_of_their_line() -> None:
    line = tuple(A(t) for t in ("S@a1", "O@b1", "S@c1"))
    old = GameRecord("g", SIMPLE3, ("easy", "human"), line, 1)  # saved undone, no entry
    assert stored_result(old) is None
    assert counted_result(old) == ("easy", 3, "loss")  # seat 0 (the computer) won
    assert stored_result(stamp(old)) == "loss"  # the next save keeps it
    unfinished = GameRecord("g", SIMPLE3, ("human", "easy"), line[:2], 2)
    assert stamp(unfinished) is unfinished and counted_result(unfinished) is None


def test_entries_this_version_cannot_read_are_kept_as_they_are() -> None:
    line = tuple(A(t) for t in ("S@a1", "O@b1", "S@c1"))
    newer = GameRecord("g", SIMPLE3, ("human", "easy"), line, 3,
                       extra={RESULT_KEY: {"v": 2, "outcome": "resigned"}})
    assert stamp(newer) is newer  # never written over
    assert counted_result(newer) == ("easy", 3, "win")  # counted by the end of its line
    damaged = GameRecord("g", SIMPLE3, ("human", "easy"), line, 3,
                         extra={RESULT_KEY: {"v": 1, "result": "best"}})
    assert stored_result(damaged) is None
    assert json.loads(dump_game(stamp(damaged)))["extra"][RESULT_KEY]["result"] == "best"


def test_games_that_do_not_count_get_no_entry() -> None:
    for seats in (("human", "human"), ("easy", "hard")):
        game = session(seats)
        for text in ("S@a1", "O@b1", "S@c1"):
            game.play(A(text))
        assert RESULT_KEY not in game.to_record().extra
        assert counted_result(game.to_record()) is None


def test_a_merge_of_two_tabs_keeps_the_result_the_other_tab_saved() -> None:
    """Tab one finished the game (result kept); tab two, which held the same moves and then
    played a variation from an earlier position, writes over it: the result stays."""
    library = Library(MemoryStore(), lambda: 1.0, iter(["id1", "id2"]).__next__)
    one = session()
    for text in ("S@a1", "O@b1"):
        one.play(A(text))
    stored = library.create(one.to_record())
    two = GameSession(stored)
    one.record = stored
    one.play(A("S@c1"))  # the end: a win, saved by tab one
    one.record = library.save(one.to_record()).record
    assert stored_result(one.record) == "win"
    two.play(A("S@c1"))  # tab two: the same end, and then takes it back
    two.go_to(2)
    two.play(A("O@c3"))  # a new line from move 2; the ended line stays a variation
    mine = two.to_record()
    assert RESULT_KEY not in mine.extra  # its line has not ended; it never saved the end
    result = library.save(mine)
    assert result.status == "merged" and stored_result(result.record) == "win"
